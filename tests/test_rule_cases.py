"""Every rule case (tests/cases, tests/bank_cases; format: tests/rulecases.py) finds what its
markers expect, and a fixable rule's fix gives the case's `fixed` text. Every rule has a passing
and a failing case."""

from __future__ import annotations

import pytest

import rulecases
from qlint.rules import RULES

CASES = rulecases.load_cases()


@pytest.mark.parametrize("case", [pytest.param(c, id=f"{c.rule}-{c.name}") for c in CASES])
def test_rule_case(case, tmp_path):
    expected, found = rulecases.run(case, tmp_path)
    assert found == expected, f"{case.origin}: findings differ from the case's markers"
    if case.fixed is not None:
        assert rulecases.fix(case, tmp_path, tmp_path / "bank") == case.fixed, f"{case.origin}: fixed text differs"


def test_every_rule_has_passing_and_failing_cases():
    covered: dict[str, set[bool]] = {}
    for case in CASES:
        _, expected = rulecases.write_expectations(case)
        covered.setdefault(case.rule, set()).add(bool(expected))
    for code, rule in RULES.items():
        if rule.scope in ("item", "bank"):
            assert covered.get(code) == {True, False}, f"{code} needs a case file with passing and failing cases"


def test_every_fixable_rule_case_shows_its_fix():
    for case in CASES:
        if RULES.get(case.rule).fixable and rulecases.write_expectations(case)[1]:
            assert case.fixed is not None, f"{case.origin}: {case.rule} is fixable: give the case a `fixed:` text"
