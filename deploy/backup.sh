#!/usr/bin/env bash
# Dump the hollywood-gin database (pg_dump's custom format: compressed, restorable table by
# table) into $HG_BACKUP_DIR, keep $HG_BACKUP_DAYS days of dumps, print the new dump's path.
# Run by hollywood-gin-backup.service (nightly, from its timer) with the environment file;
# by hand: `set -a; . /etc/hollywood-gin/hollywood-gin.env; set +a; deploy/backup.sh`.
set -euo pipefail
: "${HOLLYWOOD_GIN_DB:?HOLLYWOOD_GIN_DB must name the database}"
dir=${HG_BACKUP_DIR:-/var/backups/hollywood-gin}
days=${HG_BACKUP_DAYS:-14}
here=$(dirname "$0")
# The URL's parts go to libpq's environment, so the password is never on a command line.
eval "$("$here/pgenv.py" "$HOLLYWOOD_GIN_DB")"
mkdir -p "$dir"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
part="$dir/.hollywood-gin-$stamp.dump.part"
trap 'rm -f "$part"' EXIT
pg_dump --format=custom --no-owner --no-privileges --file="$part"
mv "$part" "$dir/hollywood-gin-$stamp.dump"
find "$dir" -maxdepth 1 -name 'hollywood-gin-*.dump' -mtime +"$days" -delete
echo "$dir/hollywood-gin-$stamp.dump"
