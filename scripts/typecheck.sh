#!/usr/bin/env bash
# mypy as CI runs it (configuration: pyproject.toml [tool.mypy]); any error fails.
#  1. games.rules, games.ai and games.tournaments.core under mypy --strict's flags.
#  2. the whole project (claim, games, accounts) at the default level with Django's and DRF's plugins.
set -euo pipefail
cd "$(dirname "$0")/.."
export CLAIM_TESTING=1  # the Django plugin loads claim.settings_test

echo "==> mypy (strict): games/rules games/ai games/tournaments/core"
.venv/bin/mypy --no-warn-unused-configs games/rules games/ai games/tournaments/core

echo "==> mypy (default): claim games accounts"
.venv/bin/mypy
