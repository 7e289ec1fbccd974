"""Property-based fuzzing of the loader and the whole rule set.

The only allowed outcomes are diagnostics and exit codes 0/1/2, and never X001 (a rule that
crashed). Budget: QLINT_FUZZ_EXAMPLES (default 150 per property; raise it for a longer run).
"""

from __future__ import annotations

import os
import string

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from qlint.lint.engine import check_file, load_exams, make_settings
from qlint.cli.config import load_config

from conftest import REPO, examples

BUDGET = settings(
    max_examples=int(os.environ.get("QLINT_FUZZ_EXAMPLES", examples(150))),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

_SETTINGS = make_settings(load_config(REPO), select=["ALL"])
load_exams(_SETTINGS)


def _check(tmp_path, data: bytes):
    f = tmp_path / "fuzz.yaml"
    f.write_bytes(data)
    result = check_file(str(f), _SETTINGS)
    for d in result.diagnostics:
        assert d.code != "X001", d.message
        assert d.line >= 1 and d.col >= 1
    return result


@BUDGET
@given(st.binary(max_size=2000))
def test_arbitrary_bytes(tmp_path, data):
    _check(tmp_path, data)


yaml_text = st.text(alphabet=string.printable + "éü中\u2028\t", max_size=400)


@BUDGET
@given(yaml_text)
def test_arbitrary_text(tmp_path, text):
    _check(tmp_path, text.encode("utf-8"))


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=40))
structures = st.recursive(scalars, lambda kids: st.one_of(st.lists(kids, max_size=5), st.dictionaries(st.text(max_size=10), kids, max_size=5)), max_leaves=30)


@BUDGET
@given(st.dictionaries(st.sampled_from(["id", "exam", "domain", "type", "choose", "stem", "trap", "options", "explanation", "status", "format", "x"]), structures, max_size=12))
def test_arbitrary_structures(tmp_path, doc):
    _check(tmp_path, yaml.safe_dump(doc, allow_unicode=True).encode("utf-8"))


words = st.text(alphabet=string.ascii_letters + string.digits + " .,:;?!'\"()-*_`#\n", min_size=1, max_size=120)


@st.composite
def questions(draw):
    n = draw(st.integers(2, 10))
    kind = draw(st.sampled_from(["single", "multiple"]))
    options = []
    for i in range(n):
        opt = {"id": f"o{i}", "text": draw(words), "correct": draw(st.booleans())}
        if draw(st.booleans()):
            opt["rationale"] = draw(st.text(max_size=120))
        if draw(st.booleans()):
            opt["right_when"] = draw(words)
        options.append(opt)
    q = {"format": 1, "id": "fuzz-question", "exam": "MLA-C01", "domain": "model-development", "type": kind,
         "status": "draft", "stem": draw(words), "options": options, "explanation": draw(words)}
    if kind == "multiple":
        q["choose"] = draw(st.integers(2, 9))
    if draw(st.booleans()):
        q["trap"] = draw(st.text(max_size=120))
    return q


@BUDGET
@given(questions())
def test_schema_valid_questions_never_crash_a_rule(tmp_path, q):
    result = _check(tmp_path, yaml.safe_dump(q, allow_unicode=True).encode("utf-8"))
    assert not any(d.code.startswith("Y") for d in result.diagnostics)


@BUDGET
@given(st.one_of(questions(), st.dictionaries(st.sampled_from(["id", "exam", "type", "choose", "stem", "options", "format", "status"]), structures, max_size=8)))
def test_quick_validator_agrees_with_jsonschema(q):
    from qlint.loading.schema import quick_check, validator

    assert quick_check("question")(q) == validator("question").is_valid(q)
