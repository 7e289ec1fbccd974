"""`qti21` (and `qti30`): an IMS QTI content package, as qlint's own export writes it, read back.

The mapping is the one docs/exports-qti.md documents for the exporter, read in reverse:

- `imsmanifest.xml`: every item resource (`imsqti_item_xmlv2p1`, `..v3p0`) is one question; its
  LOM metadata gives the id, tags, status, difficulty, related ids and the exam/domain taxonomy;
  test resources give exam (`test_<code>`) and domain (`domain_<id>` sections) as a fallback.
- the item: `RESPONSE` cardinality -> type, `maxChoices` -> choose, `shuffle="false"` -> shuffle,
  `div.qlint-stem` -> stem, `simpleChoice` (`opt_<id>`, `fixed`) -> options with their text before
  the `feedbackInline`, whose `span.qlint-rationale` / `qlint-right-when` / `qlint-why-chosen` give
  the option's feedback, `correctResponse` -> the keys, the modal feedback `general_feedback`'s
  `div.qlint-explanation` / `qlint-trap` / `qlint-go-deeper` -> explanation, trap, references
  (packages from before: modal feedback `general_explanation`, `general_trap`, `general_references`).
- an `orderInteraction` or `matchInteraction` -> an ordering or matching question (`_qti_shapes`);
  a 3.0 stimulus or the 2.1 passage `div.qlint-case` -> a case file and `case:` (`_qti_case`).

Items from other tools are read the same way where they fit (stem from the item body, the whole
inline feedback as the rationale); every part that fits nowhere is reported, never dropped.
The package is read by `_package` (zip slip, zip bombs, hrefs leaving the package refused) and
each XML file by `_safexml` (no DTD, no entities, no network).
"""

from __future__ import annotations

import copy
import posixpath
import re
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from qlint.importers import Imported, ImportJob, ImportResult, SourceError, Unmapped, importer
from qlint.importers import _qti_case as cases
from qlint.importers import _qti_shapes as shapes
from qlint.importers._markdown import BLOCKS, classes, local, remove
from qlint.importers._package import Package
from qlint.importers._safexml import parse
from qlint.importers._text import TextReader, TooDeep, file_name, finish, question_folder
from qlint.importers.common import QUESTION_ID, SLUG, clean_tags, clean_tasks, in_schema_order, place, placeholder, question, short
from qlint.loading.schema_fixes import slug

MANIFEST = "imsmanifest.xml"
BLUEPRINT = "qlint exam blueprint"
LOM_DIFFICULTY = {"easy": "easy", "medium": "medium", "difficult": "hard", "very easy": "easy", "very difficult": "hard"}
FEEDBACK_PARTS = {"qlint-rationale": "rationale", "qlint-right-when": "right_when", "qlint-why-chosen": "why_chosen"}
GENERAL = {"general_explanation": "explanation", "general_trap": "trap"}  # before the reveal was one block
REVEAL = "general_feedback"  # one modal feedback: div.qlint-explanation / qlint-trap / qlint-go-deeper, each headed
REVEAL_PARTS = {"qlint-explanation": "explanation", "qlint-trap": "trap", "qlint-go-deeper": "references"}
SHAPES = {"choiceInteraction": "choice", "orderInteraction": "ordering", "matchInteraction": "matching"}
EXPORT_ONLY = {"correct", "incorrect"}  # modal feedback the exporter adds ("Correct.", "Incorrect. The answer is ...")


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


@dataclass(frozen=True)
class Names:
    """QTI 2.1 names elements `simpleChoice` and attributes `maxChoices`; 3.0 `qti-simple-choice`, `max-choices`."""

    v3: bool

    def el(self, name: str) -> str:
        return f"qti-{_kebab(name)}" if self.v3 else name

    def attr(self, name: str) -> str:
        return _kebab(name) if self.v3 else name


def children(el: etree._Element, name: str) -> list[etree._Element]:
    return [c for c in el if local(c) == name.lower()]


def find_all(el: etree._Element, name: str) -> list[etree._Element]:
    return [c for c in el.iter() if local(c) == name.lower()]


def first(el: etree._Element | None, *path: str) -> etree._Element | None:
    for name in path:
        if el is None:
            return None
        el = next(iter(children(el, name)), None)
    return el


def text_at(el: etree._Element | None, *path: str) -> str:
    found = first(el, *path)
    return "".join(found.itertext()).strip() if found is not None else ""


def strip_prefix(value: str, prefix: str) -> str:
    return value[len(prefix):] if value.startswith(prefix) else value


def item_id(identifier: str) -> str:
    """The exporter writes `q_<id>` for ids starting with a digit (NCName rule)."""
    return identifier[2:] if re.match(r"^q_\d", identifier) else identifier


# -- the manifest ------------------------------------------------------------------------------

@dataclass
class Metadata:
    id: str = ""
    title: str = ""
    tags: list[str] = field(default_factory=list)
    status: str = ""
    difficulty: str = ""
    related: list[str] = field(default_factory=list)
    exam: tuple[str, str] = ("", "")  # (code, name)
    domain: tuple[str, str] = ("", "")  # (id, name)
    tasks: list[str] = field(default_factory=list)  # task statement ids: a third taxon


def _lang(el: etree._Element | None) -> str:
    return text_at(el, "string") if el is not None and first(el, "string") is not None else (
        "".join(el.itertext()).strip() if el is not None else "")


def read_lom(resource: etree._Element) -> Metadata:
    meta = Metadata()
    lom = next(iter(find_all(resource, "lom")), None)
    if lom is None:
        return meta
    general = first(lom, "general")
    if general is not None:
        for ident in children(general, "identifier"):
            if text_at(ident, "catalog") in ("qlint", ""):
                meta.id = text_at(ident, "entry")
        meta.title = _lang(first(general, "title"))
        meta.tags = [_lang(k) for k in children(general, "keyword") if _lang(k)]
    meta.status = text_at(lom, "lifeCycle", "status", "value")
    meta.difficulty = text_at(lom, "educational", "difficulty", "value")
    for rel in children(lom, "relation"):
        entry = text_at(rel, "resource", "identifier", "entry")
        if entry:
            meta.related.append(entry)
    for classification in children(lom, "classification"):
        for path in children(classification, "taxonPath"):
            if _lang(first(path, "source")) not in (BLUEPRINT, ""):
                continue
            taxa = [(text_at(t, "id"), _lang(first(t, "entry"))) for t in children(path, "taxon")]
            if taxa:
                meta.exam = taxa[0]
            if len(taxa) > 1:
                meta.domain = taxa[1]
            if len(taxa) > 2:
                meta.tasks.append(taxa[2][0])
    return meta


@dataclass
class Placement:
    exam: str
    domain: str


def read_tests(pkg: Package, manifest: etree._Element) -> dict[str, Placement]:
    """Item file -> (exam code, domain id) from the tests' `test_<code>` and `domain_<id>` sections."""
    out: dict[str, Placement] = {}
    for res in find_all(manifest, "resource"):
        if "imsqti_test" not in (res.get("type") or "") or not res.get("href"):
            continue
        href = pkg.resolve(MANIFEST, res.get("href"))
        try:
            test = parse(pkg.read(href), href)
        except KeyError:
            continue
        code = strip_prefix(test.get("identifier") or "", "test_")
        for section in find_all(test, "assessmentSection") + find_all(test, "qti-assessment-section"):
            domain = strip_prefix(section.get("identifier") or "", "domain_")
            for ref in find_all(section, "assessmentItemRef") + find_all(section, "qti-assessment-item-ref"):
                if ref.get("href"):
                    out[pkg.resolve(href, ref.get("href"))] = Placement(code, domain)
    return out


# -- one item ----------------------------------------------------------------------------------

class ItemReader:
    def __init__(self, pkg: Package, href: str, root: etree._Element, job: ImportJob, meta: Metadata,
                 placement: Placement | None) -> None:
        self.pkg, self.href, self.root, self.job, self.meta, self.placement = pkg, href, root, job, meta, placement
        self.n = Names(local(root).startswith("qti-"))
        self.q = Imported({}, root.sourceline or 1, part=href)
        self.text = TextReader(self.q, self._image)
        self.case: cases.CaseRef | None = None

    def note(self, message: str, el: etree._Element | None = None, line: int = 0) -> None:
        self.q.unmapped.append(Unmapped(line or (el if el is not None else self.root).sourceline or 0, message, self.href))

    def _image(self, src: str, line: int) -> tuple[str, bytes] | None:
        try:
            path = self.pkg.resolve(self.href, src, "image")
        except SourceError:
            self.note(f"image {src!r} points outside the package; its path was kept as written", line=line)
            return None
        try:
            blob = self.pkg.read(path)
        except KeyError:
            self.note(f"image {src!r} is not in the package; its path was kept as written", line=line)
            return None
        rest = strip_prefix(path, "images/")
        if rest == path or rest.startswith("../"):
            rest = f"{question_folder(self.q)}/img/{posixpath.basename(path)}"
        return "/".join(map(file_name, rest.split("/"))), blob

    def read(self) -> Imported | None:
        n, root = self.n, self.root
        interactions = [el for el in root.iter() if local(el).endswith(("interaction", "-interaction"))]
        kinds = {n.el(name).lower(): kind for name, kind in SHAPES.items()}
        if len(interactions) != 1 or local(interactions[0]) not in kinds:
            found = ", ".join(sorted({etree.QName(el).localname for el in interactions})) or "no interaction"
            self.q.unmapped.append(Unmapped(root.sourceline or 1, f"item {root.get('identifier')!r} has {found}; only "
                                            "items with one choice, order or match interaction are imported", self.href))
            return None
        self._place()
        data = self.q.data
        data["format"] = 1
        data["id"] = self._id()
        interaction = interactions[0]
        keys = self._keys()
        self.case = self._case()
        if self.case is not None:
            data["case"] = self.case.id
        if kinds[local(interaction)] != "choice":
            return self._shape(kinds[local(interaction)], interaction, keys)
        multiple = self._cardinality() == "multiple"
        data["type"] = "multiple" if multiple else "single"
        if multiple:
            data["choose"] = self._choose(interaction, keys)
        self._lifecycle()
        if interaction.get("shuffle") == "false":
            data["shuffle"] = False
        data["stem"] = self._stem(interaction)
        options = self._options(interaction, keys)
        self._general(data)
        data["options"] = options
        self.q.data = in_schema_order(data)
        return self.q

    def _shape(self, kind: str, interaction: etree._Element, keys: list[str]) -> Imported:
        data = self.q.data
        data["type"] = kind
        self._lifecycle()
        if interaction.get("shuffle") == "false":
            data["shuffle"] = False
        data["stem"] = self._stem(interaction)
        if kind == "ordering":
            data["steps"] = shapes.read_ordering(self, interaction, keys)
        else:
            data["prompts"], data["responses"] = shapes.read_matching(self, interaction, keys)
        self._general(data)
        self.q.data = in_schema_order(data)
        return self.q

    def _case(self) -> "cases.CaseRef | None":
        """The case study the item shares: a 3.0 stimulus it references, or the passage a 2.1 item repeats."""
        for ref in children(self.root, self.n.el("assessmentStimulusRef")):
            return cases.CaseRef.from_stimulus(self, ref)
        body = first(self.root, self.n.el("itemBody"))
        for div in find_all(body, "div") if body is not None else []:  # a converter may wrap it (qti-shared-stimulus)
            if "qlint-case" in classes(div):
                return cases.CaseRef.from_passage(self, div)
        return None

    def _place(self) -> None:
        exam_code, _exam_name = self.meta.exam
        domain_id, domain_name = self.meta.domain
        if not exam_code and self.placement:
            exam_code = self.placement.exam
        if not domain_id and self.placement:
            domain_id = self.placement.domain
        before = len(self.q.unmapped)
        place(self.q, self.job, exam_code, domain_id, self.q.line)
        if len(self.q.unmapped) > before and domain_name and domain_name != domain_id:
            # The id did not match an exam definition's domain: its name might (another project's ids).
            del self.q.unmapped[before:]
            place(self.q, self.job, exam_code, domain_name, self.q.line)
        for u in self.q.unmapped[before:]:
            self.q.unmapped[self.q.unmapped.index(u)] = Unmapped(u.line, u.message, self.href)

    def _id(self) -> str:
        raw = item_id(self.root.get("identifier") or "")
        if self.meta.id and raw and self.meta.id != raw:
            self.note(f"the manifest names the item {self.meta.id!r} but the item says {raw!r}; the manifest's id was used")
        qid = self.meta.id or raw
        if QUESTION_ID.match(qid):
            return qid
        new = question(qid or "imported", {}, self.q.data["exam"], self.q.data["domain"])
        self.note(f"item identifier {qid!r} is not a qlint id; it became {new!r}")
        return new

    def _cardinality(self) -> str:
        for rd in children(self.root, self.n.el("responseDeclaration")):
            return rd.get("cardinality") or "single"
        return "single"

    def _keys(self) -> list[str]:
        out = []
        for rd in children(self.root, self.n.el("responseDeclaration")):
            for value in find_all(rd, self.n.el("value")):
                if value.getparent() is not None and local(value.getparent()) == self.n.el("correctResponse").lower():
                    out.append((value.text or "").strip())
        return out

    def _choose(self, interaction: etree._Element, keys: list[str]) -> int:
        raw = interaction.get(self.n.attr("maxChoices")) or "0"
        count = int(raw) if raw.isdigit() else 0
        if count < 2:
            self.note(f"maxChoices is {raw!r}; 'choose' was set to the number of keys ({len(keys)})", interaction)
            count = len(keys)
        return count

    def _lifecycle(self) -> None:
        data, meta = self.q.data, self.meta
        status = meta.status or "draft"
        if status not in ("draft", "review", "published"):
            self.note(f"status {meta.status!r} is not a qlint status; the question is a draft")
            status = "draft"
        data["status"] = status
        if meta.difficulty:
            if meta.difficulty in LOM_DIFFICULTY:
                data["difficulty"] = LOM_DIFFICULTY[meta.difficulty]
            else:
                self.note(f"difficulty {meta.difficulty!r} has no qlint equivalent")
        tags = clean_tags(meta.tags, self.note)
        if tags:
            data["tags"] = tags
        if tasks := clean_tasks(meta.tasks, self.note):
            data["tasks"] = tasks
        if meta.related:
            data["related"] = list(dict.fromkeys(meta.related))

    def _stem(self, interaction: etree._Element) -> str:
        body = first(self.root, self.n.el("itemBody"))
        stem_div = next((d for d in body.iter() if local(d) == "div" and "qlint-stem" in classes(d)), None) if body is not None else None
        parts = []
        if stem_div is not None:
            parts.append(self.text.markdown(stem_div, "stem"))
        elif body is not None:  # another tool's item: everything in the body but the interaction
            rest = copy.deepcopy(body)
            for el in list(rest.iter()):
                if local(el) == local(interaction):
                    remove(el)
            parts.append(self.text.markdown(rest, "stem"))
        prompt = first(interaction, self.n.el("prompt"))
        if prompt is not None:
            parts.append(self.text.markdown(prompt, "stem (prompt)"))
        stem = finish("\n\n".join(p for p in parts if p))
        if not stem:
            self.note("the item has no stem text")
            stem = placeholder("stem")
        return stem

    def _options(self, interaction: etree._Element, keys: list[str]) -> list[dict[str, Any]]:
        options: list[dict[str, Any]] = []
        seen: set[str] = set()
        for choice in children(interaction, self.n.el("simpleChoice")):
            identifier = choice.get("identifier") or ""
            oid = strip_prefix(identifier, "opt_")
            if not SLUG.match(oid) or oid in seen:
                new = slug(oid, 40) or f"option-{len(options) + 1}"
                while new in seen:
                    new = f"{new}-{len(options) + 1}"
                self.note(f"choice identifier {identifier!r} is not a qlint option id; it became {new!r}", choice)
                oid = new
            seen.add(oid)
            text_only = copy.deepcopy(choice)
            feedback = [fb for fb in children(choice, self.n.el("feedbackInline"))]
            for fb in children(text_only, self.n.el("feedbackInline")):
                remove(fb)
            option: dict[str, Any] = {"id": oid, "text": self.text.markdown(text_only, f"option {oid} text")}
            if not option["text"]:
                self.note(f"choice {identifier!r} has no text", choice)
                option["text"] = placeholder("text for this option")
            option["correct"] = identifier in keys
            if choice.get("fixed") == "true":
                option["pinned"] = True
            for fb in feedback:
                self._option_feedback(fb, option)
            options.append(option)
        known = {c.get("identifier") for c in children(interaction, self.n.el("simpleChoice"))}
        for key in keys:
            if key not in known:
                self.note(f"the correct response {key!r} is not a choice of the item")
        if len(options) < 2:
            self.note(f"the item has {len(options)} choice(s)")
        return options

    def _option_feedback(self, fb: etree._Element, option: dict[str, Any]) -> None:
        oid = option["id"]
        parts = [el for el in fb.iter() if local(el) == "span" and set(classes(el)) & set(FEEDBACK_PARTS)]
        if not parts:  # another tool's inline feedback: all of it explains the option
            text = self.text.markdown(unflatten(copy.deepcopy(fb)), f"option {oid} feedback")
            if text:
                option["rationale"] = (option.get("rationale", "") + "\n\n" + text).strip()
            return
        rest = copy.deepcopy(fb)
        for el in [e for e in rest.iter() if local(e) == "span" and set(classes(e)) & set(FEEDBACK_PARTS)]:
            remove(el)
        leftover = "".join(rest.itertext()).strip()
        if leftover:
            self.note(f"option {oid}: feedback text outside qlint's parts: {short(leftover)}", fb)
        for span in parts:
            key = FEEDBACK_PARTS[next(c for c in classes(span) if c in FEEDBACK_PARTS)]
            span = copy.deepcopy(span)
            for label in [el for el in span if local(el) == "strong" and "qlint-label" in classes(el)]:
                remove(label)
            option[key] = self.text.markdown(unflatten(span), f"option {oid} {key}")

    def _general(self, data: dict[str, Any]) -> None:
        extra = []
        for fb in children(self.root, self.n.el("modalFeedback")):
            identifier = fb.get("identifier") or ""
            body = first(fb, self.n.el("contentBody")) if self.n.v3 else fb
            body = fb if body is None else body
            if identifier in EXPORT_ONLY:
                continue
            if identifier == REVEAL and self._reveal(body, data):
                continue
            if identifier in GENERAL:
                data[GENERAL[identifier]] = self.text.markdown(body, GENERAL[identifier])
            elif identifier == "general_references":
                data["references"] = self._references(body)
            else:
                extra.append((identifier, body))
        for identifier, body in extra:
            text = self.text.markdown(body, f"feedback {identifier}")
            if "explanation" not in data and text:
                data["explanation"] = text
                self.note(f"modal feedback {identifier!r} became the explanation", body)
            elif text:
                self.note(f"modal feedback {identifier!r} has no place in a qlint question: {short(text)}", body)
        if not data.get("explanation"):
            self.note("the item has no explanation (modal feedback general_explanation)")
            data["explanation"] = placeholder("explanation")
        if "trap" in data and not data["trap"]:
            del data["trap"]

    def _reveal(self, body: etree._Element, data: dict[str, Any]) -> bool:
        """qlint's own reveal: each part's div, its `h3.qlint-heading` dropped. False for another tool's."""
        parts = [el for el in body if local(el) == "div" and set(classes(el)) & set(REVEAL_PARTS)]
        if not parts:
            return False
        for div in parts:
            key = REVEAL_PARTS[next(c for c in classes(div) if c in REVEAL_PARTS)]
            div = copy.deepcopy(div)
            for heading in [el for el in div if local(el) == "h3" and "qlint-heading" in classes(el)]:
                remove(heading)
            if key == "references":
                data["references"] = self._references(div)
            else:
                data[key] = self.text.markdown(div, key)
        return True

    def _references(self, body: etree._Element) -> list[dict[str, str]]:
        refs = []
        for li in find_all(body, "li"):
            link = next(iter(find_all(li, "a")), None)
            if link is None or not link.get("href"):
                self.note(f"reference without a link: {short(''.join(li.itertext()))}", li)
                continue
            refs.append({"title": re.sub(r"\s+", " ", "".join(link.itertext())).strip(), "url": link.get("href")})
        return refs


def unflatten(el: etree._Element) -> etree._Element:
    """Undo the exporter's inline-only feedback: `span.qlint-p` -> `p` (any block name), and drop
    the `<br/>` it put after each such block (docs/exports-qti.md, "Question text")."""
    converted = []
    for span in el.iter():
        if local(span) != "span" or span is el:
            continue
        names = [c[len("qlint-"):] for c in classes(span) if c.startswith("qlint-") and c[len("qlint-"):] in BLOCKS]
        if names:
            ns = etree.QName(span).namespace
            span.tag = f"{{{ns}}}{names[0]}" if ns else names[0]
            rest = [c for c in classes(span) if c != f"qlint-{names[0]}"]
            if rest:
                span.set("class", " ".join(rest))
            else:
                del span.attrib["class"]
            converted.append(span)
    for block in converted:
        nxt = block.getnext()
        if nxt is not None and local(nxt) == "br" and not (block.tail or "").strip():
            remove(nxt)
    return el


def _item_resources(manifest: etree._Element) -> list[etree._Element]:
    return [r for r in find_all(manifest, "resource") if "imsqti_item" in (r.get("type") or "")]


def read_package(job: ImportJob) -> ImportResult:
    pkg = Package(job.source)
    try:
        try:
            manifest = parse(pkg.read(MANIFEST), MANIFEST)
        except KeyError:
            raise SourceError(f"no {MANIFEST}: not a QTI content package") from None
        result = ImportResult()
        resources = _item_resources(manifest)
        hrefs = {id(r): pkg.resolve(MANIFEST, r.get("href") or "") for r in resources}  # refuse any escape first
        for res in find_all(manifest, "resource"):
            for f in children(res, "file"):
                pkg.resolve(MANIFEST, f.get("href") or "", "file href")
        placements = read_tests(pkg, manifest)
        members: list[cases.Member] = []
        if not resources:
            result.unmapped.append(Unmapped(0, "the manifest lists no QTI item resources", MANIFEST))
        for res in resources:
            href = hrefs[id(res)]
            try:
                root = parse(pkg.read(href), href)
            except KeyError:
                result.unmapped.append(Unmapped(res.sourceline or 0, f"item file {href!r} is not in the package", MANIFEST))
                continue
            reader = ItemReader(pkg, href, root, job, read_lom(res), placements.get(href))
            try:
                q = reader.read()
            except TooDeep as exc:
                result.unmapped.append(Unmapped(exc.line or root.sourceline or 0, f"item {root.get('identifier')!r}: {exc}; "
                                                "the item was not imported", href))
                continue
            if q is None:
                result.unmapped += reader.q.unmapped
            else:
                result.questions.append(q)
                if reader.case is not None:
                    members.append(cases.Member(q, reader.case, href))
        result.questions += cases.build(pkg, manifest, members, lambda href, root, res: ItemReader(
            pkg, href, root, job, read_lom(res) if res is not None else Metadata(), None))
        return result
    finally:
        pkg.close()


@importer("qti21", "IMS QTI 2.1 package (zip or folder), as `qlint export --format qti21` writes it", reads="package")
def read_qti21(job: ImportJob) -> ImportResult:
    return read_package(job)


@importer("qti30", "IMS QTI 3.0 package (zip or folder), as `qlint export --format qti30` writes it", reads="package")
def read_qti30(job: ImportJob) -> ImportResult:
    return read_package(job)
