"""What the results cache stores, as data only: JSON text, and bank entries packed as counted
integers, strings and bytes (see `dump_entry`), decoded by code that checks every field's type.

A cache file may have been planted (a committed folder, a CI cache restore), so nothing read
from it is ever run: no pickle, no marshal, no eval. A row that does not decode to exactly the
expected shape raises `Malformed`, which the cache treats as a miss.
"""

from __future__ import annotations

import json
import struct
import sys
from array import array
from itertools import accumulate, islice, repeat
from operator import getitem, mul
from typing import Any

from qlint.diagnostic import Diagnostic, Edit, Fix, Severity
from qlint.lint.results import FileResult

FORMAT = 8  # bump when an encoding changes: rows of another format are never read


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


# Bank entries (see qlint.bank.entry.FIELDS): one type per field. A one-file run reads every bank
# file's entry (10k; as JSON rows that cost 0.14 s), so they are kept many to a row, in segments,
# column by column: every entry's value of one field side by side, so a fixed field is one slice
# and the entries are made by one zip. After b"P" and the counts come the integers (int64): the
# "i" fields, the "?" flags as 0/1, each "i?" as present-flags then values, each variable field's
# lengths, then the variable fields' own integers; then the strings as UTF-8 joined by NUL (one
# decode, one split): the paths, the file hashes, the "s" fields, the variable fields' strings;
# then the "b" fields' packed hashes; and as JSON, the entries that are not a question's (a case
# study's, a file with none). Every count is checked against what the row holds: a damaged or
# planted segment is Malformed (a miss), never a field of another type. A string holding NUL
# cannot be stored: that entry is left out, computed again next time.
_ENTRY = ("s", "s", "s", "s", "s", "i", "ti", "?", "ts", "s", "tk", "s", "b", "b", "b", "i", "s", "s", "s", "ts", "i?", "s", "s", "s")
_S = tuple(i for i, k in enumerate(_ENTRY) if k == "s")
_I = tuple(i for i, k in enumerate(_ENTRY) if k == "i")
_Q = tuple(i for i, k in enumerate(_ENTRY) if k == "?")
_O = tuple(i for i, k in enumerate(_ENTRY) if k == "i?")
_V = tuple(i for i, k in enumerate(_ENTRY) if k in ("ti", "ts", "tk", "b"))
_VKINDS = tuple(_ENTRY[i] for i in _V)
_FIXED = len(_I) + len(_Q) + 2 * len(_O) + len(_V)  # integers each entry has before its variable fields'
_NS = len(_S)
_BITS, _ONE, _EIGHT = frozenset((0, 1)), 1, 8
_INT64 = (-(2**63), 2**63 - 1)
_SEGMENT = b"P"
_SEGMENT_COUNTS = struct.Struct("<IIII")  # entries, integers, bytes of text, bytes of JSON


def _int(x: Any) -> int:
    if type(x) is not int or not _INT64[0] <= x <= _INT64[1]:
        raise Unencodable("entry integer")
    return x


def _str(x: Any) -> str:
    if type(x) is not str or "\x00" in x:
        raise Unencodable("entry string")
    try:
        x.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        raise Unencodable("entry text") from None
    return x


def _checked(entry: tuple[Any, ...]) -> None:
    """`Unencodable` unless every field has its kind's type (and text has no NUL)."""
    if len(entry) != len(_ENTRY):
        raise Unencodable("entry")
    for kind, x in zip(_ENTRY, entry):
        if kind == "s":
            _str(x)
        elif kind == "i" or (kind == "i?" and x is not None):
            _int(x)
        elif kind == "?":
            if type(x) is not bool:
                raise Unencodable("entry flag")
        elif kind == "b":
            if not isinstance(x, bytes) or len(x) % 8:
                raise Unencodable("entry hashes")
        elif kind != "i?":
            if type(x) is not tuple:
                raise Unencodable("entry tuple")
            for item in x:
                if kind == "ti":
                    _int(item)
                elif kind == "ts":
                    _str(item)
                elif type(item) is not tuple or len(item) != 2:
                    raise Unencodable("entry key")
                else:
                    _int(item[0]), _str(item[1])


def _case_out(entry: tuple[Any, ...]) -> Any:
    _, path, cid, exam, domain, items, content = entry
    return {"case": [path, cid, exam, domain, list(items), content]}


def _case_in(head: Any) -> tuple[Any, ...] | None:
    if head is None:
        return None
    _check(type(head) is dict)
    case = head.get("case")
    _check(len(head) == 1 and type(case) is list and len(case) == 6 and all(type(x) is str for x in case[:4])
           and type(case[4]) is list and all(type(i) is str for i in case[4]) and type(case[5]) is str)
    return ("case", *case[:4], tuple(case[4]), case[5])


def _storable(entry: tuple[Any, ...] | None) -> Any:
    """What a segment keeps of an entry that is not a question's, as JSON; `Unencodable` for
    an entry that cannot be stored exactly."""
    if entry is None:
        return None
    if entry[0] == "case":
        value = _case_out(entry)
        _dumps(value)  # Unencodable: text JSON cannot carry (a lone surrogate)
        return value
    _checked(entry)
    return entry


def dump_entry(entry: tuple[Any, ...] | None) -> bytes:
    """One entry (a segment of one); `Unencodable` when it cannot be stored exactly."""
    _storable(entry)
    return dump_entries([("", "", entry)])


def load_entry(blob: Any) -> tuple[Any, ...] | None:
    rows = load_entries(blob)
    _check(len(rows) == 1)
    return rows[0][2]


def dump_entries(rows: list[tuple[str, str, tuple[Any, ...] | None]]) -> bytes:
    """(path, hash of the file's bytes, plain entry) rows as one segment; a row this format
    cannot store exactly is left out (computed again next time)."""
    bank: list[tuple[str, str, tuple[Any, ...]]] = []
    other: list[list[Any]] = []
    for key, file_digest, entry in rows:
        try:
            _str(key), _str(file_digest)
            value = _storable(entry)
            if entry is None or entry[0] == "case":
                other.append([key, file_digest, value])
            else:
                bank.append((key, file_digest, entry))
        except Unencodable:
            continue
    strs: list[str] = [k for k, _, _ in bank] + [d for _, d, _ in bank]
    entries = [e for _, _, e in bank]
    ints: list[int] = []
    for f in _S:
        strs += [e[f] for e in entries]
    for f in _I:
        ints += [e[f] for e in entries]
    for f in _Q:
        ints += [int(e[f]) for e in entries]
    for f in _O:
        ints += [0 if e[f] is None else 1 for e in entries]
        ints += [e[f] or 0 for e in entries]
    for f in _V:
        ints += [len(e[f]) for e in entries]
    raw: list[bytes] = []
    for f, kind in zip(_V, _VKINDS):
        for e in entries:
            if kind == "ti":
                ints += e[f]
            elif kind == "ts":
                strs += e[f]
            elif kind == "tk":
                ints += [n for n, _ in e[f]]
                strs += [t for _, t in e[f]]
            else:
                raw.append(bytes(e[f]))
    text = "\x00".join(strs).encode("utf-8")
    extra = _dumps(other)
    packed_ints = array("q", ints)
    if sys.byteorder == "big":
        packed_ints.byteswap()
    return b"".join((_SEGMENT, _SEGMENT_COUNTS.pack(len(bank), len(ints), len(text), len(extra)),
                     packed_ints.tobytes(), text, extra, *raw))


def _runs(items: Any, lengths: Any) -> list[tuple[Any, ...]]:
    """`items` cut into consecutive tuples of `lengths` (their sum is checked by the caller)."""
    it = iter(items)
    return [tuple(islice(it, n)) if n else () for n in lengths]


def load_entries(blob: Any) -> list[tuple[str, str, tuple[Any, ...] | None]]:
    """The rows `dump_entries` wrote, or `Malformed`."""
    if not isinstance(blob, bytes) or not blob.startswith(_SEGMENT) or len(blob) < 1 + _SEGMENT_COUNTS.size:
        raise Malformed("not a segment")
    n, n_ints, n_text, n_extra = _SEGMENT_COUNTS.unpack_from(blob, 1)
    at = 1 + _SEGMENT_COUNTS.size
    _check(at + 8 * n_ints + n_text + n_extra <= len(blob))
    ints = array("q")
    ints.frombytes(blob[at:at + 8 * n_ints])
    if sys.byteorder == "big":
        ints.byteswap()
    at += 8 * n_ints
    try:
        strs = blob[at:at + n_text].decode("utf-8").split("\x00") if n_text or n else []
    except UnicodeDecodeError:
        raise Malformed("not UTF-8") from None
    at += n_text
    extra = _loads(blob[at:at + n_extra])
    at += n_extra
    _check(type(extra) is list and len(strs) >= (2 + _NS) * n and n_ints >= _FIXED * n)
    cols: list[Any] = [None] * len(_ENTRY)
    keys, digests = strs[:n], strs[n:2 * n]
    p, q = 2 * n, 0
    for f in _S:
        cols[f] = strs[p:p + n]
        p += n
    for f in _I:
        cols[f] = ints[q:q + n]
        q += n
    for f in _Q:
        _check(_BITS.issuperset(ints[q:q + n]))
        cols[f] = list(map(_ONE.__eq__, ints[q:q + n]))
        q += n
    for f in _O:
        flags, values = ints[q:q + n], ints[q + n:q + 2 * n]
        _check(_BITS.issuperset(flags) and not any(map(mul, map(_ONE.__sub__, flags), values)))
        cols[f] = list(map(getitem, zip(repeat(None), values), flags))
        q += 2 * n
    lengths = []
    for f in _V:
        lengths.append(ints[q:q + n])
        _check(not n or min(lengths[-1]) >= 0)
        q += n
    for f, kind, sizes in zip(_V, _VKINDS, lengths):
        total = sum(sizes)
        if kind == "ti":
            _check(q + total <= n_ints)
            cols[f] = _runs(ints[q:q + total], sizes)
            q += total
        elif kind == "ts":
            _check(p + total <= len(strs))
            cols[f] = _runs(strs[p:p + total], sizes)
            p += total
        elif kind == "tk":
            _check(q + total <= n_ints and p + total <= len(strs))
            cols[f] = _runs(zip(ints[q:q + total], strs[p:p + total]), sizes)
            q += total
            p += total
        else:  # "b": packed int64 hashes
            _check(not any(map(_EIGHT.__rmod__, sizes)) and at + total <= len(blob))  # whole int64s
            offsets = list(accumulate(sizes, initial=at))
            cols[f] = [blob[a:b] for a, b in zip(offsets, offsets[1:])]
            at += total
    # every integer, string and byte used, no more
    _check(q == n_ints and p == len(strs) and at == len(blob))
    out: list[tuple[str, str, tuple[Any, ...] | None]] = list(zip(keys, digests, zip(*cols))) if n else []
    for row in extra:
        _check(type(row) is list and len(row) == 3 and type(row[0]) is str and type(row[1]) is str)
        out.append((row[0], row[1], _case_in(row[2])))
    return out
