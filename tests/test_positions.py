"""`Locator` (libyaml's marks) places every finding exactly where `RuamelLocator` (ruamel.yaml's
composer, the former code) did: every key, value, list item and scalar of each file, characters
inside strings, substrings inside values, and pointers that miss."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from qlint.loading.positions import Locator, RuamelLocator, Span, join_pointer

from conftest import REPO, SHARED_REASON, require_shared

sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "scripts"))


def _walk(node: Any, parts: list[Any]) -> Iterator[tuple[str, bool, Any]]:
    """(pointer, at_key, node) for every key and value, as findings point at them."""
    yield join_pointer(parts), False, node
    if isinstance(node, MappingNode):
        for key, value in node.value:
            name = str(key.value)
            yield join_pointer(parts + [name]), True, key
            yield from _walk(value, parts + [name])
        yield join_pointer(parts + ["no-such-key"]), False, None
        yield join_pointer(parts + ["no-such-key", "deeper"]), True, None
    elif isinstance(node, SequenceNode):
        for i, value in enumerate(node.value):
            yield from _walk(value, parts + [i])
        yield join_pointer(parts + [len(node.value)]), False, None


def _offsets(value: str, rng: random.Random) -> set[int]:
    n = len(value)
    picks = {0, 1, n // 2, n - 1, n, -1}
    picks |= {i for i, ch in enumerate(value) if ord(ch) > 127 or ch in "\\\"'#:\t\n"}
    picks |= {rng.randrange(n)} if n else set()
    return picks


def mismatches(text: str, seed: int = 0) -> list[str]:
    """Every lookup whose answer differs between the two locators, described."""
    old, new = RuamelLocator(text), Locator(text)
    rng = random.Random(seed)
    out: list[str] = []

    def same(what: str, a: Any, b: Any) -> None:
        if a != b:
            out.append(f"{what}: ruamel {a} libyaml {b}")

    if old._root is None:
        same("root", old.locate(""), new.locate(""))
        return out
    for pointer, at_key, node in _walk(old._root, []):
        span = old.locate(pointer, at_key)
        same(f"locate {pointer!r} {at_key}", span, new.locate(pointer, at_key))
        if isinstance(node, ScalarNode) and isinstance(node.value, str):
            for offset in sorted(_offsets(node.value, rng)):
                same(f"locate_char {pointer!r} {offset} {at_key}", old.locate_char(pointer, offset, at_key),
                     new.locate_char(pointer, offset, at_key))
            words = node.value.split()
            for needle in {words[0], words[-1], rng.choice(words)} if words else set():
                same(f"find {pointer!r} {needle!r}", old.find(span, needle), new.find(span, needle))
    return out


def _check_all(named: Iterator[tuple[str, str]]) -> int:
    failures, n = [], 0
    for name, text in named:
        n += 1
        bad = mismatches(text)
        if bad:
            failures.append(f"{name}: {len(bad)} differ, first {bad[:3]}")
    assert not failures, "\n".join(failures[:20])
    return n


def _files(folder: Path) -> Iterator[tuple[str, str]]:
    for f in sorted(folder.rglob("*.yaml")):
        yield str(f.relative_to(REPO)), f.read_text(encoding="utf-8")


def test_sample_bank_and_fixtures():
    files = [*_files(REPO / "bank"), *_files(REPO / "tests" / "golden"), *_files(REPO / "tests" / "fixtures")]
    assert _check_all(iter(files)) > 5


def _case_texts(tmp: Path) -> Iterator[tuple[str, str]]:
    import rulecases

    for case in rulecases.load_cases():  # item and bank cases, rendered as the rule tests see them
        files, _ = rulecases.write_expectations(case)
        for path, body in files.items():
            if path.endswith(".yaml"):
                yield f"{case.origin} {path}", body


def test_rule_case_files(tmp_path):
    assert _check_all(_case_texts(tmp_path)) > 300


@pytest.mark.slow
def test_generated_bank(tmp_path):
    import synthbank

    synthbank.generate(tmp_path / "synth", 300)
    synthbank.practice(tmp_path / "practice", 100, exams=2)
    files = [(str(f), f.read_text(encoding="utf-8")) for f in sorted(tmp_path.rglob("*.yaml"))]
    assert _check_all(iter(files)) >= 300


@pytest.mark.slow
def test_real_corpora():
    import corpora

    if not corpora.available():
        for name in (corpora.SNTS, corpora.KANA):
            require_shared("corpora", name)  # fails under CI=true, else skips saying why
        pytest.skip("../shared/corpora does not hold the corpora: " + SHARED_REASON)
    items = corpora.convert(names=corpora.AWS)
    # A seeded sixth of the 2,212 questions: the dumps share one style, so the rest adds time, not cases.
    items = random.Random(16).sample(items, len(items) // 6)
    texts = ((i.relpath, yaml.safe_dump(i.data, sort_keys=False, allow_unicode=True, width=100)) for i in items)
    assert _check_all(texts) > 100


TRICKY = {
    "block literal": "a: |\n  one\n  two\n\nb: 1\n",
    "block folded": "a: >\n  one\n  two\n\n  three\nb: 1\n",
    "block strip": "a: |-\n  one\n\n\nb: x\n",
    "block keep": "a: >+\n  one\n\n\nb: x\n",
    "block keep at end": "a: |+\n  one\n\n",
    "block indent indicator": "a: |2\n    lead\n  two\nb: |4-\n      x\n",
    "block nested": "q:\n  - t: |\n      deep text\n      more\n    c: true\n  - t: >-\n      folded\n      on\n    c: false\n",
    "block at eof, no newline": "a: |\n  one\n  two",
    "block whitespace tail": "a: |\n  one\n   \n  \nb: 2\n",
    "block with comment header": "a: | # note\n  text\n# after\nb: 1\n",
    "flow": "a: [1, two, \"three\", {k: v, 'q': [x]}]\nb: {x: 1, y: [a, b]}\n",
    "flow multiline": "a: [\n  one,\n  two\n]\nb: {\n  k: v\n}\n",
    "quoted keys": "\"a b\": 1\n'c''d': 2\n\"e\\\"f\": 3\n\"x/y\": 4\n\"t~z\": 5\n",
    "comments": "# head\na: 1 # eol\n# between\nb:\n  # inner\n  - x # item\n  - y\n# tail\n",
    "crlf": "a: 1\r\nb: |\r\n  one\r\n  two\r\n\r\nc: \"x\\u00e9y z\"\r\nd:\r\n  - e\r\n",
    "crlf folded": "a: >\r\n  one\r\n  two\r\nb: 'it''s'\r\n",
    "bom": "\ufeffa: \"caf\u00e9 x\"\nb: |\n  t\u00e9xt\n",
    "tabs": "a: \"x\ty\"\nb: 'p\tq'\nc:  \t plain\n\t# tab comment\nd: |\n  \tcode\n",
    "empty values in blocks": "a:  \nb:\r\nc:\n\n\n  # c\nd:\n  - e:\n    f:\n- x:\ng:   # c\nh:",
    "empty values in flows": "a: {b: , c: }\nd: [e: , f]\ng: {h:  \n , i: }\n",
    "astral": "a: \"x\U0001F600y \U0001F600 z\"\n\U0001F600key: v\U00010348w\nb: |\n  \U0001F600 line\n  \u00e9\n",
    "escapes": "a: \"tab\\there \\u202e rtl \\U000e0041 tag \\xad soft \\\\ back\"\nb: \"\\\"q\\\" \\n nl\"\n",
    "double quoted multiline": "a: \"one\n  two\n\n  three\"\nb: 'x\n  y'\n",
    "plain multiline": "a: one\n  two\n  three\nb: 1\n",
    "empty values": "a:\nb: ~\nc: ''\nd: \"\"\ne:\n  -\n  - x\n  - \nf: {}\ng: []\n",
    "document start": "---\na: 1\nb:\n  - x\n",
    "document start and end": "--- # c\na: |\n  x\n...\n",
    "directive": "%YAML 1.1\n---\na: 1\n",
    "anchors": "a: &x foo\nb: *x\nc: &m {k: v}\n",
    "tags": "a: !!str 1\nb: !custom x\nc: !!binary aGk=\n",
    "nested deep": "a:\n  b:\n    c:\n      - d: [1, {e: \"f g\"}]\n",
    "long line": "a: " + "word " * 400 + "\n",
    "scalar root": "just text\n",
    "list root": "- a\n- b: c\n",
    "unicode line breaks": "a: \"x\u2028y\"\nb: 'p\x85q'\nc: z\n",
    "mid-text bom": "a: x\ufeffy\nb: 1\n",
    "no final newline": "a: 1\nb: two",
    "indented sequence": "a:\n- x\n- y: |\n    z\n  w: 1\n",
    "duplicate keys": "a: 1\na: 2\n",
    "not yaml": "a: [1, 2\nb: 3\n",
    "two documents": "a: 1\n---\nb: 2\n",
    "empty": "",
    "comment only": "# nothing\n",
}


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_tricky_files(name):
    assert mismatches(TRICKY[name]) == []


def test_text_only_libyaml_reads_gets_real_positions():
    """A tab after `key:` is white space to libyaml, an error to ruamel.yaml, which placed every
    finding of such a file at 1:1. qlint reads the file with libyaml, so its findings now sit
    where they are; this is the one place the two locators disagree."""
    text = "a:\t\"x\"\nb: plain\twith tab\n"
    assert RuamelLocator(text).locate("/b") == Span(1, 1, 1, 1)
    assert Locator(text).locate("/b") == Span(2, 4, 2, 17)
