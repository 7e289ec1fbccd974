"""Bank entries in the results cache (lint/cache_codec.py): packed, not JSON, and read back
exactly; a damaged or planted row is a miss (Malformed), never another type or an error; rows of
the previous format are dropped, not misread."""

from __future__ import annotations

import json
import sqlite3

import pytest
import yaml

from qlint.bank.entry import FIELDS, BankEntry, entry_from_plain, plain_entry
from qlint.cli.config import load_config
from qlint.lint import cache_codec
from qlint.lint.engine import lint, make_settings
from qlint.lint.runner import RunOptions

from conftest import REPO

import synthbank

TYPES = REPO / "tests" / "fixtures" / "types"


def entries() -> list[tuple]:
    out = [plain_entry(BankEntry.of(f"bank/x/{p.name}", yaml.safe_load(p.read_text(encoding="utf-8"))))
           for p in sorted(TYPES.glob("*.yaml"))]
    odd = list(out[0])
    # every kind of value a field can hold: empty and non-ASCII text, newlines, several keys,
    # related ids and tasks, no single key, negative and large integers
    odd[1], odd[9], odd[11] = "", "ünïcode → 中文 \U0001F600 line\nbreak \x01", ""
    odd[8], odd[10], odd[19] = ("a", "", "ç"), ((0, "one"), (3, ""), (2, "two words")), ("1.1", "2.3")
    odd[6], odd[20], odd[15] = (0, 3, 2), None, -(2**63)
    odd[12] = b""
    out.append(tuple(odd))
    return out


def test_entries_round_trip_exactly():
    assert len(FIELDS) == len(cache_codec._ENTRY)
    for entry in entries():
        back = cache_codec.load_entry(cache_codec.dump_entry(entry))
        assert back == entry
        assert [type(x) for x in back] == [type(x) for x in entry]
        assert type(entry_from_plain(back)) is BankEntry


def test_question_entries_are_not_json(monkeypatch):
    """The 10k entries of a pre-commit run are not parsed as JSON (0.13 s of a 0.5 s run): what
    json.loads sees of an entry is only the part for entries that are not a question's."""
    blobs = [cache_codec.dump_entry(e) for e in entries()]
    real, seen = json.loads, []
    monkeypatch.setattr(json, "loads", lambda s, *a, **k: seen.append(s) or real(s, *a, **k))
    assert [cache_codec.load_entry(b) for b in blobs] == entries()
    assert set(seen) <= {b"[]"}


def test_text_holding_nul_is_not_stored():
    entry = list(entries()[0])
    entry[9] = "a\x00b"
    with pytest.raises(cache_codec.Unencodable):
        cache_codec.dump_entry(tuple(entry))
    entry[9] = "\ud800"  # a lone surrogate: not UTF-8
    with pytest.raises(cache_codec.Unencodable):
        cache_codec.dump_entry(tuple(entry))
    entry[9], entry[7] = "", 1  # a flag that is not a bool
    with pytest.raises(cache_codec.Unencodable):
        cache_codec.dump_entry(tuple(entry))


def _well_typed(kind: str, x) -> bool:
    if kind in ("ti", "ts", "tk"):
        item = {"ti": lambda v: type(v) is int, "ts": lambda v: type(v) is str,
                "tk": lambda v: type(v) is tuple and len(v) == 2 and type(v[0]) is int and type(v[1]) is str}[kind]
        return type(x) is tuple and all(map(item, x))
    return {"s": str, "i": int, "?": bool, "b": bytes}.get(kind) is type(x) or (kind == "i?" and (x is None or type(x) is int))


def _exact_or_malformed(blob: bytes) -> None:
    try:
        got = cache_codec.load_entry(blob)
    except cache_codec.Malformed:
        return
    assert got is None or all(map(_well_typed, cache_codec._ENTRY, got)), got


def test_every_truncation_and_flipped_byte_is_a_miss_or_exact():
    entry = entries()[-1]
    blob = cache_codec.dump_entry(entry)
    for n in range(len(blob)):
        with pytest.raises(cache_codec.Malformed):
            cache_codec.load_entry(blob[:n])
    with pytest.raises(cache_codec.Malformed):
        cache_codec.load_entry(blob + b"\x00")
    for i in range(len(blob)):
        for bit in (0x01, 0x80):
            _exact_or_malformed(blob[:i] + bytes([blob[i] ^ bit]) + blob[i + 1:])
    for planted in (b"E", b"E" + b"\xff" * 8, b"E\x00\x00\x00\x00\x00\x00\x00\x00", "E", None):
        with pytest.raises(cache_codec.Malformed):
            cache_codec.load_entry(planted)


def test_rows_of_the_previous_format_are_dropped_not_read(tmp_path, monkeypatch):
    """A cache written by the JSON-entry format (6): its rows are never read as this format's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    root = tmp_path / "proj"
    synthbank.generate(root / "bank", 6, seed=5, dup_every=1000, flaw_every=1000)
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    monkeypatch.chdir(root)
    cache = tmp_path / "cache"

    def run():
        return lint([str(root / "bank")], make_settings(load_config(root)), RunOptions(cache, jobs=1, lean=True))

    first = run()
    assert cache_codec.FORMAT > 6
    with sqlite3.connect(cache / "cache.sqlite3") as db:
        db.execute("PRAGMA user_version = 6")
    again = run()
    assert not again.checker.hits and again.checker.computed
    assert [d.as_dict() for d in again.diagnostics] == [d.as_dict() for d in first.diagnostics]
    assert run().checker.hits  # and the new rows are used


# --- segments: many entries in one row (cache_codec.dump_entries) ---------------------------------

CASE = ("case", "bank/x/cases/c.yaml", "c-id", "MLA-C01", "d", ("a", "b"), "sha256:00")


def rows() -> list[tuple]:
    return [(f"bank/x/q{i}.yaml", f"{i:032x}", e) for i, e in enumerate(entries())] + [
        ("bank/x/none.yaml", "ff" * 16, None), ("bank/x/cases/c.yaml", "ee" * 16, CASE)]


def test_a_segment_round_trips_exactly():
    back = cache_codec.load_entries(cache_codec.dump_entries(rows()))
    assert sorted(back, key=repr) == sorted(rows(), key=repr)
    for (_, _, got), (_, _, want) in zip(sorted(back, key=repr), sorted(rows(), key=repr)):
        assert got is None or [type(x) for x in got] == [type(x) for x in want]
    assert cache_codec.load_entries(cache_codec.dump_entries([])) == []


def test_an_entry_that_cannot_be_stored_is_left_out_of_its_segment():
    bad = list(entries()[0])
    bad[9] = "nul\x00inside"
    kept = cache_codec.load_entries(cache_codec.dump_entries(rows() + [("bank/x/bad.yaml", "00" * 16, tuple(bad))]))
    assert sorted(kept, key=repr) == sorted(rows(), key=repr)


def test_a_damaged_segment_is_malformed_or_well_typed():
    blob = cache_codec.dump_entries(rows())
    for n in range(0, len(blob), 7):
        with pytest.raises(cache_codec.Malformed):
            cache_codec.load_entries(blob[:n])
    for i in range(0, len(blob), 3):
        try:
            got = cache_codec.load_entries(blob[:i] + bytes([blob[i] ^ 0x41]) + blob[i + 1:])
        except cache_codec.Malformed:
            continue
        for path, file_digest, entry in got:
            assert type(path) is str and type(file_digest) is str
            assert entry is None or entry[0] == "case" or all(map(_well_typed, cache_codec._ENTRY, entry))
