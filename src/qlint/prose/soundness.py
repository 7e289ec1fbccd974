"""Option data no export may carry: two options with one id, an option with no text, two options
with the same text; the same for ordering steps and matching prompts and responses, and a prompt
matched to no response. The rules S005, S006, O006 and P004-P006 report these, and every exporter
refuses a question that has one (`qlint.exporters.exporter`), so ignoring a rule cannot ship one.

"Same" means the same on screen: ids and texts are compared by their skeletons
(`qlint.text.skeleton`: NFKC, invisible characters removed, Latin look-alikes folded).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from qlint.prose.shapes import CODE_OPTIONS, shapes
from qlint.prose.views import per_question
from qlint.model import Question
from qlint.text import id_key, same_text, skeleton


@dataclass(frozen=True)
class DataError:
    code: str  # the rule that reports it
    pointer: str
    message: str


_TAG = re.compile(r"<[^>]*>")


def renders_empty(text: str) -> bool:
    """True when Markdown `text` shows a learner nothing: blank, invisible characters only, or
    markup with no text in it (an empty link, a thematic break, an empty code span)."""
    shown = skeleton(text)
    # a letter or digit outside link syntax and entities always reaches the page: no render needed
    if "[" not in shown and "&" not in shown and any(c.isalnum() for c in shown):
        return False
    if not shown.strip():
        return True
    from qlint.markup import render

    page = render(text)
    if "<img" in page:
        return False
    return not skeleton(html.unescape(_TAG.sub("", page))).strip()


def option_errors(q: Question) -> list[DataError]:
    """Every duplicate option id (S005), empty option text (S006) and repeated option text (O006)."""
    out: list[DataError] = []
    ids: dict[str, int] = {}
    texts: dict[str, int] = {}
    # code options differ by case: `"String"` and `"string"` are two answers (a final "." too)
    code = CODE_OPTIONS in shapes(q)
    for o in q.options:
        oid, text = o.raw.get("id"), o.raw.get("text")
        if isinstance(oid, str):
            key = id_key(oid)
            if key in ids:
                other = q.options[ids[key]].raw.get("id")
                same = "" if other == oid else f" ({other!r} looks the same)"
                out.append(DataError("S005", f"{o.pointer}/id", f"option {o.index + 1} has the id {oid!r} of option "
                                     f"{ids[key] + 1}{same}: each option needs its own id"))
            else:
                ids[key] = o.index
        if not isinstance(text, str):
            continue
        if renders_empty(text):
            out.append(DataError("S006", f"{o.pointer}/text", f"option {o.index + 1} has no visible text"))
            continue
        key = " ".join(skeleton(text).split()) if code else same_text(text)
        if key in texts:
            first = q.options[texts[key]]
            out.append(DataError("O006", f"{o.pointer}/text", f"option {text.strip()!r} has the same text as option "
                                 f"{first.raw.get('id')!r} ({first.raw.get('text', '').strip()!r})"))
        else:
            texts[key] = o.index
    return out


_PART_NAMES = {"steps": "step", "prompts": "prompt", "responses": "response"}


def part_errors(q: Question) -> list[DataError]:
    """Ordering and matching data no export may carry: two steps (prompts, responses) with one
    id or a prompt and a response with one id (P004), a part with no visible text or with the
    text of another part of its list (P005), a prompt whose `match` names no response (P006)."""
    out: list[DataError] = []
    lists = {"steps": q.steps, "prompts": q.prompts, "responses": q.responses}
    ids: dict[str, tuple[str, int]] = {}  # one namespace: QTI keys a matchInteraction's choices by id
    for key, parts in lists.items():
        name = _PART_NAMES[key]
        texts: dict[str, int] = {}
        for p in parts:
            pid, text = p.raw.get("id"), p.raw.get("text")
            if isinstance(pid, str):
                k = id_key(pid)
                if k in ids:
                    other_key, i = ids[k]
                    other = f"{_PART_NAMES[other_key]} {i + 1}"
                    out.append(DataError("P004", f"{p.pointer}/id", f"{name} {p.index + 1} has the id {pid!r} of {other}: "
                                         "each step, prompt and response needs its own id"))
                else:
                    ids[k] = (key, p.index)
            if not isinstance(text, str):
                continue
            if renders_empty(text):
                out.append(DataError("P005", f"{p.pointer}/text", f"{name} {p.index + 1} has no visible text"))
                continue
            t = same_text(text)
            if t in texts:
                first = parts[texts[t]]
                out.append(DataError("P005", f"{p.pointer}/text", f"{name} {text.strip()!r} has the same text as {name} "
                                     f"{first.raw.get('id')!r}"))
            else:
                texts[t] = p.index
    responses = {r.id for r in q.responses}
    for p in q.prompts:
        if isinstance(p.raw.get("match"), str) and p.match not in responses:
            out.append(DataError("P006", f"{p.pointer}/match", f"prompt {p.id!r} matches {p.match!r}, which is no "
                                 f"response id (responses: {', '.join(sorted(responses)) or 'none'})"))
    return out


@per_question
def data_errors(q: Question) -> tuple[DataError, ...]:
    """`option_errors` and `part_errors`, computed once per question: the rules and the export
    gate ask."""
    return tuple(option_errors(q)) + tuple(part_errors(q))
