"""Data-driven rule tests: tests/cases/<CODE>.yaml holds question files (and optional `files`
written beside them) and the diagnostics expected at line:col. Every item rule must have a case file with a passing and a failing case."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from qlint.lint.engine import check_file, load_exams, make_settings
from qlint.cli.config import load_config
from qlint.rules import RULES

from conftest import REPO

CASES = Path(__file__).parent / "cases"


def _load_cases():
    out = []
    for f in sorted(CASES.glob("*.yaml")):
        spec = YAML(typ="safe").load(f.read_text(encoding="utf-8"))
        for case in spec["cases"]:
            out.append(pytest.param(spec["rule"], case, id=f"{f.stem}-{case['name']}"))
    return out


def run_rule(code: str, text: str, tmp_path: Path, files: dict[str, str] | None = None) -> list[str]:
    # S001 always runs, so a case file with a schema mistake cannot pass silently
    settings = make_settings(load_config(REPO), select=[code, "S001"])
    load_exams(settings)
    for name, content in (files or {}).items():  # files beside the question (images it references)
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(content, encoding="utf-8")
    target = tmp_path / "case.yaml"
    target.write_text(text, encoding="utf-8")
    result = check_file(str(target), settings)
    return sorted(f"{d.line}:{d.col} {d.code}" for d in result.diagnostics)


@pytest.mark.parametrize("code, case", _load_cases())
def test_rule_case(code, case, tmp_path):
    assert run_rule(code, case["yaml"], tmp_path, case.get("files")) == sorted(case["expect"])


def test_every_checking_rule_has_passing_and_failing_cases():
    covered: dict[str, set[bool]] = {}
    for f in CASES.glob("*.yaml"):
        spec = YAML(typ="safe").load(f.read_text(encoding="utf-8"))
        for case in spec["cases"]:
            covered.setdefault(spec["rule"], set()).add(bool(case["expect"]))
    for code, rule in RULES.items():
        if rule.scope == "item":
            assert covered.get(code) == {True, False}, f"{code} needs a case file with passing and failing cases"
