#!/usr/bin/env bash
# Install what the deployment tests check the recipe with (Debian packages): nginx, Caddy,
# openssl for a self-signed certificate, systemd-analyze, and the PostgreSQL client tools
# for backups. Installing nginx or Caddy starts no server here (no init system runs).
set -euo pipefail
{
  missing=()
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
  command -v caddy >/dev/null 2>&1 || missing+=(caddy)
  command -v openssl >/dev/null 2>&1 || missing+=(openssl)
  command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
  command -v pg_dump >/dev/null 2>&1 || missing+=(postgresql-client)
  if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
} >&2
