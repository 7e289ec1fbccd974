"""A rule's documentation as Markdown, one renderer for `qlint rule`, docs/rules.md and SARIF help."""

from __future__ import annotations

from qlint.rules import Rule


def render(rule: Rule) -> str:
    """The rule's full documentation as Markdown; `docs/rules.md` and SARIF read the same text."""
    head = [f"# {rule.code} {rule.name}", "", f"Default severity: {rule.severity}"
            + _state(rule) + (" · fixable" if rule.fixable else "")]
    if rule.scope in ("item", "bank"):
        head += ["", f"Item types: {_types(rule)}" + ("; case study files too" if rule.cases else "")]
    if rule.shaped:
        head += ["", shapes_line(rule)]
    if rule.preview:
        head += ["", "Preview: its judged precision on real questions is below the bar for default rules "
                 "(docs/rules-design.md). Run it with `--preview`, `preview = true`, or by selecting its code."]
    body = rule.doc.split("\n", 1)
    lines = head + ["", body[0]] + ([body[1].rstrip()] if len(body) > 1 else [])
    if rule.options:
        lines += ["", "## Options", "", "| option | default | meaning |", "|---|---|---|"]
        lines += [f"| `{k}` | `{o.default!r}` | {o.description} |" for k, o in rule.options.items()]
    if rule.source:
        lines += ["", "## Source", "", rule.source]
    return "\n".join(lines) + "\n"


def shapes_line(rule: Rule) -> str:
    """Which item shapes (qlint.prose.shapes) the rule judges, abstains on, or reads in preview only."""
    parts = []
    if rule.judges:
        parts.append("judges only " + ", ".join(f"`{s}`" for s in rule.judges) + " items")
    if rule.abstains:
        parts.append("abstains on " + ", ".join(f"`{s}`" for s in rule.abstains) + " items")
    if rule.preview_on:
        parts.append("preview on " + ", ".join(f"`{s}`" for s in rule.preview_on)
                     + " items (runs there with `--preview` or when selected by code)")
    return "Item shapes: " + "; ".join(parts) + " (`qlint rule --shapes` defines them)."


def _state(rule: Rule) -> str:
    if rule.preview:
        return " (preview)"
    return "" if rule.default_enabled else " (off by default)"


def _types(rule: Rule) -> str:
    from qlint.model import ITEM_TYPES

    return "every type (" + ", ".join(rule.types) + ")" if rule.types == ITEM_TYPES else ", ".join(rule.types)
