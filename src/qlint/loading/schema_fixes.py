"""Mechanical fixes for schema pattern errors: values that are right but for case or spacing.

A registry maps a pointer pattern to a fixer; each fixer returns a Fix or None when no safe,
unambiguous rewrite exists (the slug is empty, still invalid, or taken by a sibling).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Callable

from qlint.diagnostic import Edit, Fix
from qlint.loading.positions import split_pointer

Fixer = Callable[[str, Any, str, re.Pattern[str]], "Fix | None"]
FIXERS: list[tuple[re.Pattern[str], Fixer]] = []


def fixer(pointer_pattern: str) -> Callable[[Fixer], Fixer]:
    def deco(fn: Fixer) -> Fixer:
        FIXERS.append((re.compile(pointer_pattern), fn))
        return fn

    return deco


def slug(text: str, limit: int = 48) -> str:
    """Lower-case ASCII words joined by hyphens: 'Model Parallel (GPU)' -> 'model-parallel-gpu'."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    out = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    if len(out) > limit:  # cut at a word boundary when there is one
        cut = out[: limit + 1]
        out = cut[: cut.rfind("-")] if "-" in cut else out[:limit]
    return out.rstrip("-")


def _siblings(data: Any, pointer: str) -> list[Any]:
    parts = split_pointer(pointer)
    node = data
    for p in parts[:-1]:
        node = node[int(p)] if isinstance(node, list) else node[p]
    return node if isinstance(node, list) else []


def _renamed(value: str, new: str, pattern: re.Pattern[str]) -> bool:
    return bool(new) and new != value and bool(pattern.match(new))


@fixer(r"^/options/\d+/id$")
def option_id(value: str, data: Any, pointer: str, pattern: re.Pattern[str]) -> Fix | None:
    new = slug(value)
    taken = {o.get("id") for o in data.get("options", []) if isinstance(o, dict)} - {value}
    if not _renamed(value, new, pattern) or new in taken:
        return None
    return Fix(f"rename option id {value!r} to {new!r}", (Edit(pointer, new),))


@fixer(r"^/tags/\d+$")
def tag(value: str, data: Any, pointer: str, pattern: re.Pattern[str]) -> Fix | None:
    new = slug(value)
    if not _renamed(value, new, pattern) or new in _siblings(data, pointer):
        return None
    return Fix(f"rewrite tag {value!r} as {new!r}", (Edit(pointer, new),))


@fixer(r"^/exam$")
def exam_code(value: str, data: Any, pointer: str, pattern: re.Pattern[str]) -> Fix | None:
    new = re.sub(r"[\s_]+", "-", value.strip()).upper()
    return Fix(f"upper-case the exam code to {new!r}", (Edit(pointer, new),)) if _renamed(value, new, pattern) else None


@fixer(r"^/id$")
def question_id(value: str, data: Any, pointer: str, pattern: re.Pattern[str]) -> Fix | None:
    new = slug(value, 80)
    if not _renamed(value, new, pattern):
        return None
    return Fix(f"rename the question id to {new!r} (other questions' related lists may cite the old id)",
               (Edit(pointer, new),), safe=False)


def fix_for(pointer: str, value: Any, data: Any, pattern: str) -> Fix | None:
    if not isinstance(value, str):
        return None
    for where, fn in FIXERS:
        if where.match(pointer):
            return fn(value, data, pointer, re.compile(pattern))
    return None
