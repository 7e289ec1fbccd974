"""IMS QTI 2.1 and 3.0 content packages from one builder.

The two versions share their structure and differ in spelling: 3.0 writes `qti-` kebab-case
element names and kebab-case attributes, wraps modal feedback content in `qti-content-body`, and
uses its own namespaces and resource types. A `Dialect` holds those differences; everything else
(identifiers, feedback, response processing, metadata) is written once. Ordering and matching
items get their interaction, response and reveal rows from `_qti_shapes`; case studies their
stimulus (3.0) or repeated passage (2.1) from `_qti_case`. docs/exports-qti.md documents the
mapping from question fields to QTI so an importer can read it back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from lxml import etree

from qlint import __version__
from qlint.exporters import PARTIAL, ExportJob, ExportResult
from qlint.exporters.qti import _shapes as shapes
from qlint.exporters.kit import xhtml
from qlint.exporters.qti._case import CaseGroup, case_identifier, group, scenario, stimulus_href, stimulus_place
from qlint.exporters.qti._style import CSS, STYLESHEET
from qlint.exporters.kit.language import XML_LANG, question_lang
from qlint.exporters.kit.grades import fractions
from qlint.exporters.kit.content import MediaSet, write_package
from qlint.exporters.kit.problems import problem
from qlint.markup import render, render_inline
from qlint.exporters.kit.xmldoc import XSI, sub, to_bytes
from qlint.model import Case, OptionView, Question
from qlint.project.exams import Exam
from qlint.project.guide import question_tasks

LOM = "http://ltsc.ieee.org/xsd/LOM"
ITEMS, TESTS = "items", "tests"
CORRECT, INCORRECT = "correct", "incorrect"
GENERAL = "general_feedback"  # the one modal feedback: explanation, trap and references under headings
# The reveal's parts: (div class, heading). Headings sit in the body: players do not show `title`.
EXPLANATION, TRAP, REFERENCES = ("qlint-explanation", "Explanation"), ("qlint-trap", "Common exam trap"), \
    ("qlint-go-deeper", "Go deeper")
CHOSEN = "CHOSEN"  # outcome copied from RESPONSE; each option's feedbackInline shows when it holds that option
LOM_DIFFICULTY = {"easy": "easy", "medium": "medium", "hard": "difficult"}  # LOMv1.0 vocabulary
STIMULUS_TYPE = "imsqti_stimulus_xmlv3p0"  # QTI 3.0 only: 2.1 has no stimulus resource


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


@dataclass(frozen=True)
class Dialect:
    ns: str
    schema_location: str
    cp_ns: str
    cp_schema_location: str
    package_schema: str
    package_version: str
    item_type: str
    test_type: str
    qtim_ns: str
    qtim_schema_location: str
    lom_schema_location: str
    v3: bool

    def tag(self, name: str) -> str:
        return f"{{{self.ns}}}" + (f"qti-{_kebab(name)}" if self.v3 else name)

    def attrs(self, **attrs: str) -> dict[str, str]:
        return {(_kebab(k) if self.v3 else k): v for k, v in attrs.items()}

    def sub(self, parent: etree._Element, name: str, text: str | None = None, **attrs: str) -> etree._Element:
        return sub(parent, self.tag(name), text, **self.attrs(**attrs))

    def html(self, parent: etree._Element, name: str, text: str | None = None, **attrs: str) -> etree._Element:
        return sub(parent, f"{{{self.ns}}}{name}", text, **attrs)

    @property
    def mixed(self) -> frozenset[str]:
        names = ["simpleChoice", "feedbackInline", "modalFeedback", "prompt", "contentBody", "simpleAssociableChoice"]
        return frozenset(f"qti-{_kebab(n)}" if self.v3 else n for n in names)


QTI21 = Dialect(
    ns="http://www.imsglobal.org/xsd/imsqti_v2p1",
    schema_location="http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd",
    cp_ns="http://www.imsglobal.org/xsd/imscp_v1p1",
    cp_schema_location="http://www.imsglobal.org/xsd/qti/qtiv2p1/qtiv2p1_imscpv1p2_v1p0.xsd",
    package_schema="QTIv2.1 Package",
    package_version="1.0.0",
    item_type="imsqti_item_xmlv2p1",
    test_type="imsqti_test_xmlv2p1",
    qtim_ns="http://www.imsglobal.org/xsd/imsqti_metadata_v2p1",
    qtim_schema_location="http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_metadata_v2p1.xsd",
    lom_schema_location="http://www.imsglobal.org/xsd/imsmd_loose_v1p3p2.xsd",
    v3=False,
)
QTI30 = Dialect(
    ns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0",
    schema_location="https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd",
    cp_ns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1",
    cp_schema_location="https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd",
    package_schema="QTI Package",
    package_version="3.0.0",
    item_type="imsqti_item_xmlv3p0",
    test_type="imsqti_test_xmlv3p0",
    qtim_ns="http://www.imsglobal.org/xsd/imsqti_metadata_v3p0",
    qtim_schema_location="https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_metadatav3p0_v1p0.xsd",
    lom_schema_location="https://purl.imsglobal.org/spec/md/v1p3/schema/xsd/imsmd_loose_v1p3p2.xsd",
    v3=True,
)


# Identifiers must be NCNames. Question, option and domain ids are [a-z0-9-] and never hold "_",
# so the prefixes below are unambiguous and an importer strips them to get the ids back.
def item_identifier(question_id: str) -> str:
    return f"q_{question_id}" if question_id[:1].isdigit() else question_id


def choice_identifier(option_id: str) -> str:
    # Always prefixed: FEEDBACK also holds `correct` / `incorrect`, which are valid option ids.
    return f"opt_{option_id}"


def item_href(question: Question) -> str:
    return f"{ITEMS}/{question.id}.xml"


def test_href(exam_code: str) -> str:
    return f"{TESTS}/{exam_code}.xml"


def _content(d: Dialect, media: MediaSet, path: str, markdown: str, pointer: str, inline: bool = False) -> etree._Element:
    """Markdown from the file at `path` as QTI XHTML; its images are added to `media`."""
    html = render_inline(markdown) if inline else render(markdown)

    def image(src: str) -> str | None:
        name = media.add(path, pointer, src)
        return None if name is None else f"../{name}"  # relative to the file in items/ (or stimuli/)

    return xhtml.parse(html, d.ns, image)


class _Item:
    """One assessmentItem; images it references are added to `media`."""

    def __init__(self, q: Question, d: Dialect, media: MediaSet, case: Case | None = None, lang: str = "en") -> None:
        self.q, self.d, self.media, self.case, self.lang = q, d, media, case, lang

    def _content(self, markdown: str, pointer: str, inline: bool = False, path: str | None = None) -> etree._Element:
        return _content(self.d, self.media, path or self.q.path, markdown, pointer, inline)

    def build(self, shuffle: bool, partial: bool = False) -> etree._Element:
        q, d = self.q, self.d
        root = etree.Element(d.tag("assessmentItem"), nsmap={None: d.ns, "xsi": XSI})
        root.set(f"{{{XSI}}}schemaLocation", f"{d.ns} {d.schema_location}")
        for key, value in d.attrs(identifier=item_identifier(q.id), title=q.id, adaptive="false",
                                  timeDependent="false", toolName="qlint", toolVersion=__version__).items():
            root.set(key, value)
        root.set(XML_LANG, self.lang)  # QTI 2.1 assessmentItem and 3.0 qti-assessment-item both take xml:lang
        multiple = q.type == "multiple"
        if q.is_choice:
            rd = d.sub(root, "responseDeclaration", identifier="RESPONSE",
                       cardinality="multiple" if multiple else "single", baseType="identifier")
            correct = d.sub(rd, "correctResponse")
            for key in q.keys:
                d.sub(correct, "value", choice_identifier(key.id))
            partial = partial and multiple
            if partial:
                self._mapping(rd)
        else:
            shapes.declare(self, root, partial)
        self._outcome(root, "SCORE", "single", "float", "0")
        self._outcome(root, "MAXSCORE", "single", "float", "1")
        self._outcome(root, "FEEDBACK", "multiple", "identifier", None)
        if q.is_choice:  # the chosen options' inline feedback; the new types explain in the reveal
            self._outcome(root, CHOSEN, "multiple" if multiple else "single", "identifier", None)
        if self.case is not None and d.v3:
            d.sub(root, "assessmentStimulusRef", identifier=case_identifier(self.case.id),
                  href=f"../{stimulus_href(self.case)}", title=self.case.title or self.case.id)
        d.sub(root, "stylesheet", href=f"../{STYLESHEET}", type="text/css")
        body = d.sub(root, "itemBody")
        if self.case is not None and d.v3:  # where a player shows the referenced scenario, or a link to it
            stimulus_place(body, d.ns, self.case, f"../{stimulus_href(self.case)}")
        elif self.case is not None:  # QTI 2.1 has no shared stimulus: the scenario comes first
            scenario(body, d.ns, self.case, lambda md, ptr, inline: self._content(md, ptr, inline, self.case.path))
        stem = d.html(body, "div", **{"class": "qlint-stem"})
        xhtml.append(stem, self._content(q.stem, "/stem"))
        if q.is_choice:
            interaction = d.sub(body, "choiceInteraction", responseIdentifier="RESPONSE",
                                shuffle="true" if shuffle else "false", maxChoices=str(q.choose))
            for option in q.options:
                self._choice(interaction, option)
        else:
            shapes.interaction(self, body, shuffle)
        self._verdicts(body)
        self._processing(root, partial)
        self._modal_feedback(root)
        return root

    def _mapping(self, rd) -> None:
        """Partial credit as Moodle grades it: each key +1/k, each distractor -1/m, total in 0..1."""
        d, q = self.d, self.q
        mapping = d.sub(rd, "mapping", lowerBound="0", upperBound="1", defaultValue="0")
        for option, fraction in zip(q.options, fractions(q)):
            d.sub(mapping, "mapEntry", mapKey=choice_identifier(option.id), mappedValue=f"{fraction / 100:.7g}")

    def _outcome(self, root, identifier: str, cardinality: str, base_type: str, default: str | None) -> None:
        od = self.d.sub(root, "outcomeDeclaration", identifier=identifier, cardinality=cardinality, baseType=base_type)
        if default is not None:
            self.d.sub(self.d.sub(od, "defaultValue"), "value", default)

    def _choice(self, interaction, option: OptionView) -> None:
        d = self.d
        attrs = {"identifier": choice_identifier(option.id)}
        if option.raw.get("pinned") is True:
            attrs["fixed"] = "true"
        choice = d.sub(interaction, "simpleChoice", **attrs)
        # The option text comes first: Canvas takes a choice's first text node as the answer.
        xhtml.append(choice, self._content(option.text, f"{option.pointer}/text", inline=True))
        parts = [("qlint-rationale", None, option.rationale, "rationale"),
                 ("qlint-right-when", "When it would be right:", option.right_when, "right_when"),
                 ("qlint-why-chosen", "Why learners choose it:", option.raw.get("why_chosen"), "why_chosen")]
        parts = [p for p in parts if p[2] and p[2].strip()]
        if not parts:
            return
        last = choice[-1] if len(choice) else None
        if last is not None:
            last.tail = (last.tail or "") + " "
        else:
            choice.text = (choice.text or "") + " "
        fb = d.sub(choice, "feedbackInline", outcomeIdentifier=CHOSEN,
                   identifier=choice_identifier(option.id), showHide="show")
        for i, (cls, label, text, key) in enumerate(parts):
            if i:
                d.html(fb, "br")
            span = d.html(fb, "span", **{"class": cls})
            if label:
                d.html(span, "strong", label, **{"class": "qlint-label"}).tail = " "
            xhtml.append(span, xhtml.flatten(self._content(text, f"{option.pointer}/{key}"), d.ns))

    def _set_feedback(self, parent, *identifiers: str) -> None:
        """FEEDBACK := multiple(baseValue...): no variable inside the list. A QTI 3 player (citolab
        qti-components) mishandles variables combined into a list, so FEEDBACK is never accumulated."""
        multi = self.d.sub(self.d.sub(parent, "setOutcomeValue", identifier="FEEDBACK"), "multiple")
        for identifier in identifiers:
            self.d.sub(multi, "baseValue", identifier, baseType="identifier")

    def _processing(self, root, partial: bool) -> None:
        """Written out (the match_correct template sets SCORE only and cannot drive feedback)."""
        d = self.d
        rp = d.sub(root, "responseProcessing")
        cond = d.sub(rp, "responseCondition")
        # No answer: 0 and the verdict before any operator reads RESPONSE (a QTI 3 player, citolab
        # qti-components, throws in mapResponse on a NULL response and shows nothing).
        empty = d.sub(cond, "responseIf")
        d.sub(d.sub(empty, "isNull"), "variable", identifier="RESPONSE")
        d.sub(d.sub(empty, "setOutcomeValue", identifier="SCORE"), "baseValue", "0", baseType="float")
        self._set_feedback(empty, INCORRECT, GENERAL)
        then = d.sub(cond, "responseElseIf")
        if self.q.type == shapes.ORDERING and len(self.q.key_order) < len(self.q.steps):
            shapes.right_subset_order(self, then)
        else:
            match = d.sub(then, "match")
            d.sub(match, "variable", identifier="RESPONSE")
            d.sub(match, "correct", identifier="RESPONSE")
        d.sub(d.sub(then, "setOutcomeValue", identifier="SCORE"), "variable", identifier="MAXSCORE")
        self._set_feedback(then, CORRECT, GENERAL)
        otherwise = d.sub(cond, "responseElse")
        score = d.sub(otherwise, "setOutcomeValue", identifier="SCORE")
        ordering = self.q.type == shapes.ORDERING
        if partial and not ordering:  # the mapping's bounds keep it in 0..1; full marks come from the branch above
            d.sub(score, "mapResponse", identifier="RESPONSE")
        else:
            d.sub(score, "baseValue", "0", baseType="float")
        if partial and ordering:
            shapes.partial_order(self, otherwise)
        self._set_feedback(otherwise, INCORRECT, GENERAL)
        if self.q.is_choice:
            # The chosen options, for their inline feedback: a plain copy, never NULL-merged into a list.
            d.sub(d.sub(rp, "setOutcomeValue", identifier=CHOSEN), "variable", identifier="RESPONSE")

    def _verdicts(self, body) -> None:
        """"Correct." / "Incorrect. The correct answer is ..." as feedback blocks under the choices:
        shown in the page, so the one modal dialog left is the reveal."""
        q, d = self.q, self.d
        d.html(self._feedback(body, "feedbackBlock", CORRECT), "p", "Correct.", **{"class": "qlint-verdict"})
        if not q.is_choice:
            shapes.verdict_keys(self, d.html(self._feedback(body, "feedbackBlock", INCORRECT), "p", **{"class": "qlint-verdict"}))
            return
        p = d.html(self._feedback(body, "feedbackBlock", INCORRECT), "p", "Incorrect. The correct answer is: " if len(q.keys) == 1
                   else "Incorrect. The correct answers are: ", **{"class": "qlint-verdict"})
        for i, key in enumerate(q.keys):
            if i:
                d.html(p, "span", "; ")
            xhtml.append(d.html(p, "span", **{"class": "qlint-key"}), self._content(key.text, f"{key.pointer}/text", inline=True))

    def _feedback(self, parent, kind: str, identifier: str, **attrs: str) -> etree._Element:
        """A feedback element shown when FEEDBACK holds `identifier`; its content goes in what this returns."""
        d = self.d
        fb = d.sub(parent, kind, outcomeIdentifier="FEEDBACK", identifier=identifier, showHide="show", **attrs)
        return d.sub(fb, "contentBody") if d.v3 else fb

    def _part(self, parent, part: tuple[str, str]) -> etree._Element:
        div = self.d.html(parent, "div", **{"class": part[0]})
        self.d.html(div, "h3", part[1], **{"class": "qlint-heading"})
        return div

    def _modal_feedback(self, root) -> None:
        """One modal feedback, shown after every attempt: explanation, trap, references, each
        under a visible heading (players open one dialog per modal feedback)."""
        q, d = self.q, self.d
        body = self._feedback(root, "modalFeedback", GENERAL, title="Explanation")
        xhtml.append(self._part(body, EXPLANATION), self._content(q.explanation, "/explanation"))
        if not q.is_choice:
            shapes.rows(self, body)
        if q.trap and q.trap.strip():
            xhtml.append(self._part(body, TRAP), self._content(q.trap, "/trap"))
        if q.data.get("references"):
            ul = d.html(self._part(body, REFERENCES), "ul", **{"class": "qlint-references"})
            for ref in q.data["references"]:
                d.html(d.html(ul, "li"), "a", ref["title"], href=ref["url"])


def _exam_sections(exam: Exam | None, questions: list[Question], groups: list[CaseGroup]
                   ) -> list[tuple[str, str, list[Question], list[CaseGroup]]]:
    """(domain id, title, questions, case studies) in the blueprint's domain order, then any
    unknown domains. A case study's questions sit in its group, under the case's domain."""
    in_case = {q.id for g in groups for q in g.questions}
    by_domain: dict[str, list[Question]] = {}
    for q in questions:
        if q.id not in in_case:
            by_domain.setdefault(q.domain, []).append(q)
    cases: dict[str, list[CaseGroup]] = {}
    for g in groups:
        cases.setdefault(g.domain, []).append(g)
    names = {dom.id: dom.name for dom in exam.domains} if exam else {}
    order = [dom.id for dom in exam.domains] if exam else []
    order += sorted(k for k in by_domain.keys() | cases.keys() if k not in order)
    return [(dom, names.get(dom, dom), sorted(by_domain.get(dom, []), key=lambda q: q.id),
             sorted(cases.get(dom, []), key=lambda g: g.case.id)) for dom in order if dom in by_domain or dom in cases]


def _test(d: Dialect, code: str, exam: Exam | None, questions: list[Question], groups: list[CaseGroup]) -> etree._Element:
    root = etree.Element(d.tag("assessmentTest"), nsmap={None: d.ns, "xsi": XSI})
    root.set(f"{{{XSI}}}schemaLocation", f"{d.ns} {d.schema_location}")
    for key, value in d.attrs(identifier=f"test_{code}", title=exam.name if exam else code,
                              toolName="qlint", toolVersion=__version__).items():
        root.set(key, value)
    for name, default in (("SCORE", "0"), ("MAXSCORE", str(len(questions)))):
        od = d.sub(root, "outcomeDeclaration", identifier=name, cardinality="single", baseType="float")
        d.sub(d.sub(od, "defaultValue"), "value", default)
    part = d.sub(root, "testPart", identifier="part_main", navigationMode="nonlinear", submissionMode="individual")
    for dom, title, qs, cases in _exam_sections(exam, questions, groups):
        section = d.sub(part, "assessmentSection", identifier=f"domain_{dom}", title=title, visible="true")
        for q in qs:
            d.sub(section, "assessmentItemRef", identifier=item_identifier(q.id), href=f"../{item_href(q)}")
        for g in cases:  # one section per case study: its items together, in the case's order
            inner = d.sub(section, "assessmentSection", identifier=case_identifier(g.case.id),
                          title=g.case.title or g.case.id, visible="true")
            for q in g.questions:
                d.sub(inner, "assessmentItemRef", identifier=item_identifier(q.id), href=f"../{item_href(q)}")
    op = d.sub(root, "outcomeProcessing")
    for name in ("SCORE", "MAXSCORE"):
        total = d.sub(d.sub(op, "setOutcomeValue", identifier=name), "sum")
        d.sub(total, "testVariables", variableIdentifier=name)
    return root


class _Manifest:
    def __init__(self, d: Dialect, exams: dict[str, Exam]) -> None:
        self.d, self.exams = d, exams
        self.lom = f"{{{LOM}}}"
        # The `imsqti` prefix is only a name, but citolab-qti-convert's upgrade maps QTI metadata to
        # the 3.0 namespace by that prefix, so this choice keeps an upgraded manifest valid.
        self.root = etree.Element(f"{{{d.cp_ns}}}manifest", nsmap={None: d.cp_ns, "lom": LOM, "imsqti": d.qtim_ns, "xsi": XSI})
        self.root.set(f"{{{XSI}}}schemaLocation", " ".join([
            d.cp_ns, d.cp_schema_location, LOM, d.lom_schema_location, d.qtim_ns, d.qtim_schema_location]))
        self.root.set("identifier", "qlint_package")
        meta = self._cp(self.root, "metadata")
        self._cp(meta, "schema", d.package_schema)
        self._cp(meta, "schemaversion", d.package_version)
        self._cp(self.root, "organizations")
        self.resources = self._cp(self.root, "resources")

    def _cp(self, parent, name: str, text: str | None = None, **attrs: str) -> etree._Element:
        return sub(parent, f"{{{self.d.cp_ns}}}{name}", text, **attrs)

    def _l(self, parent, name: str, text: str | None = None) -> etree._Element:
        return sub(parent, self.lom + name, text)

    def _vocab(self, parent, name: str, source: str, value: str) -> None:
        el = self._l(parent, name)
        self._l(el, "source", source)
        self._l(el, "value", value)

    def _lang(self, parent, name: str, text: str) -> etree._Element:
        el = self._l(parent, name)
        self._l(el, "string", text)
        return el

    def test(self, code: str, href: str, items: list[Question]) -> None:
        res = self._cp(self.resources, "resource", identifier=f"test_{code}", type=self.d.test_type, href=href)
        self._cp(res, "file", href=href)
        for q in items:
            self._cp(res, "dependency", identifierref=f"item_{q.id}")

    def item(self, q: Question, href: str, images: list[str], stimulus: Case | None = None) -> None:
        res = self._cp(self.resources, "resource", identifier=f"item_{q.id}", type=self.d.item_type, href=href)
        meta = self._cp(res, "metadata")
        qm = sub(meta, f"{{{self.d.qtim_ns}}}qtiMetadata")
        interaction = shapes.INTERACTIONS.get(q.type, "choiceInteraction")
        for name, value in (("timeDependent", "false"), ("interactionType", interaction),
                            ("feedbackType", "nonadaptive"), ("solutionAvailable", "true"),
                            ("toolName", "qlint"), ("toolVersion", __version__)):
            sub(qm, f"{{{self.d.qtim_ns}}}{name}", value)
        self._lom(meta, q)
        self._cp(res, "file", href=href)
        for image in images:
            self._cp(res, "file", href=image)
        self._cp(res, "file", href=STYLESHEET)
        if stimulus is not None:  # QTI 3.0: the shared scenario this item shows
            self._cp(res, "dependency", identifierref=f"stimulus_{stimulus.id}")

    def stimulus(self, case: Case, href: str, images: list[str]) -> None:
        """A case study's shared scenario (QTI 3.0), with the case's id, status and blueprint in LOM."""
        res = self._cp(self.resources, "resource", identifier=f"stimulus_{case.id}", type=STIMULUS_TYPE, href=href)
        meta = self._cp(res, "metadata")
        lom = self._l(meta, "lom")
        general = self._l(lom, "general")
        ident = self._l(general, "identifier")
        self._l(ident, "catalog", "qlint")
        self._l(ident, "entry", case.id)
        self._lang(general, "title", case.title or case.id)
        self._vocab(self._l(lom, "lifeCycle"), "status", "qlint", case.data.get("status", ""))
        self._classification(lom, case.exam, case.domain)
        self._cp(res, "file", href=href)
        for image in images:
            self._cp(res, "file", href=image)
        self._cp(res, "file", href=STYLESHEET)

    def _lom(self, meta, q: Question) -> None:
        lom = self._l(meta, "lom")
        general = self._l(lom, "general")
        ident = self._l(general, "identifier")
        self._l(ident, "catalog", "qlint")
        self._l(ident, "entry", q.id)
        self._lang(general, "title", q.id)
        for tag in q.data.get("tags") or []:
            self._lang(general, "keyword", tag)
        self._vocab(self._l(lom, "lifeCycle"), "status", "qlint", q.data.get("status", ""))
        if q.data.get("difficulty") in LOM_DIFFICULTY:
            self._vocab(self._l(lom, "educational"), "difficulty", "LOMv1.0", LOM_DIFFICULTY[q.data["difficulty"]])
        for other in q.data.get("related") or []:
            rel = self._l(lom, "relation")
            self._vocab(rel, "kind", "LOMv1.0", "references")
            rid = self._l(self._l(rel, "resource"), "identifier")
            self._l(rid, "catalog", "qlint")
            self._l(rid, "entry", other)
        self._classification(lom, q.exam, q.domain, question_tasks(q.data))

    def _classification(self, lom, exam_code: str, domain: str, tasks: list[str] | tuple[str, ...] = ()) -> None:
        """LOM 9 Classification: a taxon path (9.2) exam -> domain, or one path exam -> domain ->
        task statement per task the question names (a path runs from the root to one taxon)."""
        exam = self.exams.get(exam_code)
        classification = self._l(lom, "classification")
        self._vocab(classification, "purpose", "LOMv1.0", "discipline")
        domains = {dom.id: dom.name for dom in exam.domains} if exam else {}
        top = [(exam_code, exam.name if exam else exam_code), (domain, domains.get(domain, domain))]
        for leaf in [[(tid, _task_text(exam, tid))] for tid in tasks] or [[]]:
            path = self._l(classification, "taxonPath")
            self._lang(path, "source", "qlint exam blueprint")
            for tid, entry in top + leaf:
                taxon = self._l(path, "taxon")
                self._l(taxon, "id", tid)
                self._lang(taxon, "entry", entry)


def _task_text(exam: Exam | None, tid: str) -> str:
    task = exam.guide.task(tid) if exam else None
    return task.text if task else tid


def _stimulus(d: Dialect, case: Case, media: MediaSet) -> etree._Element:
    """QTI 3.0 `qti-assessment-stimulus`: the case's scenario, written once for all its items."""
    root = etree.Element(d.tag("assessmentStimulus"), nsmap={None: d.ns, "xsi": XSI})
    root.set(f"{{{XSI}}}schemaLocation", f"{d.ns} {d.schema_location}")
    for key, value in d.attrs(identifier=case_identifier(case.id), title=case.title or case.id,
                              toolName="qlint", toolVersion=__version__).items():
        root.set(key, value)
    body = d.sub(root, "stimulusBody")
    scenario(body, d.ns, case, lambda md, ptr, inline: _content(d, media, case.path, md, ptr, inline))
    return root


def export(job: ExportJob, d: Dialect) -> ExportResult:
    """Items, one test per exam, case study stimuli (3.0), the manifest and the images, as a zip or a folder."""
    files: dict[str, bytes] = {}
    result = ExportResult()
    manifest = _Manifest(d, job.exams)
    groups = group(job.questions, job.cases, result.warnings)
    case_of = {q.id: g.case for g in groups.values() for q in g.questions}
    by_exam: dict[str, list[Question]] = {}
    item_images: list[tuple[Question, list[str]]] = []
    for n, q in enumerate(job.questions, 1):
        media = MediaSet(job.bank_root)
        shuffle = job.shuffle and q.data.get("shuffle", True) is not False
        item = _Item(q, d, media, case_of.get(q.id), question_lang(q, job.lang))
        files[item_href(q)] = to_bytes(item.build(shuffle, job.scoring == PARTIAL), d.mixed)
        for name, data in media.read().items():
            files[name] = data
        item_images.append((q, [quote(name) for name in sorted(media.files)]))
        by_exam.setdefault(q.exam, []).append(q)
        job.tick(n)
    stimuli: list[tuple[Case, list[str]]] = []
    for case_id in sorted(groups):
        g = groups[case_id]
        if not d.v3:
            result.warnings.append(
                problem(g.case, '/scenario', "QTI 2.1 has no shared stimulus: the scenario of case "
                f"{case_id!r} is repeated in each of its {len(g.questions)} items (qti30 writes it once)"))
            continue
        media = MediaSet(job.bank_root)
        files[stimulus_href(g.case)] = to_bytes(_stimulus(d, g.case, media), d.mixed)
        files.update(media.read())
        stimuli.append((g.case, [quote(name) for name in sorted(media.files)]))
    for code in sorted(by_exam):
        href = test_href(code)
        exam_groups = [CaseGroup(g.case, [q for q in g.questions if q.exam == code]) for g in groups.values()]
        exam_groups = [g for g in exam_groups if g.questions]
        files[href] = to_bytes(_test(d, code, job.exams.get(code), by_exam[code], exam_groups))
        manifest.test(code, href, sorted(by_exam[code], key=lambda q: q.id))
    for q, images in item_images:
        manifest.item(q, item_href(q), images, case_of.get(q.id) if d.v3 else None)
    for case, images in stimuli:
        manifest.stimulus(case, stimulus_href(case), images)
    files[STYLESHEET] = CSS.encode("utf-8")
    files["imsmanifest.xml"] = to_bytes(manifest.root)
    result.written = write_package(Path(job.output), files, job.zip, result.warnings)
    return result

