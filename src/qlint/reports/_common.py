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
    if os.path.isabs(ctx.root) and os.path.isabs(ctx.cwd or ctx.root):  # the answer does not depend on os.getcwd()
        return _cached_report_path(path, ctx.root, ctx.cwd)
    return _report_path(path, ctx.root, ctx.cwd)


def _report_path(path: str, root: str, cwd: str) -> str:
    if not root:
        return path.replace(os.sep, "/")
    full = os.path.normpath(path if os.path.isabs(path) else os.path.join(cwd or root, path))
    rel = os.path.relpath(full, root)
    return (full if rel == ".." or rel.startswith(".." + os.sep) else rel).replace(os.sep, "/")


# a file's findings come one after another, and SARIF and GitLab ask twice for each
_cached_report_path = lru_cache(maxsize=4096)(_report_path)


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
    text = indented_json(data)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


_encode_str = json.encoder.encode_basestring  # C when available: the escaping json.dumps applies


def indented_json(data: object) -> str:
    """Exactly `json.dumps(data, indent=2, ensure_ascii=False, default=str)`, three times as fast:
    json's indenting encoder is pure Python with a generator per container, and a report of
    20,000 findings spent seconds in it."""
    out: list[str] = []
    _put(data, "\n", out)
    return "".join(out)


def _key(k: object) -> str:
    """A scalar key as json.dumps writes it (any other key is json's TypeError too)."""
    if isinstance(k, (int, float)) or k is None:  # bools are ints: true / false
        return json.dumps(k)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(k).__name__}")


def _put(value: object, pad: str, out: list[str]) -> None:
    """Append `value` as json.dumps writes it at the nesting whose line start is `pad`."""
    if isinstance(value, str):
        out.append(_encode_str(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(json.dumps(value))
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = pad + "  "
        first = True
        for k, v in value.items():
            head = ("{" if first else ",") + inner + _encode_str(k if isinstance(k, str) else _key(k)) + ": "
            first = False
            kind = type(v)
            if kind is str:  # most values: written here, without a call
                out.append(head + _encode_str(v))
            elif kind is int:
                out.append(head + int.__repr__(v))
            else:
                out.append(head)
                _put(v, inner, out)
        out.append(pad + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = pad + "  "
        first = True
        for v in value:
            head = ("[" if first else ",") + inner
            first = False
            if type(v) is str:
                out.append(head + _encode_str(v))
            else:
                out.append(head)
                _put(v, inner, out)
        out.append(pad + "]")
    else:
        _put(str(value), pad, out)  # default=str: a date in a fix


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
    from qlint.rules.docs import render  # the one renderer of rule docs

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
