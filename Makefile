# The two quick-start commands: `make play` and `make test`. Each creates .venv on first use
# and reinstalls when pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test lint bench clean i18n

# What the install builds: the translations' .mo files and the optional C path. A change to
# them installs again, so that the tests never run a stale build.
BUILT_FROM := pyproject.toml setup.py $(wildcard src/hollywood_gin/_speedups_c/*.[ch]) \
  $(wildcard src/hollywood_gin/locale/*/LC_MESSAGES/*.po)

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "hollywood-gin needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.play-installed: $(BUILT_FROM) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[play]'
	@touch $@

$(VENV)/.test-installed: $(BUILT_FROM) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@ $(VENV)/.play-installed

play: $(VENV)/.play-installed
	$(BIN)/hollywood-gin play

lint: $(VENV)/.test-installed
	$(BIN)/python -m ruff check src tests benchmarks
	$(BIN)/python -m mypy

# The web tests need Debian's Chromium, a PostgreSQL server and a Redis server (serve --bus
# redis://), the deployment tests nginx, Caddy and systemd-analyze; .ci/browser.sh,
# .ci/deploy.sh, .ci/postgres.sh and .ci/redis.sh install them when missing (with apt-get,
# as root) and start PostgreSQL and Redis. Three workers on two cores: a third of the
# suite's time is spent waiting on browsers and servers in other processes, and a third
# worker fills it (on one 2-core machine 9:38 against 10:07 with two).
test: lint
	bash .ci/browser.sh >/dev/null
	bash .ci/deploy.sh
	eval "$$(bash .ci/postgres.sh)" && eval "$$(bash .ci/redis.sh)" && \
	  $(BIN)/python -m pytest -n 3 --dist loadfile

# Translations (docs/i18n/README.md): extract every marked message into the template, then
# merge it into each language's .po (new messages come in empty, changed ones fuzzy; the
# catalogue tests fail until a translator fills them). BIN=/other/venv/bin uses a venv of
# your own that has babel. The .mo files are compiled by the install, never committed.
LOCALE := src/hollywood_gin/locale
I18N_LANGS := af lt nb lo ha
i18n: $(if $(filter $(VENV)/bin,$(BIN)),$(VENV)/.test-installed)
	PYTHONPATH=src $(BIN)/pybabel extract -F babel.cfg \
	  --add-comments=Translators: --add-location=file --sort-by-file -k N_plural:1,2 \
	  --project=hollywood-gin --version=$$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml) \
	  --copyright-holder="the hollywood-gin authors" \
	  -o $(LOCALE)/hollywood_gin.pot .
	for lang in $(I18N_LANGS); do \
	  $(BIN)/pybabel update -i $(LOCALE)/hollywood_gin.pot -d $(LOCALE) -D hollywood_gin \
	    -l $$lang --init-missing --ignore-obsolete --ignore-pot-creation-date || exit 1; \
	done

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
