"""Check a configuration table: its shape against schema/config.schema.json, then its content
against the rules (codes and names, each rule's options: their types and declared ranges, selectors). The output
format is checked by `qlint.cli.config`, which knows the reporters."""

from __future__ import annotations

import difflib
from typing import Any, Iterator

from qlint.loading.schema import validate
from qlint.rules import RULES, Rule, by_name_or_code
from qlint.lint.selection import SelectionError, expand_all

Problem = tuple[str, str]  # (dotted key, message)


def check_config(raw: dict[str, Any]) -> list[Problem]:
    """Every mistake in the table, as (dotted key, message); empty when it is sound."""
    problems = [(_dotted(e.pointer), e.message) for e in validate("config", raw)]
    if problems:
        return problems  # the content checks below assume the shape is right
    for key in ("select", "extend-select", "ignore"):
        problems += [(f"{key}[{i}]", m) for i, m in _selectors(raw.get(key, []))]
    for glob, codes in raw.get("per-file-ignores", {}).items():
        problems += [(f"per-file-ignores.{_quote(glob)}[{i}]", m) for i, m in _selectors(codes)]
    for key in raw.get("severity", {}):
        problems += [(f"severity.{_quote(key)}", m) for _i, m in _selectors([key])]
    for key, table in raw.get("rules", {}).items():
        problems += [(f"rules.{_quote(key)}{sub}", m) for sub, m in _rule_options(key, table)]
    return problems


def _dotted(pointer: str) -> str:
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.lstrip("/").split("/")] if pointer else []
    out = ""
    for p in parts:
        out += f"[{p}]" if p.isdigit() else ("." if out else "") + _quote(p)
    return out


def _quote(key: str) -> str:
    """A TOML bare key as is, anything else quoted, so the path can be pasted back."""
    return key if key and all(c.isalnum() or c in "-_" for c in key) else f'"{key}"'


def _selectors(items: list[str]) -> Iterator[tuple[int, str]]:
    for i, item in enumerate(items):
        try:
            expand_all([item])
        except SelectionError as exc:
            yield i, str(exc)


def _closest_rule(key: str) -> str:
    known = RULES.names() + [r.name for _c, r in RULES.items()]
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.5) or difflib.get_close_matches(key.upper(), known, n=1, cutoff=0.3)
    return f"; did you mean {close[0]!r}?" if close else "; 'qlint rule --all' lists the rules"


_TYPES = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list", dict: "a table"}


def _type_ok(default: Any, value: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    return isinstance(value, type(default)) if default is not None else True


def _rule_options(key: str, table: dict[str, Any]) -> Iterator[tuple[str, str]]:
    rule: Rule | None = by_name_or_code(key)
    if rule is None:
        yield "", f"unknown rule {key!r}{_closest_rule(key)}"
        return
    for name, value in table.items():
        option = rule.options.get(name)
        if option is None:
            if rule.options:
                close = difflib.get_close_matches(name, list(rule.options), n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                yield f".{_quote(name)}", f"{rule.code} has no option {name!r}; {hint}its options: {', '.join(rule.options)}"
            else:
                yield f".{_quote(name)}", f"{rule.code} ({rule.name}) has no options"
        elif not _type_ok(option.default, value):
            want = _TYPES.get(type(option.default), type(option.default).__name__)
            yield f".{_quote(name)}", f"expected {want} (default {option.default!r}), got {value!r}"
        elif (problem := option.problem(value)) is not None:  # the bounds declared with the option
            yield f".{_quote(name)}", problem
