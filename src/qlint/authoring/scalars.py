"""How one value is written: the formatter's scalar style rule, in one place.

The rule (docs/authoring.md repeats it for authors):

1. A quoted string written on one line is kept exactly as written: the author's quoting survives.
2. Text with a line break inside it is a literal block (`|`, or `|-` without a final newline).
3. Single-line text that fits on its `key: value` line stays inline (plain unless it needs quotes).
4. Single-line text that does not fit is a folded block (`>-`, or `>` with a final newline),
   wrapped at spaces to the line width; folding at single spaces loses nothing.
5. Text a block cannot carry unchanged (trailing spaces on a line, tabs or spaces at the start,
   two or more final newlines, control characters) stays inline, quoted where needed.

Numbers, booleans and dates are written as the author wrote them.
"""

from __future__ import annotations

import io
import json
import re
from functools import lru_cache
from typing import Any

import yaml
from ruamel.yaml import YAML

from qlint.loading.fast import FastPathError, load_fast
from qlint.loading.errors import LoadError
from qlint.loading.limits import Limits
from qlint.authoring.yamldoc import Scalar

_LIMITS = Limits()
try:  # libyaml's loader when built with it; the pure one resolves the same 1.1 types
    from yaml import CSafeLoader as _Yaml11Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Yaml11Loader  # type: ignore[assignment]


def _printable(ch: str) -> bool:
    """YAML's printable set, minus the characters YAML 1.1 readers take as line breaks."""
    o = ord(ch)
    if ch == "\n" or 0x20 <= o <= 0x7E:
        return True
    return (0xA0 <= o <= 0xD7FF and ch not in "\u2028\u2029") or (0xE000 <= o <= 0xFFFD and o != 0xFEFF) or o >= 0x10000


def _trailing_newlines(s: str) -> int:
    return len(s) - len(s.rstrip("\n"))


def literal_safe(s: str, trailing_ok: bool = False) -> bool:
    """True when a literal block reproduces `s` exactly and visibly (`trailing_ok`: the author
    already keeps trailing spaces in a block, so a block may keep carrying them)."""
    body = s.rstrip("\n")
    if not body.strip() or _trailing_newlines(s) > 1 or not all(map(_printable, s)):
        return False
    lines = body.split("\n")
    first = next(ln for ln in lines if ln)
    if first[0] in " \t":
        return False  # would need an indentation indicator
    return not any((not trailing_ok and ln != ln.rstrip(" \t")) or ln.startswith("\t") for ln in lines)


def fold_safe(s: str) -> bool:
    """True when a folded block reproduces `s`: one line, single spaces, no edge spaces."""
    body = s.rstrip("\n")
    return literal_safe(s) and "\n" not in body and "  " not in body and body == body.strip()


_DUMPER = YAML()
_DUMPER.width = 1 << 16


def _dump_inline(value: Any) -> str:
    buf = io.StringIO()
    _DUMPER.dump({"k": value}, buf)
    return buf.getvalue()[3:].rstrip("\n")


@lru_cache(maxsize=4096)
def render_inline(value: Any) -> str:
    """`value` on one line: plain when YAML reads it back unchanged, quoted otherwise. "Back
    unchanged" holds for YAML 1.2 (qlint) and for YAML 1.1 readers too (PyYAML and the tools
    built on it), which take plain `no`, `on` or `1_000` for a boolean or a number."""
    text = _dump_inline(value)
    try:
        if "\n" not in text and load_fast(f"k: {text}\n", _LIMITS) == {"k": value} and _yaml11(text) == value:
            return text
    except (FastPathError, LoadError):
        pass
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid YAML double-quoted scalar


_RESOLVER = yaml.resolver.Resolver()  # PyYAML's YAML 1.1 implicit types (bool, int, float, null, ...)
_STR = "tag:yaml.org,2002:str"
# One line of characters both readers take the same way: no line breaks of either version
# (NEL, LS, PS), no BOM, no tab, no control character.
_ONE_LINE = re.compile(r"[^\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]+\Z")


def retyped_by_yaml11(value: str) -> bool:
    """A YAML 1.1 reader would not read `value`, written plain, back as this text."""
    if value == value.strip() and _ONE_LINE.match(value) and _RESOLVER.resolve(yaml.ScalarNode, value, (True, False)) == _STR:
        # Text no 1.1 implicit type claims reads back as itself whether the writer leaves it
        # plain or quotes it: no need to write and read it (0.3 ms a string on an import).
        return False
    return _yaml11(_dump_inline(value)) != value


def _yaml11(text: str) -> Any:
    try:
        return yaml.load(f"k: {text}\n", Loader=_Yaml11Loader)["k"]
    except (yaml.YAMLError, TypeError, KeyError):
        return _UNREADABLE


_UNREADABLE = object()


def literal(s: str, indent: int) -> list[str]:
    head = "|" + ("" if s.endswith("\n") else "-")
    return [head] + [(" " * indent + ln) if ln else "" for ln in s.rstrip("\n").split("\n")]


def folded(s: str, indent: int, width: int) -> list[str]:
    head = ">" + ("" if s.endswith("\n") else "-")
    room = max(20, width - indent)
    lines, current = [], ""
    for word in s.rstrip("\n").split(" "):
        if current and len(current) + 1 + len(word) > room:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return [head] + [" " * indent + ln for ln in lines]


def render(value: Any, scalar: Scalar | None, col: int, indent: int, width: int, was_block: bool = False) -> list[str]:
    """The value's text: the first line continues `key: ` at column `col`; block content sits at `indent`.
    `scalar` is the value's current source (None for a new value); `was_block` says a new value
    replaces a block scalar."""
    was_block = was_block or (scalar is not None and scalar.style in ("|", ">"))
    if not isinstance(value, str):
        if scalar is not None and scalar.single_line and scalar.style is None:
            return [scalar.source]
        return [render_inline(value)]
    if scalar is not None and scalar.single_line and scalar.style in ("'", '"'):
        return [scalar.source]
    body = value.rstrip("\n")
    if "\n" in body:
        return literal(value, indent) if literal_safe(value, was_block) else [render_inline(value)]
    trailing = _trailing_newlines(value)
    if trailing == 0:
        plain_source = scalar is not None and scalar.single_line and scalar.style is None
        text = scalar.source if plain_source else render_inline(value)
        if col + len(text) <= width or not fold_safe(value) or " " not in value:
            return [text]
        return folded(value, indent, width)
    if fold_safe(value):
        return literal(value, indent) if indent + len(body) <= width else folded(value, indent, width)
    if literal_safe(value, was_block):
        return literal(value, indent)
    return [render_inline(value)]
