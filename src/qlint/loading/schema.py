"""JSON Schema validation of plain data, with errors phrased for authors and placed by pointer."""

from __future__ import annotations

import copy
import datetime as dt
import difflib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterator

from typing import TYPE_CHECKING

import fastjsonschema

if TYPE_CHECKING:  # jsonschema is imported only to explain a failure (~50 ms saved per clean run)
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

from qlint.diagnostic import Fix
from qlint.loading import compiled
from qlint.loading.positions import join_pointer
from qlint.loading.schema_fixes import fix_for
from qlint.loading.schema_words import misplaced_field, pattern_words

SCHEMAS = ("question", "exam", "case", "config")


@dataclass(frozen=True)
class SchemaError:
    pointer: str
    message: str
    at_key: bool = False
    fix: Fix | None = None


@lru_cache(maxsize=None)
def schema_text(kind: str) -> str:
    if kind not in SCHEMAS:
        raise ValueError(f"unknown schema {kind!r}")
    return resources.files("qlint").joinpath("schemas", f"{kind}.schema.json").read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def schema(kind: str) -> dict[str, Any]:
    return json.loads(schema_text(kind))


@lru_cache(maxsize=None)
def validator(kind: str) -> "Draft202012Validator":
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema(kind))


def _compiled(kind: str) -> Any:
    """fastjsonschema's validator for our packaged schema, compiled once and kept sealed for this
    user (loading/compiled.py; never in a repository's cache folder, where a planted file ran)."""
    # fastjsonschema writes into the schema it compiles: give it a copy, others read the original
    return compiled.validator(kind, {**copy.deepcopy(schema(kind)), "$schema": "http://json-schema.org/draft-07/schema#"})


@lru_cache(maxsize=None)
def quick_check(kind: str):
    """A compiled yes/no validator (fastjsonschema: ~10x jsonschema) for the common valid case.

    Our schemas use only keywords whose meaning draft-07 and 2020-12 share (tests hold both
    validators to the same verdicts), so the draft-07 compiler answers for them; jsonschema
    then explains failures with paths.
    """
    compiled = _compiled(kind)

    def check(data: Any) -> bool:
        try:
            compiled(data)
            return True
        except fastjsonschema.JsonSchemaException:
            return False

    return check


# Ends every schema pattern: nothing may follow the match. Python's `$` also matches before a
# final newline ("x\n" passed the id pattern); `\Z` is not ECMA-262, which editors use.
END_GUARD = r"(?![\s\S])"


def shown_pattern(pattern: str) -> str:
    """A schema pattern as authors read it, without the end guard."""
    return pattern.removesuffix(END_GUARD)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (dt.date, dt.datetime)):
        return "date"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "mapping"
    return type(value).__name__


_TYPE_WORDS = {"boolean": "a boolean (true or false)", "string": "a string", "integer": "an integer",
               "number": "a number", "array": "a list", "object": "a mapping", "null": "null"}


def _short(value: Any) -> str:
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    text = repr(value) if not isinstance(value, (dict, list)) else _type_name(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _messages(err: ValidationError, root: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """(pointer, message, at_key) for one jsonschema error."""
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        path = list(err.absolute_path)
        allowed = list(err.schema.get("properties", {}))
        out = []
        for key in (k for k in err.instance if k not in allowed):
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; allowed: {', '.join(allowed)}"
            out.append((join_pointer(path + [key]), f"unknown field {key!r}{hint}", True))
        return out
    if err.validator == "not" and isinstance(err.validator_value, dict) and "anyOf" in err.validator_value:
        return _misplaced(err, root)
    return [_message(err)]


def _message(err: ValidationError) -> tuple[str, str, bool]:
    path = list(err.absolute_path)
    pointer = join_pointer(path)
    v, inst = err.validator, err.instance
    field = f"'{path[-1]}'" if path and isinstance(path[-1], str) else "value"
    if v == "type":
        want = err.validator_value
        wants = [want] if isinstance(want, str) else list(want)
        got = _type_name(inst)
        hint = ""
        if got == "date":
            hint = "; quote it to keep it as text"
        elif got == "string" and "boolean" in wants and str(inst).lower() in {"yes", "no", "on", "off", "y", "n"}:
            hint = "; YAML 1.2 reads yes/no as text, write true or false"
        return pointer, f"{field}: expected {' or '.join(_TYPE_WORDS.get(w, w) for w in wants)}, got {got} {_short(inst)}{hint}", False
    if v == "required":
        missing = [m for m in err.validator_value if isinstance(inst, dict) and m not in inst]
        where = "the document" if not path else pointer
        if isinstance(err.schema, dict) and isinstance(err.schema.get("$comment"), str):
            where += f" ({err.schema['$comment']})"  # a branch that says why it requires a field
        elif "then" in err.schema_path and isinstance(inst, dict) and isinstance(inst.get("type"), str):
            where += f" (type: {inst['type']} needs {'them' if len(missing) > 1 else 'it'})"
        return pointer, f"missing required field{'s' if len(missing) > 1 else ''} {', '.join(repr(m) for m in missing)} in {where}", False
    if v == "enum":
        choices = ", ".join(str(c) for c in err.validator_value)
        close = difflib.get_close_matches(str(inst), [str(c) for c in err.validator_value], n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return pointer, f"{field}: expected one of {choices}, got {_short(inst)}{hint}", False
    if v == "const":
        return pointer, f"{field}: expected {err.validator_value!r}, got {_short(inst)}", False
    if v == "pattern":
        hint = "; it ends with a line break" if isinstance(inst, str) and inst.endswith(("\n", "\r")) else ""
        form = pattern_words(shown_pattern(err.validator_value)) or shown_pattern(err.validator_value)
        example = (err.schema.get("examples") or [None])[0]
        like = f", like {example!r}" if isinstance(example, str) else ""
        return pointer, f"{field}: {_short(inst)} is not in the expected form ({form}{like}){hint}", False
    if v == "minLength":
        return pointer, f"{field}: must not be empty", False
    if v in ("minItems", "maxItems"):
        bound = "at least" if v == "minItems" else "at most"
        return pointer, f"{field}: has {len(inst)} items; expected {bound} {err.validator_value}", False
    if v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return pointer, f"{field}: {_short(inst)} is out of range ({v} {err.validator_value})", False
    if v == "uniqueItems":
        return pointer, f"{field}: items must be unique", False
    if v == "not" and isinstance(err.validator_value, dict) and list(err.validator_value) == ["required"]:
        key = err.validator_value["required"][0]
        return join_pointer(path + [key]), f"field {key!r} is not allowed here (only with type: multiple)", True
    return pointer, f"{field}: {_capped(err.message)}", False


def _capped(message: str, limit: int = 200) -> str:
    """jsonschema's own words quote the whole value: a whole question's dict on one line."""
    return message if len(message) <= limit else message[:limit - 3] + "..."


def _misplaced(err: ValidationError, root: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """A type's `not: {anyOf: [{required: [f]}, ...]}`: one message per field it does not use."""
    keys = [k for alt in err.validator_value.get("anyOf", []) for k in alt.get("required", [])]
    if not isinstance(err.instance, dict) or not keys:
        return [_message(err)]
    expected = list(err.schema.get("required", []))
    path = list(err.absolute_path)
    return [(join_pointer(path + [k]), misplaced_field(k, err.instance, expected, root), True)
            for k in keys if k in err.instance]


def _leaves(err: ValidationError) -> Iterator[ValidationError]:
    # if/then and allOf wrap the interesting error; report the innermost ones.
    if err.context:
        for sub in err.context:
            yield from _leaves(sub)
    else:
        yield err


def validate(kind: str, data: Any) -> list[SchemaError]:
    if quick_check(kind)(data):
        return []
    val = validator(kind)
    out: dict[tuple[str, str], SchemaError] = {}
    for err in val.iter_errors(data):
        for leaf in _leaves(err):
            for pointer, message, at_key in _messages(leaf, schema(kind)):
                fix = fix_for(pointer, leaf.instance, data, leaf.validator_value) if kind == "question" and leaf.validator == "pattern" else None
                if fix is not None:
                    message += f"; `qlint check --fix{'' if fix.safe else ' --unsafe-fixes'}` can {fix.description}"
                out.setdefault((pointer, message), SchemaError(pointer, message, at_key, fix))
    # what the schema says inside a field the type does not use ('options' of an ordering
    # question: "missing 'correct'" per item) is noise once the field itself is reported
    unused = [e.pointer for e in out.values() if e.message.startswith("field ") and " is not used by type: " in e.message]
    kept = [e for e in out.values() if not any(e.pointer.startswith(u + "/") for u in unused)]
    return sorted(kept, key=lambda e: e.pointer)
