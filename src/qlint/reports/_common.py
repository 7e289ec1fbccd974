"""What several formats share: repository-relative paths, fingerprints, counts, rule metadata.

Pure functions of diagnostics, the context and the rule registry (no file system, no environment).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from qlint.diagnostic import Diagnostic, Severity
from qlint.reports import ReportContext
from qlint.rules import RULES, Rule

# Where rule documentation is published; the same scheme as the schemas' `$id`s.
RULE_DOCS_URL = "https://qlint.dev/rules/{code}"
HOMEPAGE = "https://qlint.dev"
FULL_DESCRIPTION_LIMIT = 1024  # GitHub code scanning truncates or rejects longer ones
_SURROGATE = re.compile("[\ud800-\udfff]")


def report_path(path: str, ctx: ReportContext) -> str:
    """The diagnostic's path relative to the repository root, with '/' separators.

    Paths outside the root stay absolute. Without a root in the context the path is kept as given.
    """
    if not ctx.root:
        return path.replace(os.sep, "/")
    full = os.path.normpath(path if os.path.isabs(path) else os.path.join(ctx.cwd or ctx.root, path))
    rel = os.path.relpath(full, ctx.root)
    return (full if rel == ".." or rel.startswith(".." + os.sep) else rel).replace(os.sep, "/")


def fingerprints(diagnostics: list[Diagnostic], ctx: ReportContext) -> list[str]:
    """One stable id per diagnostic: hash of (rule, repository path, JSON pointer) plus an occurrence
    number for repeats, so it survives edits that only move lines (unlike a line-content hash)."""
    seen: Counter[str] = Counter()
    out = []
    for d in diagnostics:
        key = "\0".join((d.code, report_path(d.path, ctx), d.pointer))
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
        seen[digest] += 1
        out.append(f"{digest}:{seen[digest]}")
    return out


def severity_counts(diagnostics: list[Diagnostic]) -> dict[Severity, int]:
    """Every severity, worst first, with its count (zeros included, so tables keep their shape)."""
    counts = Counter(d.severity for d in diagnostics)
    return {s: counts.get(s, 0) for s in sorted(Severity, reverse=True)}


def rule_counts(diagnostics: list[Diagnostic]) -> list[tuple[str, str, int]]:
    """(code, name, count) per rule that fired, most frequent first."""
    counts = Counter((d.code, d.name) for d in diagnostics)
    return [(code, name, n) for (code, name), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def dump_json(data: object) -> str:
    """JSON as every machine format here writes it: UTF-8 text (no \\u escapes), 2-space indent;
    values JSON cannot hold (a date in a fix) become strings rather than a crash; lone surrogates
    (YAML allows "\\ud800") stay \\u escapes, since UTF-8 cannot encode them."""
    text = json.dumps(data, indent=2, ensure_ascii=False, default=str)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class RuleMeta:
    """A rule as SARIF and other machine formats describe it; all text comes from its declaration."""

    rule: Rule
    summary: str
    full_description: str  # <= FULL_DESCRIPTION_LIMIT characters
    help_markdown: str  # the same page `qlint rule CODE` prints
    help_uri: str


def _section(doc: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\s*\n(.*?)(?=^## |\Z)", doc, re.M | re.S)
    return match.group(1).strip() if match else ""


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut + "…"


@lru_cache(maxsize=None)
def rule_meta(code: str) -> RuleMeta:
    from qlint.cli.commands.rule import render  # the one renderer of rule docs

    rule = RULES.get(code)
    body = _section(rule.doc, "What it does") or rule.doc
    return RuleMeta(
        rule=rule,
        summary=rule.summary,
        full_description=_clip(body, FULL_DESCRIPTION_LIMIT),
        help_markdown=render(rule),
        help_uri=RULE_DOCS_URL.format(code=code),
    )


def rules_run(diagnostics: list[Diagnostic], ctx: ReportContext) -> list[RuleMeta]:
    """The rules that ran (every rule when the context does not say) plus any rule a diagnostic
    names, ordered by code."""
    codes = set(ctx.rules or RULES.names()) | {d.code for d in diagnostics}
    return [rule_meta(code) for code in sorted(codes)]
