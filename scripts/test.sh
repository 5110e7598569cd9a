#!/usr/bin/env bash
# One command, fresh machine: install everything, start PostgreSQL and Redis if needed, then run
# ruff and the whole test suite against the real services. Extra args go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
./scripts/services.sh

# The end-to-end tests drive Debian's Chromium through Playwright (browser downloads don't work on our
# machines); the served journey puts Debian's Caddy in front of gunicorn and uvicorn (docker/Caddyfile).
# Install them when missing and we may (root with apt).
for pkg in chromium caddy; do
  if [ ! -x "/usr/bin/$pkg" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      echo "==> installing Debian's $pkg for the end-to-end tests"
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null) \
        || echo "warning: could not install $pkg; end-to-end tests that need it will not run" >&2
    else
      echo "warning: /usr/bin/$pkg is missing (apt-get install $pkg); end-to-end tests that need it will not run" >&2
    fi
  fi
done

export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/claim}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
export CLAIM_TESTING=1
export SECRET_KEY=${SECRET_KEY:-test-only-secret-key-not-for-production-use-0123456789}
unset CLAIM_EMBEDDED || true
# bootstrap.sh compiled the engine (games/rules/native.py): the suite runs it (tests/rules/test_native_build.py).
export CLAIM_ENGINE=compiled

echo "==> ruff"
.venv/bin/ruff check .
echo "==> import contracts (import-linter: layers, no cycles; pyproject.toml [tool.importlinter])"
.venv/bin/lint-imports --no-cache
# import-linter's no-cycle contract compares sibling packages; this also sees a module importing its own
# package's __init__ (function-level imports included).
.venv/bin/python scripts/import_cycles.py games accounts claim
echo "==> types (mypy; scripts/typecheck.sh)"
./scripts/typecheck.sh
if [ -f frontend/package.json ]; then
  echo "==> PWA API types match the OpenAPI schema (scripts/gen_api_types.py)"
  .venv/bin/python scripts/gen_api_types.py --check
  echo "==> PWA unit tests (vitest)"
  (cd frontend && npm test --silent && npm run --silent typecheck)
fi
echo "==> pytest on two workers (pytest-xdist; each its own test database and Redis database: claim/settings_test.py)"
.venv/bin/pytest -m "not slow" -n 2 --dist loadfile --durations=40 "$@"
