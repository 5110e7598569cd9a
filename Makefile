# The README's commands. `make run`: the whole app on embedded defaults. `make test`: the suite
# against real PostgreSQL and Redis (what CI runs).
.PHONY: run test stress bench lint

run:
	./scripts/run.sh

test:
	./scripts/test.sh

stress:
	./scripts/stress.sh

lint:
	.venv/bin/ruff check .

bench:
	.venv/bin/python bench/engine.py
