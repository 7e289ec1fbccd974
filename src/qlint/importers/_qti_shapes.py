"""Ordering and matching items of a QTI package back to qlint steps, prompts and responses.

The reverse of exporters/qti/_shapes (docs/exports-qti.md): an `orderInteraction`'s correct
response gives the keyed steps in key order, its other choices are distractor steps; a
`matchInteraction`'s first match set gives the prompts, the second the responses, and each
`directedPair` of the correct response a prompt's `match`. The reveal's rows (`div.qlint-row`,
id `row_<choice identifier>`) give the rationales and, for steps, the authoring order. Items from
other tools are read the same way without rows; whatever fits nowhere is reported.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from lxml import etree

from qlint.importers._markdown import classes, local, remove
from qlint.importers.common import SLUG, placeholder, short
from qlint.loading.schema_fixes import slug

if TYPE_CHECKING:
    from qlint.importers.qti import ItemReader

ROW_PARTS = {"qlint-rationale": "rationale", "qlint-right-when": "right_when", "qlint-why-chosen": "why_chosen"}


def rows(reader: ItemReader) -> dict[str, etree._Element]:
    """Choice identifier -> its row in the reveal, in document order."""
    return {row.get("id")[len("row_"):]: row for row in reader.root.iter()
            if local(row) == "div" and "qlint-row" in classes(row) and (row.get("id") or "").startswith("row_")}


def _ident(reader: ItemReader, choice: etree._Element, prefix: str, seen: set[str], what: str) -> str:
    """The qlint id of a choice: its identifier without our prefix, made a slug (and unique) if it is none."""
    identifier = choice.get("identifier") or ""
    new = identifier[len(prefix):] if identifier.startswith(prefix) else identifier
    if not SLUG.match(new) or new in seen:
        base = slug(new, 40) or f"{what}-{len(seen) + 1}"
        new = base
        while new in seen:
            new = f"{base}-{len(seen) + 1}"
        reader.note(f"{what} identifier {identifier!r} is not a qlint id; it became {new!r}", choice)
    seen.add(new)
    return new


def _text(reader: ItemReader, choice: etree._Element, what: str) -> str:
    text = reader.text.markdown(choice, f"{what} text")
    if not text:
        reader.note(f"{what} {choice.get('identifier')!r} has no text", choice)
        text = placeholder(f"text for this {what}")
    return text


def _why(reader: ItemReader, row: etree._Element | None, part: dict[str, Any], what: str) -> None:
    """Rationale, right_when and why_chosen from a row's divs (their labels dropped)."""
    if row is None:
        return
    for div in row:
        key = next((ROW_PARTS[c] for c in classes(div) if c in ROW_PARTS), None)
        if local(div) != "div" or key is None:
            continue
        div = copy.deepcopy(div)
        for label in [el for el in div if "qlint-label" in classes(el)]:
            remove(label)
        text = reader.text.markdown(div, f"{what} {key}")
        if text:
            part[key] = text


def read_ordering(reader: ItemReader, interaction: etree._Element, keys: list[str]) -> list[dict[str, Any]]:
    """The steps: keyed ones in key order, distractor steps (`correct: false`) where the reveal
    lists them (after the keyed ones when the item has no reveal rows)."""
    found = rows(reader)
    seen: set[str] = set()
    steps: dict[str, dict[str, Any]] = {}
    for choice in [c for c in interaction if local(c) == reader.n.el("simpleChoice").lower()]:
        identifier = choice.get("identifier") or ""
        step: dict[str, Any] = {"id": _ident(reader, choice, "step_", seen, "step"), "text": _text(reader, choice, "step")}
        if identifier not in keys:
            step["correct"] = False
        _why(reader, found.get(identifier), step, f"step {step['id']}")
        steps[identifier] = step
    for key in keys:
        if key not in steps:
            reader.note(f"the correct response {key!r} is not a choice of the item")
    listed = [i for i in found if i in steps]
    if sorted(listed) != sorted(steps) or [i for i in listed if i in keys] != [k for k in keys if k in steps]:
        listed = [k for k in keys if k in steps] + [i for i in steps if i not in keys]  # no (or foreign) rows
    count = interaction.get(reader.n.attr("maxChoices"))
    if count and count.isdigit() and int(count) != len([k for k in keys if k in steps]):
        reader.note(f"maxChoices is {count} but the correct response orders {len(keys)} steps; "
                    "qlint asks for the keyed steps", interaction)
    return [steps[i] for i in listed]


def read_matching(reader: ItemReader, interaction: etree._Element, keys: list[str]
                  ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(prompts, responses) from the two match sets and the correct response's pairs."""
    found = rows(reader)
    sets = [c for c in interaction if local(c) == reader.n.el("simpleMatchSet").lower()]
    choices = [[c for c in s if local(c) == reader.n.el("simpleAssociableChoice").lower()] for s in sets[:2]]
    if len(choices) < 2:
        reader.note(f"the match interaction has {len(sets)} match set(s); two are needed", interaction)
        choices += [[]] * (2 - len(choices))
    seen: set[str] = set()
    ids = {}
    prompts, responses = [], []
    for choice in choices[0]:
        ids[choice.get("identifier")] = _ident(reader, choice, "prompt_", seen, "prompt")
        prompts.append({"id": ids[choice.get("identifier")], "text": _text(reader, choice, "prompt")})
    seen = set()
    for choice in choices[1]:
        ids[choice.get("identifier")] = _ident(reader, choice, "resp_", seen, "response")
        responses.append({"id": ids[choice.get("identifier")], "text": _text(reader, choice, "response")})
    sources = {c.get("identifier") for c in choices[0]}
    match: dict[str, str] = {}
    for pair in keys:
        ends = pair.split()
        if len(ends) == 2 and ends[1] in sources and ends[0] not in sources:
            ends.reverse()  # written target first: still one prompt and one response
        if len(ends) != 2 or ends[0] not in sources or ends[1] not in ids or ends[1] in sources:
            reader.note(f"correct response {pair!r} pairs no prompt with a response")
        elif ends[0] in match:
            reader.note(f"prompt {ids[ends[0]]!r} has more than one correct response; the first was kept")
        else:
            match[ends[0]] = ids[ends[1]]
    out = []
    for choice, prompt in zip(choices[0], prompts):
        if choice.get("identifier") not in match:
            reader.note(f"prompt {prompt['id']!r} ({short(prompt['text'])}) has no correct response; it was left out", choice)
            continue
        prompt["match"] = match[choice.get("identifier")]
        _why(reader, found.get(choice.get("identifier")), prompt, f"prompt {prompt['id']}")
        out.append(prompt)
    for choice, response in zip(choices[1], responses):
        _why(reader, found.get(choice.get("identifier")), response, f"response {response['id']}")
    return out, responses
