#!/usr/bin/env bash
# Installs everything the project needs into .venv (and the PWA's npm packages + build when
# frontend/package.json exists). Idempotent and quick when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if ! command -v "$PYTHON" >/dev/null; then
  echo "error: $PYTHON not found; install Python 3.11+ first" >&2; exit 1
fi
if [ ! -x .venv/bin/python ]; then
  echo "==> creating virtualenv .venv"
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.claim-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "==> installing Python dependencies"
  .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip 2>&1 | grep -v '^WARNING: Location' || true
  .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]' 2>&1 | grep -v '^WARNING: Location' || true
  .venv/bin/python -c "import django, rest_framework, channels, celery" || { echo "error: Python dependencies failed to install" >&2; exit 1; }
  echo "$want" > "$stamp"
fi
# The rules engine's hot modules compiled by mypyc (games/rules/native.py); quick when the build is current.
.venv/bin/python scripts/build_engine.py

if [ -f frontend/package.json ]; then
  if ! command -v npm >/dev/null; then
    echo "error: npm not found; install Node.js 20+ to build the PWA" >&2; exit 1
  fi
  fstamp=frontend/node_modules/.claim-installed
  fwant=$(cat frontend/package.json frontend/package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1)
  if [ ! -f "$fstamp" ] || [ "$(cat "$fstamp")" != "$fwant" ]; then
    echo "==> installing PWA dependencies (npm)"
    (cd frontend && { [ -f package-lock.json ] && npm ci --no-audit --no-fund || npm install --no-audit --no-fund; })
    echo "$fwant" > "$fstamp"
  fi
  echo "==> building the PWA"
  (cd frontend && npm run --silent build)
fi
