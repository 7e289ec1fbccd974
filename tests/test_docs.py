"""docs/rules.md is generated from the rule declarations: it must match them exactly."""

from __future__ import annotations

from qlint.cli import main
from qlint.cli.commands.rule import _demote, catalogue
from qlint.rules.docs import render
from qlint.rules import RULES

from conftest import REPO

RULES_MD = REPO / "docs" / "rules.md"


def test_rules_md_is_up_to_date():
    assert RULES_MD.read_text(encoding="utf-8") == catalogue(), "docs/rules.md is stale: run `make docs`"


def test_catalogue_holds_every_rule_as_qlint_rule_prints_it(capsys):
    text = catalogue()
    for code, rule in RULES.items():
        assert main(["rule", code]) == 0
        printed = capsys.readouterr().out
        assert printed == render(rule)
        assert _demote(printed).strip() in text, code
        for section in ("What it does", "Why it matters", "Example", "Fix"):
            assert f"## {section}" in printed, f"{code} lacks '## {section}'"
        if rule.scope in ("item", "bank"):
            assert rule.source, f"{code} names no source"


def test_markdown_format_prints_the_catalogue(capsys):
    assert main(["rule", "--all", "--format", "markdown"]) == 0
    assert capsys.readouterr().out == catalogue()


def test_demote_leaves_code_blocks_alone():
    assert _demote("# T\n```yaml\n# comment\n```\n## S") == "## T\n```yaml\n# comment\n```\n### S"
