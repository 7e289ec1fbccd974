"""The fast path: libyaml's C parser events -> plain JSON-like data, with YAML 1.2 core typing.

No constructor runs, so no tag can execute code; aliases are counted as if expanded, so an
alias bomb stops at `max_nodes`; nesting stops at `max_depth`. Positions are not kept here:
`positions.py` finds them only for files that have diagnostics.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import yaml

from qlint.loading.errors import LoadError
from qlint.loading.limits import Limits

try:  # libyaml ships in PyYAML's wheels; the pure parser is the same grammar, only slower
    from yaml.cyaml import CParser as _Parser  # not re-exported by `yaml`: importing it from there always failed
except ImportError:  # pragma: no cover - depends on the platform's wheel
    from yaml.loader import Loader as _Parser  # type: ignore[assignment]

_CORE = "tag:yaml.org,2002:"
_INT = re.compile(r"[-+]?[0-9]+$")
_OCT = re.compile(r"0o[0-7]+$")
_HEX = re.compile(r"0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_INF = re.compile(r"[-+]?\.(inf|Inf|INF)$")
_NAN = re.compile(r"\.(nan|NaN|NAN)$")
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})$")
_DATETIME = re.compile(
    r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(\.[0-9]*)?"
    r"(?:[ \t]*(Z|[-+][0-9]{1,2}(?::?[0-9]{2})?))?$"
)
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_TRUE = frozenset(("true", "True", "TRUE"))
_FALSE = frozenset(("false", "False", "FALSE"))


class FastPathError(Exception):
    """libyaml rejected the text; the caller asks ruamel.yaml for the authoritative message."""

    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.message, self.line, self.col = message, line, col


def resolve_plain(value: str) -> Any:
    """YAML 1.2 core schema for an untagged plain scalar (plus timestamps, as ruamel reads them)."""
    if not value or value[0] not in "0123456789-+.~nNtTfF":
        return value
    if value in _NULLS:
        return None
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    if _INT.match(value):
        return int(value)
    if _OCT.match(value):
        return int(value[2:], 8)
    if _HEX.match(value):
        return int(value[2:], 16)
    if _FLOAT.match(value):
        return float(value)
    if _INF.match(value):
        return float("-inf") if value[0] == "-" else float("inf")
    if _NAN.match(value):
        return float("nan")
    m = _DATE.match(value)
    if m:
        try:
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            return value
    m = _DATETIME.match(value)
    if m:
        try:
            frac = int((m[7] or ".0")[1:7].ljust(6, "0"))
            return dt.datetime(int(m[1]), int(m[2]), int(m[3]), int(m[4]), int(m[5]), int(m[6]), frac)
        except ValueError:
            return value
    return value


def _tagged(tag: str, value: str, mark: Any) -> Any:
    if tag == "!" or tag == _CORE + "str":
        return value
    if tag == _CORE + "null":
        return None
    resolved = resolve_plain(value)
    expect = {_CORE + "int": int, _CORE + "float": (int, float), _CORE + "bool": bool}.get(tag)
    if expect is not None and isinstance(resolved, expect) and not (tag != _CORE + "bool" and isinstance(resolved, bool)):
        return float(resolved) if tag == _CORE + "float" else resolved
    if expect is not None:
        raise LoadError("Y007", f"value {value!r} cannot be read as {tag.replace(_CORE, '!!')}", mark.line + 1, mark.column + 1)
    if tag == _CORE + "timestamp" and isinstance(resolved, (dt.date, dt.datetime)):
        return resolved
    raise LoadError("Y007", f"unsupported tag {tag.replace(_CORE, '!!')}: qlint reads plain YAML only", mark.line + 1, mark.column + 1)


def _mark(ev: Any) -> tuple[int, int]:
    return ev.start_mark.line + 1, ev.start_mark.column + 1


def load_fast(text: str, limits: Limits) -> Any:
    """Parse one YAML document into plain data. Raises LoadError or FastPathError."""
    parser = _Parser(text)
    try:
        return _build(parser, limits)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise FastPathError(str(exc.problem or exc), line, col) from None
    except yaml.YAMLError as exc:
        raise FastPathError(str(exc), 1, 1) from None
    finally:
        parser.dispose()


def _build(parser: Any, limits: Limits) -> Any:
    get = parser.get_event
    get()  # StreamStart
    ev = get()
    if isinstance(ev, yaml.StreamEndEvent):
        raise LoadError("Y004", "file is empty: a question file holds one YAML mapping")
    anchors: dict[str, tuple[Any, int]] = {}
    # stack entries: [container, key_or_None, anchor, node_count_at_start, key_lines]
    stack: list[list[Any]] = []
    total = 0
    root: Any = None
    done = False
    while not done:
        ev = get()
        kind = type(ev)
        anchor = None
        if kind is yaml.ScalarEvent:
            if ev.tag is None:
                value: Any = resolve_plain(ev.value) if ev.implicit[0] else ev.value
            else:
                value = _tagged(ev.tag, ev.value, ev.start_mark)
            size, anchor = 1, ev.anchor
        elif kind is yaml.AliasEvent:
            try:
                value, size = anchors[ev.anchor]
            except KeyError:
                line, col = _mark(ev)
                raise LoadError("Y001", f"alias *{ev.anchor} refers to no anchor", line, col) from None
        elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            if len(stack) >= limits.max_depth:
                line, col = _mark(ev)
                raise LoadError("Y009", f"nesting deeper than {limits.max_depth} levels (max-depth)", line, col)
            if ev.tag not in (None, "!", _CORE + "map", _CORE + "seq"):
                line, col = _mark(ev)
                raise LoadError("Y007", f"unsupported tag {ev.tag.replace(_CORE, '!!')}: qlint reads plain YAML only", line, col)
            is_map = kind is yaml.MappingStartEvent
            stack.append([{} if is_map else [], None, ev.anchor, total, {} if is_map else None])
            continue
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            value, _key, anchor, start, _lines = stack.pop()
            size = total - start + 1
            total = start
        elif kind is yaml.DocumentEndEvent:
            done = True
            continue
        else:  # pragma: no cover - libyaml emits nothing else inside a document
            continue

        total += size
        if total > limits.max_nodes:
            line, col = _mark(ev)
            raise LoadError("Y009", f"document expands to more than {limits.max_nodes:,} values (max-nodes): alias bomb?", line, col)
        if anchor:
            anchors[anchor] = (value, size)
        if not stack:
            root = value
            continue
        top = stack[-1]
        if top[4] is None:
            top[0].append(value)
        elif top[1] is None:
            if kind is not yaml.ScalarEvent and not (kind is yaml.AliasEvent and isinstance(value, (str, int, float))):
                line, col = _mark(ev)
                raise LoadError("Y007", "complex mapping keys are not supported", line, col)
            key = ev.value if kind is yaml.ScalarEvent else str(value)
            if key == "<<" and kind is yaml.ScalarEvent and ev.implicit[0]:
                line, col = _mark(ev)
                raise LoadError("Y008", "merge keys (<<) are not supported: write the keys out", line, col)
            if key in top[4]:
                line, col = _mark(ev)
                raise LoadError("Y002", f"duplicate key {key!r} (first defined on line {top[4][key]})", line, col)
            top[4][key] = ev.start_mark.line + 1
            top[1] = key
        else:
            top[0][top[1]] = value
            top[1] = None
    ev = get()
    if not isinstance(ev, yaml.StreamEndEvent):
        line, col = _mark(ev)
        raise LoadError("Y006", "file holds more than one YAML document; a question file holds one", line, col)
    if root is None:
        raise LoadError("Y004", "file has no content: a question file holds one YAML mapping")
    if not isinstance(root, dict):
        kind_name = "a list" if isinstance(root, list) else f"a {type(root).__name__} scalar"
        raise LoadError("Y005", f"the document is {kind_name}; a question file holds one YAML mapping")
    return root

