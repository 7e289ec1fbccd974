"""A GIFT reader that follows Moodle's own import steps (qformat_gift::readquestion), written for
the tests: escaped characters become placeholders before the braces, `~`, `=`, `#` and `####` are
looked for, and are restored afterwards. pygiftparser, the independent reader, stops an answer at
an escaped `\\}`; this reader is how the tests check text where that happens. A matching question
(`=` and `->`, no `~`) is split on `=` into pairs at the first `->`, as Moodle does; an empty left
side is an extra wrong answer."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_PRE = [("\\:", "\x01058"), ("\\#", "\x01035"), ("\\=", "\x01061"), ("\\{", "\x01123"), ("\\}", "\x01125"),
        ("\\~", "\x01126"), ("\\n", "\x01010")]
_POST = {"\x01058": ":", "\x01035": "#", "\x01061": "=", "\x01123": "{", "\x01125": "}", "\x01126": "~", "\x01010": "\n"}
_WEIGHT = re.compile(r"^%(-?\d+(?:\.\d+)?)%")


def pre(text: str) -> str:
    text = text.replace("\\\\", "\x02")
    for escaped, placeholder in _PRE:
        text = text.replace(escaped, placeholder)
    return text.replace("\x02", "\\")


def post(text: str) -> str:
    for placeholder, char in _POST.items():
        text = text.replace(placeholder, char)
    return text


@dataclass
class Answer:
    text: str
    fraction: float
    feedback: str


@dataclass
class GiftQuestion:
    name: str
    category: str
    comments: str
    markup: str
    text: str
    general_feedback: str = ""
    answers: list[Answer] = field(default_factory=list)
    pairs: list[tuple[str, str]] = field(default_factory=list)  # matching: (subquestion, subanswer); "" = extra answer


def read(gift: str) -> list[GiftQuestion]:
    out, category = [], ""
    for block in re.split(r"\n[ \t]*\n", gift):
        lines = block.split("\n")
        comments = "\n".join(ln.strip() for ln in lines if ln.strip().startswith("//"))
        text = pre("\n".join(ln for ln in lines if not ln.strip().startswith("//")).strip())
        if not text:
            continue
        if text.startswith("$CATEGORY:"):
            category = text[len("$CATEGORY:"):].strip()
            continue
        name = ""
        if text.startswith("::"):
            name, text = text[2:].split("::", 1)
        start, end = text.index("{"), text.index("}")
        head, body = text[:start].strip(), text[start + 1:end]
        markup = ""
        if m := re.match(r"^\[(\w+)\]", head):
            markup, head = m.group(1), head[m.end():]
        general = ""
        if "####" in body:
            body, general = body.rsplit("####", 1)
        q = GiftQuestion(post(name), category, comments, markup, post(head.strip()), post(general.strip()))
        if "~" not in body and "=" in body and "->" in body:  # Moodle's test for a matching question
            answers = body.split("=")
            for raw in answers[1:] if not answers[0].strip() else answers:
                if "->" not in raw:
                    raise ValueError(f"{q.name}: matching answer without '->': {raw!r}")
                left, right = raw.strip().split("->", 1)
                q.pairs.append((post(left.strip()), post(right.strip())))
            out.append(q)
            continue
        for raw in body.replace("=", "~=").split("~"):
            raw = raw.strip()
            if not raw:
                continue
            fraction = 0.0
            if raw.startswith("="):
                fraction, raw = 100.0, raw[1:]
            elif m := _WEIGHT.match(raw):
                fraction, raw = float(m.group(1)), raw[m.end():]
            answer, _, feedback = raw.partition("#")
            q.answers.append(Answer(post(answer.strip()), fraction, post(feedback.strip())))
        out.append(q)
    return out
