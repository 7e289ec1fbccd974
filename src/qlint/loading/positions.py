"""JSON pointer -> YAML line and column, from ruamel.yaml's node tree (read only when needed)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any



@dataclass(frozen=True)
class Span:
    """1-based, inclusive start and end."""

    line: int
    col: int
    end_line: int
    end_col: int


def split_pointer(pointer: str) -> list[str]:
    if not pointer:
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.lstrip("/").split("/")]


def join_pointer(parts: list[Any]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def yaml_error(text: str) -> tuple[str, int, int] | None:
    """ruamel.yaml's own account of a syntax error: (message, line, col), or None if it parses."""
    from ruamel.yaml import YAML  # imported on demand: clean files never need it
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        for _ in YAML(typ="rt").compose_all(text):
            pass
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = exc.problem or str(exc)
        if exc.context:
            message = f"{message} ({exc.context})"
        return message, (mark.line + 1 if mark else 1), (mark.column + 1 if mark else 1)
    except RecursionError:
        return "nesting too deep to parse (max-depth)", 1, 1
    except (YAMLError, ValueError) as exc:
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 1, 1
    return None


class Locator:
    """Composes the file once with ruamel.yaml and answers pointer lookups."""

    def __init__(self, text: str) -> None:
        from ruamel.yaml import YAML
        from ruamel.yaml.error import YAMLError

        self._text = text
        self._lines = text.splitlines()
        try:
            self._root = YAML(typ="rt").compose(text)
        except (YAMLError, RecursionError, ValueError):
            self._root = None

    def _span(self, node: Any) -> Span:
        s, e = node.start_mark, node.end_mark
        end_line, end_col = e.line + 1, e.column
        # Block scalars end at the start of the next line: step back to the last text char.
        while end_col == 0 and end_line > s.line + 1:
            end_line -= 1
            end_col = len(self._lines[end_line - 1]) if end_line - 1 < len(self._lines) else 0
            if end_col:
                break
        return Span(s.line + 1, s.column + 1, end_line, max(end_col, s.column + 1) if end_line == s.line + 1 else max(end_col, 1))

    def locate(self, pointer: str, at_key: bool = False) -> Span:
        """Where the value at `pointer` sits; `at_key` for the key itself. Missing parts stop at the parent."""
        node = self._node(pointer, at_key)
        return Span(1, 1, 1, 1) if node is None else self._span(node)

    def locate_char(self, pointer: str, offset: int, at_key: bool = False) -> Span:
        """Where character `offset` of the string at `pointer` is written in the source: the same
        character counted in the scalar's source text, or its escape in a double-quoted scalar.
        Falls back to the whole value when the source does not show it one for one."""
        node = self._node(pointer, at_key)
        if node is None:
            return Span(1, 1, 1, 1)
        value = node.value
        if node.style == ">" and isinstance(value, str):
            value = value.replace("\a", "")  # ruamel.yaml marks each fold of a folded scalar with BEL
        if not isinstance(value, str) or not 0 <= offset < len(value):
            return self._span(node)
        ch, nth = value[offset], value.count(value[offset], 0, offset)
        start, end = node.start_mark, node.end_mark
        raw = self._text[start.index:end.index]
        places = [m.start() for m in re.finditer(re.escape(ch), raw)]
        if node.style == '"':  # written as an escape: \u202e, \U000e0041, \xad
            escape = re.compile(rf"\\(?:x|u|U)0*{ord(ch):X}(?![0-9a-fA-F])", re.I)
            places = sorted(places + [m.start() for m in escape.finditer(raw)])
        if len(places) != value.count(ch):
            return self._span(node)
        line, col = start.line, start.column
        i = 0
        at = places[nth]
        while i < at:  # step as ruamel.yaml counts lines, so the column agrees with other findings
            c = raw[i]
            i += 1
            if c in "\n\x85\u2028\u2029" or (c == "\r" and raw[i:i + 1] != "\n"):
                line, col = line + 1, 0
            else:
                col += 1
        return Span(line + 1, col + 1, line + 1, col + 1)

    def _node(self, pointer: str, at_key: bool) -> Any:
        node = self._root
        if node is None:
            return None
        from ruamel.yaml.nodes import MappingNode, SequenceNode

        parts = split_pointer(pointer)
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            if isinstance(node, MappingNode):
                for key, value in node.value:
                    if str(key.value) == part:
                        node = key if (last and at_key) else value
                        break
                else:
                    break
            elif isinstance(node, SequenceNode) and part.isdigit() and int(part) < len(node.value):
                node = node.value[int(part)]
            else:
                break
        return node

    def find(self, span: Span, needle: str) -> Span:
        """Where `needle` first appears within `span` (say an image path inside a stem), else `span`."""
        if not needle:
            return span
        for n in range(span.line, min(span.end_line, len(self._lines)) + 1):
            start = span.col - 1 if n == span.line else 0
            at = self._lines[n - 1].find(needle, start)
            if at >= 0:
                return Span(n, at + 1, n, at + len(needle))
        return span
