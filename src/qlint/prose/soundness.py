"""Option data no export may carry: two options with one id, an option with no text, two options
with the same text. The rules S005, S006 and O006 report these, and every exporter refuses a
question that has one (`qlint.exporters.exporter`), so ignoring a rule cannot ship one.

"Same" means the same on screen: ids and texts are compared by their skeletons
(`qlint.text.skeleton`: NFKC, invisible characters removed, Latin look-alikes folded).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

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
        key = same_text(text)
        if key in texts:
            first = q.options[texts[key]]
            out.append(DataError("O006", f"{o.pointer}/text", f"option {text.strip()!r} has the same text as option "
                                 f"{first.raw.get('id')!r} ({first.raw.get('text', '').strip()!r})"))
        else:
            texts[key] = o.index
    return out


@per_question
def data_errors(q: Question) -> tuple[DataError, ...]:
    """`option_errors`, computed once per question: three rules and the export gate ask."""
    return tuple(option_errors(q))
