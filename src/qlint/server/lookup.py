"""Hover, completion and go to definition, read from the project the server holds: the rule
docs `qlint rule CODE` prints, the ids of the bank's questions and case studies in the index,
the exam codes, domain ids and task statement ids of the exam definitions."""

from __future__ import annotations

import re
from typing import Any

from lsprotocol import types as lsp
from pygls.uris import from_fs_path

from qlint.rules import by_name_or_code
from qlint.rules.docs import render
from qlint.server.convert import from_lsp_position, lines_of, position, to_lsp
from qlint.server.project import Project, project_of

_WORD = re.compile(r"[A-Za-z0-9_.:-]+")
_KEY = re.compile(r"^\s*(?:-\s+)?([A-Za-z_][\w-]*)\s*:(?:\s|$)")
QUESTION_KEYS = ("related", "replaced_by")


def _context(ls: Any, uri: str) -> tuple[str, Project, list[str]] | None:
    opened = project_of(ls, uri)
    if opened is None:
        return None
    path, project = opened
    return path, project, lines_of(ls.workspace.get_text_document(uri).source)


def _word_at(line: str, col: int) -> tuple[str, int, int]:
    """The id-like word around 1-based `col` (from, to: 0-based, end exclusive)."""
    for m in _WORD.finditer(line):
        if m.start() <= col - 1 <= m.end():
            return m.group().rstrip(",:"), m.start(), m.start() + len(m.group().rstrip(",:"))
    return "", col - 1, col - 1


def key_of(lines: list[str], row: int, col: int) -> str:
    """The mapping key whose value the 1-based (`row`, `col`) lies in: `related: [a, b]` on the
    line, or the key above a block list (`related:` then `  - a`)."""
    line = lines[row - 1]
    m = _KEY.match(line)
    if m and col - 1 > line.index(":", m.start(1)):
        return m.group(1)
    if line.lstrip().startswith("-"):
        indent = len(line) - len(line.lstrip())
        for above in reversed(lines[: row - 1]):
            if not above.strip() or above.lstrip().startswith("#"):
                continue
            here = len(above) - len(above.lstrip())
            m = _KEY.match(above)
            if m and here <= indent and not above.lstrip().startswith("-"):
                return m.group(1)
            if here < indent:
                break
    return ""


def hover(ls: Any, params: lsp.HoverParams) -> lsp.Hover | None:
    """The docs of the rules whose findings cover the position, or of the rule a suppression
    comment names there."""
    found = _context(ls, params.text_document.uri)
    if found is None:
        return None
    path, project, lines = found
    encoding = ls.workspace.position_encoding
    row, col = from_lsp_position(lines, params.position, encoding)
    line = lines[row - 1]
    comment = line.find("#")
    if comment >= 0 and "qlint:" in line[comment:] and col - 1 > comment:
        word, start, end = _word_at(line, col)
        rule = by_name_or_code(word) if word else None
        if rule is not None:
            rng = lsp.Range(position(lines, row, start + 1, encoding), position(lines, row, end + 1, encoding))
            return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, render(rule)), rng)
    diagnostics, _ = project.check(path, ls.workspace.get_text_document(params.text_document.uri).source)
    pages = []
    for d in diagnostics:
        r = to_lsp(d, lines, encoding).range
        if (r.start.line, r.start.character) <= (params.position.line, params.position.character) <= (r.end.line, r.end.character):
            rule = by_name_or_code(d.code)
            if rule is not None and rule.doc:
                pages.append(render(rule))
    if not pages:
        return None
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, "\n---\n\n".join(dict.fromkeys(pages))))


def _ids(project: Project, kind: str) -> dict[str, str]:
    """id -> absolute path of the bank's questions (`kind` "question") or case studies ("case")."""
    out: dict[str, str] = {}
    for path, r in project.index.items():
        if r.kind == kind and r.entry is not None and isinstance(r.entry.id, str):
            out.setdefault(r.entry.id, path)
    return out


def _exam_code(lines: list[str]) -> str:
    for line in lines:
        m = re.match(r"^exam:\s*['\"]?([^'\"#\s]+)", line)
        if m:
            return m.group(1)
    return ""


def _at_cursor(ls: Any, params: Any) -> tuple[str, Project, list[str], int, int, str] | None:
    """(path, project with its index built, lines, row, col, the key the cursor's value belongs to)."""
    found = _context(ls, params.text_document.uri)
    if found is None:
        return None
    path, project, lines = found
    ls.ensure_index(project)
    row, col = from_lsp_position(lines, params.position, ls.workspace.position_encoding)
    return path, project, lines, row, col, key_of(lines, row, col)


def completion(ls: Any, params: lsp.CompletionParams) -> lsp.CompletionList | None:
    found = _at_cursor(ls, params)
    if found is None:
        return None
    path, project, lines, row, col, key = found
    exams = project.settings.exams
    exam = exams.get(_exam_code(lines))
    items: list[tuple[str, str]] = []  # (label, detail)
    if key in QUESTION_KEYS:
        held = project.index.get(path)
        own = held.entry.id if held is not None and held.entry is not None else None
        items = [(i, "question") for i in sorted(_ids(project, "question")) if i != own]
    elif key == "case":
        items = [(i, "case study") for i in sorted(_ids(project, "case"))]
    elif key == "exam":
        items = [(code, e.name) for code, e in sorted(exams.items())]
    elif key == "domain":
        for e in [exam] if exam else exams.values():
            items += [(d.id, f"{e.code}: {d.name}") for d in e.domains]
    elif key == "tasks":
        for e in [exam] if exam else exams.values():
            items += [(t.id, f"{e.code} {t.domain}: {t.text}") for t in e.guide.tasks]
    if not key or not items:
        return None
    kind = lsp.CompletionItemKind.Reference if key in QUESTION_KEYS + ("case",) else lsp.CompletionItemKind.EnumMember
    return lsp.CompletionList(False, [lsp.CompletionItem(label, kind=kind, detail=detail) for label, detail in items])


def definition(ls: Any, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
    """From an id in `related:`, `replaced_by:` or `case:` to the file defining it."""
    found = _at_cursor(ls, params)
    if found is None:
        return None
    _, project, lines, row, col, key = found
    if key not in QUESTION_KEYS + ("case",):
        return None
    word, _, _ = _word_at(lines[row - 1], col)
    target = _ids(project, "case" if key == "case" else "question").get(word.strip("'\""))
    if target is None:
        return None
    r = project.index[target]
    at = lsp.Position(0, 0)
    for n, line in enumerate(lines_of(r.text)):
        if re.match(r"^id:\s", line):
            at = lsp.Position(n, 0)
            break
    return [lsp.Location(from_fs_path(target) or "", lsp.Range(at, at))]
