#!/usr/bin/env bash
# Lighthouse (mobile preset) against the PWA served with the production settings: login page, inbox and
# a game table; prints the scores. Needs Node.js (npx fetches the pinned lighthouse once) and Chromium
# (CHROME_PATH, default /usr/bin/chromium). Arguments go to bench/lighthouse.py (--runs N, --check, --pages).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh >/dev/null
exec .venv/bin/python bench/lighthouse.py "$@"
