"""`canvas`: a Canvas classic-quiz package (Canvas's flavour of QTI 1.2), one quiz per exam.

Layout (the shape text2qti and Canvas's own exports use): `imsmanifest.xml`, an empty
`non_cc_assessments/`, `<quiz-id>/assessment_meta.xml` (quiz settings), `<quiz-id>/<quiz-id>.xml`
(the questions) and `images/...`. Question text is HTML carried as escaped text in `mattext`,
each with `xml:lang`, its question's language.
Feedback: `general_fb` (explanation, exam trap, references; always shown), `correct_fb`,
`general_incorrect_fb`, and `<answer-id>_fb` per answer (rationale, when it would be right,
why learners choose it). Multiple answers score all-or-nothing (every key, no distractor) or, with
partial scoring, each chosen answer adds its Moodle-style share of 100 (SCORE is kept in 0..100).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from html import escape
from pathlib import Path
from urllib.parse import quote

from lxml import etree

from qlint.exporters import PARTIAL, ExportJob, ExportResult, exporter
from qlint.exporters.kit.grades import fmt, fractions
from qlint.exporters.kit import xhtml
from qlint.exporters.kit.content import MediaSet, write_package
from qlint.markup import render, render_inline
from qlint.exporters.kit.xmldoc import XSI, sub, to_bytes
from qlint.exporters.kit.breakdown import plain_text, position_label
from qlint.exporters.kit.cases import CaseBlock, split_cases
from qlint.exporters.kit.language import XML_LANG, question_lang
from qlint.exporters.kit.problems import Problem, problem
from qlint.model import MATCHING, ORDERING, Case, OptionView, Question, StepView
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
                 partial: bool = False, cases: list[CaseBlock] | None = None, lang: str = "en") -> None:
        self.partial = partial
        self.default_lang = self.lang = lang  # `lang`: that of the item being written
        self.code, self.exam, self.questions, self.media = code, exam, questions, media
        self.cases = cases or []  # case studies, written after the questions that stand alone
        self.id = quiz_id(code)

    def _md(self, q: Question | Case, text: str, pointer: str, inline: bool = False) -> str:
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
        in_case = {q.id for block in self.cases for q in block.questions}
        for q in self.questions:
            if q.id not in in_case:
                self._item(section, q)
        for block in self.cases:
            self._case(section, block)
        return root

    def _case(self, section, block: CaseBlock) -> None:
        """The scenario as a text-only question, then the case's questions in a question group that
        draws all of them (a group keeps them together; Canvas shows a group's questions in random
        order, so the scenario stays outside it, right before)."""
        case = block.case
        self.lang = self.default_lang  # a case file has no `lang`: the export's default
        item = self._q(section, "item", ident=case.id, title=case.title or case.id)
        self._fields(self._q(self._q(item, "itemmetadata"), "qtimetadata"), [
            ("question_type", "text_only_question"), ("points_possible", "0.0"), ("original_answer_ids", ""),
            ("assessment_question_identifierref", f"{case.id}_bank"),
        ])
        self._mattext(self._q(item, "presentation"), self._md(case, case.scenario, "/scenario"))
        group = self._q(section, "section", ident=f"{case.id}_group", title=case.title or case.id)
        selection = self._q(self._q(group, "selection_ordering"), "selection")
        self._q(selection, "selection_number", str(len(block.questions)))
        self._q(self._q(selection, "selection_extension"), "points_per_item", str(POINTS))
        for q in block.questions:
            self._item(group, q)

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
        self._text(self._q(parent, "material"), html, "text/html")

    def _text(self, material, text: str, texttype: str) -> None:
        # IMS CC v1.1 profile of QTI ASI 1.2.1 (ccv1p1_qtiasiv1p2p1_v1p0.xsd, mattextType): mattext
        # takes an optional xml:lang; its `item` has none (the profile removed the language attribute)
        self._q(material, "mattext", text, texttype=texttype, **{XML_LANG: self.lang})

    def _item(self, section, q: Question) -> None:
        self.lang = question_lang(q, self.default_lang)
        if q.type in (MATCHING, ORDERING):
            return self._matching(section, q)
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

    # -- matching_question: matching, and ordering as positions 1..n ---------------------------

    def _matching(self, section, q: Question) -> None:
        """Canvas's own matching shape: one `response_lid` per left-hand answer (`response_<id>`)
        listing every match (surplus ones are the distractors), one condition per answer adding its
        share of 100, and the answer's comment shown when its match is wrong. Ids are numbers,
        as Canvas reads a match id from the digits of its ident."""
        pairs = self._pairs(q)
        item = self._q(section, "item", ident=q.id, title=q.id)
        self._fields(self._q(self._q(item, "itemmetadata"), "qtimetadata"), [
            ("question_type", "matching_question"), ("points_possible", str(POINTS)),
            ("original_answer_ids", ",".join(str(a) for a, *_ in pairs.answers)),
            ("assessment_question_identifierref", f"{q.id}_bank"),
        ])
        presentation = self._q(item, "presentation")
        self._mattext(presentation, self._md(q, q.stem, "/stem"))
        for answer, text, pointer, _match, _comment in pairs.answers:
            lid = self._q(presentation, "response_lid", ident=f"response_{answer}")
            self._mattext(lid, self._md(q, text, pointer, inline=True) if pointer else escape(text, quote=False))
            choices = self._q(lid, "render_choice")
            for match, label in pairs.matches:
                self._text(self._q(self._q(choices, "response_label", ident=str(match)), "material"), label,
                           "text/plain")
        rp = self._q(item, "resprocessing")
        self._q(self._q(rp, "outcomes"), "decvar", maxvalue="100", minvalue="0", varname="SCORE", vartype="Decimal")
        cond, var = self._condition(rp, "Yes")
        self._q(var, "other")
        self._display(cond, "general_fb")
        comments = {}
        for (answer, _text, _pointer, match, comment), share in zip(pairs.answers, _shares(len(pairs.answers))):
            cond, var = self._condition(rp, "Yes")
            self._q(var, "varequal", str(match), respident=f"response_{answer}")
            self._q(cond, "setvar", share, action="Add", varname="SCORE")
            if comment:  # Canvas shows an answer's comment when its match is wrong
                cond, var = self._condition(rp, "Yes")
                self._q(self._q(var, "not"), "varequal", str(match), respident=f"response_{answer}")
                self._display(cond, f"{answer}_fb")
                comments[answer] = comment
        self._feedback(item, "general_fb", self._general_parts(q))
        self._feedback(item, "correct_fb", "<p>Correct.</p>")
        self._feedback(item, "general_incorrect_fb", self._incorrect_pairs(q, pairs))
        for answer, comment in comments.items():
            self._feedback(item, f"{answer}_fb", comment)

    def _pairs(self, q: Question) -> "_Pairs":
        if q.type == MATCHING:
            ids = _numbers(q, [f"prompt:{p.id}" for p in q.prompts] + [f"response:{r.id}" for r in q.responses])
            answers = [(ids[f"prompt:{p.id}"], p.text, f"{p.pointer}/text", ids[f"response:{p.match}"],
                        self._md(q, p.rationale, f"{p.pointer}/rationale") if p.rationale else "") for p in q.prompts]
            matches = [(ids[f"response:{r.id}"], plain_text(r.text)) for r in q.responses]
        else:
            keyed = q.key_order
            ids = _numbers(q, [f"position:{n}" for n in range(1, len(keyed) + 1)] + [f"step:{s.id}" for s in q.steps])
            answers = [(ids[f"position:{n}"], position_label(n), "", ids[f"step:{s.id}"], self._step_comment(q, n, s))
                       for n, s in enumerate(keyed, 1)]
            matches = [(ids[f"step:{s.id}"], plain_text(s.text)) for s in q.steps]
        # In the order of their (hashed) ids, not as written: responses and steps are often listed in
        # key order, and the list must not give the answer away.
        return _Pairs(answers, sorted(matches))

    def _step_comment(self, q: Question, n: int, s: StepView) -> str:
        """A keyed step's reasons as its position's comment: rationale, when it would be right, why chosen."""
        body = self._step_body(q, s)
        return _labelled(f"{n}. {plain_text(s.text)}", body) if body else ""

    def _step_body(self, q: Question, s: StepView) -> str:
        parts = [self._md(q, s.rationale, f"{s.pointer}/rationale")] if s.rationale else []
        if s.right_when:
            parts.append(_labelled("When it would be right:", self._md(q, s.right_when, f"{s.pointer}/right_when")))
        if why := s.raw.get("why_chosen"):
            parts.append(_labelled("Why learners choose it:", self._md(q, why, f"{s.pointer}/why_chosen")))
        return _html(*parts)

    def _general_parts(self, q: Question) -> str:
        """`_general`, with what no answer comment can hold after the explanation: why a distractor
        step belongs nowhere, why a response matches no prompt."""
        extra = []
        if q.type == ORDERING:
            for s in (s for s in q.steps if not s.correct):
                extra.append(_labelled(f"Not part of the order: {plain_text(s.text)}", self._step_body(q, s)))
        else:
            for r in (r for r in q.responses if r.rationale):
                extra.append(_labelled(f"{plain_text(r.text)}:", self._md(q, r.rationale, f"{r.pointer}/rationale")))
        general = self._general(q)
        head = self._md(q, q.explanation, "/explanation")
        return _html(head, *extra, general[len(head):].lstrip("\n")) if extra and general.startswith(head) else general

    def _incorrect_pairs(self, q: Question, pairs: "_Pairs") -> str:
        labels = dict(pairs.matches)
        rows = "; ".join(f"{escape(plain_text(text) if pointer else text, quote=False)} → {escape(labels[match], quote=False)}"
                         for _a, text, pointer, match, _c in pairs.answers)
        lead = "Incorrect. The correct order is: " if q.type == ORDERING else "Incorrect. The correct pairs are: "
        return f"<p>{lead}{rows}</p>"

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


@dataclass(frozen=True)
class _Pairs:
    """A matching_question: left-hand answers (id, text, pointer of Markdown text or "" for a plain
    label, id of the right match, comment HTML) and the matches (id, plain text) in display order."""

    answers: list[tuple[int, str, str, int, str]]
    matches: list[tuple[int, str]]


def _numbers(q: Question, keys: list[str]) -> dict[str, int]:
    """A stable number per key (Canvas reads answer and match ids as numbers), unique in the question."""
    out: dict[str, int] = {}
    taken: set[int] = set()
    for key in keys:
        n = int(hashlib.sha1(f"{q.id}/{key}".encode()).hexdigest()[:7], 16) + 1000
        while n in taken:
            n += 1
        taken.add(n)
        out[key] = n
    return out


def _shares(n: int) -> list[str]:
    """n shares of 100 with two decimals (Canvas's own precision), the last one taking the
    rounding so that every pair right scores exactly 100."""
    each = round(100 / n, 2)
    return [f"{each:.2f}"] * (n - 1) + [f"{100 - each * (n - 1):.2f}"]


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


def _shuffle(job: ExportJob, questions: list[Question], warnings: list[Problem]) -> bool:
    """Canvas shuffles per quiz, not per question: an order that matters turns it off for the quiz."""
    if not job.shuffle:
        return False
    fixed = [(q, "/shuffle", "says `shuffle: false`") for q in questions if q.data.get("shuffle") is False]
    fixed += [(q, f"{o.pointer}/pinned", "has a pinned option") for q in questions
              for o in q.options if o.raw.get("pinned") is True and q.data.get("shuffle") is not False]
    if fixed:  # one warning per quiz: the first question that needs it, and how many more do
        q, pointer, why = fixed[0]
        more = f" (and {len(fixed) - 1} more question{'s' if len(fixed) > 2 else ''})" if len(fixed) > 1 else ""
        warnings.append(problem(q, pointer, "Canvas shuffles answers per quiz, not per question; "
                        f"answer shuffling is off for the whole {q.exam} quiz because this question {why}{more}"))
    return not fixed


def _losses(job: ExportJob, questions: list[Question]) -> list[Problem]:
    """What Canvas classic cannot carry in the new item types, one warning per question."""
    out = []
    for q in questions:
        if q.type == ORDERING:
            out.append(problem(q, '/type', "Canvas classic quizzes have no ordering question; exported as a "
                       "matching question that pairs positions 1..n with the steps (distractor steps are extra matches)"))
        if q.type in (ORDERING, MATCHING) and job.scoring != PARTIAL:
            out.append(problem(q, '/type', "Canvas grades a matching question per pair (partial credit); "
                       "all-or-nothing scoring cannot be expressed for it"))
    return out


@exporter("canvas", "Canvas classic-quiz package (QTI 1.2 flavour), one quiz per exam, with per-answer feedback",
          packaged=True, xml=True)
def write(job: ExportJob) -> ExportResult:
    result = ExportResult()
    media = MediaSet(job.bank_root)
    by_exam: dict[str, list[Question]] = {}
    for q in job.questions:
        by_exam.setdefault(q.exam, []).append(q)
    files: dict[str, bytes] = {"non_cc_assessments/": b""}
    quizzes, done = [], 0
    for code in sorted(by_exam):
        _, cases = split_cases(job, by_exam[code], result.warnings)
        for block in cases:
            if block.case.data.get("references"):
                result.warnings.append(problem(block.case, '/references', "a Canvas text-only question shows no "  # type: ignore[arg-type]
                                       "feedback; the case study's references are not exported"))
        result.warnings += _losses(job, by_exam[code])
        quiz = _Quiz(code, job.exams.get(code), by_exam[code], media, job.scoring == PARTIAL, cases, job.lang)
        files[f"{quiz.id}/{quiz.id}.xml"] = to_bytes(quiz.assessment())
        files[f"{quiz.id}/assessment_meta.xml"] = to_bytes(quiz.meta(_shuffle(job, by_exam[code], result.warnings)))
        quizzes.append(quiz)
        done += len(by_exam[code])
        job.tick(done)
    files.update(media.read())
    files["imsmanifest.xml"] = to_bytes(_manifest(quizzes, [quote(name) for name in sorted(media.files)]))
    result.written = write_package(Path(job.output), files, job.zip, result.warnings)
    return result
