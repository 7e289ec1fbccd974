"""Code actions: the fixes `qlint check --fix` would apply, one at a time or all safe ones of the
file at once (the same `fix_text` rounds, so the bytes are those --fix writes), unsafe fixes
labelled so, and a suppression comment for the finding's line, kept only when it works."""

from __future__ import annotations

from collections import Counter
from typing import Any

from lsprotocol import types as lsp

from qlint.authoring.fixing import FixReport, apply_fix, fix_text
from qlint.authoring.yamledit import EditError
from qlint.diagnostic import Diagnostic
from qlint.lint.suppression import parse, suppressible
from qlint.rules import RULES
from qlint.server.convert import lines_of, to_lsp, units
from qlint.server.project import Project, inside, project_of


def replace_edit(old: str, new: str, encoding: str) -> lsp.TextEdit:
    """One edit turning `old` into `new`: the changed middle only (cursor and folds stay put)."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old, end_new = end_old - 1, end_new - 1
    if 0 < start < len(old) and old[start - 1] == "\r" and old[start] == "\n":  # never split a CRLF
        start -= 1
    if 0 < end_old < len(old) and old[end_old - 1] == "\r" and old[end_old] == "\n":
        end_old, end_new = end_old + 1, end_new + 1
    return lsp.TextEdit(lsp.Range(_at(old, start, encoding), _at(old, end_old, encoding)), new[start:end_new])


def _at(text: str, offset: int, encoding: str) -> lsp.Position:
    lines = lines_of(text[:offset])
    return lsp.Position(len(lines) - 1, units(lines[-1], len(lines[-1]), encoding))


def _touches(d: Diagnostic, lines: list[str], rng: lsp.Range, encoding: str) -> bool:
    got = to_lsp(d, lines, encoding).range
    return (got.start.line, got.start.character) <= (rng.end.line, rng.end.character) and \
        (rng.start.line, rng.start.character) <= (got.end.line, got.end.character)


def _action(title: str, kind: str, uri: str, version: int | None, old: str, new: str, encoding: str,
            diagnostics: list[lsp.Diagnostic] | None = None, preferred: bool = False) -> lsp.CodeAction:
    edit = lsp.TextDocumentEdit(lsp.OptionalVersionedTextDocumentIdentifier(uri, version),
                                [replace_edit(old, new, encoding)])
    return lsp.CodeAction(title, kind=kind, diagnostics=diagnostics, is_preferred=preferred or None,
                          edit=lsp.WorkspaceEdit(document_changes=[edit]))


def code_actions(ls: Any, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
    uri = params.text_document.uri
    opened = project_of(ls, uri)
    if opened is None:
        return None
    path, project = opened
    doc = ls.workspace.get_text_document(uri)
    text, version, encoding = doc.source, doc.version, ls.workspace.position_encoding
    found, _ = project.check(path, text)
    lines = lines_of(text)
    only = params.context.only
    out: list[lsp.CodeAction] = []
    wanted = [d for d in found if _touches(d, lines, params.range, encoding)]
    settings = project.settings
    if not only or any(k.startswith(lsp.CodeActionKind.QuickFix) for k in only):
        for d in wanted:
            shown = [to_lsp(d, lines, encoding)]
            if d.fix is not None and RULES.get(d.code).fixable:
                try:
                    with inside(project.root):
                        new = apply_fix(text, d, settings)
                except EditError:
                    new = text
                if new != text:
                    label = f"Fix {d.code}: {d.fix.description}" if d.fix.safe else \
                        f"Fix {d.code} (unsafe: check the result): {d.fix.description}"
                    out.append(_action(label, lsp.CodeActionKind.QuickFix, uri, version, text, new, encoding,
                                       shown, preferred=d.fix.safe))
            quiet = suppression(project, path, text, d)
            if quiet is not None:
                out.append(_action(f"Suppress {d.code} on line {d.line} with a qlint comment",
                                   lsp.CodeActionKind.QuickFix, uri, version, text, quiet, encoding, shown))
    if not only or any(lsp.CodeActionKind.SourceFixAll.startswith(k) or k.startswith(lsp.CodeActionKind.SourceFixAll)
                       or k == lsp.CodeActionKind.QuickFix for k in only):
        fixed = fix_all(project, path, text)
        if fixed is not None and fixed != text:
            out.append(_action("Fix all safe qlint fixes in this file", lsp.CodeActionKind.SourceFixAll + ".qlint",
                               uri, version, text, fixed, encoding))
    return out


def fix_all(project: Project, path: str, text: str, unsafe: bool = False) -> str | None:
    """`text` after every fix --fix (with --unsafe-fixes: `unsafe`) applies; None if a rule failed."""
    with inside(project.root):
        return fix_text(path, text, project.settings, unsafe, FixReport())


def suppression(project: Project, path: str, text: str, d: Diagnostic) -> str | None:
    """`text` with a `# qlint: disable-line CODE` comment that turns `d` off: at the end of its
    line, else alone on the line above; None when neither works (a line inside a block scalar)."""
    if not suppressible(RULES.get(d.code)) or d.code.startswith("M"):
        return None
    lines = text.splitlines(keepends=True)
    if not 1 <= d.line <= len(lines):
        return None
    row = d.line - 1
    line = lines[row]
    body = line.rstrip("\r\n")
    ending = line[len(body):] or ("\n" if row + 1 < len(lines) else "")
    comment = f"# qlint: disable-line {d.code}"
    candidates = []
    if "#" not in body:
        candidates.append((row + 1, "".join(lines[:row]) + f"{body.rstrip()}  {comment}{ending}" + "".join(lines[row + 1:])))
    indent = body[: len(body) - len(body.lstrip())]
    candidates.append((row + 1, "".join(lines[:row]) + f"{indent}{comment}{ending or chr(10)}" + "".join(lines[row:])))
    before = Counter(x.code for x in project.check(path, text)[0])
    for at, new in candidates:
        directives, errors = parse(new)
        if errors or not any(x.codes and d.code in x.codes and x.verb == "disable-line" for x in directives):
            continue
        after = Counter(x.code for x in project.check(path, new)[0])
        if after[d.code] < before[d.code] and all(after[c] <= before[c] for c in after if c != d.code):
            return new
    return None
