# Quick start: `make check` lints and exports the sample bank; `make test` runs the test suite.
# Each target creates .venv on first use; nothing needs installing by hand beyond Python 3.11+.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# One stamp per set of packages: each target installs what it needs, and no more (the main
# job needs qlint alone; the test and benchmark tools come with `make test` / `make bench`).
STAMP  := $(VENV)/.installed-stamp
# The QTI 3 player test's npm packages (pinned by the lock file); npm ci writes this file last.
PLAYER := tests/qti_player/node_modules/.package-lock.json
# yaml-language-server, which tests/test_init.py runs as an editor would (pinned by its lock file).
YAML_LS := tests/yaml_ls/node_modules/.package-lock.json
TEST_STAMP  := $(VENV)/.test-stamp
BENCH_STAMP := $(VENV)/.bench-stamp

.PHONY: check test test-quick lint export bench bench-bank docs accuracy clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	@# the distribution was called "qlint" before (that name on PyPI is another project): drop it
	$(BIN)/python -m pip uninstall -q -y qlint 2>/dev/null || true
	$(BIN)/python -m pip install -q -e .
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(TEST_STAMP)

$(BENCH_STAMP): $(TEST_STAMP)
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	touch $(BENCH_STAMP)

check: $(STAMP)  ## the main job: lint the sample bank (warnings are reported, errors stop it), then export it (out/)
	$(BIN)/qlint check --fail-on error bank
	$(BIN)/qlint export --format qti21 --output out/bank-qti21.zip bank
	$(BIN)/qlint export --format html --output out/site bank
	@echo "Open out/site/index.html for the practice site; out/bank-qti21.zip imports into QTI players."

$(PLAYER): tests/qti_player/package-lock.json
	@if command -v npm >/dev/null; then cd tests/qti_player && npm ci --no-audit --no-fund --loglevel=error; \
	else echo "npm not found: tests/test_qti_player.py will be skipped (apt-get install nodejs npm)"; fi

$(YAML_LS): tests/yaml_ls/package-lock.json
	@if command -v npm >/dev/null; then cd tests/yaml_ls && npm ci --no-audit --no-fund --loglevel=error; \
	else echo "npm not found: the yaml-language-server test in tests/test_init.py will be skipped"; fi

test: $(TEST_STAMP) $(PLAYER) $(YAML_LS)  ## the whole test suite, on every core, then its slowest tests
	$(BIN)/python -m pytest -n auto --dist loadfile --durations=15

test-quick: $(TEST_STAMP)  ## the suite without the slow end-to-end tests (pre-commit, browser, large banks)
	$(BIN)/python -m pytest -n auto --dist loadfile -m "not slow"

docs: $(STAMP)  ## regenerate docs/rules.md from the rule declarations
	$(BIN)/qlint rule --all --format markdown > docs/rules.md

bench: $(BENCH_STAMP)  ## speed table: qlint cold/warm/one file vs check-jsonschema, yamllint and the parse floor
	$(BIN)/python benchmarks/run.py

bench-bank: $(STAMP)  ## bank rules alone on a generated 20,000-question bank
	$(BIN)/python benchmarks/bench_bank.py --questions 20000

accuracy: $(STAMP)  ## rule precision on real questions (../shared/corpora) from tests/real/judgments.jsonl, beside the in-sample set
	$(BIN)/python scripts/realtext.py
	$(BIN)/python scripts/rule_quality.py

clean:
	rm -rf $(VENV) .pytest_cache .qlint_cache build dist out
