"""The schema validators compiled once and kept sealed for the user (loading/compiled.py): a
later run loads them instead of compiling, with the same verdicts; anything planted, swapped,
torn or unwritable is compiled in-process instead, and never run."""

from __future__ import annotations

import copy
import marshal
from pathlib import Path

import fastjsonschema
import pytest
import yaml

from qlint.loading import compiled, sealed
from qlint.loading.schema import SCHEMAS, schema

from conftest import REPO

DRAFT7 = "http://json-schema.org/draft-07/schema#"
GOOD = yaml.safe_load((REPO / "tests" / "fixtures" / "types" / "ordering.yaml").read_text(encoding="utf-8"))
BROKEN = [{**GOOD, "id": "Not An Id"}, {k: v for k, v in GOOD.items() if k != "stem"}, {**GOOD, "type": "essay"}, [], "x"]


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    return tmp_path / "user-cache" / "qlint" / compiled.FOLDER


def definition(kind: str = "question") -> dict:
    return {**copy.deepcopy(schema(kind)), "$schema": DRAFT7}


def verdict(validate, data) -> bool:
    try:
        validate(data)
        return True
    except fastjsonschema.JsonSchemaException:
        return False


def no_compiling(monkeypatch) -> None:
    def refuse(*_a, **_k):
        raise AssertionError("compiled again")

    monkeypatch.setattr(fastjsonschema, "compile", refuse)
    monkeypatch.setattr(fastjsonschema, "compile_to_code", refuse)


@pytest.mark.parametrize("kind", SCHEMAS)
def test_a_second_run_loads_the_sealed_validator_with_the_same_verdicts(kind, own_cache, monkeypatch):
    fresh = compiled.validator(kind, definition(kind))
    assert len(list(own_cache.glob(f"{kind}-*.marshal"))) == 1
    no_compiling(monkeypatch)
    kept = compiled.validator(kind, definition(kind))
    assert kept is not fresh
    if kind == "question":
        assert verdict(kept, GOOD) and verdict(fresh, GOOD)
        for bad in BROKEN:
            assert verdict(kept, bad) is verdict(fresh, bad) is False, bad
    assert verdict(kept, None) is verdict(fresh, None) is False


def _planted(marker: Path) -> bytes:
    source = f"open({str(marker)!r}, 'w').close()\ndef validate(data):\n    return data\n"
    return marshal.dumps(("validate", compile(source, "<planted>", "exec")))


def test_a_planted_validator_is_never_run(own_cache, tmp_path):
    """Code put under the right name without the user's key (another tool, a restored cache):
    compiled afresh instead, and the file is replaced by a sealed one."""
    compiled.validator("question", definition())
    (path,) = own_cache.glob("question-*.marshal")
    marker = tmp_path / "pwned"
    for blob in (_planted(marker), b"\x00" * 32 + _planted(marker), path.read_bytes()[:32] + _planted(marker)):
        path.write_bytes(blob)
        validate = compiled.validator("question", definition())
        assert not marker.exists()
        assert not verdict(validate, BROKEN[0]) and verdict(validate, GOOD)
        assert sealed.read(own_cache, path.name) is not None  # sealed again


def test_a_swapped_validator_is_not_taken_for_another(own_cache, monkeypatch):
    """The seal covers the name: the exam validator copied over the question's is refused."""
    compiled.validator("question", definition())
    compiled.validator("exam", definition("exam"))
    (question,) = own_cache.glob("question-*.marshal")
    (exam,) = own_cache.glob("exam-*.marshal")
    question.write_bytes(exam.read_bytes())
    validate = compiled.validator("question", definition())
    assert verdict(validate, GOOD)


@pytest.mark.parametrize("damage", ["truncated", "flipped", "empty", "not marshal"])
def test_a_damaged_validator_is_compiled_again(own_cache, damage):
    compiled.validator("question", definition())
    (path,) = own_cache.glob("question-*.marshal")
    blob = path.read_bytes()
    if damage == "truncated":
        blob = blob[: len(blob) // 2]
    elif damage == "flipped":
        blob = blob[:-10] + bytes([blob[-10] ^ 1]) + blob[-9:]
    elif damage == "empty":
        blob = b""
    path.write_bytes(blob)
    if damage == "not marshal":  # sealed by the right key but not what qlint writes
        assert sealed.write(own_cache, path.name, b"\xffnot marshal")
    validate = compiled.validator("question", definition())
    assert verdict(validate, GOOD) and not verdict(validate, BROKEN[1])


def test_an_unwritable_home_compiles_every_time(tmp_path, monkeypatch):
    """No folder can be made for the key (the cache home is a file): the validator is compiled
    in-process and nothing is kept, without an error."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    validate = compiled.validator("question", definition())
    assert verdict(validate, GOOD) and not verdict(validate, BROKEN[0])


def test_a_folder_others_may_write_is_not_read(own_cache, monkeypatch):
    compiled.validator("question", definition())
    own_cache.chmod(0o777)
    calls = []
    real = fastjsonschema.compile
    monkeypatch.setattr(fastjsonschema, "compile", lambda d: calls.append(1) or real(d))
    validate = compiled.validator("question", definition())
    assert calls and verdict(validate, GOOD)


def test_a_changed_schema_gets_its_own_validator(own_cache):
    """The name hashes the schema: an edited schema is compiled, the old one's file removed."""
    compiled.validator("question", definition())
    changed = definition()
    changed["properties"]["id"] = {"type": "integer"}
    validate = compiled.validator("question", changed)
    assert not verdict(validate, GOOD)
    assert len(list(own_cache.glob("question-*.marshal"))) == 1


def test_the_schema_checks_use_the_kept_validators(own_cache, monkeypatch):
    """What `qlint check` runs (loading/schema.py) loads them: a second process compiles none."""
    from qlint.loading import schema as schema_module

    schema_module._compiled("question")
    no_compiling(monkeypatch)
    assert verdict(schema_module._compiled("question"), GOOD)
