"""JSON pointer -> YAML line and column, from libyaml's node marks (read only when needed).

`Locator` composes with libyaml's C composer; `RuamelLocator` is the former pure-Python one (ten
times slower), kept as the reference the equality test holds `Locator` to and as the fallback
for text libyaml rejects. Both share every step after composing, so they answer alike.
"""

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


class RuamelLocator:
    """Composes the file once with ruamel.yaml and answers pointer lookups."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._lines = text.splitlines()
        self._shift = 0  # source index of a node's mark index 0
        self._root = self._compose(text)

    def _compose(self, text: str) -> Any:
        from ruamel.yaml import YAML
        from ruamel.yaml.error import YAMLError

        try:
            return YAML(typ="rt").compose(text)
        except (YAMLError, RecursionError, ValueError):
            return None

    @staticmethod
    def _kinds() -> tuple[type, type]:
        from ruamel.yaml.nodes import MappingNode, SequenceNode

        return MappingNode, SequenceNode

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
        exact = self._locate_exact(node, value, offset)
        if exact is not None or value[offset] not in " \t" or node.style == '"':
            return exact or self._span(node)
        # a block scalar's indentation hides which blank is which: count from the last visible
        # character before it on its line (a trailing space is written right after it)
        before = len(value[:offset].rstrip(" \t"))
        seen = self._locate_exact(node, value, before - 1) if before and value[before - 1] != "\n" else None
        if seen is None:
            return self._span(node)
        shift = offset - before + 1
        return Span(seen.line, seen.col + shift, seen.end_line, seen.end_col + shift)

    def _locate_exact(self, node: Any, value: str, offset: int) -> Span | None:
        """Character `offset` of `value` where the source writes it one for one, else None."""
        ch, nth = value[offset], value.count(value[offset], 0, offset)
        start, end = node.start_mark, node.end_mark
        raw = self._text[start.index + self._shift:end.index + self._shift]
        places = [m.start() for m in re.finditer(re.escape(ch), raw)]
        if node.style == '"':  # written as an escape: \u202e, \U000e0041, \xad
            escape = re.compile(rf"\\(?:x|u|U)0*{ord(ch):X}(?![0-9a-fA-F])", re.I)
            places = sorted(places + [m.start() for m in escape.finditer(raw)])
        if len(places) != value.count(ch):
            return None
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
        MappingNode, SequenceNode = self._kinds()
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


_ODD_BREAKS = re.compile("[\x85\u2028\u2029]|(?<!^)\ufeff")  # counted apart by the two parsers


def _odd_breaks(text: str) -> bool:
    """`_ODD_BREAKS.search(text)`, without scanning ASCII text (the lookbehind made the regex
    scan 3 KB in ~200 us: 0.3 s of a 2,000-file run)."""
    return not text.isascii() and _ODD_BREAKS.search(text) is not None
_BLANK_REST = re.compile(r"[ \t]*(?:\r\n|[\r\n]|$)")
_SKIP_LINE = re.compile(r"[ \t]*(?:#[^\r\n]*)?(?:\r\n|[\r\n])")
_SPACES = re.compile(r"[ \t]*")


class Locator(RuamelLocator):
    """The same lookups over libyaml's nodes: PyYAML's C composer gives nodes the marks ruamel.yaml
    gives (line and column in code points, block scalars ending at the start of the line after
    their last break), at C speed, except where an empty value sits (see `_empty_at`). Text with
    NEL, LS, PS or an inner BOM (the two parsers count lines and columns apart there) and text
    libyaml rejects go to ruamel.yaml, the reference."""

    def _compose(self, text: str) -> Any:
        import yaml

        if _odd_breaks(text):
            return RuamelLocator._compose(self, text)
        try:
            root = yaml.compose(text, Loader=_CLoader)
        except (yaml.YAMLError, RecursionError, ValueError):
            return RuamelLocator._compose(self, text)
        if text.startswith("\ufeff"):
            self._shift = 1  # libyaml drops a leading BOM before counting; ruamel counts it in the index
        return root

    def _kinds(self) -> tuple[type, type]:  # type: ignore[override]
        if not self._libyaml():
            return RuamelLocator._kinds()
        from yaml.nodes import MappingNode, SequenceNode

        return MappingNode, SequenceNode

    def _libyaml(self) -> bool:
        return self._root is not None and type(self._root).__module__.startswith("yaml")

    def _span(self, node: Any) -> Span:
        if self._libyaml() and node.value == "" and not node.style and node.start_mark.index == node.end_mark.index:
            line, col = self._empty_at(node.start_mark)
            return Span(line + 1, col + 1, line + 1, col + 1)
        return super()._span(node)

    def _empty_at(self, mark: Any) -> tuple[int, int]:
        """Where ruamel.yaml puts an empty value. libyaml puts it just past a block mapping's ':'
        and at the token after a flow mapping's ':'; ruamel at the next token when the ':' ends
        its line (blank and comment lines skipped), and just past the ':' in flow."""
        text, at = self._text, mark.index + self._shift
        line, col = mark.line, mark.column
        if at > 0 and text[at - 1] == ":":
            if _BLANK_REST.match(text, at) is None:
                return line, col
            while True:  # to the next token
                m = _SKIP_LINE.match(text, at)
                if m is None:
                    break
                at = m.end()
                line, col = line + 1, 0
            if line == mark.line:  # blank rest of the last line
                return line, col
            return line, _SPACES.match(text, at).end() - at
        if at < len(text) and text[at] in ",}]":
            back = at
            while back > 0 and text[back - 1] in " \t\r\n":
                back -= 1
            if back > 0 and text[back - 1] == ":":
                crossed = text[back:at]
                breaks = crossed.count("\n") + crossed.count("\r") - crossed.count("\r\n")
                if not breaks:
                    return line, col - (at - back)
                start = max(text.rfind("\n", 0, back), text.rfind("\r", 0, back)) + 1
                return line - breaks, back - start - (self._shift if start == 0 else 0)
        return line, col


try:
    from yaml.cyaml import CParser

    class _CLoader(CParser):  # type: ignore[misc]
        """libyaml's composer with no tag resolution: the lookups read marks, styles and values,
        never tags, and resolving every plain scalar's tag in Python was two fifths of composing
        (101 -> 62 us a file). tests/test_positions.py holds the lookups to ruamel.yaml's on the
        sample bank, the fixtures, a generated bank and the real corpora."""

        def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
            return ""

        def descend_resolver(self, *args: Any) -> None:
            pass

        def ascend_resolver(self, *args: Any) -> None:
            pass
except ImportError:  # pragma: no cover - PyYAML wheels ship libyaml
    from yaml import SafeLoader as _CLoader  # type: ignore[assignment]
