"""`moodle`: Moodle XML, one `multichoice` question per bank question, under a category per
exam and domain. Built with lxml (text escaped by the serializer, HTML in CDATA as Moodle writes
it); images travel inside the file as base64 `<file>` elements, referenced as @@PLUGINFILE@@."""

from __future__ import annotations

import base64
import posixpath
from html import escape
from itertools import groupby
from urllib.parse import quote

from lxml import etree

from qlint.exporters import ALL_OR_NOTHING, ExportJob, ExportResult, exporter
from qlint.exporters.kit import breakdown as _breakdown
from qlint.exporters.kit import feedback as fb
from qlint.markup import render, render_inline
from qlint.exporters.kit.grades import fmt, fractions, is_multiple
from qlint.exporters.kit.layout import Site
from qlint.exporters.kit.media import Image, images_in
from qlint.exporters.kit.output import write_file
from qlint.exporters.kit.cases import CaseBlock, split_cases
from qlint.exporters.kit.problems import Problem, about_output, problem
from qlint.exporters.kit.language import lang_tags
from qlint.exporters.kit.tags import lms_tags
from qlint.model import MATCHING, ORDERING, Case, Question, text_fields

DEFAULT_GRADE = "1.0000000"
PENALTY = "0.3333333"  # Moodle's default: a third of the mark lost per extra try (interactive mode)
NUMBERING = "ABCD"  # letters, as the other targets show them
COMBINED = {
    "correctfeedback": "Your answer is correct.",
    "partiallycorrectfeedback": "Your answer is partially correct.",
    "incorrectfeedback": "Your answer is incorrect.",
}
DROPPED = "related questions, difficulty, status, option ids and pinned positions"


def category_path(*names: str) -> str:
    """`$course$/A/B`, with a `/` inside a name doubled as Moodle's import expects."""
    return "/".join(["$course$", *(n.replace("/", "//") for n in names)])


def _text(parent: etree._Element, value: str, html: bool = True) -> etree._Element:
    el = etree.SubElement(parent, "text")
    # CDATA keeps the HTML readable; "]]>" cannot sit in CDATA, and escaped text means the same.
    el.text = etree.CDATA(value) if html and value and "]]>" not in value else value
    return el


class _Area:
    """One Moodle text area (question text, a feedback, an answer) and the files it embeds."""

    def __init__(self, q: Question | Case, site: Site, pointer_texts: list[tuple[str, str]]) -> None:
        self.files: dict[str, Image] = {}
        self.urls: dict[str, str] = {}
        for pointer, text in pointer_texts:
            for ref, image in images_in(q, text, pointer, site.root).items():
                name = posixpath.basename(image.key)
                if name in self.files and self.files[name].key != image.key:
                    name = image.key.replace("/", "_")
                self.files[name] = image
                self.urls[ref] = f"@@PLUGINFILE@@/{quote(name)}"

    def write(self, parent: etree._Element, tag: str, html: str) -> etree._Element:
        el = etree.SubElement(parent, tag, format="html")
        _text(el, html)
        for name, image in sorted(self.files.items()):
            f = etree.SubElement(el, "file", name=name, path="/", encoding="base64")
            f.text = base64.b64encode(image.read()).decode("ascii")
        return el


CASE_CLASS = "qlint-case"  # the scenario at the top of a case question's text; the importer drops it


def _questiontext(el: etree._Element, q: Question, site: Site, case: Case | None) -> None:
    """The stem, after the case's title and scenario for a question of a case study: Moodle shows
    the case's description question only where a quiz places it, and a question drawn or placed
    alone would otherwise have no scenario (issue 28)."""
    stem = _Area(q, site, [("/stem", q.stem)])
    html = render(q.stem, stem.urls)
    if case is not None:
        scenario = _Area(case, site, [("/scenario", case.scenario)])
        for name, image in list(scenario.files.items()):  # one area now: an image name the stem uses is renamed
            if name in stem.files and stem.files[name].key != image.key:
                new = image.key.replace("/", "_")
                scenario.files[new] = scenario.files.pop(name)
                old = f"@@PLUGINFILE@@/{quote(name)}"
                scenario.urls = {ref: f"@@PLUGINFILE@@/{quote(new)}" if url == old else url for ref, url in scenario.urls.items()}
        html = (f'<div class="{CASE_CLASS}"><p><strong>Case study: {escape(case.title or case.id)}</strong></p>'
                f"{render(case.scenario, scenario.urls)}</div><hr>{html}")
        for name, image in scenario.files.items():
            stem.files.setdefault(name, image)
    stem.write(el, "questiontext", html)


def _category(quiz: etree._Element, path: str, info: str, idnumber: str) -> None:
    q = etree.SubElement(quiz, "question", type="category")
    _text(etree.SubElement(q, "category"), path, html=False)
    _text(etree.SubElement(q, "info", format="html"), info)
    etree.SubElement(q, "idnumber").text = idnumber


# Core Moodle's multichoice always gives partial credit; all-or-nothing needs this question type
# (the "All-or-Nothing Multiple Choice" plugin), which marks each key 100 and every other answer 0.
ALL_OR_NOTHING_TYPE = "multichoiceset"


def _question(quiz: etree._Element, q: Question, site: Site, shuffle: bool, all_or_nothing: bool = False,
              case: Case | None = None) -> None:
    set_type = all_or_nothing and is_multiple(q)
    el = etree.SubElement(quiz, "question", type=ALL_OR_NOTHING_TYPE if set_type else "multichoice")
    _text(etree.SubElement(el, "name"), q.id, html=False)
    _questiontext(el, q, site, case)
    general = _Area(q, site, [("/explanation", q.explanation), ("/trap", q.trap or "")])
    general.write(el, "generalfeedback", fb.general(q, general.urls))
    single = [] if set_type else [("single", "false" if is_multiple(q) else "true")]
    for tag, value in (("defaultgrade", DEFAULT_GRADE), ("penalty", PENALTY), ("hidden", "0"),
                       ("idnumber", q.id), *single,
                       ("shuffleanswers", "true" if shuffle else "false"), ("answernumbering", NUMBERING),
                       ("showstandardinstruction", "0")):
        etree.SubElement(el, tag).text = value
    for tag, message in COMBINED.items():
        _text(etree.SubElement(el, tag, format="html"), f"<p>{message}</p>")
    if is_multiple(q):
        etree.SubElement(el, "shownumcorrect")
    grades = [100.0 if o.correct else 0.0 for o in q.options] if set_type else fractions(q)
    for o, fraction in zip(q.options, grades):
        answer = _Area(q, site, [(f"{o.pointer}/text", o.text)])
        a = answer.write(el, "answer", fb.compact(o.text, answer.urls))
        a.set("fraction", fmt(fraction))
        feedback = _Area(q, site, [(f"{o.pointer}/{k}", o.raw.get(k) or "") for k in ("rationale", "right_when", "why_chosen")])
        feedback.write(a, "feedback", fb.option(o, feedback.urls))
    _tags(el, q)


def _any_question(quiz: etree._Element, q: Question, site: Site, job: ExportJob, warnings: list[Problem]) -> None:
    shuffle = job.shuffle and q.data.get("shuffle", True) is not False
    case = job.cases.get(q.case) if q.case else None
    if q.type == ORDERING:
        if q.data.get("shuffle") is False:
            warnings.append(problem(q, '/shuffle', "Moodle's ordering question always shows the steps shuffled; "
                            "`shuffle: false` is not exported"))
        return _ordering(quiz, q, site, job.scoring == ALL_OR_NOTHING, warnings, case)
    if q.type == MATCHING:
        return _match(quiz, q, site, shuffle, job.scoring == ALL_OR_NOTHING, warnings, case)
    if shuffle and any(o.raw.get("pinned") for o in q.options):
        shuffle = False
        warnings.append(problem(q, '/options', "Moodle cannot keep one option in place "
                        "while shuffling the others; shuffling is off for this question"))
    _question(quiz, q, site, shuffle, job.scoring == ALL_OR_NOTHING, case)


def _case(quiz: etree._Element, block: CaseBlock, site: Site, warnings: list[Problem]) -> None:
    """A category of its own for the case (under its exam and domain; idnumber `CODE/domain/case-id`),
    holding a `description` question with the scenario, then the case's questions."""
    case = block.case
    title = case.title or case.id
    domain = site.domain_name(case.exam, case.domain)
    _category(quiz, category_path(case.exam, domain, title), f"<p>{escape(title)}</p>",
              f"{case.exam}/{case.domain}/{case.id}")
    el = etree.SubElement(quiz, "question", type="description")
    _text(etree.SubElement(el, "name"), title, html=False)
    scenario = _Area(case, site, [("/scenario", case.scenario)])
    scenario.write(el, "questiontext", render(case.scenario, scenario.urls))
    # the case's references, in the feedback Moodle shows once the questions are answered
    refs = fb.references(case)  # type: ignore[arg-type]  # reads only .data
    _text(etree.SubElement(el, "generalfeedback", format="html"), fb.section("references", fb.GO_DEEPER, refs) if refs else "")
    for tag, value in (("defaultgrade", "0.0000000"), ("penalty", "0.0000000"), ("hidden", "0"), ("idnumber", case.id)):
        etree.SubElement(el, tag).text = value
    for q in block.questions:
        if q.domain != case.domain:
            warnings.append(problem(q, '/domain', "Moodle keeps this question in the category of case study "
                            f"{case.id!r} (domain {case.domain!r}); its own domain {q.domain!r} is not in the file"))


def _head(el: etree._Element, q: Question, site: Site, shuffle: bool | None, case: Case | None = None) -> None:
    """Name, question text, general feedback (with the step-by-step or pair-by-pair breakdown),
    grades, idnumber and shuffling: what every question type of this exporter starts with."""
    _text(etree.SubElement(el, "name"), q.id, html=False)
    _questiontext(el, q, site, case)
    general = _Area(q, site, [(p, t) for p, t in text_fields(q) if p != "/stem"])
    general.write(el, "generalfeedback", _breakdown.general(q, general.urls))
    for tag, value in (("defaultgrade", DEFAULT_GRADE), ("penalty", PENALTY), ("hidden", "0"), ("idnumber", q.id)):
        etree.SubElement(el, tag).text = value
    if shuffle is not None:
        etree.SubElement(el, "shuffleanswers").text = "true" if shuffle else "false"


def _tail(el: etree._Element, q: Question) -> None:
    for tag, message in COMBINED.items():
        _text(etree.SubElement(el, tag, format="html"), f"<p>{message}</p>")
    etree.SubElement(el, "shownumcorrect")


def _tags(el: etree._Element, q: Question) -> None:
    if tags := lms_tags(q) + lang_tags(q):
        holder = etree.SubElement(el, "tags")
        for tag in tags:
            _text(etree.SubElement(holder, "tag"), tag, html=False)


def _match(quiz: etree._Element, q: Question, site: Site, shuffle: bool, all_or_nothing: bool,
           warnings: list[Problem], case: Case | None = None) -> None:
    """`match`: one subquestion per prompt with its response as the answer; each surplus response
    is a subquestion with empty text (Moodle's extra wrong answer). Moodle grades each pair."""
    el = etree.SubElement(quiz, "question", type="match")
    _head(el, q, site, shuffle, case)
    _tail(el, q)
    text = {r.id: r for r in q.responses}
    subquestions = [(p.pointer, p.text, text[p.match]) for p in q.prompts if p.match in text]
    subquestions += [("", "", r) for r in q.responses if r.id not in {p.match for p in q.prompts}]
    for pointer, prompt, response in subquestions:
        area = _Area(q, site, [(f"{pointer}/text", prompt)] if pointer else [])
        sub = area.write(el, "subquestion", fb.compact(prompt, area.urls) if prompt else "")
        _text(etree.SubElement(sub, "answer"), _breakdown.plain_text(response.text), html=False)
    _tags(el, q)
    formatted = [r for r in q.responses if "<" in render_inline(r.text)]  # tags: formatting plain text drops
    if formatted:
        warnings.append(problem(q, formatted[0].pointer + '/text', "Moodle shows matching responses as plain "
                        "text; their formatting (code, emphasis, links, images) is not exported"))
    if all_or_nothing:
        warnings.append(problem(q, '/type', "Moodle grades a matching question per pair (partial credit); "
                        "all-or-nothing scoring cannot be expressed for it"))


# qtype_ordering's settings: every keyed step shown and ordered; partial credit per step in its
# place, or the point only for the whole order.
ORDERING_GRADING = {True: "ALL_OR_NOTHING", False: "ABSOLUTE_POSITION"}


def _ordering(quiz: etree._Element, q: Question, site: Site, all_or_nothing: bool, warnings: list[Problem],
              case: Case | None = None) -> None:
    """`ordering` (qtype_ordering, in Moodle since 4.4): the keyed steps in their correct order
    (the answer's fraction is its position), all of them shown (selecttype ALL)."""
    el = etree.SubElement(quiz, "question", type="ordering")
    _head(el, q, site, None, case)
    keyed = q.key_order
    for tag, value in (("layouttype", "VERTICAL"), ("selecttype", "ALL"), ("selectcount", str(len(keyed))),
                       ("gradingtype", ORDERING_GRADING[all_or_nothing]), ("showgrading", "SHOW"),
                       ("numberingstyle", "none")):
        etree.SubElement(el, tag).text = value
    _tail(el, q)
    for n, s in enumerate(keyed, 1):
        area = _Area(q, site, [(f"{s.pointer}/text", s.text)])
        area.write(el, "answer", fb.compact(s.text, area.urls)).set("fraction", str(n))
    _tags(el, q)
    distractors = [s for s in q.steps if not s.correct]
    if distractors:
        warnings.append(problem(q, distractors[0].pointer, "Moodle's ordering question has no distractor steps; "
                        f"{len(distractors)} step{'s' if len(distractors) != 1 else ''} marked `correct: false` "
                        f"{'appear' if len(distractors) != 1 else 'appears'} only in the general feedback (why each is not "
                        "part of the order)"))


@exporter("moodle", "Moodle XML: categories per exam/domain, per-answer feedback, grades, tags, images", xml=True)
def export_moodle(job: ExportJob) -> ExportResult:
    site = Site(job, ".xml")
    result = ExportResult()
    quiz = etree.Element("quiz")
    done = 0
    for code, exam_group in groupby(job.questions, key=lambda q: q.exam):
        exam_name = site.exam_name(code)
        _category(quiz, category_path(code), f"<p>{escape(exam_name)}</p>", code)
        alone, cases = split_cases(job, list(exam_group), result.warnings)
        for domain, group in groupby(alone, key=lambda q: q.domain):
            name = site.domain_name(code, domain)
            _category(quiz, category_path(code, name), f"<p>{escape(exam_name)}: {escape(name)}</p>", f"{code}/{domain}")
            for q in group:
                _any_question(quiz, q, site, job, result.warnings)
                done += 1
                job.tick(done)
        for block in cases:  # after the exam's domains: one category per case, scenario first
            _case(quiz, block, site, result.warnings)
            for q in block.questions:
                _any_question(quiz, q, site, job, result.warnings)
                done += 1
                job.tick(done)
    data = b'<?xml version="1.0" encoding="UTF-8"?>\n' + etree.tostring(quiz, encoding="UTF-8", pretty_print=True)
    result.written = write_file(job.output, data)
    result.warnings.append(about_output(job.output, f"Moodle XML has no place for {DROPPED}; they are not exported"))
    if job.scoring == ALL_OR_NOTHING and any(is_multiple(q) for q in job.questions):
        result.warnings.append(about_output(job.output, "all-or-nothing scoring writes multiple-response questions as type "
                               f"'{ALL_OR_NOTHING_TYPE}', which imports only where the All-or-Nothing Multiple "
                               "Choice plugin is installed (core Moodle: --scoring partial)"))
    return result
