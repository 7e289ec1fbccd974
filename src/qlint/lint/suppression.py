"""`# qlint:` comments in YAML files: turn findings off for a line, a range or the whole file.

    stem: |  # qlint: disable-line K003 -- the trap is in the shared scenario
    # qlint: disable K005, option-rationale
    ...
    # qlint: enable
    # qlint: disable-file B006

A `disable-line` comment alone on its line applies to the next line that holds YAML. Codes may
be codes, prefixes or rule names; none means every rule. Files that cannot be read (Y, X codes)
and schema findings (S codes) cannot be suppressed. Directives that suppress nothing, or name
unknown rules, are findings themselves (M001, M002). Only files containing "qlint:" are scanned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

import yaml

from qlint.diagnostic import Diagnostic
from qlint.rules import RULES, Rule, by_name_or_code
from qlint.lint.selection import Selection, SelectionError, expand_all

try:  # libyaml's scanner gives token spans cheaply; the pure one is the same grammar
    from yaml import CLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MARKER = "qlint:"
_DIRECTIVE = re.compile(r"#\s*qlint:\s*(?P<verb>[a-z-]*)(?P<rest>.*)$")
VERBS = ("disable-line", "disable", "enable", "disable-file")
META = ("M001", "M002")


@dataclass
class Directive:
    verb: str
    line: int  # 1-based line the comment is on
    col: int  # 1-based column of '#'
    end_col: int
    target: int  # the line a disable-line applies to
    codes: frozenset[str] | None  # None: every rule
    named: tuple[str, ...]  # as written, for messages
    reason: str = ""
    used: set[str] = field(default_factory=set)  # codes it suppressed at least once


def suppressible(rule: Rule) -> bool:
    """Unreadable files (Y, X) and schema findings (S) must never be hidden by a comment."""
    return not rule.fatal and rule.scope not in ("load", "schema")


def _comment_starts(text: str) -> list[tuple[int, int, int]]:
    """(line, col, offset) of every real `# qlint:` comment: not inside a quoted or block scalar."""
    try:
        tokens = list(yaml.scan(text, Loader=_Loader))
    except yaml.YAMLError:
        return []  # the file does not parse; Y001 reports it and nothing can be suppressed
    quoted: list[tuple[int, int]] = []
    block_lines: set[int] = set()  # 0-based lines holding block scalar content
    for tok in tokens:
        if isinstance(tok, yaml.ScalarToken):
            if tok.style in ("'", '"'):
                quoted.append((tok.start_mark.index, tok.end_mark.index))
            elif tok.style in ("|", ">"):
                last = tok.end_mark.line - (1 if tok.end_mark.column == 0 else 0)
                block_lines.update(range(tok.start_mark.line + 1, last + 1))
    out = []
    offset = 0
    for n, line in enumerate(text.splitlines(keepends=True)):
        if MARKER in line and n not in block_lines:
            for m in re.finditer(r"#", line):
                i = m.start()
                if i and not line[i - 1].isspace():
                    continue  # `a#b` is part of a plain scalar
                pos = offset + i
                if any(a <= pos < b for a, b in quoted):
                    continue
                out.append((n + 1, i + 1, pos))
                break  # everything after the first '#' is one comment
        offset += len(line)
    return out


def _next_content_line(lines: list[str], after: int) -> int:
    for n in range(after, len(lines)):
        stripped = lines[n].strip()
        if stripped and not stripped.startswith("#"):
            return n + 1
    return after + 1


def parse(text: str) -> tuple[list[Directive], list[tuple[int, int, int, str]]]:
    """Directives in the file, and (line, col, end_col, message) for malformed ones."""
    directives: list[Directive] = []
    errors: list[tuple[int, int, int, str]] = []
    lines = text.splitlines()
    for line_no, col, pos in _comment_starts(text):
        comment = lines[line_no - 1][col - 1:].rstrip()
        m = _DIRECTIVE.match(comment)
        end_col = col + len(comment) - 1
        if not m:
            continue
        verb, rest = m["verb"], m["rest"]
        if verb not in VERBS:
            errors.append((line_no, col, end_col, f"unknown qlint directive {verb!r}; use one of {', '.join(VERBS)}"))
            continue
        listed, _, reason = rest.partition("--")
        listed = listed.split("#", 1)[0]  # a second comment after the rules is not a rule
        named = tuple(c for c in re.split(r"[\s,]+", listed.strip()) if c)
        codes: set[str] | None = None
        bad = False
        if named:
            codes = set()
            for item in named:
                try:
                    expanded = expand_all([item])
                except SelectionError as exc:
                    errors.append((line_no, col, end_col, f"qlint comment: {exc}"))
                    bad = True
                    continue
                exact = by_name_or_code(item)
                if exact is not None and not suppressible(exact):
                    errors.append((line_no, col, end_col, f"{exact.code} ({exact.name}) cannot be suppressed: "
                                                          "the file must be readable and follow the schema"))
                    bad = True
                codes |= {c for c in expanded if suppressible(RULES.get(c))}
            if bad and not codes:
                continue
        before = lines[line_no - 1][: col - 1].strip()
        target = line_no if before else _next_content_line(lines, line_no)
        directives.append(Directive(verb, line_no, col, end_col, target,
                                    None if codes is None else frozenset(codes), named, reason.strip()))
    return directives, errors


def _covering(d: Diagnostic, directives: list[Directive]) -> Directive | None:
    """The directive that turns `d` off, if any."""
    code = d.code
    for x in directives:
        if x.verb == "disable-file" and (x.codes is None or code in x.codes):
            return x
        if x.verb == "disable-line" and x.target == d.line and (x.codes is None or code in x.codes):
            return x
    owner: Directive | None = None  # ranges: replay disable/enable up to the finding's line
    for x in directives:
        if x.line > d.line:
            break
        if x.verb == "disable" and (x.codes is None or code in x.codes):
            owner = x
        elif x.verb == "enable" and (x.codes is None or code in x.codes):
            owner = None
    return owner


def apply_suppressions(diagnostics: list[Diagnostic], text: str, path: str, selection: Selection) -> list[Diagnostic]:
    """The file's diagnostics minus the suppressed ones, plus M001/M002 for useless directives."""
    if MARKER not in text:
        return diagnostics
    directives, errors = parse(text)
    kept: list[Diagnostic] = []
    unreadable = False
    for d in diagnostics:
        allowed = suppressible(RULES.get(d.code))
        unreadable |= not allowed and d.code[0] in "YS"
        x = _covering(d, directives) if allowed else None
        if x is None:
            kept.append(d)
        else:
            x.used.add(d.code)
    meta = list(_meta(directives, errors, path, selection, unreadable))
    naming = [x for x in directives if x.codes is not None]  # only a comment naming M codes hides them
    return kept + [m for m in meta if _covering(m, naming) is None]


def _ran(codes: Iterable[str], path: str, selection: Selection) -> bool:
    return any(selection.allows(c, path) for c in codes)


def _meta(directives: list[Directive], errors, path: str, selection: Selection, unreadable: bool) -> Iterable[Diagnostic]:
    invalid, unused = RULES.get("M002"), RULES.get("M001")
    if selection.allows("M002", path):
        for line, col, end_col, message in errors:
            yield Diagnostic(path, line, col, invalid.code, invalid.name, selection.severity_of(invalid), message,
                             line, end_col)
    if not selection.allows("M001", path) or unreadable:
        return  # no rule ran on a file that is not a valid question: nothing can be judged unused
    for x in directives:
        if x.verb == "enable":
            continue
        if x.codes is None:
            ran = (c for c in selection.enabled if c not in META and suppressible(RULES.get(c)))
            if x.used or not _ran(ran, path, selection):
                continue
            message = f"'{x.verb}' comment suppresses nothing"
        else:
            idle = []
            for item in x.named:
                try:
                    expanded = {c for c in expand_all([item]) if c in x.codes} - set(META)
                except SelectionError:
                    continue
                if expanded and not (expanded & x.used) and _ran(expanded, path, selection):
                    idle.append(item)
            if not idle:
                continue
            message = f"'{x.verb}' comment suppresses nothing for {', '.join(idle)}"
        yield Diagnostic(path, x.line, x.col, unused.code, unused.name, selection.severity_of(unused),
                         message + "; remove it", x.line, x.end_col)
