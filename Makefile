# The README's commands. `make run`: the whole app on embedded defaults. `make test`: the suite
# against real PostgreSQL and Redis (what CI runs).
.PHONY: run test stress faults bench scale lint lighthouse typecheck engine engine-clean

run:
	./scripts/run.sh

test:
	./scripts/test.sh

stress:
	./scripts/stress.sh

faults:
	./scripts/faults.sh

lint:
	.venv/bin/ruff check .
	.venv/bin/lint-imports --no-cache
	.venv/bin/python scripts/import_cycles.py games accounts claim

# The rules engine compiled by mypyc (games/rules/native.py); bootstrap runs it. engine-clean: the pure sources run.
engine:
	.venv/bin/python scripts/build_engine.py

engine-clean:
	.venv/bin/python scripts/build_engine.py --clean

bench:
	.venv/bin/python bench/engine.py

# Cost as the data grows (issue 38; docs/performance.md): seeds claim_scale_<size> once (minutes), then measures.
# Not part of `make test`.
scale:
	.venv/bin/python bench/scale.py --sizes 10k,100k

lighthouse:
	./scripts/lighthouse.sh

typecheck:
	./scripts/typecheck.sh
