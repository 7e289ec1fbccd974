"""Where a module's tests are (CONTRIBUTING.md, "Where the tests are"): for the packages below,
`src/qlint/<package>/<module>.py` is tested in `tests/test_<module>.py` or
`tests/test_<module>_<aspect>.py`; a module tested through a command or beside its neighbours
instead is listed in TESTED_IN with the file that covers it. A new module needs one or the
other, so the layout stays findable."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("loading", "project", "lint", "authoring")

# module -> the test file that covers it, for modules whose tests do not carry their name.
TESTED_IN = {
    "authoring/signoff.py": "test_review.py",  # qlint review sign / live
    "project/history.py": "test_review.py",  # the approved version from git history (W004)
    "project/casestudy.py": "test_review.py",  # the case study a case question's content hash covers
    "loading/advice.py": "test_yaml_errors.py",  # the plain advice in Y001 messages
    "loading/errors.py": "test_loading.py",
    "loading/indentation.py": "test_yaml_errors.py",  # indentation hints of Y001
    "loading/limits.py": "test_loading.py",
    "loading/reader.py": "test_loading.py",
    "loading/schema_fixes.py": "test_fix.py",  # `--fix` of schema pattern errors
    "loading/syntax.py": "test_yaml_errors.py",
    "project/banks.py": "test_bank_membership.py",  # which bank a file belongs to
    "project/discovery.py": "test_unreadable_folders.py",
    "project/exams.py": "test_bank_exams.py",
    "project/session.py": "test_document.py",  # with the Document it feeds
    "project/toml_keys.py": "test_config.py",
    "lint/bankrun.py": "test_bank_paths.py",  # the bank run over the whole bank or a few files
    "lint/cache_folder.py": "test_cache_safety.py",
    "lint/config_check.py": "test_config.py",
    "lint/engine.py": "test_runner.py",
    "lint/interrupts.py": "test_interrupt_exports.py",
    "lint/results.py": "test_runner.py",
    "lint/settings.py": "test_cli.py",  # the options of one run
    "lint/workers.py": "test_runner.py",
    "authoring/bank_init.py": "test_init.py",
    "authoring/changes.py": "test_write_safety.py",  # all-or-nothing writes
    "authoring/fixing.py": "test_fix.py",
    "authoring/formatter.py": "test_format.py",
    "authoring/scaffold.py": "test_new.py",
    "authoring/scalars.py": "test_format.py",
    "authoring/shuffle_bank.py": "test_shuffle.py",
    "authoring/shuffling.py": "test_shuffle.py",
    "authoring/yamldoc.py": "test_format_properties.py",
    "authoring/yamledit.py": "test_fix.py",
}


def named_test_files(module: Path, tests: Path) -> list[str]:
    """The test files whose name names `module` (a leading underscore dropped)."""
    stem = module.stem.lstrip("_")
    return sorted(p.name for p in tests.glob("test_*.py") if p.stem == f"test_{stem}" or p.stem.startswith(f"test_{stem}_"))


def untested_by_name(src: Path, tests: Path, listed: dict[str, str]) -> list[str]:
    """Modules of PACKAGES with neither a test file of their name nor an entry in `listed`."""
    found = []
    for package in PACKAGES:
        for module in sorted((src / package).rglob("*.py")):
            rel = module.relative_to(src).as_posix()
            if module.name != "__init__.py" and rel not in listed and not named_test_files(module, tests):
                found.append(rel)
    return found


def test_every_module_of_the_key_packages_has_tests_a_newcomer_can_find():
    src, tests = REPO / "src" / "qlint", REPO / "tests"
    assert untested_by_name(src, tests, TESTED_IN) == []
    assert [m for m in TESTED_IN if not (src / m).exists()] == []  # no entry outlives its module
    assert [m for m, t in TESTED_IN.items() if not (tests / t).exists()] == []
    # an entry is for a module without a test file of its own name
    assert [m for m in TESTED_IN if named_test_files(src / m, tests)] == []


def test_a_new_module_without_tests_is_named(tmp_path):
    (tmp_path / "src" / "loading").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    for name in ("__init__.py", "positions.py", "_fast.py", "new_thing.py"):
        (tmp_path / "src" / "loading" / name).write_text("", encoding="utf-8")
    for name in ("test_positions.py", "test_fast_hints.py", "test_newish.py"):
        (tmp_path / "tests" / name).write_text("", encoding="utf-8")
    assert untested_by_name(tmp_path / "src", tmp_path / "tests", {}) == ["loading/new_thing.py"]
    assert untested_by_name(tmp_path / "src", tmp_path / "tests", {"loading/new_thing.py": "test_newish.py"}) == []
