"""Schema messages a new author can act on (issue 28 point 8): a bad id shows what ids look like in
words, not as a regular expression, and names `qlint check --fix` when it has a fix; an ordering
question written with `options:` says what the type expects instead of printing the document."""

from __future__ import annotations

import json
import re

import pytest

from qlint.loading.schema import shown_pattern, validate
from qlint.loading.schema_words import pattern_words

from kit.authoring import run
from conftest import BANK, REPO

SCHEMAS = sorted((REPO / "schema").glob("*.schema.json"))
ORDERING = BANK / "mla-c01" / "data-preparation" / "feature-store-ingest-order.yaml"
SINGLE = BANK / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml"


def _patterns(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                yield value
            yield from _patterns(value)
    elif isinstance(node, list):
        for value in node:
            yield from _patterns(value)


PATTERNS = sorted({shown_pattern(p) for s in SCHEMAS for p in _patterns(json.loads(s.read_text(encoding="utf-8")))})


@pytest.mark.parametrize("pattern", PATTERNS)
def test_every_schema_pattern_has_words(pattern):
    words = pattern_words(pattern)
    assert words and not re.search(r"[\[\]{}^$\\]", words), (pattern, words)


def test_the_words_follow_the_pattern_bounds():
    assert pattern_words("^[a-z0-9][a-z0-9-]{0,47}$") == \
        "1 to 48 lower-case letters, digits and hyphens, not starting with a hyphen"
    assert pattern_words("^[A-Z0-9][A-Z0-9-]{1,31}$") == \
        "2 to 32 capital letters, digits and hyphens, not starting with a hyphen"
    assert pattern_words("^[a-z][a-z0-9]{0,9}$") == "1 to 10 lower-case letters and digits, not starting with a digit"
    assert pattern_words("^(a|b)+$") is None  # no guess for a shape it does not know


def _question(path, old: str, new: str):
    import yaml

    text = path.read_text(encoding="utf-8")
    assert old in text
    return yaml.safe_load(text.replace(old, new, 1))


@pytest.mark.parametrize("old, new, fix", [
    ("  - id: data-parallel\n", "  - id: Data Parallel\n", "`qlint check --fix` can rename option id 'Data Parallel' to 'data-parallel'"),
    ("tags: [", "tags: [Model_Parallel, ", "`qlint check --fix` can rewrite tag 'Model_Parallel' as 'model-parallel'"),
    ("id: mla-c01-dev-", "id: MLA C01 dev ", "`qlint check --fix --unsafe-fixes` can rename the question id"),
    ("  - id: data-parallel\n", "  - id: '-'\n", None),
])
def test_a_bad_id_is_described_in_words_with_its_fix(old, new, fix):
    errors = validate("question", _question(SINGLE, old, new))
    assert len(errors) == 1, errors
    message = errors[0].message
    assert "is not in the expected form (" in message and "lower-case letters, digits and hyphens" in message
    assert not re.search(r"\[a-z|\{\d|\^", message), message  # no regular expression
    assert (fix in message) if fix else ("--fix" not in message and errors[0].fix is None), message


def test_an_ordering_question_with_options_says_what_the_type_expects():
    data = _question(ORDERING, "\nsteps:\n", "\noptions:\n")
    errors = validate("question", data)
    assert [e.pointer for e in errors] == ["", "/options"], errors  # no "missing 'correct'" per step
    missing, unused = errors
    assert missing.message == "missing required field 'steps' in the document (type: ordering needs it)"
    assert unused.at_key and unused.message.startswith(
        "field 'options' is not used by type: ordering, which expects 'steps' (the steps, keyed ones listed "
        "in their correct order); rename 'options' to 'steps'"), unused.message
    assert all(len(e.message) < 250 and "{'" not in e.message for e in errors)


def test_check_prints_short_lines_for_a_question_of_the_wrong_shape(tmp_path, capsys, in_repo):
    path = tmp_path / ORDERING.name
    path.write_text(ORDERING.read_text(encoding="utf-8").replace("\nsteps:\n", "\noptions:\n"), encoding="utf-8")
    code, out, err = run(capsys, "check", "--no-cache", str(path))
    assert code == 1, out + err
    lines = [ln for ln in out.splitlines() if " S001 " in ln]
    assert len(lines) == 2 and max(len(ln) for ln in lines) < 250 + len(str(path)), out
