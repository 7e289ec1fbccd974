"""Reports write JSON through `indented_json` (json's indenting encoder was seconds for 20,000
findings): its text must be json.dumps's, byte for byte, whatever the values."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import json

from hypothesis import given, settings, strategies as st

from qlint.reports._common import indented_json

from conftest import examples
from kit.reports import CONTEXT, DIAGNOSTICS, TRICKY


def _reference(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


class Level(enum.IntEnum):
    HIGH = 3


class Kind(str, enum.Enum):
    TEXT = "text"


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(), st.sampled_from(["\ud800", "\u2028", "\x00\"\\"]))
keys = st.one_of(st.text(), st.integers(), st.floats(allow_nan=False), st.booleans(), st.none())
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                                                        st.dictionaries(keys, inner, max_size=4)), max_leaves=30)


@settings(max_examples=examples(300), deadline=None)
@given(values)
def test_indented_json_is_json_dumps(value):
    assert indented_json(value) == _reference(value)


def test_indented_json_odd_values():
    for value in ({}, [], {"a": {}, "b": [[], {}]}, dt.date(2026, 1, 2), {"d": dt.datetime(2026, 1, 2, 3, 4)},
                  Level.HIGH, {"k": [Level.HIGH, Kind.TEXT]}, float("nan"), [float("inf"), -float("inf"), -0.0]):
        assert indented_json(value) == _reference(value)


def test_machine_reports_are_unchanged_at_scale():
    """Thousands of findings, odd paths and text included: the SARIF and JSON documents come out as json.dumps wrote them."""
    from qlint.reports import json as json_format, sarif

    many = [dataclasses.replace(d, path=f"{d.path}{i}", message=d.message + TRICKY) for i in range(500) for d in DIAGNOSTICS]
    for module in (json_format, sarif):
        doc = module.document(many, CONTEXT)
        assert indented_json(doc) == _reference(doc)
