"""`qlint rule CODE`: a rule's documentation; `--all` lists every rule."""

from __future__ import annotations

import argparse
import sys

from qlint.cli import EXIT_ERROR, EXIT_OK, command
from qlint.rules import RULES, by_name_or_code
from qlint.rules.docs import _state, render

DOC_HEADER = """<!-- Generated from the rule declarations by `make docs`
     (.venv/bin/qlint rule --all --format markdown > docs/rules.md); do not edit by hand. -->
# qlint rules

Every rule qlint knows, from the same text `qlint rule CODE` prints. Select, ignore and
configure rules as described in [configuration.md](configuration.md).
"""


def _demote(markdown: str) -> str:
    """Every heading one level down (outside code fences), so rules nest under one title."""
    out, fenced = [], False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        out.append("#" + line if not fenced and line.startswith("#") else line)
    return "\n".join(out)


def catalogue() -> str:
    """docs/rules.md: an index table, then every rule's `render()` text."""
    rows = ["| code | name | severity | summary |", "|---|---|---|---|"]
    rows += [f"| [{c}](#{c.lower()}-{r.name}) | {r.name} | {r.severity}{_state(r).replace(' by default', '')} | "
             f"{r.summary.replace('|', chr(92) + '|')} |" for c, r in RULES.items()]
    parts = [DOC_HEADER, "\n".join(rows)] + [_demote(render(r)) for _c, r in RULES.items()]
    return "\n\n".join(p.strip("\n") for p in parts) + "\n"


@command("rule", "Show a rule's documentation.", "Show a rule's documentation (by code or name), or list every rule.")
def configure(p: argparse.ArgumentParser):
    p.add_argument("rule", nargs="?", metavar="CODE", help="rule code (K001) or name (option-rationale)")
    p.add_argument("--all", action="store_true", help="list every rule: code, name, default severity, summary")
    p.add_argument("--shapes", action="store_true",
                   help="list the item shapes rules declare (judges, abstains on, preview on) and what each means")
    p.add_argument("--format", choices=["text", "markdown"], default="text",
                   help="with --all: 'markdown' prints every rule's full documentation (docs/rules.md)")
    return run


def shapes_table() -> str:
    """Each item shape, what it means, and the rules that abstain on it or are preview on it."""
    from qlint.prose.shapes import DESCRIPTIONS

    lines = []
    for shape, meaning in DESCRIPTIONS.items():
        lines.append(f"{shape:<13} {meaning}")
        for label, codes in (("judged only by", [c for c, r in RULES.items() if shape in r.judges]),
                             ("abstaining", [c for c, r in RULES.items() if shape in r.abstains]),
                             ("preview on it", [c for c, r in RULES.items() if shape in r.preview_on])):
            if codes:
                lines.append(f"{'':<13} {label}: {' '.join(codes)}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    if args.shapes:
        sys.stdout.write(shapes_table())
        return EXIT_OK
    if args.all and args.format == "markdown":
        sys.stdout.write(catalogue())
        return EXIT_OK
    if args.all or not args.rule:
        for code, r in RULES.items():
            print(f"{code}  {r.name:<28} {str(r.severity) + _state(r):<20} {r.summary}")
        return EXIT_OK
    r = by_name_or_code(args.rule)
    if r is None:
        print(f"qlint: error: no rule {args.rule!r}; 'qlint rule --all' lists them", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.write(render(r))
    return EXIT_OK
