"""Run the response rules on an analysis and place their findings on the questions' YAML lines,
honouring `# qlint:` suppression comments as every other rule does."""

from __future__ import annotations

from dataclasses import replace

from qlint.diagnostic import Diagnostic
from qlint.rules.context import RuleContext
from qlint.lint.check import place
from qlint.lint.settings import Settings
from qlint.itemanalysis.stats import Analysis
from qlint.loading.errors import LoadError
from qlint.loading.document import Document
from qlint.rules import RULES, Finding, Rule
from qlint.lint.suppression import apply_suppressions


def response_codes() -> frozenset[str]:
    return frozenset(c for c, r in RULES.items() if r.scope == "responses")


def only_responses(settings: Settings) -> Settings:
    """The settings with only the response rules enabled: `qlint analyze` runs nothing else, so
    a suppression naming a text rule is not judged unused there."""
    sel = settings.selection
    return replace(settings, selection=replace(sel, enabled=sel.enabled & response_codes()))


def run_rules(a: Analysis, settings: Settings, suppress: bool = True) -> list[Diagnostic]:
    found: dict[str, list[tuple[Rule, Finding]]] = {}
    for rule in settings.selection.rules("responses"):
        ctx = RuleContext(rule, settings.config, settings.exams)
        for f in rule.check(a, ctx):  # type: ignore[misc]
            found.setdefault(f.path or "", []).append((rule, f))
    out: list[Diagnostic] = []
    for path, items in sorted(found.items()):
        try:
            doc = Document.read(path, settings.config.root, settings.config.limits)
        except LoadError:
            continue  # the file changed or vanished since it was read: `qlint check` reports it
        placed = place(items, doc, settings)
        out += apply_suppressions(placed, doc.text, doc.shown, settings.selection) if suppress else placed
    return sorted(out)
