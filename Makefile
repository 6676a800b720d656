# conteur — the two entry points of the Quick start, and a few helpers.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench coverage-doc clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## make run: the main job as it stands (odds chart and sample rolls, in French)
run: $(STAMP)
	$(BIN)/conteur demo

## make test: lint, strict typing, and the whole test suite
test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/python scripts/rules_coverage.py --check
	$(BIN)/python -m pytest

## make bench: the odds benchmark, then the numpy batch of attacks (docs/performance.md)
bench: $(STAMP)
	$(BIN)/python benchmarks/odds.py
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 $(BIN)/python benchmarks/batch.py

coverage-doc: $(STAMP)
	$(BIN)/python scripts/rules_coverage.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
