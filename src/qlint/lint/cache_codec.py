"""What the results cache stores, as data only: JSON text (plus raw bytes for bank entries'
packed hashes), decoded by code that checks every field's type.

A cache file may have been planted (a committed folder, a CI cache restore), so nothing read
from it is ever run: no pickle, no marshal, no eval. A row that does not decode to exactly the
expected shape raises `Malformed`, which the cache treats as a miss.
"""

from __future__ import annotations

import json
from typing import Any

from qlint.diagnostic import Diagnostic, Edit, Fix, Severity
from qlint.lint.results import FileResult

FORMAT = 6  # bump when an encoding changes: rows of another format are never read


class Malformed(ValueError):
    """A stored value that is not what this format writes."""


class Unencodable(TypeError):
    """A value this format cannot store exactly; the result is then not cached."""


def _check(ok: bool) -> None:
    if not ok:
        raise Malformed("unexpected shape")


# Values inside fixes can be any YAML scalar or collection: JSON keeps str, int, float, bool and
# null as they are; lists, tuples and mappings are tagged so each comes back as the same type.
def _value_out(v: Any) -> Any:
    if v is None or isinstance(v, (str, bool, int, float)):
        return v
    if isinstance(v, list):
        return {"l": [_value_out(x) for x in v]}
    if isinstance(v, tuple):
        return {"t": [_value_out(x) for x in v]}
    if isinstance(v, dict) and all(isinstance(k, str) for k in v):
        return {"d": [[k, _value_out(x)] for k, x in v.items()]}
    raise Unencodable(type(v).__name__)


def _value_in(v: Any) -> Any:
    if v is None or isinstance(v, (str, bool, int, float)):
        return v
    _check(isinstance(v, dict) and len(v) == 1)
    (tag, items), = v.items()
    _check(isinstance(items, list))
    if tag == "l":
        return [_value_in(x) for x in items]
    if tag == "t":
        return tuple(_value_in(x) for x in items)
    _check(tag == "d" and all(isinstance(kv, list) and len(kv) == 2 and isinstance(kv[0], str) for kv in items))
    return {k: _value_in(x) for k, x in items}


def _fix_out(fix: Fix | None) -> Any:
    if fix is None:
        return None
    return [fix.description, [[e.pointer, _value_out(e.value), e.delete] for e in fix.edits], fix.safe]


def _fix_in(v: Any) -> Fix | None:
    if v is None:
        return None
    _check(isinstance(v, list) and len(v) == 3 and isinstance(v[0], str) and isinstance(v[1], list)
           and isinstance(v[2], bool))
    edits = []
    for e in v[1]:
        _check(isinstance(e, list) and len(e) == 3 and isinstance(e[0], str) and isinstance(e[2], bool))
        edits.append(Edit(e[0], _value_in(e[1]), e[2]))
    return Fix(v[0], tuple(edits), v[2])


_STR_INT = (str, int, int, str, str)  # path, line, col, code, name


def _diag_out(d: Diagnostic) -> list[Any]:
    return [d.path, d.line, d.col, d.code, d.name, int(d.severity), d.message, d.end_line, d.end_col,
            d.pointer, _fix_out(d.fix)]


def _diag_in(v: Any) -> Diagnostic:
    _check(isinstance(v, list) and len(v) == 11)
    path, line, col, code, name, sev, message, end_line, end_col, pointer, fix = v
    _check(all(type(x) is int for x in (line, col, sev, end_line, end_col))
           and all(isinstance(x, str) for x in (path, code, name, message, pointer)))
    try:
        severity = Severity(sev)
    except ValueError:
        raise Malformed("unknown severity") from None
    return Diagnostic(path, line, col, code, name, severity, message, end_line, end_col, pointer, _fix_in(fix))


def _dumps(v: Any) -> bytes:
    try:
        return json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError) as exc:
        raise Unencodable(str(exc)) from None


def _loads(blob: Any) -> Any:
    if not isinstance(blob, (bytes, str)):
        raise Malformed("not text")
    try:
        return json.loads(blob)
    except (ValueError, RecursionError):
        raise Malformed("not JSON") from None


def dump_diagnostics(diagnostics: list[Diagnostic]) -> bytes:
    return _dumps([_diag_out(d) for d in diagnostics])


def load_diagnostics(blob: Any) -> list[Diagnostic]:
    v = _loads(blob)
    _check(isinstance(v, list))
    return [_diag_in(d) for d in v]


def dump_result(result: Any) -> bytes:
    """A `FileResult` as `_stored` leaves it (no data, text or entry)."""
    _check(result.data is None and not result.text and result.entry is None and result.document is None)
    return _dumps([result.path, result.kind, result.valid, result.directives,
                   [_diag_out(d) for d in result.diagnostics]])


def load_result(blob: Any) -> Any:
    v = _loads(blob)
    _check(isinstance(v, list) and len(v) == 5)
    path, kind, valid, directives, diags = v
    _check(isinstance(path, str) and kind in ("question", "exam", "case") and isinstance(valid, bool)
           and isinstance(directives, bool) and isinstance(diags, list))
    return FileResult(path, [_diag_in(d) for d in diags], kind, valid=valid, directives=directives)


# Bank entries (see qlint.bank.entry.FIELDS): one type per field; `b` fields are packed int64
# hashes, stored after the JSON header (which records their lengths) as raw bytes.
_ENTRY = ("s", "s", "s", "s", "s", "i", "ti", "?", "ts", "s", "tk", "s", "b", "b", "b", "i", "s", "s", "s", "ts", "i?", "s", "s", "s")


def dump_entry(entry: tuple[Any, ...] | None) -> bytes:
    if entry is None:
        return b"null"
    if entry[0] == "case":  # a case study's entry (qlint.bank.entry.CaseEntry): one JSON object
        _, path, cid, exam, domain, items, content = entry
        return _dumps({"case": [path, cid, exam, domain, list(items), content]})
    if len(entry) != len(_ENTRY):
        raise Unencodable("entry")
    head, tail = [], []
    for kind, x in zip(_ENTRY, entry):
        if kind == "b":
            head.append(len(x))
            tail.append(bytes(x))
        elif kind in ("ti", "ts"):
            head.append(list(x))
        elif kind == "tk":
            head.append([list(k) for k in x])
        else:
            head.append(x)
    return _dumps(head) + b"\n" + b"".join(tail)


# the JSON types of a header's fields, checked in one comparison (a pre-commit run reads the whole
# bank's entries: 10k of them)
_HEAD_TYPES = tuple({"s": str, "i": int, "ti": list, "?": bool, "ts": list, "tk": list, "b": int}[k]
                    for k in _ENTRY if k != "i?")


def load_entry(blob: Any) -> tuple[Any, ...] | None:
    if not isinstance(blob, bytes):
        raise Malformed("not bytes")
    cut = blob.find(b"\n")  # JSON text never holds a raw newline
    head = _loads(blob if cut < 0 else blob[:cut])
    if head is None and cut < 0:
        return None
    if type(head) is dict and cut < 0:
        case = head.get("case")
        _check(len(head) == 1 and type(case) is list and len(case) == 6 and all(type(x) is str for x in case[:4])
               and type(case[4]) is list and all(type(i) is str for i in case[4]) and type(case[5]) is str)
        return ("case", *case[:4], tuple(case[4]), case[5])
    _check(cut >= 0 and type(head) is list and len(head) == len(_ENTRY)
           and tuple(map(type, head[:20] + head[21:])) == _HEAD_TYPES and (head[20] is None or type(head[20]) is int))
    keyed, related, keys, tasks = head[6], head[8], head[10], head[19]
    _check(all(type(i) is int for i in keyed) and all(type(r) is str for r in related)
           and all(type(t) is str for t in tasks)
           and all(type(k) is list and len(k) == 2 and type(k[0]) is int and type(k[1]) is str for k in keys))
    sizes = head[12:15]
    _check(all(n >= 0 and n % 8 == 0 for n in sizes) and cut + 1 + sum(sizes) == len(blob))
    a = cut + 1
    b = a + sizes[0]
    c = b + sizes[1]
    return (*head[:6], tuple(keyed), head[7], tuple(related), head[9], tuple(map(tuple, keys)), head[11],
            blob[a:b], blob[b:c], blob[c:], *head[15:19], tuple(tasks), *head[20:])
