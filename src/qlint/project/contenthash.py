"""The content hash: one digest of what a question means, not of its bytes.

A sign-off (`reviews:`), a frozen live item and a translation each record the hash of the text
they approved; a later edit of meaning gives another hash, an edit of layout does not. The fields
and their normal form are documented in docs/review.md ("The content hash"). The hash reads the
parsed data, so YAML quoting, block styles, comments and key order never reach it; inside a text,
line wrapping and runs of spaces are removed (Markdown renders them alike), but paragraph breaks,
list items and fenced code keep their lines. A question of a case study (`case:`) is read with its
case's scenario: its hash is that of its own fields and of the case's title and scenario, so an
edit of the scenario makes its sign-offs, freeze and translations stale too.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from typing import Any

# Bumped when the normal form changes, so a hash of one version never matches one of another.
VERSION = 1
PREFIX = "sha256:"

# The teaching fields, in the order changed_fields names them.
TEXT_FIELDS = ("stem", "trap", "explanation")
PART_TEXTS = ("text", "rationale", "right_when", "why_chosen")
PART_LISTS = ("options", "steps", "prompts", "responses")
# What learners read of a case study above each of its questions (schema/case.schema.json).
CASE_FIELDS = ("title", "scenario")

_FENCE = re.compile(r"^\s*(```|~~~)")
# A line that starts a Markdown block of its own (a list item, a heading, a quote, a table row):
# re-wrapping never moves one onto the line before.
_BLOCK_MARK = r"[-*+]\s|\d{1,9}[.)]\s|#{1,6}\s|>|\|"
_BLOCK_START = re.compile(rf"^\s*(?:{_BLOCK_MARK})")


def normal_text(text: str) -> str:
    """`text` with wrapping and spacing removed: NFC, each paragraph, list item, heading or table
    row on one line with single spaces, paragraphs separated by one blank line; fenced code blocks
    keep their lines (trailing spaces removed)."""
    # Most texts are one line, or one line and its break (a YAML block scalar): what `_lines`
    # makes of those, without splitting them into lines.
    body = text.rstrip("\r\n")
    if "\n" not in body and "\r" not in body:
        if not body.isascii():
            body = unicodedata.normalize("NFC", body)
        if _FENCE.match(body) is None:
            return " ".join(body.split())
        if len(body) == len(text):  # a fence line followed by a break opens a block: read it line by line
            return body.strip()
    elif "\r" not in text and _LATER_BLOCK.search(text) is None and _FIRST_BLOCK.match(text) is None:
        # one wrapped paragraph (most block scalars): what `_lines` makes of it, in one join
        return " ".join((text if text.isascii() else unicodedata.normalize("NFC", text)).split())
    return _lines(text)


# Whatever makes `_lines` keep a line break: a fence or a block start at the start of a line, a
# blank line between lines. (Searched from each line end, which is nine times as fast as `^` in
# multi-line mode on a wrapped paragraph.)
_BLOCK = rf"(?:```|~~~|{_BLOCK_MARK})"
_LATER_BLOCK = re.compile(rf"\n[^\S\n]*(?:{_BLOCK}|\n)")
_FIRST_BLOCK = re.compile(rf"[^\S\n]*{_BLOCK}")


def _lines(text: str) -> str:
    """`normal_text` line by line."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
    blocks: list[str] = []
    current: list[str] = []
    fence: str | None = None

    def close() -> None:
        words = " ".join(current).split()
        if words:
            blocks.append(" ".join(words))
        current.clear()

    for line in text.split("\n"):
        if fence is not None:
            blocks[-1] += "\n" + line.rstrip()
            if line.strip().startswith(fence):
                fence = None
            continue
        m = _FENCE.match(line)
        if m:
            close()
            fence = m.group(1)
            blocks.append(line.strip())
            continue
        if not line.strip():
            close()
            blocks.append("")
            continue
        if _BLOCK_START.match(line):
            close()
        current.append(line)
    close()
    # blank lines only separate: one between paragraphs, none at the ends
    out: list[str] = []
    for block in blocks:
        if block == "":
            if out and out[-1] != "":
                out.append("")
        else:
            out.append(block)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out)


def _value(value: Any) -> Any:
    """A scalar in its normal form: texts normalised, anything else as parsed."""
    if isinstance(value, str):
        return normal_text(value)
    if isinstance(value, list):
        return [_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _value(v) for k, v in value.items()}
    return value


def _part(raw: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        return {"value": _value(raw)}
    out = {k: _value(raw[k]) for k in keys if raw.get(k) not in (None, "")}
    return {k: v for k, v in out.items() if v != ""}


def _by_id(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ids = [str(p.get("id", "")) for p in parts]
    if len(set(ids)) == len(ids):  # no tie for the JSON text to break (it costs 10 us a part)
        return [p for _, p in sorted(zip(ids, parts), key=lambda pair: pair[0])]
    return sorted(parts, key=lambda p: (str(p.get("id", "")), json.dumps(p, sort_keys=True, ensure_ascii=False)))


def _options(data: dict[str, Any]) -> list[dict[str, Any]]:
    raw = data.get("options")
    if not isinstance(raw, list):
        return []
    parts = []
    for i, o in enumerate(raw):
        part = _part(o, ("id", *PART_TEXTS))
        if isinstance(o, dict):
            part["correct"] = o.get("correct") is True
            if o.get("pinned") is True:
                part["pinned"] = i  # a pinned option keeps its place when the others are shuffled
        parts.append(part)
    # shuffled at export (and by `qlint shuffle`): the order says nothing unless shuffle is off
    return parts if data.get("shuffle") is False else _by_id(parts)


def _steps(data: dict[str, Any]) -> list[dict[str, Any]]:
    raw = data.get("steps")
    if not isinstance(raw, list):
        return []
    keyed, distractors = [], []
    for s in raw:
        part = _part(s, ("id", *PART_TEXTS))
        keyed_step = not (isinstance(s, dict) and s.get("correct") is False)
        part["correct"] = keyed_step
        (keyed if keyed_step else distractors).append(part)
    # the keyed steps' order is the key; a distractor belongs at no position
    return keyed + _by_id(distractors)


def _matching(data: dict[str, Any], field: str, keys: tuple[str, ...]) -> list[dict[str, Any]]:
    raw = data.get(field)
    if not isinstance(raw, list):
        return []
    return _by_id([_part(p, keys) for p in raw])  # players shuffle prompts and responses


def content_fields(data: dict[str, Any]) -> dict[str, Any]:
    """The normalised teaching fields of one question's data (as loaded), with empty ones left out."""
    if not isinstance(data, dict):
        return {}
    out: dict[str, Any] = {}
    for key in ("type", *TEXT_FIELDS, "case", "choose"):
        if data.get(key) not in (None, ""):
            out[key] = _value(data[key])
    if data.get("shuffle") is False:
        out["shuffle"] = False
    parts = {
        "options": _options(data),
        "steps": _steps(data),
        "prompts": _matching(data, "prompts", ("id", "text", "match", "rationale")),
        "responses": _matching(data, "responses", ("id", "text", "rationale")),
    }
    out.update({k: v for k, v in parts.items() if v})
    return {k: v for k, v in out.items() if v != ""}


def canonical(fields: dict[str, Any]) -> str:
    """The JSON text that is hashed: sorted keys, no spaces, UTF-8 as is."""
    return json.dumps({"qlint-content": VERSION, **fields}, sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))


def _digest(text: str) -> str:
    return PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()


def case_fields(case: dict[str, Any] | None) -> dict[str, Any]:
    """The normalised teaching fields of a case study's data (title, scenario), empty ones left out."""
    if not isinstance(case, dict):
        return {}
    return {k: _value(case[k]) for k in CASE_FIELDS if case.get(k) not in (None, "")}


def case_hash(case: dict[str, Any] | None) -> str:
    """The digest of a case study's teaching fields (kept in the bank's case entries)."""
    return _digest(json.dumps({"qlint-case": VERSION, **case_fields(case)}, sort_keys=True, ensure_ascii=False,
                              separators=(",", ":")))


def with_case(question: str, case: str) -> str:
    """The content hash of a case question: the digest of its own hash and its case's
    (`case_hash`). Composed from two digests, so the bank rules need keep no texts to compute it."""
    return _digest(json.dumps({"qlint-content": VERSION, "question": question, "case": case},
                              sort_keys=True, separators=(",", ":")))


def content_hash(data: dict[str, Any], case: dict[str, Any] | None = None) -> str:
    """`sha256:` and the hex digest of the canonical JSON of `content_fields(data)`; for a question
    that names a case study, given that case's data, composed with the case's hash (`with_case`).
    A question without `case:` (or whose case file is not found) hashes its own fields only."""
    own = _digest(canonical(content_fields(data)))
    if isinstance(case, dict) and isinstance(data, dict) and isinstance(data.get("case"), str) and data["case"]:
        return with_case(own, case_hash(case))
    return own


def _raw_ids(data: dict[str, Any], field: str) -> list[str]:
    """The part ids in the file's order (changed_fields names changes in reading order)."""
    raw = data.get(field) if isinstance(data, dict) else None
    return [str(p.get("id")) for p in raw if isinstance(p, dict)] if isinstance(raw, list) else []


def changed_fields(before: dict[str, Any], after: dict[str, Any], case_before: dict[str, Any] | None = None,
                   case_after: dict[str, Any] | None = None) -> list[str]:
    """Names of the teaching fields that differ between two versions of a question, in reading
    order: `case.scenario`, `stem`, `options[serverless].rationale`, `steps (order)`,
    `prompts[drift].match` ... (`case.*` when the case study's versions are given and differ)."""
    old, new = content_fields(before), content_fields(after)
    names: list[str] = []
    if case_before is not None or case_after is not None:
        ca, cb = case_fields(case_before), case_fields(case_after)
        names += [f"case.{k}" for k in CASE_FIELDS if ca.get(k) != cb.get(k)]
    for key in ("type", *TEXT_FIELDS, "case", "choose", "shuffle"):
        if old.get(key) != new.get(key):
            names.append(key)
    for field in PART_LISTS:
        a, b = old.get(field, []), new.get(field, [])
        if a == b:
            continue
        ida = {str(p.get("id")): p for p in a}
        idb = {str(p.get("id")): p for p in b}
        for pid in dict.fromkeys([*_raw_ids(after, field), *_raw_ids(before, field), *idb, *ida]):
            if pid not in idb:
                names.append(f"{field}[{pid}] (removed)")
            elif pid not in ida:
                names.append(f"{field}[{pid}] (added)")
            else:
                pa, pb = ida[pid], idb[pid]
                for k in sorted(set(pa) | set(pb)):
                    if pa.get(k) != pb.get(k):
                        names.append(f"{field}[{pid}].{k}")
        if [p.get("id") for p in a if p.get("id") in idb] != [p.get("id") for p in b if p.get("id") in ida]:
            names.append(f"{field} (order)")
    return names
