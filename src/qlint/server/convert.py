"""qlint's diagnostics as LSP diagnostics: positions, severity, code and its documentation link.

qlint counts lines from 1 and columns in code points from 1, its end the last character
(inclusive); LSP counts both from 0, its end exclusive, and its columns in the code units the
client negotiated (UTF-16 unless it offers UTF-32 or UTF-8).
"""

from __future__ import annotations

import os
import re

from lsprotocol import types as lsp
from pygls.uris import to_fs_path

from qlint.diagnostic import Diagnostic, Severity
from qlint.reports._common import RULE_DOCS_URL

SOURCE = "qlint"
YAML_SUFFIXES = (".yaml", ".yml")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # the line ends LSP counts (no NEL, LS or PS)
SEVERITY = {Severity.ERROR: lsp.DiagnosticSeverity.Error, Severity.WARNING: lsp.DiagnosticSeverity.Warning,
            Severity.INFO: lsp.DiagnosticSeverity.Information}


def lines_of(text: str) -> list[str]:
    return _LINE_BREAK.split(text)


def units(line: str, chars: int, encoding: str) -> int:
    """Code units of the first `chars` code points of `line` in the position encoding."""
    head = line[:chars]
    if encoding == lsp.PositionEncodingKind.Utf32:
        return len(head) + max(0, chars - len(line))
    if encoding == lsp.PositionEncodingKind.Utf8:
        return len(head.encode("utf-8", "surrogatepass")) + max(0, chars - len(line))
    return len(head.encode("utf-16-le", "surrogatepass")) // 2 + max(0, chars - len(line))


def chars(line: str, count: int, encoding: str) -> int:
    """Code points of `line` that the first `count` code units cover (the inverse of `units`)."""
    if encoding == lsp.PositionEncodingKind.Utf32:
        return count
    n = 0
    for i, c in enumerate(line):
        n += len(c.encode("utf-8", "surrogatepass")) if encoding == lsp.PositionEncodingKind.Utf8 else (2 if ord(c) > 0xFFFF else 1)
        if n > count:
            return i
    return len(line)


def position(lines: list[str], line: int, col: int, encoding: str) -> lsp.Position:
    """The LSP position before the code point at 1-based (`line`, `col`)."""
    row = min(max(line, 1), len(lines)) - 1
    return lsp.Position(row, units(lines[row], max(col, 1) - 1, encoding))


def to_lsp(d: Diagnostic, lines: list[str], encoding: str) -> lsp.Diagnostic:
    start = position(lines, d.line, d.col, encoding)
    end_line, end_col = d.end_line or d.line, d.end_col or d.col
    end = position(lines, end_line, end_col + 1, encoding)  # after the last character
    if (end.line, end.character) < (start.line, start.character):
        end = start
    return lsp.Diagnostic(
        range=lsp.Range(start, end),
        message=d.message + (f" ({d.name})" if d.name else ""),
        severity=SEVERITY[d.severity],
        code=d.code,
        code_description=lsp.CodeDescription(href=RULE_DOCS_URL.format(code=d.code)),
        source=SOURCE,
        data={"pointer": d.pointer, "fixable": d.fix is not None},
    )


def from_lsp_position(lines: list[str], pos: lsp.Position, encoding: str) -> tuple[int, int]:
    """1-based (line, col) in code points of an LSP position."""
    row = min(max(pos.line, 0), len(lines) - 1)
    return row + 1, chars(lines[row], pos.character, encoding) + 1


def file_path(uri: str) -> str | None:
    """The local YAML file a document uri names (absolute); None for other schemes and files."""
    if not uri.startswith("file:"):
        return None
    path = to_fs_path(uri)
    return os.path.abspath(path) if path and path.endswith(YAML_SUFFIXES) else None
