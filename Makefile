# Quick start: `make check` lints and exports the sample bank; `make test` runs the test suite.
# Each target creates .venv on first use; nothing needs installing by hand beyond Python 3.11+.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: check test lint export bench docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

check: $(STAMP)  ## the main job: lint the sample bank
	$(BIN)/qlint check bank

test: $(STAMP)  ## the whole test suite
	$(BIN)/python -m pytest

docs: $(STAMP)  ## regenerate docs/rules.md from the rule declarations
	$(BIN)/qlint rule --all --format markdown > docs/rules.md

bench: $(STAMP)  ## bank rules on a generated 20,000-question bank
	$(BIN)/python benchmarks/bench_bank.py --questions 20000

clean:
	rm -rf $(VENV) .pytest_cache .qlint_cache build dist
