"""Read question fields back from a qti21 / qti30 package using ONLY the mapping documented in
docs/exports-qti.md, and the same fields from the source YAML, as comparable plain values.

If the round trip matches, the documented mapping is complete enough for an importer to rebuild
the questions (text compared as rendered plain text: Markdown syntax itself is not kept).
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from kit.export import resolve, xml
from qlint.markup import render, render_inline
from qlint.model import Question

LOM = "http://ltsc.ieee.org/xsd/LOM"
QTI21 = "http://www.imsglobal.org/xsd/imsqti_v2p1"
QTI30 = "http://www.imsglobal.org/xsd/imsqtiasi_v3p0"


def plain(value: etree._Element | str | None) -> str:
    """Whitespace-normalised text of an element or of an XHTML fragment string."""
    if value is None:
        return ""
    if isinstance(value, str):
        value = etree.fromstring(f"<div>{value}</div>".encode())
    return re.sub(r"\s+", " ", "".join(value.itertext())).strip()


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


class _Names:
    def __init__(self, ns: str) -> None:
        self.ns, self.v3 = ns, ns == QTI30

    def t(self, name: str) -> str:
        return f"{{{self.ns}}}" + (f"qti-{_kebab(name)}" if self.v3 else name)

    def a(self, name: str) -> str:
        return _kebab(name) if self.v3 else name

    def html(self, name: str) -> str:
        return f"{{{self.ns}}}{name}"


def _strip_prefix(value: str, prefix: str) -> str:
    return value[len(prefix):] if value.startswith(prefix) else value


def _lom(resource: etree._Element) -> dict[str, Any]:
    L = f"{{{LOM}}}"
    lom = resource.find(f".//{L}lom")
    taxa = [t.findtext(f"{L}id") for t in lom.iterfind(f"{L}classification/{L}taxonPath/{L}taxon")]
    difficulty = lom.findtext(f"{L}educational/{L}difficulty/{L}value")
    return {
        "id": lom.findtext(f"{L}general/{L}identifier/{L}entry"),
        "tags": [k.findtext(f"{L}string") for k in lom.iterfind(f"{L}general/{L}keyword")],
        "status": lom.findtext(f"{L}lifeCycle/{L}status/{L}value"),
        "difficulty": {"difficult": "hard"}.get(difficulty, difficulty),
        "related": [r.findtext(f"{L}resource/{L}identifier/{L}entry") for r in lom.iterfind(f"{L}relation")],
        "exam": taxa[0],
        "domain": taxa[1],
    }


def _span_text(fb: etree._Element | None, n: _Names, cls: str) -> str:
    if fb is None:
        return ""
    for span in fb.iter(n.html("span")):
        if cls in span.get("class", "").split():
            copy = etree.fromstring(etree.tostring(span))
            for label in copy.iter(n.html("strong")):
                if "qlint-label" in label.get("class", "").split():
                    label.getparent().remove(label)  # drops its tail too: the label's trailing space
            return plain(copy)
    return ""


def read_item(data: bytes) -> dict[str, Any]:
    root = xml(data)
    n = _Names(etree.QName(root).namespace)
    rd = root.find(n.t("responseDeclaration"))
    body = root.find(n.t("itemBody"))
    if body.find(n.t("orderInteraction")) is not None or body.find(n.t("matchInteraction")) is not None:
        return _read_shape(root, n, rd, body)
    keys = [_strip_prefix(v.text, "opt_") for v in rd.iter(n.t("value"))]
    interaction = root.find(f"{n.t('itemBody')}/{n.t('choiceInteraction')}")
    multiple = rd.get("cardinality") == "multiple"
    options = []
    for choice in interaction.iter(n.t("simpleChoice")):
        fb = choice.find(n.t("feedbackInline"))
        text_only = etree.fromstring(etree.tostring(choice))
        for inner in text_only.findall(n.t("feedbackInline")):
            text_only.remove(inner)
        options.append({
            "id": _strip_prefix(choice.get("identifier"), "opt_"),
            "text": plain(text_only),
            "first_text_node": (choice.text or "").strip(),  # what Canvas's QTI 2 importer reads
            "correct": _strip_prefix(choice.get("identifier"), "opt_") in keys,
            "pinned": choice.get("fixed") == "true",
            "rationale": _span_text(fb, n, "qlint-rationale"),
            "right_when": _span_text(fb, n, "qlint-right-when"),
            "why_chosen": _span_text(fb, n, "qlint-why-chosen"),
        })
    return {
        "item_identifier": root.get("identifier"),
        "type": "multiple" if multiple else "single",
        "choose": int(interaction.get(n.a("maxChoices"))) if multiple else None,
        "shuffle": interaction.get("shuffle") == "true",
        **_common(root, n),
        "options": options,
    }


def _common(root: etree._Element, n: _Names) -> dict[str, Any]:
    """Stem, case, the reveal's explanation, trap and references, and what only the export adds."""
    modal = {fb.get("identifier"): fb for fb in root.iter(n.t("modalFeedback"))}
    blocks = {fb.get("identifier"): fb for fb in root.iter(n.t("feedbackBlock"))}
    reveal = _parts(modal.get("general_feedback"), n)
    refs = reveal.get("qlint-go-deeper")
    stem = next(d for d in root.iter(n.html("div")) if "qlint-stem" in d.get("class", "").split())
    ref = root.find(n.t("assessmentStimulusRef"))  # 3.0: the shared scenario
    passage = next((d for d in root.iter(n.html("div")) if "qlint-case" in d.get("class", "").split()), None)  # 2.1
    case = _strip_prefix(ref.get("identifier"), "case_") if ref is not None else (
        _strip_prefix(passage.get("id"), "case_") if passage is not None else None)
    return {
        "stem": plain(stem),
        "case": case,
        "explanation": plain(reveal.get("qlint-explanation")),
        "trap": plain(reveal.get("qlint-trap")),
        "references": [{"title": plain(a), "url": a.get("href")} for a in (refs.iter(n.html("a")) if refs is not None else [])],
        "feedback_ids": sorted([*modal, *blocks]),
        "headings": {cls: h for cls, (h, _div) in _headings(modal.get("general_feedback"), n).items()},
        "passage": read_case(passage, n) if passage is not None else None,
        "stimulus_href": ref.get("href") if ref is not None else None,
    }


def _rows(root: etree._Element, n: _Names) -> dict[str, dict[str, str]]:
    """The reveal's rows (`div.qlint-row`, id `row_<identifier>`): identifier -> their parts'
    text, in document order, labels (`.qlint-label`) left out."""
    out = {}
    for row in root.iter(n.html("div")):
        if "qlint-row" not in row.get("class", "").split():
            continue
        parts = {}
        for div in row:
            cls = div.get("class", "")
            if etree.QName(div).localname == "div" and cls.startswith("qlint-"):
                copy = etree.fromstring(etree.tostring(div))
                for label in [el for el in copy.iter() if "qlint-label" in (el.get("class") or "").split()]:
                    label.getparent().remove(label)
                parts[cls.removeprefix("qlint-").replace("-", "_")] = plain(copy)
        title = row.find(n.html("p"))
        parts["text"] = plain(title.find(n.html("span")))
        out[_strip_prefix(row.get("id"), "row_")] = parts
    return out


def _read_shape(root: etree._Element, n: _Names, rd: etree._Element, body: etree._Element) -> dict[str, Any]:
    """An ordering or matching item: its choices from the interaction, the key from the correct
    response, each part's rationale from its row in the reveal."""
    values = [v.text for v in rd.find(n.t("correctResponse")).iter(n.t("value"))]
    rows = _rows(root, n)
    why = lambda ident: {k: rows.get(ident, {}).get(k, "") for k in ("rationale", "right_when", "why_chosen")}  # noqa: E731
    order = body.find(n.t("orderInteraction"))
    out: dict[str, Any] = {"item_identifier": root.get("identifier"), "options": [], **_common(root, n)}
    if order is not None:
        assert rd.get("cardinality") == "ordered" and rd.get(n.a("baseType")) == "identifier"
        texts = {c.get("identifier"): plain(c) for c in order.iter(n.t("simpleChoice"))}
        listed = [ident for ident in rows if ident.startswith("step_")]  # authoring order
        assert sorted(listed) == sorted(texts), (listed, texts)
        return {**out, "type": "ordering", "shuffle": order.get("shuffle") == "true",
                "select": (int(order.get(n.a("minChoices"))), int(order.get(n.a("maxChoices")))),
                "presented": [_strip_prefix(i, "step_") for i in texts],
                "key_order": [_strip_prefix(v, "step_") for v in values],
                "steps": [{"id": _strip_prefix(i, "step_"), "text": texts[i], "correct": i in values, **why(i)} for i in listed]}
    match = body.find(n.t("matchInteraction"))
    assert rd.get("cardinality") == "multiple" and rd.get(n.a("baseType")) == "directedPair"
    sets = match.findall(n.t("simpleMatchSet"))
    pairs = dict(v.split(" ") for v in values)
    prompts = [{"id": _strip_prefix(c.get("identifier"), "prompt_"), "text": plain(c),
                "match": _strip_prefix(pairs.get(c.get("identifier"), ""), "resp_"),
                "rationale": why(c.get("identifier"))["rationale"], "match_max": int(c.get(n.a("matchMax")))}
               for c in sets[0].iter(n.t("simpleAssociableChoice"))]
    responses = [{"id": _strip_prefix(c.get("identifier"), "resp_"), "text": plain(c),
                  "rationale": why(c.get("identifier"))["rationale"], "match_max": int(c.get(n.a("matchMax")))}
                 for c in sets[1].iter(n.t("simpleAssociableChoice"))]
    return {**out, "type": "matching", "shuffle": match.get("shuffle") == "true",
            "max_associations": int(match.get(n.a("maxAssociations"))), "prompts": prompts, "responses": responses}


def read_case(div: etree._Element, n: _Names) -> dict[str, Any]:
    """`div.qlint-case` (a 3.0 stimulus body or a 2.1 item body): id, title, scenario, references."""
    title = div.find(n.html("h2"))
    scenario = next(d for d in div if "qlint-scenario" in d.get("class", "").split())
    refs = [{"title": plain(a), "url": a.get("href")} for a in div.iter(n.html("a"))]
    return {"id": _strip_prefix(div.get("id"), "case_"), "title": plain(title) if title is not None else "",
            "scenario": plain(scenario), "references": refs}


def read_stimulus(data: bytes) -> dict[str, Any]:
    root = xml(data)
    n = _Names(etree.QName(root).namespace)
    assert root.tag == n.t("assessmentStimulus")
    div = next(d for d in root.find(n.t("stimulusBody")).iter(n.html("div")) if "qlint-case" in d.get("class", "").split())
    read = read_case(div, n)
    assert root.get("identifier") == f"case_{read['id']}"
    return read


def expected_case(case) -> dict[str, Any]:
    d = case.data
    return {"id": case.id, "title": case.title, "scenario": plain(render(case.scenario)),
            "references": [{"title": r["title"], "url": r["url"]} for r in d.get("references") or []]}


def _headings(fb: etree._Element | None, n: _Names) -> dict[str, tuple[str, etree._Element]]:
    """The reveal's parts: div class -> (its heading's text, the div)."""
    out = {}
    for div in fb.iter(n.html("div")) if fb is not None else []:
        heading = div.find(n.html("h3"))
        if heading is not None and "qlint-heading" in heading.get("class", "").split():
            out[div.get("class")] = (plain(heading), div)
    return out


def _parts(fb: etree._Element | None, n: _Names) -> dict[str, etree._Element]:
    """Each part of the one modal feedback without its heading."""
    out = {}
    for cls, (_h, div) in _headings(fb, n).items():
        copy = etree.fromstring(etree.tostring(div))
        copy.remove(copy.find(n.html("h3")))
        out[cls] = copy
    return out


def read_package(files: dict[str, bytes]) -> dict[str, dict[str, Any]]:
    """Question id -> fields, from each item resource and its manifest metadata."""
    manifest = xml(files["imsmanifest.xml"])
    ns = etree.QName(manifest).namespace
    resources = {r.get("identifier"): r for r in manifest.iter(f"{{{ns}}}resource")}
    out = {}
    for res in resources.values():
        if "item" not in res.get("type"):
            continue
        fields = _lom(res)
        href = resolve("imsmanifest.xml", res.get("href"))
        item = read_item(files[href])
        item_id = _strip_prefix(item.pop("item_identifier"), "q_")
        assert item_id == fields["id"], (item_id, fields["id"])
        stimulus = item.pop("stimulus_href")
        if stimulus is not None:  # 3.0: the item depends on the stimulus resource it references
            depends = [resources[d.get("identifierref")] for d in res.iter(f"{{{ns}}}dependency")]
            assert [resolve("imsmanifest.xml", r.get("href")) for r in depends] == [resolve(href, stimulus)]
            assert [r.get("type") for r in depends] == ["imsqti_stimulus_xmlv3p0"]
            item["passage"] = read_stimulus(files[resolve(href, stimulus)])
        out[fields["id"]] = {**fields, **item}
    return out


def _text(markdown: str | None, inline: bool = False) -> str:
    return plain((render_inline if inline else render)(markdown or ""))


def _shape(q: Question) -> dict[str, Any]:
    """What an ordering or matching item carries beyond the common fields."""
    if q.type == "ordering":
        keyed = len(q.key_order)
        return {"select": (keyed, keyed), "key_order": [s.id for s in q.key_order],
                "steps": [{"id": s.id, "text": _text(s.text, True), "correct": s.correct, "rationale": _text(s.rationale),
                           "right_when": _text(s.right_when), "why_chosen": _text(s.raw.get("why_chosen"))} for s in q.steps]}
    if q.type == "matching":
        return {"max_associations": len(q.prompts),
                "prompts": [{"id": p.id, "text": _text(p.text, True), "match": p.match, "rationale": _text(p.rationale),
                             "match_max": 1} for p in q.prompts],
                "responses": [{"id": r.id, "text": _text(r.text, True), "rationale": _text(r.rationale),
                               "match_max": max(1, sum(p.match == r.id for p in q.prompts))} for r in q.responses]}
    return {"choose": q.choose if q.type == "multiple" else None}


def expected(q: Question, shuffle: bool = True, case=None) -> dict[str, Any]:
    """The same fields from the source question, as plain rendered text (`case`: the Case it shares)."""
    d = q.data
    return {
        "id": q.id, "exam": q.exam, "domain": q.domain, "tags": list(d.get("tags") or []),
        "status": d["status"], "difficulty": d.get("difficulty"), "related": list(d.get("related") or []),
        "type": q.type, **_shape(q),
        "shuffle": shuffle and d.get("shuffle", True) is not False,
        "stem": plain(render(q.stem)),
        "case": case.id if case is not None else None,
        "passage": expected_case(case) if case is not None else None,
        "options": [{
            "id": o.id, "text": plain(render_inline(o.text)), "correct": o.correct,
            "pinned": o.raw.get("pinned") is True,
            "rationale": plain(render(o.rationale or "")), "right_when": plain(render(o.right_when)),
            "why_chosen": plain(render(o.raw.get("why_chosen") or "")),
        } for o in q.options],
        "explanation": plain(render(q.explanation)),
        "trap": plain(render(q.trap or "")),
        "references": [{"title": r["title"], "url": r["url"]} for r in d.get("references") or []],
    }


def comparable(read: dict[str, Any]) -> dict[str, Any]:
    """The read-back fields minus what only the export adds (feedback ids, headings, Canvas's first text node)."""
    out = {k: v for k, v in read.items() if k not in ("feedback_ids", "headings", "presented")}
    out["options"] = [{k: v for k, v in o.items() if k != "first_text_node"} for o in read["options"]]
    return out
