"""A Moodle XML reader for the question types moodle-xml-parser does not read (match, ordering,
description), written for the tests from what Moodle's own import and grading do, with the
standard library's XML parser (not lxml, which the exporter uses):

- `match` (qtype_match): a subquestion with empty text is an extra wrong choice; choices are the
  distinct answer texts; each stem's right choice is its answer; the grade is right stems / stems.
- `ordering` (qtype_ordering): the answers in file order are the correct order; `selecttype` ALL
  shows every answer (a missing one means RANDOM); `gradingtype` ALL_OR_NOTHING gives 1 or 0,
  ABSOLUTE_POSITION the share of items in their place.
- `description`: text only, no grade.
Categories set the category of the questions that follow."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field


def _text(el: ET.Element | None, path: str = "text") -> str:
    found = el.find(path) if el is not None else None
    return (found.text or "") if found is not None else ""


@dataclass
class MoodleQuestion:
    type: str
    name: str
    idnumber: str
    category: str
    category_idnumber: str
    text: str
    general_feedback: str
    default_grade: float
    settings: dict[str, str] = field(default_factory=dict)
    stems: list[tuple[str, str]] = field(default_factory=list)  # match: (stem text, right choice)
    choices: list[str] = field(default_factory=list)  # match: every choice, surplus ones included
    order: list[str] = field(default_factory=list)  # ordering: the answers in their correct order
    fractions: list[str] = field(default_factory=list)  # ordering: each answer's fraction as written
    tags: list[str] = field(default_factory=list)

    def grade(self, response: dict[str, str] | list[str]) -> float:
        """Moodle's fraction for a response: match {stem: choice}, ordering [item, ...]."""
        if self.type == "match":
            right = sum(1 for stem, choice in self.stems if response.get(stem) == choice)
            return right / len(self.stems)
        if self.type == "ordering":
            right = sum(1 for got, want in zip(response, self.order) if got == want)
            if self.settings.get("gradingtype", "RELATIVE").upper() == "ALL_OR_NOTHING":
                return 1.0 if right == len(self.order) else 0.0
            if self.settings.get("gradingtype", "").upper() in ("ABSOLUTE_POSITION", "ABSOLUTE", "ABS"):
                return right / len(self.order)
            raise AssertionError(f"grading type {self.settings.get('gradingtype')!r} is not modelled here")
        raise AssertionError(f"{self.type} questions are not graded here")


def read(xml_bytes: bytes) -> list[MoodleQuestion]:
    out: list[MoodleQuestion] = []
    category, category_id = "", ""
    for el in ET.fromstring(xml_bytes).findall("question"):
        kind = el.get("type", "")
        if kind == "category":
            category, category_id = _text(el.find("category")), (el.findtext("idnumber") or "")
            continue
        q = MoodleQuestion(kind, _text(el.find("name")), el.findtext("idnumber") or "", category, category_id,
                           _text(el.find("questiontext")), _text(el.find("generalfeedback")),
                           float(el.findtext("defaultgrade") or 1),
                           tags=[_text(t) for t in el.findall("tags/tag")])
        for child in el:
            if len(child) == 0 and child.tag not in ("idnumber", "defaultgrade"):
                q.settings[child.tag] = (child.text or "").strip()
        if kind == "match":
            for sub in el.findall("subquestion"):
                answer = _text(sub.find("answer")).strip()
                if answer not in q.choices:
                    q.choices.append(answer)
                if _text(sub).strip():
                    q.stems.append((_text(sub), answer))
        elif kind == "ordering":
            if q.settings.get("selecttype", "RANDOM").upper() != "ALL":
                raise AssertionError(f"{q.name}: not every item is shown (selecttype {q.settings.get('selecttype')!r})")
            for answer in el.findall("answer"):
                q.order.append(_text(answer))
                q.fractions.append(answer.get("fraction", ""))
        out.append(q)
    return out
