#!/usr/bin/env bash
# Install and start a local PostgreSQL for the web tests, and print the line to export:
#   eval "$(bash .ci/postgres.sh)"
# Everything else goes to stderr. Safe to run again: it reuses the cluster, role and database.
set -euo pipefail
PGUSER_NAME=${HG_PG_USER:-hollywood}
PGPASS=${HG_PG_PASSWORD:-hollywood}
PGDB=${HG_PG_DB:-hollywood_gin_test}
{
  if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
  fi
  VERSION=$(ls /usr/lib/postgresql | sort -V | tail -1)
  if ! pg_lsclusters -h | grep -q "^$VERSION main"; then
    pg_createcluster "$VERSION" main
  fi
  if ! pg_lsclusters -h | grep -q "^$VERSION main .* online"; then
    if ! pg_ctlcluster "$VERSION" main start; then
      # A server killed outright (as at the end of a session) can leave its socket lock
      # behind; with no postgres process left, it is stale.
      sleep 2
      if ! pgrep -x postgres >/dev/null; then
        rm -f /var/run/postgresql/.s.PGSQL.*.lock /var/lib/postgresql/"$VERSION"/main/postmaster.pid
      fi
      pg_ctlcluster "$VERSION" main start
    fi
  fi
  PORT=$(pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main" {print $3}')
  for _ in $(seq 1 30); do
    su postgres -c "pg_isready -q -h 127.0.0.1 -p $PORT" && break
    sleep 1
  done
  su postgres -c "psql -p $PORT -v ON_ERROR_STOP=1 -q" <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PGUSER_NAME') THEN
    CREATE ROLE $PGUSER_NAME LOGIN PASSWORD '$PGPASS';
  END IF;
END \$\$;
SQL
  if ! su postgres -c "psql -p $PORT -tAc \"SELECT 1 FROM pg_database WHERE datname = '$PGDB'\"" \
      | grep -q 1; then
    su postgres -c "createdb -p $PORT -O $PGUSER_NAME $PGDB"
  fi
} >&2
echo "export HOLLYWOOD_GIN_TEST_PG=postgresql+psycopg://$PGUSER_NAME:$PGPASS@127.0.0.1:$PORT/$PGDB"
