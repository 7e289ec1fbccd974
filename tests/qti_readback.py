"""Read question fields back from a qti21 / qti30 package using ONLY the mapping documented in
docs/exports-qti.md, and the same fields from the source YAML, as comparable plain values.

If the round trip matches, the documented mapping is complete enough for an importer to rebuild
the questions (text compared as rendered plain text: Markdown syntax itself is not kept).
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from exportkit import resolve, xml
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
    modal = {fb.get("identifier"): fb for fb in root.iter(n.t("modalFeedback"))}
    blocks = {fb.get("identifier"): fb for fb in root.iter(n.t("feedbackBlock"))}
    reveal = _parts(modal.get("general_feedback"), n)
    refs = reveal.get("qlint-go-deeper")
    stem = next(d for d in root.iter(n.html("div")) if "qlint-stem" in d.get("class", "").split())
    return {
        "item_identifier": root.get("identifier"),
        "type": "multiple" if multiple else "single",
        "choose": int(interaction.get(n.a("maxChoices"))) if multiple else None,
        "shuffle": interaction.get("shuffle") == "true",
        "stem": plain(stem),
        "options": options,
        "explanation": plain(reveal.get("qlint-explanation")),
        "trap": plain(reveal.get("qlint-trap")),
        "references": [{"title": plain(a), "url": a.get("href")} for a in (refs.iter(n.html("a")) if refs is not None else [])],
        "feedback_ids": sorted([*modal, *blocks]),
        "headings": {cls: h for cls, (h, _div) in _headings(modal.get("general_feedback"), n).items()},
    }


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
    out = {}
    for res in manifest.iter(f"{{{etree.QName(manifest).namespace}}}resource"):
        if "item" not in res.get("type"):
            continue
        fields = _lom(res)
        item = read_item(files[resolve("imsmanifest.xml", res.get("href"))])
        item_id = _strip_prefix(item.pop("item_identifier"), "q_")
        assert item_id == fields["id"], (item_id, fields["id"])
        out[fields["id"]] = {**fields, **item}
    return out


def expected(q: Question, shuffle: bool = True) -> dict[str, Any]:
    """The same fields from the source question, as plain rendered text."""
    d = q.data
    return {
        "id": q.id, "exam": q.exam, "domain": q.domain, "tags": list(d.get("tags") or []),
        "status": d["status"], "difficulty": d.get("difficulty"), "related": list(d.get("related") or []),
        "type": q.type, "choose": q.choose if q.type == "multiple" else None,
        "shuffle": shuffle and d.get("shuffle", True) is not False,
        "stem": plain(render(q.stem)),
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
    out = {k: v for k, v in read.items() if k not in ("feedback_ids", "headings")}
    out["options"] = [{k: v for k, v in o.items() if k != "first_text_node"} for o in read["options"]]
    return out
