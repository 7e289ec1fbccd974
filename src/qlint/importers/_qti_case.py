"""Case studies of a QTI package back to qlint case files (bank/<exam>/cases/<id>.yaml).

QTI 3.0: every `qti-assessment-stimulus` the items reference (`qti-assessment-stimulus-ref`)
becomes a case; its manifest resource's LOM gives id, title, status, exam and domain, its
`div.qlint-scenario` the scenario (another tool's stimulus: its whole body), `div.qlint-go-deeper`
the references. QTI 2.1: the passage `div.qlint-case` (id `case_<id>`) that each case item repeats.
In both, the test's section `case_<id>` gives the items' order; the items get `case: <id>`.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from lxml import etree

from qlint.importers import Imported, Unmapped
from qlint.importers._markdown import classes, local
from qlint.importers._package import Package
from qlint.importers._safexml import parse
from qlint.importers._text import TooDeep
from qlint.importers.common import QUESTION_ID, place, placeholder
from qlint.loading.schema_fixes import slug

if TYPE_CHECKING:
    from qlint.importers.qti import ItemReader

CASE_KEYS = ("format", "id", "exam", "domain", "title", "status", "scenario", "items", "references")


def _strip(identifier: str) -> str:
    return identifier[len("case_"):] if identifier.startswith("case_") else identifier


@dataclass
class CaseRef:
    """What one item says about its case: `key` names the case within the package (the stimulus
    file, or `#` + the 2.1 passage's id); `passage` is the 2.1 passage element."""

    key: str
    id: str
    passage: etree._Element | None = None

    @classmethod
    def from_stimulus(cls, reader: ItemReader, ref: etree._Element) -> CaseRef:
        href = reader.pkg.resolve(reader.href, ref.get("href") or "", "stimulus href")  # refused if it leaves the package
        return cls(href, _strip(ref.get("identifier") or ""))

    @classmethod
    def from_passage(cls, reader: ItemReader, div: etree._Element) -> CaseRef:
        return cls("#" + (div.get("id") or reader.href), _strip(div.get("id") or ""), div)


@dataclass
class Member:
    q: Imported
    ref: CaseRef
    href: str  # the item file


def case_sections(pkg: Package, manifest: etree._Element) -> dict[str, tuple[str, list[str]]]:
    """Section `case_<id>` -> (the domain id of the section around it, its item files in order)."""
    out: dict[str, tuple[str, list[str]]] = {}
    for res in manifest.iter():
        if local(res) != "resource" or "imsqti_test" not in (res.get("type") or "") or not res.get("href"):
            continue
        href = pkg.resolve("imsmanifest.xml", res.get("href"))
        try:
            test = parse(pkg.read(href), href)
        except KeyError:
            continue
        for section in test.iter():
            if local(section) not in ("assessmentsection", "qti-assessment-section"):
                continue
            identifier = section.get("identifier") or ""
            if not identifier.startswith("case_"):
                continue
            parent = section.getparent()
            domain = (parent.get("identifier") or "") if parent is not None else ""
            items = [pkg.resolve(href, ref.get("href")) for ref in section
                     if local(ref) in ("assessmentitemref", "qti-assessment-item-ref") and ref.get("href")]
            out[identifier] = (domain[len("domain_"):] if domain.startswith("domain_") else "", items)
    return out


def build(pkg: Package, manifest: etree._Element, members: list[Member],
          open_case: Callable[[str, etree._Element, etree._Element | None], ItemReader]) -> list[Imported]:
    """One case per stimulus (or 2.1 passage) the items name; sets each item's `case`.
    `open_case(href, root, manifest resource or None)` reads one case the way the item reader
    reads an item: passed in by `qti`, which imports this module (no circle)."""
    sections = case_sections(pkg, manifest)
    stimuli = {}
    for res in manifest.iter():
        if local(res) == "resource" and "imsqti_stimulus" in (res.get("type") or "") and res.get("href"):
            stimuli[pkg.resolve("imsmanifest.xml", res.get("href"))] = res
    by_key: dict[str, list[Member]] = {}
    for m in members:
        by_key.setdefault(m.ref.key, []).append(m)
    out = []
    for key, group in by_key.items():
        first = group[0]
        if key.startswith("#"):
            root, href, res = first.ref.passage, first.href, None
        else:
            try:
                root = parse(pkg.read(key), key)
            except KeyError:
                first.q.unmapped.append(Unmapped(0, f"stimulus {key!r} is not in the package; the item keeps no case", first.href))
                for m in group:
                    m.q.data.pop("case", None)
                continue
            href, res = key, stimuli.get(key)
        reader = open_case(href, root, res)
        meta = reader.meta
        case = reader.q
        case.kind = "case"
        section = sections.get(f"case_{first.ref.id}") or sections.get(root.get("identifier") or "", ("", []))
        try:
            _fill(reader, case, group, meta, section)
        except TooDeep as exc:
            first.q.unmapped.append(Unmapped(exc.line, f"case study {case.data.get('id') or key!r}: {exc}; it was not "
                                                       "imported and its items keep no case", href))
            for m in group:
                m.q.data.pop("case", None)
            continue
        for m in group:
            m.q.data["case"] = case.data["id"]
        out.append(case)
    return out


def _fill(reader: ItemReader, case: Imported, group: list[Member], meta, section: tuple[str, list[str]]) -> None:
    root, first = reader.root, group[0].q.data
    data: dict[str, Any] = {"format": 1}
    cid = meta.id or group[0].ref.id
    if not QUESTION_ID.match(cid):
        new = slug(cid, 80) or f"{first.get('exam', 'case').lower()}-case"
        reader.note(f"case identifier {cid!r} is not a qlint id; it became {new!r}")
        cid = new if QUESTION_ID.match(new) else f"case-{new}"[:80]
    data["id"] = cid
    case.data = data
    domain = meta.domain[0] or section[0] or str(first.get("domain", ""))
    before = len(case.unmapped)
    place(case, reader.job, meta.exam[0] or str(first.get("exam", "")), domain, case.line)
    case.unmapped[before:] = [Unmapped(u.line, u.message, reader.href) for u in case.unmapped[before:]]
    div = next((d for d in root.iter() if local(d) == "div" and "qlint-case" in classes(d)), None)
    title = next((h for h in div.iter() if local(h) == "h2" and "qlint-case-title" in classes(h)), None) if div is not None else None
    text = re.sub(r"\s+", " ", "".join(title.itertext())).strip() if title is not None else ""
    text = text or meta.title or (root.get("title") or "")
    if text and text != cid:
        data["title"] = text
    status = meta.status or str(first.get("status", ""))
    if status in ("draft", "review", "published"):
        data["status"] = status
    scenario = next((d for d in div.iter() if local(d) == "div" and "qlint-scenario" in classes(d)), None) if div is not None else None
    if scenario is None:  # another tool's stimulus: its whole body is the scenario
        scenario = next((el for el in root.iter() if local(el) in ("qti-stimulus-body", "stimulusbody")), root)
    data["scenario"] = reader.text.markdown(scenario, "scenario") or placeholder("scenario")
    order = {h: n for n, h in enumerate(section[1])}
    members = sorted(group, key=lambda m: order.get(m.href, len(order)))
    data["items"] = list(dict.fromkeys(str(m.q.data.get("id")) for m in members))
    if div is not None:
        more = next((d for d in div if local(d) == "div" and "qlint-go-deeper" in classes(d)), None)
        if more is not None:
            data["references"] = reader._references(copy.deepcopy(more))
    if len(group) > 1 and group[0].ref.passage is not None:  # 2.1: every copy should say the same
        texts = {re.sub(r"\s+", " ", "".join(m.ref.passage.itertext())).strip() for m in group}
        if len(texts) > 1:
            reader.note(f"the items of case {cid!r} repeat different passages; the first item's was kept")
    case.data = {k: data[k] for k in CASE_KEYS if k in data}

