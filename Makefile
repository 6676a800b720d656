# conteur — the two entry points of the Quick start, and a few helpers.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
RUNTIME := $(VENV)/.runtime
STAMP  := $(VENV)/.installed
PIP_LOG := $(VENV)/pip.log

.PHONY: run test system-deps lint typecheck pytest bench coverage-doc clean

# Two stamps: what the tracker needs to run (make run), then the developer tools on top
# (make test: pytest, mypy, ruff, Playwright, icepool...). The runtime install is quiet:
# pip's output goes to .venv/pip.log, shown only when it fails, so that the game master's
# link is the last thing `make run` prints.
$(RUNTIME): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "$(if $(filter en%,$(CONTEUR_LANG)),conteur: installing what the tracker needs in $(VENV) (log: $(PIP_LOG))...,conteur : installation de ce dont le suivi de combat a besoin dans $(VENV) (journal : $(PIP_LOG))…)"
	@{ $(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip \
	  && $(BIN)/python -m pip install --quiet --disable-pip-version-check -e . ; } \
	  > $(PIP_LOG) 2>&1 || { cat $(PIP_LOG); exit 1; }
	@touch $@

# The browser tests' accessibility checks use axe-core from the npm registry, pinned by
# tests/web/package-lock.json and installed into tests/web/node_modules (gitignored) by
# `npm ci`; `make run` never needs npm.
$(STAMP): $(RUNTIME) tests/web/package.json tests/web/package-lock.json
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@if command -v npm >/dev/null 2>&1; then \
	  cd tests/web && npm ci --no-audit --no-fund --loglevel=error; \
	else \
	  echo "npm not found: the accessibility checks (axe-core) will skip, or fail in CI"; \
	fi
	touch $@

## make run: the live combat tracker (conteur serve), with the French demo campaign
## (the saloon, 1899) loaded into the embedded SQLite database when it is empty.
## Installs only the runtime dependencies (no developer tools), quietly; the last line
## printed is the link to open (it carries the game master's single-use token).
## make run HOST=0.0.0.0: listen on the local network too, so the players' phones join
## (the address they join at is printed before the link); without HOST, 127.0.0.1 only.
HOST ?=
run: $(RUNTIME)
	@$(BIN)/conteur serve --demo$(if $(strip $(HOST)), --host $(strip $(HOST)))

## make system-deps: what the tests need outside Python — PostgreSQL's server binaries
## (Debian's `postgresql` package, installed with apt-get when initdb is missing and
## we are root; otherwise the PostgreSQL tests skip, or fail in CI) and Chromium for
## the browser test (Debian's `chromium` package, driven by Playwright; same rule).
system-deps:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; then \
	  :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "system-deps: installing PostgreSQL (Debian package) for the database tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends postgresql >/dev/null) || echo "system-deps: apt-get failed"; \
	else \
	  echo "system-deps: PostgreSQL not found and not root: the PostgreSQL tests will skip"; \
	fi
	@if [ -x /usr/bin/chromium ] || command -v chromium >/dev/null 2>&1; then \
	  :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "system-deps: installing Chromium (Debian package) for the browser test"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends chromium >/dev/null) || echo "system-deps: apt-get failed"; \
	else \
	  echo "system-deps: Chromium not found and not root: the browser test will skip"; \
	fi

## make test: the developer tools (the [dev] extras) on top of the runtime, then lint,
## strict typing, the whole test suite, then the rules coverage it showed
test: $(STAMP) system-deps
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/python -m pytest
	$(BIN)/python scripts/rules_coverage.py --check

## make bench: the odds charts, the exact odds of whole attacks against icepool and hunter's
## (hunter_odds.py: pass it another checkout's src to time both in turns), the numpy
## batch of attacks, the Monte Carlo of encounters, sweeps, the commands' start-up against
## numpy's import, then the live tracker's latency on
## SQLite and PostgreSQL, and last the vtm fights with hot modules compiled by mypyc in
## a scratch copy (minutes of compiling; the package itself stays pure Python)
## (docs/performance.md)
bench: $(STAMP)
	$(BIN)/python benchmarks/odds.py
	$(BIN)/python benchmarks/attack_odds.py
	$(BIN)/python benchmarks/hunter_odds.py
	$(BIN)/python benchmarks/western_odds.py
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 $(BIN)/python benchmarks/batch.py
	$(BIN)/python benchmarks/simulate.py
	$(BIN)/python benchmarks/sweep.py
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/web_latency.py
	$(BIN)/python benchmarks/compiled.py

## make coverage-doc: rewrite docs/rules-coverage.md from the last pytest run (its plugin,
## tests/engine_runs.py, records which tests ran the rules engine: run the tests first)
coverage-doc: $(STAMP)
	$(BIN)/python scripts/rules_coverage.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
