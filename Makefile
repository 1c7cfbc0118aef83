# flipwell: the two commands a newcomer needs are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit test-postgres bench clean

# One install step, redone whenever the pinned dependencies or the package metadata change.
$(STAMP): pyproject.toml requirements-dev.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements-dev.lock
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/flipwell standings tests/data/golden_season.json

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest
	@$(MAKE) --no-print-directory test-postgres

# The Django tests again on PostgreSQL (pytest-django creates and drops test_<name> itself).
# Without a reachable server this says so loudly and skips; it never passes silently.
POSTGRES_TEST_URL ?= postgres://postgres@127.0.0.1:5432/flipwell_test
DJANGO_TEST_DIRS := tests/league
test-postgres: $(STAMP)
	@if $(BIN)/python -c "import sys, psycopg; from urllib.parse import urlsplit; \
	    psycopg.connect(urlsplit(sys.argv[1])._replace(path='/postgres').geturl(), \
	    connect_timeout=5).close()" "$(POSTGRES_TEST_URL)" 2>/dev/null; then \
	  echo "Django tests on PostgreSQL ($(POSTGRES_TEST_URL)):"; \
	  DATABASE_URL="$(POSTGRES_TEST_URL)" $(BIN)/pytest $(DJANGO_TEST_DIRS); \
	else \
	  echo "**********************************************************************"; \
	  echo "SKIPPED: PostgreSQL not reachable at $(POSTGRES_TEST_URL)"; \
	  echo "The Django tests ran on SQLite only. Start PostgreSQL or set POSTGRES_TEST_URL."; \
	  echo "**********************************************************************"; \
	fi

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python bench/bench_rules.py
	$(BIN)/python bench/bench_league.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
