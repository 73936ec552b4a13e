#!/usr/bin/env bash
# Install Debian's Chromium for the Playwright browser tests (Playwright's own browser
# download cannot work here: never `playwright install`). Prints the executable's path.
set -euo pipefail
{
  if ! command -v chromium >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core
  fi
  chromium --version || true
} >&2
command -v chromium
