#!/usr/bin/env bash
# Prove a dump restores: load it into the scratch database $HG_RESTORE_CHECK_DB (a database
# of its own, owned by the app's role: `createdb -O hollywood_gin hollywood_gin_restore_check`;
# everything in it is replaced), then check the schema is this release's and that every
# saved match replays through the engine (`hollywood-gin db check`).
#   deploy/restore-check.sh [DUMP]      (default: the newest dump in $HG_BACKUP_DIR)
# Exit 0 and a one-line summary when the dump is good.
set -euo pipefail
: "${HG_RESTORE_CHECK_DB:?HG_RESTORE_CHECK_DB must name the scratch database URL}"
dir=${HG_BACKUP_DIR:-/var/backups/hollywood-gin}
dump=${1:-$(ls -1t "$dir"/hollywood-gin-*.dump 2>/dev/null | head -1)}
[ -n "$dump" ] && [ -f "$dump" ] || { echo "restore-check: no dump found in $dir" >&2; exit 1; }
here=$(dirname "$0")
hg=${HOLLYWOOD_GIN:-hollywood-gin}
(
  eval "$("$here/pgenv.py" "$HG_RESTORE_CHECK_DB")"
  # Empty it: everything the role owns there goes (on PostgreSQL 15 that includes the
  # schema public, which the database's owner owns), then the schema is back.
  psql --quiet --no-psqlrc -v ON_ERROR_STOP=1 \
    -c "DROP OWNED BY CURRENT_USER" -c "CREATE SCHEMA IF NOT EXISTS public" >/dev/null
  pg_restore --no-owner --no-privileges --exit-on-error --dbname="$PGDATABASE" "$dump"
)
"$hg" db current --check --db "$HG_RESTORE_CHECK_DB"
"$hg" db check --db "$HG_RESTORE_CHECK_DB"
echo "restore-check: $dump restores and replays"
