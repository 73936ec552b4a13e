#!/usr/bin/env bash
# Install and start a local Redis for the web tests of `serve --bus redis://...`, and print
# the line to export:
#   eval "$(bash .ci/redis.sh)"
# Everything else goes to stderr. Safe to run again: a server already answering on the port
# is reused. Loopback only, nothing saved to disk (pub/sub keeps nothing anyway).
set -euo pipefail
PORT=${HG_REDIS_PORT:-6379}
{
  if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; then
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server
    fi
  fi
  if ! redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null | grep -q PONG; then
    DIR=${TMPDIR:-/tmp}/hollywood-gin-redis-$PORT
    mkdir -p "$DIR"
    redis-server --bind 127.0.0.1 --port "$PORT" --daemonize yes --dir "$DIR" \
      --save '' --appendonly no --logfile "$DIR/redis.log" --pidfile "$DIR/redis.pid"
    for _ in $(seq 1 30); do
      redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null | grep -q PONG && break
      sleep 0.2
    done
    redis-cli -h 127.0.0.1 -p "$PORT" ping | grep -q PONG
  fi
} >&2
echo "export HOLLYWOOD_GIN_TEST_REDIS=redis://127.0.0.1:$PORT/0"
