#!/usr/bin/env python3
"""Print shell `export` lines setting libpq's PGHOST, PGPORT, PGUSER, PGPASSWORD and
PGDATABASE from a hollywood-gin database URL (postgresql+psycopg://USER:PASS@HOST:PORT/DB),
so that pg_dump, pg_restore and psql never carry the password on their command line."""

import shlex
import sys
from urllib.parse import unquote, urlsplit

url = urlsplit(sys.argv[1])
if not url.scheme.startswith("postgresql"):
    sys.exit(f"pgenv: not a PostgreSQL URL: {url.scheme}://...")
values = {"PGHOST": url.hostname, "PGPORT": url.port, "PGUSER": url.username,
          "PGPASSWORD": unquote(url.password) if url.password else None,
          "PGDATABASE": url.path.lstrip("/") or None}
for name, value in values.items():
    if value is not None:
        print(f"export {name}={shlex.quote(str(value))}")
