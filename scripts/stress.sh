#!/usr/bin/env bash
# `make stress`: the long hardening runs that do not fit in CI (docs/testing.md).
#   * the slow-marked tests (pytest -m slow), e.g. the fault tests against a multi-process deployment;
#   * the deep schemathesis run (CLAIM_FUZZ_EXAMPLES, default 200 examples per operation);
#   * the hidden-card spy over CLAIM_LEAK_GAMES complete games per kind (default 1,000: hours, see docs),
#     split over STRESS_JOBS parallel pytest processes (default 4), each with its own test database.
# Uses its own databases and Redis db by default so it can run next to `make test`.
# Extra args go to every pytest run, e.g. `./scripts/stress.sh -x`.
# STRESS_PARTS (default "slow fuzz spy") picks the parts; CLAIM_LEAK_KINDS (comma-separated labels of
# tests/hardening/test_hidden_leak.py, default all) picks the spy's kinds.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
./scripts/services.sh

export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/claim_stress}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/13}
export CLAIM_TESTING=1
export CLAIM_STRESS=1
export LOG_LEVEL=${LOG_LEVEL:-WARNING}  # an INFO line per request and task costs CPU over thousands of games
export SECRET_KEY=${SECRET_KEY:-test-only-secret-key-not-for-production-use-0123456789}
unset CLAIM_EMBEDDED || true

PARTS=${STRESS_PARTS:-slow fuzz spy}
JOBS=${STRESS_JOBS:-4}
GAMES=${CLAIM_LEAK_GAMES:-1000}
KINDS=${CLAIM_LEAK_KINDS:-claim,claim2,claim-mix,claim-mix-3,claim-mix-4,inheritors,inheritors-3,inheritors-4}
LOGS=${STRESS_LOGS:-var/stress}
mkdir -p "$LOGS"

run() {
  local started=$SECONDS
  echo "==> $1"
  shift
  local rc=0
  .venv/bin/pytest "$@" || rc=$?
  echo "==> done in $((SECONDS - started)) s (exit $rc)"
  return $rc
}

# One kind of the spy: GAMES games in JOBS shards (game numbers OFFSET.. of each shard are disjoint), each shard
# a pytest process with its own database (pytest-django creates test_<name>_s<N>), log $LOGS/spy-<kind>.s<N>.log.
# Prints one summary line, counted from the per-game lines (so it also counts an interrupted run's games).
spy_kind() {
  local kind=$1 started=$SECONDS pids=() rc=0 shard per offset=0 n
  rm -f "$LOGS"/spy-"$kind".s*.log
  per=$(( (GAMES + JOBS - 1) / JOBS ))
  for ((shard = 0; shard < JOBS && offset < GAMES; shard++)); do
    n=$(( GAMES - offset < per ? GAMES - offset : per ))
    DATABASE_URL="${DATABASE_URL}_s${shard}" CLAIM_LEAK_KINDS=$kind CLAIM_LEAK_GAMES=$n CLAIM_LEAK_OFFSET=$offset \
      .venv/bin/pytest -s tests/hardening/test_hidden_leak.py "${EXTRA[@]}" \
      >"$LOGS/spy-$kind.s$shard.log" 2>&1 &
    pids+=($!)
    offset=$(( offset + n ))
  done
  for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
  local lines games checked failed
  # one "leak spy game <kind> #<n>: clean, <k> bodies/messages checked" line per finished game
  lines=$(cat "$LOGS"/spy-"$kind".s*.log | grep "^leak spy game $kind #" || true)
  games=$(printf '%s' "$lines" | grep -c . || true)
  checked=$(printf '%s\n' "$lines" | awk '{s += $7} END {print s + 0}')
  failed=$(grep -lE "^(FAILED|ERROR)|AssertionError" "$LOGS"/spy-"$kind".s*.log | tr '\n' ' ' || true)
  echo "==> spy $kind: $games of $GAMES games clean, $checked bodies/messages checked, $((SECONDS - started)) s," \
    "$JOBS processes${failed:+; FAILED, see $failed}"
  return $rc
}

EXTRA=("$@")
status=0
for part in $PARTS; do
  case $part in
    slow)
      rc=0
      run "slow tests (-m slow)" -m slow -rs tests/ "$@" || rc=$?
      [ $rc -eq 0 ] || [ $rc -eq 5 ] || status=1  # 5: no slow test collected
      ;;
    fuzz)
      run "schemathesis, ${CLAIM_FUZZ_EXAMPLES:-200} examples per operation" \
        tests/hardening/test_schemathesis.py "$@" || status=1
      ;;
    spy)
      echo "==> hidden-card spy, $GAMES games per kind ($KINDS), $JOBS processes, logs in $LOGS/"
      for kind in ${KINDS//,/ }; do
        spy_kind "$kind" || status=1
      done
      ;;
    *) echo "error: unknown STRESS_PARTS entry $part (slow, fuzz, spy)" >&2; exit 2 ;;
  esac
done
exit $status
