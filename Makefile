# The two quick-start commands: `make play` and `make test`. Each creates .venv on first use
# and reinstalls when pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test lint bench clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "hollywood-gin needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.play-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[play]'
	@touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@ $(VENV)/.play-installed

play: $(VENV)/.play-installed
	$(BIN)/hollywood-gin play

lint: $(VENV)/.test-installed
	$(BIN)/python -m ruff check src tests benchmarks
	$(BIN)/python -m mypy

# The web tests need Debian's Chromium and a PostgreSQL server, the deployment tests nginx,
# Caddy and systemd-analyze; .ci/browser.sh, .ci/deploy.sh and .ci/postgres.sh install them
# when missing (with apt-get, as root) and start PostgreSQL.
test: lint
	bash .ci/browser.sh >/dev/null
	bash .ci/deploy.sh
	eval "$$(bash .ci/postgres.sh)" && $(BIN)/python -m pytest -n 2 --dist loadfile

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
