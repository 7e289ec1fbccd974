"""Data-driven bank-rule tests: tests/bank_cases/<CODE>.yaml holds small banks (several files) and
the diagnostics expected as "path:line:col CODE" (optionally "... CODE severity").

A case's `files` maps a path (relative to the case's bank folder) to either a literal YAML text or
a mapping of template variables for a base question (tests/bank_cases/_bases.yaml, or the case
file's own `bases`). `series` generates numbered files from a base, one per letter of `keys`
(the keyed position(s) of each question, e.g. "AB" for a multiple-response question). `targets`
lists the files passed to qlint (default: all of them; the rest is bank context), and `options`
sets the rule's options. Files under `exams/` replace the repository's exam definitions.
Every bank rule must have a case file with a passing and a failing case.
"""

from __future__ import annotations

import os
from pathlib import Path
from string import Template

import pytest
from ruamel.yaml import YAML

from qlint.lint.engine import lint, make_settings
from qlint.project.config import Config
from qlint.rules import RULES

from conftest import REPO

CASES = Path(__file__).parent / "bank_cases"
LETTERS = "ABCDE"
OPTION_WORDS = ("alpha", "bravo", "delta", "gamma", "omega")  # equal lengths: no key is longest by chance


def _yaml(path: Path) -> dict:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def _specs() -> list[tuple[str, dict]]:
    return [(f.stem, _yaml(f)) for f in sorted(CASES.glob("[A-Z]*.yaml"))]


def _load_cases():
    return [pytest.param(spec["rule"], spec.get("bases", {}), case, id=f"{name}-{case['name']}")
            for name, spec in _specs() for case in spec["cases"]]


def render(bases: dict[str, str], name: str, spec: dict) -> str:
    """A question file from a base template: `key` letters set `correct`, `long-key` lengthens the key."""
    values = {k.replace("-", "_"): v for k, v in spec.items() if k not in ("base", "key", "long-key")}
    slug = Path(name).stem.lower()
    keys = spec.get("key", "A")
    values.setdefault("id", f"case-{slug}")
    values.setdefault("domain", "model-development")
    values.setdefault("stem", f"Which choice does the scenario numbered {slug} require?")
    values.setdefault("explanation", "The keyed choice meets the requirement of the scenario.")
    values.setdefault("related", "[]")
    for pos, word in enumerate(OPTION_WORDS):
        keyed = LETTERS[pos] in keys
        values[f"c{pos}"] = "true" if keyed else "false"
        text = values.get(f"t{pos}", f"Choice {word}")
        if keyed and spec.get("long-key"):
            text += " with a qualifying clause that makes it the longest"
        values[f"t{pos}"] = text
    return Template(bases[spec.get("base", "q")]).substitute(values)


def build_bank(root: Path, bases: dict[str, str], case: dict) -> list[str]:
    """Write the case's files under `root`; returns their paths relative to it."""
    names = []
    for name, spec in (case.get("files") or {}).items():
        text = spec if isinstance(spec, str) else render(bases, name, spec)
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
        names.append(name)
    for s, series in enumerate(case.get("series") or []):
        for n, letters in enumerate(series["keys"].split() if " " in series["keys"] else series["keys"]):
            name = f"s{s}-{n:03d}.yaml"
            spec = dict(series.get("vars") or {}, base=series.get("base", "q"), key=letters)
            spec["long-key"] = series.get("long-key", False)
            spec.setdefault("id", f"s{s}-{n:03d}")
            (root / name).write_text(render(bases, name, spec), encoding="utf-8")
            names.append(name)
    return names


def run_case(code: str, bases: dict, case: dict, tmp_path: Path) -> list[str]:
    bank = tmp_path / "bank"
    bank.mkdir()
    names = build_bank(bank, bases, case)
    own_exams = any(n.startswith("exams/") for n in names)
    config = Config(root=tmp_path, bank="bank", exams="bank/exams" if own_exams else str(REPO / "bank" / "exams"),
                    rules={code: dict(case.get("options") or {})})
    settings = make_settings(config, select=[code, "S001"])
    targets = case.get("targets") or names
    result = lint([str(bank / t) for t in targets], settings)
    graded = any(len(e.split()) == 3 for e in case["expect"])
    out = []
    for d in result.diagnostics:
        rel = os.path.relpath(os.path.abspath(d.path), bank)
        out.append(f"{rel}:{d.line}:{d.col} {d.code}" + (f" {d.severity}" if graded else ""))
    return sorted(out)


@pytest.mark.parametrize("code, bases, case", _load_cases())
def test_bank_case(code, bases, case, tmp_path):
    shared = _yaml(CASES / "_bases.yaml")
    assert run_case(code, {**shared, **bases}, case, tmp_path) == sorted(case["expect"])


def test_every_bank_rule_has_passing_and_failing_cases():
    covered: dict[str, set[bool]] = {}
    for _name, spec in _specs():
        for case in spec["cases"]:
            covered.setdefault(spec["rule"], set()).add(bool(case["expect"]))
    for code, rule in RULES.items():
        if rule.scope == "bank":
            assert covered.get(code) == {True, False}, f"{code} needs tests/bank_cases/{code}.yaml with passing and failing cases"
