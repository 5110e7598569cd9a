#!/usr/bin/env bash
# One command, fresh machine: install everything, start PostgreSQL and Redis if needed, then run
# ruff and the whole test suite against the real services. Extra args go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
./scripts/services.sh

export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/claim}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
export CLAIM_TESTING=1
export SECRET_KEY=${SECRET_KEY:-test-only-secret-key-not-for-production-use-0123456789}
unset CLAIM_EMBEDDED || true

echo "==> ruff"
.venv/bin/ruff check .
echo "==> pytest (database: PostgreSQL, channel layer and broker: Redis)"
.venv/bin/pytest -m "not slow" "$@"
