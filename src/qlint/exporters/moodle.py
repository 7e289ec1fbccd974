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
from qlint.exporters import _feedback as fb
from qlint.markup import render
from qlint.exporters._grades import fmt, fractions, is_multiple
from qlint.exporters._layout import Site
from qlint.exporters._media import Image, images_in
from qlint.exporters._output import write_file
from qlint.exporters._source import locate, require_xml_chars
from qlint.model import Question

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

    def __init__(self, q: Question, site: Site, pointer_texts: list[tuple[str, str]]) -> None:
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


def _category(quiz: etree._Element, path: str, info: str, idnumber: str) -> None:
    q = etree.SubElement(quiz, "question", type="category")
    _text(etree.SubElement(q, "category"), path, html=False)
    _text(etree.SubElement(q, "info", format="html"), info)
    etree.SubElement(q, "idnumber").text = idnumber


# Core Moodle's multichoice always gives partial credit; all-or-nothing needs this question type
# (the "All-or-Nothing Multiple Choice" plugin), which marks each key 100 and every other answer 0.
ALL_OR_NOTHING_TYPE = "multichoiceset"


def _question(quiz: etree._Element, q: Question, site: Site, shuffle: bool, all_or_nothing: bool = False) -> None:
    set_type = all_or_nothing and is_multiple(q)
    el = etree.SubElement(quiz, "question", type=ALL_OR_NOTHING_TYPE if set_type else "multichoice")
    _text(etree.SubElement(el, "name"), q.id, html=False)
    stem = _Area(q, site, [("/stem", q.stem)])
    stem.write(el, "questiontext", render(q.stem, stem.urls))
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
    if tags := q.data.get("tags"):
        holder = etree.SubElement(el, "tags")
        for tag in tags:
            _text(etree.SubElement(holder, "tag"), tag, html=False)


@exporter("moodle", "Moodle XML: categories per exam/domain, per-answer feedback, grades, tags, images")
def export_moodle(job: ExportJob) -> ExportResult:
    site = Site(job, ".xml")
    result = ExportResult()
    quiz = etree.Element("quiz")
    done = 0
    for code, exam_group in groupby(job.questions, key=lambda q: q.exam):
        exam_name = site.exam_name(code)
        _category(quiz, category_path(code), f"<p>{escape(exam_name)}</p>", code)
        for domain, group in groupby(exam_group, key=lambda q: q.domain):
            name = site.domain_name(code, domain)
            _category(quiz, category_path(code, name), f"<p>{escape(exam_name)}: {escape(name)}</p>", f"{code}/{domain}")
            for q in group:
                require_xml_chars(q)
                shuffle = job.shuffle and q.data.get("shuffle", True) is not False
                if shuffle and any(o.raw.get("pinned") for o in q.options):
                    shuffle = False
                    result.warnings.append(f"{locate(q, '/options')}: Moodle cannot keep one option in place "
                                           "while shuffling the others; shuffling is off for this question")
                _question(quiz, q, site, shuffle, job.scoring == ALL_OR_NOTHING)
                done += 1
                job.tick(done)
    data = b'<?xml version="1.0" encoding="UTF-8"?>\n' + etree.tostring(quiz, encoding="UTF-8", pretty_print=True)
    result.written = write_file(job.output, data)
    result.warnings.append(f"{job.output}: Moodle XML has no place for {DROPPED}; they are not exported")
    if job.scoring == ALL_OR_NOTHING and any(is_multiple(q) for q in job.questions):
        result.warnings.append(f"{job.output}: all-or-nothing scoring writes multiple-response questions as type "
                               f"'{ALL_OR_NOTHING_TYPE}', which imports only where the All-or-Nothing Multiple "
                               "Choice plugin is installed (core Moodle: --scoring partial)")
    return result
