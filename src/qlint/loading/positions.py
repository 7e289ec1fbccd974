"""JSON pointer -> YAML line and column, from ruamel.yaml's node tree (read only when needed)."""

from __future__ import annotations

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
        node = self._root
        if node is None:
            return Span(1, 1, 1, 1)
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
        return self._span(node)

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
