"""Every `pattern` in every schema refuses a trailing newline, in every engine that reads it.

Python's `$` also matches before a final "\\n", so `id: "x\\n"` passed jsonschema (qlint's
explainer, check-jsonschema --regex-variant python) while fastjsonschema, jsonschema-rs and ECMA-262 engines
(editors, check-jsonschema's default) refused it. Each pattern ends with `$(?![\\s\\S])`: the
same verdict everywhere.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterator

import jsonschema_rs
import pytest
import regress
from jsonschema import Draft202012Validator

from qlint.cli import main
from qlint.importers.common import QUESTION_ID, SLUG
from qlint.importers.page import ID
from qlint.loading.schema import END_GUARD, shown_pattern
from qlint.authoring.scaffold import ScaffoldError, check_id

from conftest import REPO, SAMPLE, standalone_sample

SCHEMAS = sorted((REPO / "schema").glob("*.schema.json"))

# A value each pattern accepts; a new pattern fails `test_every_pattern_has_a_known_good_value`
# until it is listed here.
GOOD = {
    "^[A-Z0-9][A-Z0-9-]{1,31}$": "MLA-C01",
    "^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$": "pt-BR",
    "^[a-z0-9][a-z0-9-]{0,63}$": "data-preparation",
    "^[a-z0-9][a-z0-9-]{2,79}$": "mla-c01-prep-athena-ctas-join",
    "^[a-z0-9][a-z0-9-]{0,47}$": "model-parallel",
    "^https?://[^\\s]+$": "https://docs.aws.amazon.com/sagemaker/",
    "^[A-Z][0-9]{3}$": "S001",
    "^[a-z][a-z0-9]*(-[a-z0-9]+)*$": "unreadable-file",
    "^(/[^/]*)*$": "/options/0/id",
    "^[0-9a-f]{64}$": "0123456789abcdef" * 4,
    "^sha256:[0-9a-f]{64}$": "sha256:" + "0123456789abcdef" * 4,
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}$": "2026-06-01",
    "^[1-9][0-9]?\\.[1-9][0-9]?$": "1.2",
}
# A JSON pointer's reference tokens may hold any character: "/a\n" names the key "a\n" (a report
# points at whatever key a file has). There every engine must agree that the newline is content.
NEWLINE_IS_CONTENT = {"^(/[^/]*)*$"}


def _patterns(node: Any, where: str) -> Iterator[tuple[str, str]]:
    """(where, pattern) for every `pattern` keyword and `patternProperties` key in a schema."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                yield where, value
            elif key == "patternProperties" and isinstance(value, dict):
                yield from ((f"{where}/patternProperties", k) for k in value)
            yield from _patterns(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _patterns(value, f"{where}/{i}")


PATTERNS = [(f"{p.name}#{where}", pattern) for p in SCHEMAS
            for where, pattern in _patterns(json.loads(p.read_text(encoding="utf-8")), "")]


def test_the_schemas_have_patterns():
    assert len(PATTERNS) >= 10 and {p.name for p in SCHEMAS} >= {"question.schema.json", "exam.schema.json"}


def test_the_packaged_schemas_are_the_same_files():
    for p in SCHEMAS:
        assert (REPO / "src" / "qlint" / "schemas" / p.name).read_bytes() == p.read_bytes()


@pytest.mark.parametrize("where,pattern", PATTERNS, ids=[w for w, _ in PATTERNS])
def test_every_pattern_has_a_known_good_value(where, pattern):
    assert pattern.endswith("$" + END_GUARD), f"{where}: end the pattern with $(?![\\s\\S])"
    assert shown_pattern(pattern) in GOOD, f"{where}: add a value {pattern!r} accepts to GOOD"


def _verdicts(pattern: str, value: str) -> dict[str, bool]:
    schema = {"type": "string", "pattern": pattern}
    return {
        "python re.search": bool(re.search(pattern, value)),
        "jsonschema": Draft202012Validator(schema).is_valid(value),
        "jsonschema-rs (qlint's quick check)": jsonschema_rs.validator_for(schema).is_valid(value),
        "ECMA-262 (regress, u flag: check-jsonschema's default)": regress.Regex(pattern, "u").find(value) is not None,
        "ECMA-262 (regress, no flag)": regress.Regex(pattern).find(value) is not None,
    }


@pytest.mark.parametrize("where,pattern", PATTERNS, ids=[w for w, _ in PATTERNS])
def test_a_trailing_newline_is_refused_everywhere(where, pattern):
    good = GOOD[shown_pattern(pattern)]
    assert all(_verdicts(pattern, good).values()), _verdicts(pattern, good)
    for tail in ("\n", "\r\n", "\n\n", "\r", "\u2028"):
        verdicts = _verdicts(pattern, good + tail)
        if shown_pattern(pattern) in NEWLINE_IS_CONTENT:
            assert all(verdicts.values()), verdicts
            continue
        assert not any(verdicts.values()), f"{where}: {good + tail!r} accepted by {[k for k, v in verdicts.items() if v]}"


def test_an_id_with_a_trailing_newline_is_a_schema_error(tmp_path, monkeypatch, capsys):
    (tmp_path / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    (tmp_path / "bank").mkdir()
    text = standalone_sample()
    qid = re.search(r"^id: (\S+)$", text, re.M).group(1)
    target = tmp_path / "bank" / SAMPLE.name
    target.write_text(text.replace(f"id: {qid}", f'id: "{qid}\\n"'), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--no-cache", str(target)]) == 1
    out = capsys.readouterr().out
    assert "S001 'id':" in out and "it ends with a line break" in out, out
    assert "(?!" not in out  # the guard is not shown to authors


def test_python_side_id_checks_use_the_whole_string():
    for rx in (QUESTION_ID, SLUG, ID):
        assert rx.match("abc-def") and not rx.match("abc-def\n")
    check_id("mla-c01-some-question")
    with pytest.raises(ScaffoldError):
        check_id("mla-c01-some-question\n")
