"""The loader: every kind of unreadable input gets one clear diagnostic at the right place."""

from __future__ import annotations

import datetime as dt

import pytest

from qlint.loading.errors import LoadError
from qlint.loading.fast import load_fast, resolve_plain
from qlint.loading.limits import Limits
from qlint.loading.positions import Locator
from qlint.loading.reader import decode
from qlint.lint.engine import load_document
from qlint.cli.config import load_config

from conftest import REPO

LIMITS = Limits()


@pytest.mark.parametrize(
    "text, code, line, col",
    [
        ("", "Y004", 1, 1),
        ("# only a comment\n", "Y004", 1, 1),
        ("- a\n- b\n", "Y005", 1, 1),
        ("just text\n", "Y005", 1, 1),
        ("id: a\nstem: x\nid: b\n", "Y002", 3, 1),
        ("a:\n  b: 1\n  b: 2\n", "Y002", 3, 3),
        ("id: a\n---\nid: b\n", "Y006", 2, 1),
        ("stem: !include other.md\n", "Y007", 1, 7),
        ("x: !!python/object/apply:os.system [echo hacked]\n", "Y007", 1, 4),
        ("base: &b {a: 1}\nq:\n  <<: *b\n", "Y008", 3, 3),
        ("a: " + "[" * 40 + "]" * 40 + "\n", "Y009", 1, 35),
    ],
)
def test_load_errors(text, code, line, col):
    with pytest.raises(LoadError) as info:
        load_fast(text, LIMITS)
    assert (info.value.code, info.value.line, info.value.col) == (code, line, col)


def test_alias_bomb_is_stopped_without_expanding():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    with pytest.raises(LoadError) as info:
        load_fast("\n".join(lines) + "\n", LIMITS)
    assert info.value.code == "Y009" and "alias" in info.value.message


def test_small_aliases_are_fine():
    assert load_fast("a: &x [1, 2]\nb: *x\n", LIMITS) == {"a": [1, 2], "b": [1, 2]}


@pytest.mark.parametrize(
    "raw, expected",
    [("yes", "yes"), ("no", "no"), ("on", "on"), ("true", True), ("False", False), ("~", None), ("null", None),
     ("12", 12), ("0o17", 15), ("0x1f", 31), ("1.5", 1.5), ("1e3", 1000.0), ("2024-01-05", dt.date(2024, 1, 5)),
     ("010", 10), ("1_000", "1_000"), ("v1.0", "v1.0")],
)
def test_yaml_12_core_typing(raw, expected):
    assert resolve_plain(raw) == expected


def test_quoted_scalars_stay_text():
    assert load_fast("a: 'true'\nb: \"12\"\nc: |\n  2024-01-01\n", LIMITS) == {"a": "true", "b": "12", "c": "2024-01-01\n"}


@pytest.mark.parametrize(
    "data, line, col, needle",
    [
        (b"a: caf\xe9\n", 1, 7, "invalid UTF-8"),
        (b"\xff\xfea\x00:\x00", 1, 1, "UTF-16"),
        (b"a: 1\nb: x\x00y\n", 2, 5, "NUL"),
    ],
)
def test_undecodable_bytes(data, line, col, needle):
    with pytest.raises(LoadError) as info:
        decode(data)
    assert (info.value.code, info.value.line, info.value.col) == ("Y003", line, col)
    assert needle in info.value.message


def test_bom_and_crlf_are_accepted():
    text = decode(b"\xef\xbb\xbfa: 1\r\nb: two\r\n")
    assert load_fast(text, LIMITS) == {"a": 1, "b": "two"}


def test_syntax_error_is_reported_by_ruamel_with_position(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("id: a\nstem: [unclosed\noptions: x\n", encoding="utf-8")
    with pytest.raises(LoadError) as info:
        load_document(str(f), load_config(REPO))
    assert info.value.code == "Y001"
    assert info.value.line == 3 and "flow sequence" in info.value.message


def test_tabs_for_indentation(tmp_path):
    f = tmp_path / "tabs.yaml"
    f.write_text("id: a\noptions:\n\t- x\n", encoding="utf-8")
    with pytest.raises(LoadError) as info:
        load_document(str(f), load_config(REPO))
    assert (info.value.code, info.value.line) == ("Y001", 3)


def test_size_limit(tmp_path):
    f = tmp_path / "big.yaml"
    f.write_text("a: " + "x" * 2000 + "\n", encoding="utf-8")
    cfg = load_config(REPO)
    from dataclasses import replace
    with pytest.raises(LoadError) as info:
        load_document(str(f), replace(cfg, limits=Limits(max_file_bytes=1000)))
    assert info.value.code == "Y009"


def test_locator_finds_values_keys_items_and_block_ends():
    text = "a: 1\nb:\n  - x\n  - |\n    hello\n    world\nc: {d: yes}\n"
    loc = Locator(text)
    assert (loc.locate("/a").line, loc.locate("/a").col) == (1, 4)
    assert (loc.locate("/b/1").line, loc.locate("/b/1").end_line, loc.locate("/b/1").end_col) == (4, 6, 9)
    assert (loc.locate("/c/d").line, loc.locate("/c/d").col) == (7, 8)
    assert (loc.locate("/c/d", at_key=True).col) == 5
    assert loc.locate("/missing").line == 1  # a missing key stops at its parent


def test_fast_path_uses_libyaml():
    # PyYAML's wheels ship libyaml; silently falling back to the pure parser costs ~10x.
    from qlint.loading import fast

    assert fast.ACCELERATED


def test_compiling_the_quick_validator_leaves_the_schema_alone():
    # the compiler must not mutate what it compiles (fastjsonschema did): the formatter reads key order from the same dict
    import json

    from qlint.loading.schema import quick_check, schema

    quick_check.cache_clear()
    before = json.dumps(schema("question"))
    quick_check("question")({})
    assert json.dumps(schema("question")) == before
