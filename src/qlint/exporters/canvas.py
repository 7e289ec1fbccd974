"""`canvas`: a Canvas classic-quiz package (Canvas's flavour of QTI 1.2), one quiz per exam.

Layout (the shape text2qti and Canvas's own exports use): `imsmanifest.xml`, an empty
`non_cc_assessments/`, `<quiz-id>/assessment_meta.xml` (quiz settings), `<quiz-id>/<quiz-id>.xml`
(the questions) and `images/...`. Question text is HTML carried as escaped text in `mattext`.
Feedback: `general_fb` (explanation, exam trap, references; always shown), `correct_fb`,
`general_incorrect_fb`, and `<answer-id>_fb` per answer (rationale, when it would be right,
why learners choose it). Multiple answers score all-or-nothing (every key, no distractor) or, with
partial scoring, each chosen answer adds its Moodle-style share of 100 (SCORE is kept in 0..100).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from urllib.parse import quote

from lxml import etree

from qlint.exporters import PARTIAL, ExportJob, ExportResult, exporter
from qlint.exporters._grades import fmt, fractions
from qlint.exporters import _xhtml as xhtml
from qlint.exporters._content import MediaSet, require_xml_text, where, write_package
from qlint.markup import render, render_inline
from qlint.exporters._xml import XSI, sub, to_bytes
from qlint.model import OptionView, Question
from qlint.project.exams import Exam

CP = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"
IMSMD = "http://www.imsglobal.org/xsd/imsmd_v1p2"
QTI = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
CCC = "http://canvas.instructure.com/xsd/cccv1p0"
FILEBASE = "%24IMS-CC-FILEBASE%24/"  # Canvas's placeholder for the course files folder, URL-encoded
POINTS = 1.0


def quiz_id(exam_code: str) -> str:
    return f"qlint-{exam_code.lower()}"


def answer_id(q: Question, option: OptionView) -> str:
    # Unique across the quiz (Canvas keys answers by id); ids hold no "_", so it splits back.
    return f"{q.id}_{option.id}"


def _html(*parts: str | etree._Element) -> str:
    """HTML text from renderer output (already escaped) and lxml-built elements."""
    return "\n".join(p if isinstance(p, str) else etree.tostring(p, encoding="unicode")
                     for p in parts if not isinstance(p, str) or p)


def _labelled(label: str, html: str) -> str:
    head = etree.Element("p")
    sub(head, "strong", label)
    return _html(head, html)


class _Quiz:
    def __init__(self, code: str, exam: Exam | None, questions: list[Question], media: MediaSet,
                 partial: bool = False) -> None:
        self.partial = partial
        self.code, self.exam, self.questions, self.media = code, exam, questions, media
        self.id = quiz_id(code)

    def _md(self, q: Question, text: str, pointer: str, inline: bool = False) -> str:
        html = render_inline(text) if inline else render(text)

        def image(src: str) -> str | None:
            name = self.media.add(q.path, pointer, src)
            return None if name is None else FILEBASE + name

        return xhtml.html_with_images(html, image)

    def assessment(self) -> etree._Element:
        root = etree.Element(f"{{{QTI}}}questestinterop", nsmap={None: QTI, "xsi": XSI})
        root.set(f"{{{XSI}}}schemaLocation", f"{QTI} http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd")
        assessment = self._q(root, "assessment", ident=self.id, title=self.title)
        self._fields(self._q(assessment, "qtimetadata"), [("cc_maxattempts", "unlimited")])
        section = self._q(assessment, "section", ident="root_section")
        for q in self.questions:
            self._item(section, q)
        return root

    @property
    def title(self) -> str:
        return self.exam.name if self.exam else self.code

    def _q(self, parent, name: str, text: str | None = None, **attrs: str) -> etree._Element:
        return sub(parent, f"{{{QTI}}}{name}", text, **attrs)

    def _fields(self, parent, fields: list[tuple[str, str]]) -> None:
        for label, entry in fields:
            field = self._q(parent, "qtimetadatafield")
            self._q(field, "fieldlabel", label)
            self._q(field, "fieldentry", entry)

    def _mattext(self, parent, html: str) -> None:
        self._q(self._q(parent, "material"), "mattext", html, texttype="text/html")

    def _item(self, section, q: Question) -> None:
        multiple = q.type == "multiple"
        item = self._q(section, "item", ident=q.id, title=q.id)
        self._fields(self._q(self._q(item, "itemmetadata"), "qtimetadata"), [
            ("question_type", "multiple_answers_question" if multiple else "multiple_choice_question"),
            ("points_possible", str(POINTS)),
            ("original_answer_ids", ",".join(answer_id(q, o) for o in q.options)),
            ("assessment_question_identifierref", f"{q.id}_bank"),
        ])
        presentation = self._q(item, "presentation")
        self._mattext(presentation, self._md(q, q.stem, "/stem"))
        lid = self._q(presentation, "response_lid", ident="response1", rcardinality="Multiple" if multiple else "Single")
        choices = self._q(lid, "render_choice")
        for o in q.options:
            label = self._q(choices, "response_label", ident=answer_id(q, o))
            self._mattext(label, self._md(q, o.text, f"{o.pointer}/text", inline=True))
        feedback = [self._answer_feedback(q, o) for o in q.options]
        self._processing(item, q, [o for o in q.options if feedback[o.index]])
        self._feedback(item, "general_fb", self._general(q))
        self._feedback(item, "correct_fb", "<p>Correct.</p>")
        self._feedback(item, "general_incorrect_fb", self._incorrect(q))
        for o in q.options:
            if feedback[o.index]:
                self._feedback(item, f"{answer_id(q, o)}_fb", feedback[o.index])

    def _answer_feedback(self, q: Question, o: OptionView) -> str:
        parts = []
        if o.rationale and o.rationale.strip():
            parts.append(self._md(q, o.rationale, f"{o.pointer}/rationale"))
        if o.right_when.strip():
            parts.append(_labelled("When it would be right:", self._md(q, o.right_when, f"{o.pointer}/right_when")))
        why = o.raw.get("why_chosen")
        if why and why.strip():
            parts.append(_labelled("Why learners choose it:", self._md(q, why, f"{o.pointer}/why_chosen")))
        return _html(*parts)

    def _general(self, q: Question) -> str:
        parts = [self._md(q, q.explanation, "/explanation")]
        if q.trap and q.trap.strip():
            parts.append(_labelled("Common exam trap:", self._md(q, q.trap, "/trap")))
        if q.data.get("references"):
            ul = etree.Element("ul")
            for ref in q.data["references"]:
                sub(sub(ul, "li"), "a", ref["title"], href=ref["url"])
            parts.append(_labelled("Go deeper:", _html(ul)))
        return _html(*parts)

    def _incorrect(self, q: Question) -> str:
        keys = "; ".join(self._md(q, k.text, f"{k.pointer}/text", inline=True) for k in q.keys)
        lead = "Incorrect. The correct answer is: " if len(q.keys) == 1 else "Incorrect. The correct answers are: "
        return f"<p>{lead}{keys}</p>"  # constant text around renderer output (already escaped)

    def _condition(self, parent, cont: str) -> tuple[etree._Element, etree._Element]:
        cond = self._q(parent, "respcondition", **{"continue": cont})
        return cond, self._q(cond, "conditionvar")

    def _display(self, cond, ident: str) -> None:
        self._q(cond, "displayfeedback", feedbacktype="Response", linkrefid=ident)

    def _processing(self, item, q: Question, with_feedback: list[OptionView]) -> None:
        rp = self._q(item, "resprocessing")
        self._q(self._q(rp, "outcomes"), "decvar", maxvalue="100", minvalue="0", varname="SCORE", vartype="Decimal")
        cond, var = self._condition(rp, "Yes")
        self._q(var, "other")
        self._display(cond, "general_fb")
        for o in with_feedback:
            cond, var = self._condition(rp, "Yes")
            self._q(var, "varequal", answer_id(q, o), respident="response1")
            self._display(cond, f"{answer_id(q, o)}_fb")
        cond, var = self._condition(rp, "No")
        if q.type == "multiple":  # all or nothing: every key chosen and no distractor
            both = self._q(var, "and")
            for o in q.options:
                target = both if o.correct else self._q(both, "not")
                self._q(target, "varequal", answer_id(q, o), respident="response1")
        else:
            self._q(var, "varequal", answer_id(q, q.keys[0]), respident="response1")
        self._q(cond, "setvar", "100", action="Set", varname="SCORE")
        self._display(cond, "correct_fb")
        if self.partial and q.type == "multiple":  # not fully right: each chosen answer adds its share
            for o, share in zip(q.options, fractions(q)):
                cond, var = self._condition(rp, "Yes")
                self._q(var, "varequal", answer_id(q, o), respident="response1")
                self._q(cond, "setvar", fmt(share), action="Add", varname="SCORE")
        cond, var = self._condition(rp, "Yes")
        self._q(var, "other")
        self._display(cond, "general_incorrect_fb")

    def _feedback(self, item, ident: str, html: str) -> None:
        fb = self._q(item, "itemfeedback", ident=ident)
        self._mattext(self._q(fb, "flow_mat"), html)

    def meta(self, shuffle: bool) -> etree._Element:
        root = etree.Element(f"{{{CCC}}}quiz", nsmap={None: CCC, "xsi": XSI})
        root.set(f"{{{XSI}}}schemaLocation", f"{CCC} https://canvas.instructure.com/xsd/cccv1p0.xsd")
        root.set("identifier", self.id)
        domains = len({q.domain for q in self.questions})
        desc = etree.Element("p")
        desc.text = (f"{len(self.questions)} practice questions for {self.title} ({self.code}) across "
                     f"{domains} domain{'s' if domains != 1 else ''}, exported by qlint.")
        for name, value in (
            ("title", self.title), ("description", _html(desc)),
            ("shuffle_answers", "true" if shuffle else "false"), ("scoring_policy", "keep_highest"),
            ("hide_results", ""), ("quiz_type", "practice_quiz"),
            ("points_possible", f"{POINTS * len(self.questions):.1f}"),
            ("show_correct_answers", "true"), ("allowed_attempts", "-1"),
            ("one_question_at_a_time", "false"), ("cant_go_back", "false"), ("available", "false"),
        ):
            sub(root, f"{{{CCC}}}{name}", value)
        return root


def _manifest(quizzes: list[_Quiz], images: list[str]) -> etree._Element:
    root = etree.Element(f"{{{CP}}}manifest", nsmap={None: CP, "imsmd": IMSMD, "xsi": XSI})
    root.set(f"{{{XSI}}}schemaLocation", f"{CP} http://www.imsglobal.org/xsd/imscp_v1p1.xsd "
                                         f"{IMSMD} http://www.imsglobal.org/xsd/imsmd_v1p2p2.xsd")
    root.set("identifier", "qlint_canvas_package")
    meta = sub(root, f"{{{CP}}}metadata")
    sub(meta, f"{{{CP}}}schema", "IMS Content")
    sub(meta, f"{{{CP}}}schemaversion", "1.1.3")
    title = sub(sub(sub(meta, f"{{{IMSMD}}}lom"), f"{{{IMSMD}}}general"), f"{{{IMSMD}}}title")
    sub(title, f"{{{IMSMD}}}string", "; ".join(q.title for q in quizzes) + " (qlint export)")
    sub(root, f"{{{CP}}}organizations")
    resources = sub(root, f"{{{CP}}}resources")
    for quiz in quizzes:
        res = sub(resources, f"{{{CP}}}resource", identifier=quiz.id, type="imsqti_xmlv1p2")
        sub(res, f"{{{CP}}}file", href=f"{quiz.id}/{quiz.id}.xml")
        sub(res, f"{{{CP}}}dependency", identifierref=f"{quiz.id}-meta")
        href = f"{quiz.id}/assessment_meta.xml"
        res = sub(resources, f"{{{CP}}}resource", identifier=f"{quiz.id}-meta",
                  type="associatedcontent/imscc_xmlv1p1/learning-application-resource", href=href)
        sub(res, f"{{{CP}}}file", href=href)
    for href in images:
        ident = "qlint-image-" + hashlib.sha1(href.encode()).hexdigest()[:16]
        res = sub(resources, f"{{{CP}}}resource", identifier=ident, type="webcontent", href=href)
        sub(res, f"{{{CP}}}file", href=href)
    return root


def _shuffle(job: ExportJob, questions: list[Question], warnings: list[str]) -> bool:
    """Canvas shuffles per quiz, not per question: an order that matters turns it off for the quiz."""
    if not job.shuffle:
        return False
    fixed = [(q, "/shuffle", "says `shuffle: false`") for q in questions if q.data.get("shuffle") is False]
    fixed += [(q, f"{o.pointer}/pinned", "has a pinned option") for q in questions
              for o in q.options if o.raw.get("pinned") is True and q.data.get("shuffle") is not False]
    if fixed:  # one warning per quiz: the first question that needs it, and how many more do
        q, pointer, why = fixed[0]
        more = f" (and {len(fixed) - 1} more question{'s' if len(fixed) > 2 else ''})" if len(fixed) > 1 else ""
        warnings.append(f"{where(q.path, pointer)}: Canvas shuffles answers per quiz, not per question; "
                        f"answer shuffling is off for the whole {q.exam} quiz because this question {why}{more}")
    return not fixed


@exporter("canvas", "Canvas classic-quiz package (QTI 1.2 flavour), one quiz per exam, with per-answer feedback",
          packaged=True)
def write(job: ExportJob) -> ExportResult:
    result = ExportResult()
    media = MediaSet(job.bank_root)
    by_exam: dict[str, list[Question]] = {}
    for q in job.questions:
        require_xml_text(q.path, q.data)
        by_exam.setdefault(q.exam, []).append(q)
    files: dict[str, bytes] = {"non_cc_assessments/": b""}
    quizzes, done = [], 0
    for code in sorted(by_exam):
        quiz = _Quiz(code, job.exams.get(code), by_exam[code], media, job.scoring == PARTIAL)
        files[f"{quiz.id}/{quiz.id}.xml"] = to_bytes(quiz.assessment())
        files[f"{quiz.id}/assessment_meta.xml"] = to_bytes(quiz.meta(_shuffle(job, by_exam[code], result.warnings)))
        quizzes.append(quiz)
        done += len(by_exam[code])
        job.tick(done)
    files.update(media.read())
    files["imsmanifest.xml"] = to_bytes(_manifest(quizzes, [quote(name) for name in sorted(media.files)]))
    result.written = write_package(Path(job.output), files, job.zip, result.warnings)
    return result
