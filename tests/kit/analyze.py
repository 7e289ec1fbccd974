"""The item-analysis test kit: what the response rules find, at their default options."""

from __future__ import annotations

from conftest import REPO
from qlint.cli.config import load_config
from qlint.lint.engine import make_settings
from qlint.rules.context import RuleContext


def findings(a, config=None):
    """(code, item id, pointer) of every response rule's findings at default options."""
    config = config or load_config(REPO)
    settings = make_settings(config, responses=True)
    by_path = {k.path: k.id for k in a.items}
    out = set()
    for rule in settings.selection.rules("responses"):
        for f in rule.check(a, RuleContext(rule, config, {})):
            out.add((rule.code, by_path[f.path], f.pointer))
    return out
