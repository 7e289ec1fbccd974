"""Rule selection (lint/selection.py): which rules a run applies, per scope."""

from __future__ import annotations

from pathlib import Path

from qlint.lint.selection import Selection
from qlint.rules import RULES


def _scan(selection: Selection, scope: str) -> list[str]:
    return [c for c, r in RULES.items() if r.scope == scope and c in selection.enabled]


def test_the_rules_of_a_scope_are_the_enabled_ones_in_registry_order_and_asked_once():
    everything = Selection.build((), (), (), {}, {}, Path("."))
    narrow = Selection.build(("K",), (), ("K002",), {}, {}, Path("."))
    for selection in (everything, narrow):
        for scope in ("item", "bank", "responses", "load"):
            first = selection.rules(scope)
            assert [r.code for r in first] == _scan(selection, scope)
            assert selection.rules(scope) is first  # kept for the run, not scanned again per file
    assert "K002" not in [r.code for r in narrow.rules("item")] and [r.code for r in narrow.rules("item")]
    assert everything == Selection.build((), (), (), {}, {}, Path("."))  # the memo is no part of equality
