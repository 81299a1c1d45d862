# `make test` and `make dev` work on a fresh machine: the virtual environment is built from this
# project's own files the first time and again whenever pyproject.toml changes.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: test lint typecheck unit chromium browser sam-check iac-check asyncapi-check openapi alarms dev bench clean

$(STAMP): pyproject.toml
	rm -rf $(VENV)
	$$(scripts/find-python) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,service,local]'
	touch $@

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(STAMP)
	$(VENV)/bin/mypy

unit: $(STAMP) chromium
	$(VENV)/bin/pytest

# Debian's Chromium for the browser tests (tests/e2e/browser), installed when missing as root;
# not root: a note, and those tests skip (under CI=true they fail).
chromium:
	scripts/ensure-chromium

# The browser tests alone.
browser: $(STAMP) chromium
	$(VENV)/bin/pytest tests/e2e/browser

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

test: lint typecheck unit sam-check iac-check asyncapi-check

dev: $(STAMP)
	$(PY) -m devstack

bench: $(STAMP)
	$(PY) bench/engine_bench.py
	$(PY) bench/dice_bench.py
	$(PY) bench/replay_bench.py
	$(PY) bench/service_bench.py
	$(PY) bench/economy_bench.py
	$(PY) bench/results_bench.py
	$(PY) bench/progression_bench.py
	$(PY) bench/game_types_bench.py
	$(PY) bench/solver_bench.py --stored --grids classic yacht generala
	$(PY) bench/bots_bench.py
	$(PY) bench/web_client_bench.py
	$(PY) bench/load_test.py

clean:
	rm -rf $(VENV) .venv-sam .venv-checkov .cache .aws-sam .pytest_cache .mypy_cache .ruff_cache .hypothesis
