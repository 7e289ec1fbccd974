"""`moodle`: Moodle XML, multiple-choice, matching and ordering questions with their categories,
feedback and tags.

The reverse of docs/exports-web.md's table:

- `<question type="category">`: `idnumber` `CODE` or `CODE/domain-id` (qlint's export), else the
  category path `$course$/CODE/Domain name` (`//` is a `/` inside a name) -> exam and domain of
  the questions that follow;
- `<question type="multichoice">`: `idnumber` (else `name`) -> id, `questiontext` -> stem,
  `single` -> type (`true`: single; `false`: multiple, `choose` = the number of keys),
  `shuffleanswers` false -> `shuffle: false`, `answer fraction` > 0 -> keyed, the answer's
  `feedback` `div.qlint-rationale` / `qlint-right-when` / `qlint-why-chosen` -> the option's
  feedback (any other feedback: the rationale), `generalfeedback` `div.qlint-explanation` /
  `qlint-trap` / `qlint-references` -> explanation, trap, references (any other general feedback:
  the explanation), `tags` -> tags, images (`@@PLUGINFILE@@` + `<file>`) -> files beside the question.

A multiple-choice question is read by `_moodle_question`, `match` and `ordering` questions by
`_moodle_types`; a case study's category (idnumber
`CODE/domain/case-id`) gives a case file from its `description` question (the scenario; its name is
the title), `items` = the questions that follow, each of which says `case:`.

Moodle XML cannot carry option ids (they become slugs of the option text), status (imported
questions are drafts), difficulty, related questions or pinned options. Other question types,
partial-credit grades and Moodle-only settings are reported, never dropped silently.
"""

from __future__ import annotations

from lxml import etree

from qlint.importers import Imported, ImportJob, ImportResult, Unmapped, importer
from qlint.importers._markdown import local
from qlint.importers._safexml import parse
from qlint.importers._text import TooDeep
from qlint.importers.common import QUESTION_ID, place, short
from qlint.importers._moodle_question import QuestionReader, _child, _plain, _text, split_category
from qlint.importers._moodle_types import MatchReader, OrderingReader


def _category(el: etree._Element, job: ImportJob) -> tuple[str, str, int]:
    """(exam words, domain words, line) from a category question: qlint's idnumber, else the path."""
    idnumber = _plain(_child(el, "idnumber"))
    exam, _, domain = idnumber.partition("/")
    if exam and exam.upper() in job.exams:
        return exam, domain.split("/")[0], el.sourceline or 0
    parts = split_category(_text(_child(el, "category")))
    code = next((p for p in parts if p.upper() in job.exams), "")
    rest = [p for p in parts if p != code]
    return code, rest[-1] if rest else "", el.sourceline or 0


def _case_of(el: etree._Element) -> str:
    """The case study id of a category qlint's export wrote for one (`CODE/domain/case-id`), or ""."""
    parts = _plain(_child(el, "idnumber")).split("/")
    return parts[2] if len(parts) == 3 and QUESTION_ID.match(parts[2]) else ""


def read_scenario(el: etree._Element, job: ImportJob, category: tuple[str, str, int], case: str) -> Imported:
    """A case study file from the `description` question of a case's category (qlint's export): the
    scenario, its title from the name; `items` are filled with the questions that follow it."""
    reader = QuestionReader(el, job, category, case)
    reader.q.kind = "case"
    exam, domain, line = category
    place(reader.q, job, exam, domain, line or reader.q.line)
    data = reader.q.data
    data.update({"format": 1, "id": case})
    if title := _text(_child(el, "name")).strip():
        data["title"] = title
    data["status"] = "draft"
    data["scenario"] = reader.markdown(_child(el, "questiontext"), "scenario") or reader._missing("scenario", "description text")
    data["items"] = []
    general, rest = reader.parts(_child(el, "generalfeedback"), {}, "general feedback")
    if general.get("references"):
        data["references"] = general["references"]
    if rest is not None and "".join(rest.itertext()).strip():
        reader.note(f"the scenario's general feedback has no place in a case file: {short(''.join(rest.itertext()))}")
    if (idnumber := _plain(_child(el, "idnumber"))) and idnumber != case:
        reader.note(f"idnumber {idnumber!r} differs from the case id {case!r} of its category; the case id is used")
    order = ("format", "id", "exam", "domain", "title", "status", "scenario", "items", "references")  # case.schema.json's
    reader.q.data = {k: data[k] for k in order if k in data}
    return reader.q


@importer("moodle", "Moodle XML: multiple-choice, match and ordering questions with categories, feedback, tags and images", suffixes=(".xml",),
          reads="bytes")
def read_moodle(job: ImportJob) -> ImportResult:
    root = parse(job.data)  # the source itself: its errors are placed on it
    result = ImportResult()
    if local(root) != "quiz":
        result.unmapped.append(Unmapped(root.sourceline or 1, f"the root element is <{local(root)}>, not <quiz>: not Moodle XML"))
        return result
    readers = {"multichoice": QuestionReader, "multichoiceset": QuestionReader, "match": MatchReader,
               "ordering": OrderingReader}
    category, case = ("", "", 0), ""
    scenario: Imported | None = None  # the case file being filled, in a case study's category
    for el in root:
        if not local(el):
            continue
        kind = el.get("type") or ""
        if local(el) != "question":
            result.unmapped.append(Unmapped(el.sourceline or 0, f"<{local(el)}> is not a question"))
        elif kind == "category":
            category, case = _category(el, job), _case_of(el)
            scenario = None
        elif kind in readers or (kind == "description" and case and scenario is None):
            try:
                q = readers[kind](el, job, category, case).read() if kind in readers else read_scenario(el, job, category, case)
            except TooDeep as exc:
                name = _text(_child(el, "name")).strip()
                result.unmapped.append(Unmapped(exc.line or el.sourceline or 0, f"{kind} question {name!r}: {exc}; "
                                                "the question was not imported"))
                continue
            result.questions.append(q)
            if kind not in readers:
                scenario = q
            elif scenario is not None:
                scenario.data["items"].append(q.data["id"])
        else:
            name = _text(_child(el, "name")).strip()
            result.unmapped.append(Unmapped(el.sourceline or 0, f"{kind or 'untyped'} question {name!r}: only multichoice, "
                                            "match and ordering questions are imported"))
    return result
