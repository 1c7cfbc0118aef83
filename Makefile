# flipwell: the two commands a newcomer needs are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit test-postgres test-browser chaos mutate bench bench-scale clean

# One install step, redone whenever the pinned dependencies or the package metadata change.
$(STAMP): pyproject.toml requirements-dev.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements-dev.lock
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

# `make run`: the league night as production serves it: `flipwell serve` (gunicorn, DEBUG off,
# static files collected and hashed) on SQLite in $(RUN_DATA)/, the demo league loaded when the
# database has no league. The secret key is generated into $(RUN_DATA)/secret_key (mode 0600,
# never in the repository) on first run and reused. The demo official's login is kept in
# $(RUN_DATA)/demo-login.txt (mode 0600) and printed on every run. Until an account of your own
# may open leagues, it says how to make one (createofficial).
# By default only this machine reaches it (127.0.0.1). `make run HOST=0.0.0.0` serves the
# venue's network and prints the address (LAN) that phones, and so the printed sheets' QR
# codes, use; ALLOWED_HOSTS and FLIPWELL_SITE_URL are set to it (flipwell.venue), so a
# request naming another host or port is refused.
# `make dev`: Django's auto-reloading server with DEBUG on, for a developer, on the same
# database; 127.0.0.1 only (a DEBUG page shows tracebacks, settings and every URL).
RUN_DATA ?= var
HOST ?= 127.0.0.1
PORT ?= 8000
RUN_ENV = env FLIPWELL_DATA_DIR=$(RUN_DATA) $$($(BIN)/python -m flipwell.venue env $(HOST) $(PORT))
DEV_ENV = env DEBUG=1 FLIPWELL_DATA_DIR=$(RUN_DATA) FLIPWELL_SITE_URL=http://127.0.0.1:$(PORT)
# The database set up and the demo league loaded (once), its login printed; $(1): the settings.
define RUN_SETUP
	@$(1) $(BIN)/flipwell migrate --verbosity 0
	@if $(1) $(BIN)/python manage.py shell --no-imports -c "import sys; \
	    from flipwell.league.models import League; sys.exit(League.objects.exists())"; then \
	  umask 077; \
	  out=$$($(1) $(BIN)/flipwell demo) || { echo "$$out"; exit 1; }; \
	  echo "$$out" | sed -n 's/^  \(username\|password\): /\1: /p' > $(RUN_DATA)/demo-login.txt; \
	  echo "$$out" | head -n 3; \
	fi
	@echo
	@if [ -f $(RUN_DATA)/demo-login.txt ]; then \
	  echo "Demo league official's login (kept in $(RUN_DATA)/demo-login.txt):"; \
	  sed 's/^/  /' $(RUN_DATA)/demo-login.txt; \
	else \
	  echo "The database already had a league: no demo league was made."; \
	fi
	@if ! $(1) $(BIN)/python manage.py shell --no-imports -c "import sys; \
	    from flipwell.league.selectors.setup import league_openers; \
	    sys.exit(0 if league_openers(besides='demo') else 1)"; then \
	  echo; \
	  echo "To run your own league, create its official (asks for a password), then sign in"; \
	  echo "and press \"Open a new league\":"; \
	  echo "  FLIPWELL_DATA_DIR=$(RUN_DATA) FLIPWELL_SITE_URL=$$($(1) printenv FLIPWELL_SITE_URL) $(BIN)/flipwell createofficial YOURNAME"; \
	fi
	@echo
endef
run: $(STAMP)
	$(call RUN_SETUP,$(RUN_ENV))
	@$(BIN)/python -m flipwell.venue banner $(HOST) $(PORT)
	@echo
	@$(RUN_ENV) $(BIN)/flipwell serve --bind $(HOST):$(PORT)

.PHONY: dev
dev: $(STAMP)
	@$(BIN)/python -m flipwell.venue dev $(HOST)
	$(call RUN_SETUP,$(DEV_ENV))
	@echo "Development server (DEBUG on, reloads on every change): http://127.0.0.1:$(PORT)/"
	@$(DEV_ENV) $(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

# Bytecode is written (to each folder's __pycache__/, git-ignored) even where the environment
# sets PYTHONDONTWRITEBYTECODE, as these machines do: a test run starts many Python processes
# (each pass's workers, the servers and commands the tests start), and without it each one
# compiled the sources and rewrote the tests' asserts again (about 6 s of each worker's start).
unexport PYTHONDONTWRITEBYTECODE

# Each pass runs on every core (pytest-xdist; each worker has its own test database, its own
# live server and browser). TEST_WORKERS=0 runs a pass in one process, e.g. to read a failure.
# Work stealing: a worker that runs out takes tests queued for another, so a few long tests
# (the stateful nights, the crawls) do not leave one core idle at the end of a pass. Each pass
# ends with its 25 slowest tests, to see where the time goes.
TEST_WORKERS ?= auto
PYTEST = $(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal --durations=25

unit: $(STAMP)
	$(PYTEST) --ignore=tests/browser
	@$(MAKE) --no-print-directory test-postgres
	@$(MAKE) --no-print-directory test-browser

# The Django tests again on PostgreSQL (pytest-django creates and drops test_<name> itself).
# Without a reachable server this says so loudly and skips on a developer's machine; under CI
# (CI set, and not "false" or "0") it fails: a green CI run has been on both databases.
# tests/chaos runs a real gunicorn on a copy of the test database (concurrency, crash test).
POSTGRES_TEST_URL ?= postgres://postgres@127.0.0.1:5432/flipwell_test
DJANGO_TEST_DIRS := tests/league tests/web tests/api tests/chaos
POSTGRES_UP := $(BIN)/python -c "import sys, psycopg; from urllib.parse import urlsplit; \
	psycopg.connect(urlsplit(sys.argv[1])._replace(path='/postgres').geturl(), \
	connect_timeout=5).close()" "$(POSTGRES_TEST_URL)" 2>/dev/null
define POSTGRES_SKIPPED
  echo "**********************************************************************"; \
  echo "SKIPPED: PostgreSQL not reachable at $(POSTGRES_TEST_URL)"; \
  echo "$(1) ran on SQLite only. Start PostgreSQL or set POSTGRES_TEST_URL."; \
  echo "**********************************************************************"
endef
test-postgres: $(STAMP)
	@if $(POSTGRES_UP); then \
	  echo "Django tests on PostgreSQL ($(POSTGRES_TEST_URL)):"; \
	  DATABASE_URL="$(POSTGRES_TEST_URL)" $(PYTEST) $(DJANGO_TEST_DIRS); \
	else \
	  case "$${CI:-}" in \
	    ""|false|0) $(call POSTGRES_SKIPPED,The Django tests);; \
	    *) echo "FAILED: PostgreSQL not reachable at $(POSTGRES_TEST_URL), and under CI" \
	         "(CI=$$CI) the Django tests must run on it: start it or set POSTGRES_TEST_URL."; \
	       exit 1;; \
	  esac; \
	fi

# `make chaos`: the crash test's long form (200 concurrent score submissions to gunicorn,
# SIGKILLed several times), the concurrency tests and the stateful night's long form (50
# nights of 60 steps, every surface read against the fold after each, a failing night shrunk),
# on SQLite, then on PostgreSQL. `make test` runs the short forms (40 submissions, one kill;
# 8 derandomized nights of 30 steps, not shrunk) on both. `make chaos` also runs the random
# search of the Hypothesis tests and of the API's schemathesis run (tests/conftest.py's profile
# `chaos`); `make test` runs them derandomized (profile `test`: the same examples every run).
HYPOTHESIS_TESTS := tests/rules tests/api/test_points.py tests/api/test_schema.py \
	tests/web/test_season_state_machine.py
CHAOS_TESTS := tests/chaos tests/league/test_night_state_machine.py $(HYPOTHESIS_TESTS)
chaos: $(STAMP)
	FLIPWELL_CHAOS=long $(BIN)/pytest $(CHAOS_TESTS)
	@if $(POSTGRES_UP); then \
	  echo "The concurrency and crash tests on PostgreSQL ($(POSTGRES_TEST_URL)):"; \
	  FLIPWELL_CHAOS=long DATABASE_URL="$(POSTGRES_TEST_URL)" $(BIN)/pytest $(CHAOS_TESTS); \
	else \
	  $(call POSTGRES_SKIPPED,The concurrency and crash tests); \
	fi

# Browser tests: Playwright drives Debian's chromium (/usr/bin/chromium, installed by
# scripts/install-browser.sh when missing; never a downloaded browser) against a live server.
# Screenshots of the main pages go to artifacts/screenshots/ (git-ignored).
test-browser: $(STAMP)
	sh scripts/install-browser.sh
	$(PYTEST) tests/browser

test: lint typecheck unit

# `make mutate` (issue 26 §6): mutation testing, too long for `make test`
# (scripts/mutate.py). Phase 1: each permission check of the services and the console is
# deleted in turn and the permission matrices run (scripts/mutate_permissions.py); a check
# they let live is run against the whole suite (every test but the browser's, -x, on
# MUTATE_WORKERS cores, default auto) before it is called a survivor. Phase 2, always, whatever
# phase 1 found: mutmut ([tool.mutmut] in pyproject.toml) mutates league/services and rules/,
# runs their tests against each mutant (its work is kept in mutants/; a second run tests only
# what changed). Both phases' survivors are printed at the end; the target fails when either
# has one. MUTMUT_ARGS narrows phase 2, e.g. MUTMUT_ARGS='flipwell.rules.match*'.
MUTMUT_ARGS ?=
mutate: $(STAMP)
	$(BIN)/python scripts/mutate.py $(MUTMUT_ARGS)

# `make bench`: benchmarks that print numbers, ratios and their goals; they never
# fail on a missed goal and are not part of `make test`. bench_http loads the pages with wrk
# (installed by scripts/install-wrk.sh when missing); bench_sse opens 500 live streams, times a
# confirmed score's delivery to them and loads the pages beside them; bench_night needs
# PostgreSQL (the server of $(POSTGRES_TEST_URL); its database flipwell_bench_night is reset
# on every run). bench_nights plays 20 league nights at once on `flipwell serve` with 2,000
# live streams, then searches for the most this machine holds within the goals (about half an
# hour; BENCH_NIGHTS_ROUNDS=1 plays one night, BENCH_NIGHTS_SECONDS shortens each); it needs
# PostgreSQL too (its database flipwell_bench_nights is reset on every run).
# `make bench-scale`: one league among 200 against a database of one; its two databases
# (flipwell_bench_one, flipwell_bench_scale) are generated once, in minutes, and kept.
BENCH_POSTGRES = $(dir $(POSTGRES_TEST_URL))
BENCH_SKIPPED = echo "SKIPPED $(1): PostgreSQL not reachable at $(POSTGRES_TEST_URL)"
bench: $(STAMP)
	$(BIN)/python bench/bench_rules.py
	$(BIN)/python bench/bench_ratings.py
	$(BIN)/python bench/bench_league.py
	sh scripts/install-wrk.sh
	$(BIN)/python bench/bench_http.py
	$(BIN)/python bench/bench_sse.py
	$(BIN)/python bench/bench_photos.py
	@if $(POSTGRES_UP); then \
	  BENCH_NIGHT_URL="$(BENCH_POSTGRES)flipwell_bench_night" $(BIN)/python bench/bench_night.py; \
	else \
	  $(call BENCH_SKIPPED,bench_night); \
	fi
	@if $(POSTGRES_UP); then \
	  BENCH_NIGHTS_URL="$(BENCH_POSTGRES)flipwell_bench_nights" $(BIN)/python bench/bench_nights.py; \
	else \
	  $(call BENCH_SKIPPED,bench_nights); \
	fi

bench-scale: $(STAMP)
	@if $(POSTGRES_UP); then \
	  BENCH_SCALE_URL="$(BENCH_POSTGRES)" $(BIN)/python bench/bench_scale.py; \
	else \
	  $(call BENCH_SKIPPED,bench_scale); \
	fi

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
