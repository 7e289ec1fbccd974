"""Case studies in QTI: which exported questions share which scenario, and the scenario's XHTML.

QTI 3.0 writes the scenario once, as a `qti-assessment-stimulus` file (stimuli/<case-id>.xml) that
each of the case's items references (`qti-assessment-stimulus-ref`) and depends on in the
manifest. QTI 2.1 has no stimulus: the scenario is repeated in each item's body (a warning says
so). In both, the test groups a case's items in one section `case_<case-id>`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from lxml import etree

from qlint.exporters.kit.problems import Problem, problem
from qlint.model import Case, Question

STIMULI = "stimuli"
CASE_TITLE = "qlint-case-title"


def case_identifier(case_id: str) -> str:
    """Stimulus, stimulus-ref and test section identifier (an NCName whatever the id starts with)."""
    return f"case_{case_id}"


def stimulus_href(case: Case) -> str:
    return f"{STIMULI}/{case.id}.xml"


@dataclass
class CaseGroup:
    case: Case
    questions: list[Question] = field(default_factory=list)  # in the case's `items` order, then by id

    @property
    def domain(self) -> str:
        return self.case.domain or self.questions[0].domain


def group(questions: list[Question], cases: dict[str, Case], warnings: list[Problem]) -> dict[str, CaseGroup]:
    """case id -> the exported questions that belong to it; a question naming a case the job
    lacks is exported alone, with a warning."""
    out: dict[str, CaseGroup] = {}
    for q in questions:
        if q.case is None:
            continue
        case = cases.get(q.case)
        if case is None:
            warnings.append(problem(q, '/case', f"case {q.case!r} is not in the bank; the question is exported "
                            "without its scenario"))
            continue
        out.setdefault(case.id, CaseGroup(case)).questions.append(q)
    for g in out.values():
        order = {qid: n for n, qid in enumerate(g.case.items)}
        g.questions.sort(key=lambda q: (order.get(q.id, len(order)), q.id))
    return out


Content = Callable[[str, str, bool], etree._Element]  # (markdown, pointer, inline) -> XHTML wrapper

CASE_LINK = "qlint-case-link"


def stimulus_place(parent: etree._Element, ns: str, case: Case, href: str) -> etree._Element:
    """QTI 3.0: where the item shows its shared scenario. A player that shows stimuli in their
    item puts it in the element whose `data-stimulus-idref` names the stimulus (the convention of
    @citolab/qti-components, alone or in its test delivery); any other player shows the case's
    title as a link to the stimulus file, so a case question delivered alone still leads to its
    scenario. `data-*` attributes are QTI 3.0; only the SBAC profile forbids them."""
    div = etree.SubElement(parent, f"{{{ns}}}div", **{"class": CASE_LINK, "data-stimulus-idref": case_identifier(case.id)})
    p = etree.SubElement(div, f"{{{ns}}}p")
    p.text = "Case study: "
    a = etree.SubElement(p, f"{{{ns}}}a", href=href)
    a.text = case.title or case.id
    a.tail = " (read its scenario first)"
    return div


def scenario(parent: etree._Element, ns: str, case: Case, content: Content) -> etree._Element:
    """`div.qlint-case`: the title (`h2.qlint-case-title`), `div.qlint-scenario`, and the case's
    references under "Go deeper" (`div.qlint-go-deeper`), as the item reveal writes them."""
    from qlint.exporters.kit import xhtml

    def html(el: etree._Element, name: str, text: str | None = None, **attrs: str) -> etree._Element:
        child = etree.SubElement(el, f"{{{ns}}}{name}", **attrs)
        child.text = text
        return child

    div = html(parent, "div", **{"class": "qlint-case", "id": case_identifier(case.id)})
    if case.title:
        html(div, "h2", case.title, **{"class": CASE_TITLE})
    xhtml.append(html(div, "div", **{"class": "qlint-scenario"}), content(case.scenario, "/scenario", False))
    refs = [r for r in case.data.get("references") or [] if isinstance(r, dict)]
    if refs:
        more = html(div, "div", **{"class": "qlint-go-deeper"})
        html(more, "h3", "Go deeper", **{"class": "qlint-heading"})
        ul = html(more, "ul", **{"class": "qlint-references"})
        for ref in refs:
            html(html(ul, "li"), "a", ref.get("title", ""), href=ref.get("url", ""))
    return div
