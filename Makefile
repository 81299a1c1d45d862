# `make test` and `make dev` work on a fresh machine: the virtual environment is built from this
# project's own files the first time and again whenever pyproject.toml changes.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: test test-steps venv lint typecheck pytest unit integration e2e browser chromium sam-check \
	iac-check asyncapi-check openapi alarms dev bench screenshots clean solver-tables catalogues

# pytest-xdist: as many workers as cores (`make unit PYTEST_WORKERS=0` runs in one process); a test
# goes with its file, the browser tests all in one worker (tests/conftest.py).
PYTEST_WORKERS ?= auto
PYTEST := $(VENV)/bin/pytest -n $(PYTEST_WORKERS) --dist loadfile --durations=10
# The coverage `make test` must reach (pytest-cov: shared/yamb, shared/yamb_service, functions,
# devstack): a few points under what the suite measures; see docs/decisions.md.
COVERAGE_FLOOR := 90

$(STAMP): pyproject.toml
	rm -rf $(VENV)
	$$(scripts/find-python) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,service,local]'
	touch $@

venv: $(STAMP)

# The optimal player's tables too large to commit (Scandinavian: 2.6 MB), solved once per
# checkout into .cache/solver (about 2 minutes on two cores): `make dev` and the domain layer's
# build (shared/Makefile) ship them. A table is rebuilt only when it is missing.
SOLVED_TABLES := .cache/solver/scandinavian.npz

.cache/solver/%.npz: | $(STAMP)
	$(VENV)/bin/yamb solve $*

solver-tables: $(SOLVED_TABLES)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# Every test (unit, integration, e2e, browser) with the coverage report and its floor, the ten
# slowest tests at the end.
pytest: $(STAMP) chromium
	$(PYTEST) --cov --cov-report=term --cov-fail-under=$(COVERAGE_FLOOR)

# One suite at a time: the rules and models; the service on moto; the local stack over real
# WebSockets (without the browser); the web client in Chromium against the local stack.
unit: $(STAMP)
	$(PYTEST) tests/unit

integration: $(STAMP)
	$(PYTEST) tests/integration

e2e: $(STAMP)
	$(PYTEST) tests/e2e --ignore=tests/e2e/browser

browser: $(STAMP) chromium
	$(PYTEST) tests/e2e/browser

# Screenshots of every screen of the web client (390 and 1280 px wide, light and dark) into
# The message catalogues (issue 29, docs/languages.md): the sources' sentences extracted, merged
# into every language's .po, compiled (.mo for the server, .json for the web client).
catalogues: $(STAMP)
	$(PY) -m yamb_tools.catalogues update

# docs/screenshots/screens/, on a local stack of its own: only when asked (a test run writes none).
screenshots: $(STAMP) chromium
	$(PY) -m tests.e2e.browser.screenshots

# Debian's Chromium for the browser tests (tests/e2e/browser), installed when missing as root;
# not root: a note, and those tests skip (under CI=true they fail).
chromium:
	scripts/ensure-chromium

# `sam validate --lint` and `sam build`, offline, with the SAM CLI in its own virtualenv.
sam-check:
	scripts/sam-check

# checkov on template.yaml and its SAM transform, offline, in its own virtualenv; the checks
# skipped by design are in .checkov.yaml with their reasons.
iac-check:
	scripts/iac-check

# docs/asyncapi.yaml against the official AsyncAPI 3.0.0 JSON schema (npm's @asyncapi/specs).
asyncapi-check: $(STAMP)
	scripts/asyncapi-check

# docs/openapi.yaml written again from the HTTP functions' route tables and models; the unit
# tests (tests/unit/test_openapi.py) fail when it drifts from them, from the official OpenAPI 3.1
# schema (openapi-spec-validator) or from the template's routes.
openapi: $(STAMP)
	$(PY) -m devstack.openapi > docs/openapi.yaml

# stacks/monitoring.yaml's alarms of every function written again from the template's functions and
# routes (devstack/alarms.py); tests/integration/test_template.py fails when they drift.
alarms: $(STAMP)
	$(PY) -m devstack.alarms

# What CI runs (.ci/run): every check, side by side (the SAM CLI's and checkov's virtualenvs are
# made while the project's is; the tests start once it and Chromium are there), each one's output
# in one piece when it ends, then how long each took.
test:
	@mkdir -p .cache && rm -f .cache/test-times
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory --jobs=8 --output-sync=target --keep-going test-steps; \
	status=$$?; \
	echo "make test: $$(( $$(date +%s) - start )) s in all, the steps side by side:"; \
	cat .cache/test-times; \
	exit $$status

test-steps: timed-lint timed-typecheck timed-pytest timed-sam-check timed-iac-check \
	timed-asyncapi-check
timed-lint timed-typecheck timed-pytest timed-asyncapi-check timed-sam-check: timed-venv
timed-pytest: timed-chromium
timed-%:
	@scripts/timed $* $(MAKE) --no-print-directory $*

dev: $(STAMP) $(SOLVED_TABLES)
	$(PY) -m devstack

bench: $(STAMP)
	$(PY) bench/engine_bench.py
	$(PY) bench/dice_bench.py
	$(PY) bench/replay_bench.py
	$(PY) bench/luck_bench.py
	$(PY) bench/service_bench.py
	$(PY) bench/economy_bench.py
	$(PY) bench/results_bench.py
	$(PY) bench/progression_bench.py
	$(PY) bench/clubs_bench.py
	$(PY) bench/game_types_bench.py
	$(PY) bench/solver_bench.py --stored --grids classic yacht generala
	$(PY) bench/bots_bench.py
	$(PY) bench/ratings_bench.py
	$(PY) bench/web_client_bench.py
	$(PY) bench/load_test.py
	$(PY) bench/general_chat_bench.py
	$(PY) bench/mail_bound.py
	$(PY) bench/soak.py --minutes 10

clean:
	rm -rf $(VENV) .venv-sam .venv-checkov .cache .aws-sam .pytest_cache .mypy_cache .ruff_cache .hypothesis
