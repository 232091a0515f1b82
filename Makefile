# One entry point for chores. The README's two Quick start commands do not need make.
PY := .venv/bin/python
KB := .venv/bin/kb

.PHONY: install test test-unit lint format build serve bench bench-public clean

install:
	python3.11 -m venv .venv && .venv/bin/pip install -q -e '.[test]'

test:
	$(PY) -m pytest

# The unit tier on two workers, a test file each (about 90 s here, 145 s on one): run it on
# every change; `make test` adds the system tier, in one process.
test-unit:
	$(PY) -m pytest -m "not system" -n 2 --dist loadfile

lint:
	.venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy

format:
	.venv/bin/ruff format . && .venv/bin/ruff check --fix .

build:
	$(KB) build

serve: build
	$(KB) serve

bench:
	$(PY) bench/verdicts.py && $(PY) bench/ask_quality.py && $(PY) bench/ask_speed.py && $(PY) bench/align_quality.py && $(PY) bench/load_check.py

# Issue 14's trials: hostile input, fuzz, kill -9, replicas (HAProxy: scripts/install-haproxy.sh).
bench-public:
	$(PY) bench/abuse.py && $(PY) bench/fuzz.py && $(PY) bench/kill9.py && $(PY) bench/replicas.py

clean:
	rm -f kb.sqlite && rm -rf .pytest_cache test-artifacts
