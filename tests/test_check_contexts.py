"""Item rules' contexts are made once per run, not once per rule and question, and never outlive
the exam definitions or configuration they were made for."""

from __future__ import annotations

from dataclasses import replace

from qlint.cli.config import load_config
from qlint.lint.check import _context
from qlint.lint.settings import make_settings
from qlint.rules import RULES

from conftest import REPO


def test_one_context_per_rule_while_the_exams_and_configuration_stay():
    settings = make_settings(load_config(REPO))
    rule, exams, other = RULES.get("K001"), {}, {}
    first = _context(settings, rule, exams)
    assert _context(settings, rule, exams) is first
    moved = _context(settings, rule, other)  # a file of another bank: its own exam definitions
    assert moved is not first and moved.exams is other
    assert _context(settings, RULES.get("K002"), other).rule is RULES.get("K002")
    config = replace(settings.config)
    again = replace(settings, config=config)  # `replace` shares the contexts table: the config decides
    assert _context(again, rule, other).config is config
