"""Plain advice for the YAML mistakes a new author makes first (issue 28 point 8).

The parser's words ("mapping values are not allowed here", "found character '\\t' that cannot
start any token") name a grammar rule, not the fix, and an unclosed quote is reported where the
parser ran out of text, often the end of the file. Each function here reads a file that already
failed to parse and returns (line, col, advice) for one such mistake, or None; the caller keeps
the parser's words after the advice.
"""

from __future__ import annotations

import re

# A line that reads as a mapping key (`key:`, `- key: value`): inside a quoted scalar, it means
# the quote swallowed the question's structure.
_KEY_LINE = re.compile(r"( *)(?:- +)*[A-Za-z_][\w-]*:(?: |$)")
_KEY_AT = re.compile(r" *(?:- +)*((?:[A-Za-z_][\w-]*)):[ \t]+")


def tab(text: str, line: int, col: int) -> tuple[int, int, str] | None:
    """A tab where the parser stopped: YAML indents with spaces only."""
    row = _line(text, line)
    if col - 1 >= len(row) or row[col - 1] != "\t":
        return None
    if not row[:col - 1].strip(" \t"):
        return line, col, "this line is indented with a tab; YAML allows only spaces there: indent with spaces"
    return line, col, "a tab cannot separate the parts of a YAML line: use spaces"


def colon(text: str, line: int, col: int) -> tuple[int, int, str] | None:
    """`key: text with: a colon`: the second `: ` reads as a new key inside plain text."""
    row = _line(text, line)
    if col - 1 >= len(row) or row[col - 1] != ":":
        return None
    key = _KEY_AT.match(row)
    mark = "': '" if row[col:col + 1] in (" ", "\t") else "a ':' at the end of the line"
    if key is not None and key.end() <= col - 1:
        where = f"the text of '{key[1]}' contains {mark}"
    else:
        where = f"this line continues the plain text above it, and its {mark}"
    return line, col, (f"{where}, which YAML reads as the start of a new key: quote this text "
                       "(put it in double quotes) or write it as a block ('key: |' and the text on the next lines)")


def after_quote(text: str, line: int, col: int) -> tuple[int, int, str] | None:
    """`text: "Data parallelism" is here`: a value that opens with a quote ends at the closing one,
    and the parser stops at the words after it."""
    row = _line(text, line)
    before = row[:col - 1].rstrip(" ")
    key = _KEY_AT.match(row)
    if not before or before[-1] not in "\"'" or key is None or row[key.end():key.end() + 1] != before[-1] \
            or key.end() >= len(before) - 1:
        return None
    return line, key.end() + 1, (
        f"the text of '{key[1]}' starts with a quote, so it ends at the closing quote and YAML cannot read the "
        "words after it: quote the whole text (single quotes around a text with double quotes in it) or write "
        "it as a block ('key: |' and the text on the next lines)")


def unclosed_quote(text: str, line: int) -> tuple[int, int, str] | None:
    """A quote opened before the parser's error line and never closed on its own line: YAML reads
    on to the next quote mark or the end of the file and reports the error there, lines later."""
    from ruamel.yaml import YAML  # imported on demand, as for the parser's own message
    from ruamel.yaml.error import MarkedYAMLError

    lines = text.split("\n")
    try:
        for token in YAML(typ="rt").scan(text):
            start, end = token.start_mark, token.end_mark
            if start.line + 1 > line:
                return None
            if getattr(token, "style", None) in ('"', "'") and end.line > start.line \
                    and _swallows(lines, start.line, end.line):
                return start.line + 1, start.column + 1, _quote_advice(token.style, f"line {end.line + 1}")
    except MarkedYAMLError as exc:
        mark = exc.context_mark
        if exc.context == "while scanning a quoted scalar" and mark is not None:
            quote = lines[mark.line][mark.column] if mark.column < len(lines[mark.line]) else '"'
            return mark.line + 1, mark.column + 1, _quote_advice(quote, "the end of the file")
    except (RecursionError, ValueError):
        return None
    return None


def _swallows(lines: list[str], first: int, last: int) -> bool:
    """A line inside the quoted text (0-based `first` < n <= `last`) that looks like a key no deeper
    than the line the quote opened on: a real multi-line quote is indented under its key."""
    opener = len(lines[first]) - len(lines[first].lstrip(" "))
    for row in lines[first + 1:last + 1]:
        found = _KEY_LINE.match(row)
        if found and len(found[1]) <= opener:
            return True
    return False


def _quote_advice(quote: str, until: str) -> str:
    mark = "double quote (\")" if quote == '"' else "single quote (')"
    return (f"unclosed quote: the {mark} that opens this text is not closed on this line, so YAML reads "
            f"everything up to {until} as part of it: close the quote at the end of the text")


def _line(text: str, line: int) -> str:
    rows = text.split("\n")
    return rows[line - 1] if 0 < line <= len(rows) else ""
