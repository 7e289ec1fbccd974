"""Preview rules: off unless `--preview`, `preview = true` or their exact code; `qlint rule` says so."""

from __future__ import annotations

import dataclasses
import pytest

from qlint.cli import main
from qlint.cli.config import load_config
from qlint.lint.engine import make_settings
from qlint.rules import RULES


@pytest.fixture
def c001_in_preview(monkeypatch):
    rule = RULES.get("C001")
    monkeypatch.setitem(RULES._items, "C001", dataclasses.replace(rule, preview=True))
    return "C001"


def _enabled(tmp_path, **kw) -> frozenset[str]:
    return make_settings(load_config(tmp_path), **kw).selection.enabled


def test_preview_rule_is_off_by_default_and_on_when_asked(tmp_path, c001_in_preview):
    assert "C001" not in _enabled(tmp_path)
    assert "C001" in _enabled(tmp_path, preview=True)
    assert "C001" in _enabled(tmp_path, extend_select=("C001",))  # the exact code
    assert "C001" in _enabled(tmp_path, extend_select=("longest-key",))  # the exact name
    assert "C001" not in _enabled(tmp_path, select=("C",))  # a prefix needs preview on
    assert "C001" not in _enabled(tmp_path, select=("ALL",))
    assert "C001" in _enabled(tmp_path, select=("C",), preview=True)
    assert "C002" in _enabled(tmp_path, select=("C",))  # off-by-default rules still come with a prefix


def test_preview_in_the_configuration(tmp_path, c001_in_preview):
    (tmp_path / "qlint.toml").write_text("preview = true\n", encoding="utf-8")
    assert "C001" in _enabled(tmp_path)


def test_rule_docs_say_preview(capsys, c001_in_preview):
    assert main(["rule", "C001"]) == 0
    out = capsys.readouterr().out
    assert "(preview)" in out and "--preview" in out


def test_sarif_marks_preview_rules_disabled(c001_in_preview):
    from qlint.reports._common import RuleMeta
    from qlint.reports.sarif import _rule

    meta = RuleMeta(RULES.get("C001"), "s", "d", "h", "u")
    assert _rule(meta)["defaultConfiguration"]["enabled"] is False
    assert _rule(RuleMeta(RULES.get("T002"), "s", "d", "h", "u"))["defaultConfiguration"]["enabled"] is True
