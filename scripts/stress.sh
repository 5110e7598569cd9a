#!/usr/bin/env bash
# `make stress`: the long hardening runs that do not fit in CI (docs/testing.md).
#   * the slow-marked tests (pytest -m slow), e.g. fault tests against a multi-process deployment;
#   * the deep schemathesis run (CLAIM_FUZZ_EXAMPLES, default 200 examples per operation);
#   * the hidden-card spy over CLAIM_LEAK_GAMES complete games per kind (default 1,000: hours, see docs).
# Uses its own database and Redis db by default so it can run next to `make test`.
# Extra args go to every pytest run, e.g. `./scripts/stress.sh -x`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
./scripts/services.sh

export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/claim_stress}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/13}
export CLAIM_TESTING=1
export CLAIM_STRESS=1
export SECRET_KEY=${SECRET_KEY:-test-only-secret-key-not-for-production-use-0123456789}
unset CLAIM_EMBEDDED || true

run() {
  local started=$SECONDS
  echo "==> $1"
  shift
  local rc=0
  .venv/bin/pytest "$@" || rc=$?
  echo "==> done in $((SECONDS - started)) s (exit $rc)"
  return $rc
}

status=0
rc=0
run "slow tests (-m slow)" -m slow -rs tests/ "$@" || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 5 ] || status=1  # 5: no slow test collected
run "schemathesis, ${CLAIM_FUZZ_EXAMPLES:-200} examples per operation" \
  tests/hardening/test_schemathesis.py "$@" || status=1
run "hidden-card spy, ${CLAIM_LEAK_GAMES:-1000} games per kind" -s \
  tests/hardening/test_hidden_leak.py "$@" || status=1
exit $status
