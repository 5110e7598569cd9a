#!/usr/bin/env bash
# `make faults`: the fault tests (tests/faults, docs/testing.md). Each run starts its own deployment: a private
# PostgreSQL cluster (initdb in a temp dir, its own port) and Redis server, two gunicorns and two uvicorns behind one
# Caddy (docker/Caddyfile, as docker/compose.yml), two Celery workers and one beat; it runs the journey through the
# proxy, kills a gunicorn, a uvicorn and workers mid-game, restarts Redis and PostgreSQL, and removes everything.
# The shared PostgreSQL (:5432) and Redis (:6379) are never touched. Installs nothing beyond bootstrap.
# Each test prints one line of figures (outage lengths, redelivery time). Extra args go to pytest,
# e.g. `./scripts/faults.sh -k redis`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh

if [ -z "${CLAIM_FAULTS_PG_BIN:-}" ]; then
  CLAIM_FAULTS_PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
fi
if [ -z "$CLAIM_FAULTS_PG_BIN" ] || [ ! -x "$CLAIM_FAULTS_PG_BIN/initdb" ]; then
  echo "error: PostgreSQL's server binaries (initdb, postgres) were not found; install postgresql or set" \
    "CLAIM_FAULTS_PG_BIN=/path/to/bin" >&2
  exit 1
fi
command -v redis-server >/dev/null || { echo "error: redis-server not found (install redis-server)" >&2; exit 1; }
[ -x "${CADDY_PATH:-/usr/bin/caddy}" ] || { echo "error: caddy not found (install caddy, or set CADDY_PATH)" >&2; exit 1; }
if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
  echo "error: running as root, but there is no 'postgres' user to own the private cluster" >&2; exit 1
fi
export CLAIM_FAULTS_PG_BIN

started=$SECONDS
rc=0
.venv/bin/pytest -m faults -rs -s tests/faults "$@" || rc=$?
echo "==> fault tests done in $((SECONDS - started)) s (exit $rc)"
exit $rc
