"""One Moodle XML multiple-choice question read back into a qlint question (`QuestionReader`, with
the small element helpers every Moodle reader shares); `moodle` reads the quiz, `_moodle_types`
the match and ordering questions, both on top of this."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any
from urllib.parse import unquote

from lxml import etree

from qlint.importers import Imported, ImportJob, Unmapped
from qlint.importers._markdown import classes, drop_case_scenario, linked_references, local, remove
from qlint.importers._text import TextReader, TooDeep, finish, html_fragment, question_folder
from qlint.importers.common import QUESTION_ID, clean_tags, clean_tasks, in_schema_order, option_ids, place, placeholder, question, short, split_lang_tag, split_task_tags

HEADINGS = {"qlint-rationale", "qlint-right-when", "qlint-why-chosen", "qlint-trap", "qlint-references"}
OPTION_PARTS = {"qlint-rationale": "rationale", "qlint-right-when": "right_when", "qlint-why-chosen": "why_chosen"}
GENERAL_PARTS = {"qlint-explanation": "explanation", "qlint-trap": "trap"}
DEFAULT_COMBINED = {  # what the exporter writes; anything else an author wrote is reported
    "correctfeedback": "Your answer is correct.",
    "partiallycorrectfeedback": "Your answer is partially correct.",
    "incorrectfeedback": "Your answer is incorrect.",
}
IGNORED = {"name", "questiontext", "generalfeedback", "defaultgrade", "penalty", "hidden", "idnumber", "single",
           "shuffleanswers", "answernumbering", "showstandardinstruction", "shownumcorrect", "answer", "tags",
           *DEFAULT_COMBINED,
           # match and ordering (read in _moodle_types; the ordering settings are checked there)
           "subquestion", "layouttype", "selecttype", "selectcount", "gradingtype", "showgrading", "numberingstyle"}
PLUGINFILE = "@@PLUGINFILE@@/"


def _child(el: etree._Element, name: str) -> etree._Element | None:
    return next((c for c in el if local(c) == name), None)


def _text(el: etree._Element | None, name: str = "text") -> str:
    found = _child(el, name) if el is not None else None
    return "".join(found.itertext()) if found is not None else ""


def _plain(el: etree._Element | None) -> str:
    return "".join(el.itertext()).strip() if el is not None else ""


def _flag(el: etree._Element, name: str, default: bool) -> bool:
    value = _plain(_child(el, name)).lower()
    return default if not value else value in ("true", "1", "yes")


def heading(div: etree._Element) -> etree._Element | None:
    """Remove and return a section's heading, a first `<p><strong>…</strong></p>`, if it has one."""
    first = next(iter(div), None)
    if first is not None and local(first) == "p" and len(first) == 1 and local(first[0]) == "strong" \
            and not (first.text or "").strip() and not (first[0].tail or "").strip():
        remove(first)
        return first[0]
    return None


def split_category(path: str) -> list[str]:
    """`$course$/A/B//C` -> ['A', 'B/C']: Moodle doubles a `/` inside a category name."""
    parts = [p.replace("\x00", "/") for p in path.replace("//", "\x00").split("/")]
    return [p.strip() for p in parts if p.strip() and p.strip().lower() not in ("$course$", "$system$", "$module$", "top")]


class QuestionReader:
    def __init__(self, el: etree._Element, job: ImportJob, category: tuple[str, str, int], case: str = "") -> None:
        self.el, self.job, self.category = el, job, category
        self.case = case  # the case study whose category holds the question (qlint's export), or ""
        self.q = Imported({}, el.sourceline or 1)
        self.files: dict[str, bytes] = {}  # @@PLUGINFILE@@ name -> bytes, for the text area being read
        self.text = TextReader(self.q, self._image)

    def note(self, message: str, el: etree._Element | None = None, line: int = 0) -> None:
        self.q.unmapped.append(Unmapped(line or (el if el is not None else self.el).sourceline or 0, message))

    # -- text areas ------------------------------------------------------------------------

    def _image(self, src: str, line: int) -> tuple[str, bytes] | None:
        if not src.startswith(PLUGINFILE):
            self.note(f"image {src!r} is not inside the file; its path was kept as written", line=line)
            return None
        name = unquote(src[len(PLUGINFILE):]).split("?")[0]
        if name not in self.files:
            self.note(f"image {name!r} has no <file> in the question; its path was kept as written", line=line)
            return None
        safe = re.sub(r"[^A-Za-z0-9._-]+", "-", name.rsplit("/", 1)[-1]).lstrip(".-") or "image"
        return f"{question_folder(self.q)}/img/{safe}", self.files[name]

    def area(self, holder: etree._Element | None) -> tuple[etree._Element | None, int]:
        """A text area (`questiontext`, `feedback`, `answer`...) as an element to convert, and its line."""
        if holder is None:
            return None, 0
        self.files = {}
        for f in (c for c in holder if local(c) == "file"):
            try:
                self.files[f.get("name") or ""] = base64.b64decode("".join(f.itertext()), validate=False)
            except (binascii.Error, ValueError):
                self.note(f"file {f.get('name')!r} is not valid base64; not imported", f)
        node = _child(holder, "text")
        raw = "".join(node.itertext()) if node is not None else ""
        line = (node if node is not None else holder).sourceline or 0
        fmt = (holder.get("format") or "html").lower()
        if fmt == "markdown":
            return None, line  # handled by `markdown()`: the text already is Markdown
        if fmt in ("plain_text", "moodle_auto_format"):
            wrapper = etree.Element("div")
            wrapper.text = raw
            return wrapper, line
        try:
            return html_fragment(raw), line
        except TooDeep as exc:
            exc.line = line
            raise

    def stem(self, holder: etree._Element | None) -> str:
        """The question text without the case scenario qlint's export puts before a case question's
        stem (`div.qlint-case`, then `hr`): the scenario comes from the case's description question."""
        if holder is None or (holder.get("format") or "html").lower() != "html":
            return self.markdown(holder, "stem")
        el, line = self.area(holder)
        drop_case_scenario(el)
        return self.text.markdown(el, "stem", line)

    def markdown(self, holder: etree._Element | None, what: str) -> str:
        if holder is not None and (holder.get("format") or "").lower() == "markdown":
            return finish(_text(holder))
        el, line = self.area(holder)
        return self.text.markdown(el, what, line)

    def parts(self, holder: etree._Element | None, names: dict[str, str], what: str) -> tuple[dict[str, Any], etree._Element | None]:
        """The `div.qlint-*` sections of a feedback area, headings removed; and the area when it has none."""
        if holder is None:
            return {}, None
        el, line = self.area(holder)
        if el is None:
            return {}, None
        return self.parts_of(el, line, holder, names, what)

    def parts_of(self, el: etree._Element, line: int, holder: etree._Element, names: dict[str, str],
                 what: str) -> tuple[dict[str, Any], etree._Element | None]:
        divs = [d for d in el.iter() if local(d) == "div" and set(classes(d)) & (set(names) | {"qlint-references"})]
        if not divs:
            return {}, el
        out: dict[str, Any] = {}
        for div in divs:
            cls = next(c for c in classes(div) if c in names or c == "qlint-references")
            if cls in HEADINGS:
                heading(div)  # the visible heading the exporter adds ("Why this is correct", ...)
            if cls == "qlint-references":
                out["references"] = self.references(div)
            else:
                out[names[cls]] = self.text.markdown(div, f"{what} {names[cls]}", line)
            remove(div)
        if "".join(el.itertext()).strip():
            self.note(f"{what}: text outside qlint's sections: {short(''.join(el.itertext()))}", holder)
        return out, None

    def references(self, div: etree._Element) -> list[dict[str, str]]:
        return linked_references(div, self.note)

    # -- the question ----------------------------------------------------------------------

    def read(self) -> Imported:
        el, data = self.el, self.q.data
        self.head_id()
        # multichoiceset (the All-or-Nothing plugin, written by --scoring all-or-nothing) is always multiple
        single = _flag(el, "single", True) and el.get("type") != "multichoiceset"
        answers = [a for a in el if local(a) == "answer"]
        grades = [self._fraction(a) for a in answers]
        keyed = self._keys(grades, single)
        data["type"] = "single" if single else "multiple"
        if not single:
            data["choose"] = sum(keyed)
        self.head()
        data["options"] = self._options(answers, keyed)
        self.general()
        return self.done()

    def head_id(self) -> None:
        """Exam, domain and id (first: notes about them come first)."""
        exam, domain, line = self.category
        place(self.q, self.job, exam, domain, line or self.q.line)
        self.q.data["format"] = 1
        self.q.data["id"] = self._id()

    def head(self) -> None:
        """Status, case, shuffle, tags and stem: what every question type has after its id."""
        el, data = self.el, self.q.data
        data["status"] = "draft"
        if self.case:
            data["case"] = self.case
        if not _flag(el, "shuffleanswers", True):
            data["shuffle"] = False
        tags, tasks = split_task_tags([t for t in (_text(tag).strip() for tag in el.iter() if local(tag) == "tag") if t])
        tags, lang = split_lang_tag(tags)
        if lang:
            data["lang"] = lang
        if tags := clean_tags(tags, self.note):
            data["tags"] = tags
        if tasks := clean_tasks(tasks, self.note):
            data["tasks"] = tasks
        data["stem"] = self.stem(_child(el, "questiontext")) or self._missing("stem", "question text")

    def general(self, block: str = "") -> etree._Element | None:
        """Explanation, trap and references from the general feedback; returns the `div.<block>`
        it holds (taken out first: qlint's step-by-step or pair-by-pair breakdown), if any."""
        holder = _child(self.el, "generalfeedback")
        found = None
        general: dict[str, Any] = {}
        if holder is not None:
            el, line = self.area(holder)
            if el is not None:
                found = next((d for d in el.iter() if local(d) == "div" and classes(d) == [block]), None) if block else None
                if found is not None:
                    remove(found)
                general, rest = self.parts_of(el, line, holder, GENERAL_PARTS, "general feedback")
                if rest is not None:
                    general = {"explanation": self.text.markdown(rest, "general feedback")}
        for key, value in general.items():
            if value:
                self.q.data[key] = value
        if not self.q.data.get("explanation"):
            self.q.data["explanation"] = self._missing("explanation", "general feedback")
        return found

    def done(self) -> Imported:
        self._moodle_only()
        self.q.data = in_schema_order(self.q.data)
        return self.q

    def _missing(self, what: str, source_part: str) -> str:
        self.note(f"no {what}; a TODO placeholder was written")
        return placeholder(source_part)

    def _id(self) -> str:
        idnumber = _plain(_child(self.el, "idnumber"))
        if QUESTION_ID.match(idnumber):
            return idnumber
        name = _text(_child(self.el, "name")).strip()
        if QUESTION_ID.match(name):
            return name
        new = question(name or idnumber or "imported", {}, self.q.data["exam"], self.q.data["domain"])
        if idnumber or name:
            self.note(f"{'idnumber' if idnumber else 'name'} {(idnumber or name)!r} is not a qlint id; the id is {new!r}")
        return new

    def _fraction(self, answer: etree._Element) -> float:
        try:
            return float(answer.get("fraction") or 0)
        except ValueError:
            self.note(f"answer grade {answer.get('fraction')!r} is not a number; read as 0", answer)
            return 0.0

    def _keys(self, grades: list[float], single: bool) -> list[bool]:
        if single:
            best = max(grades, default=0)
            keyed = [g == best and g > 0 for g in grades]
            if any(0 < g < best for g in grades) or any(g < 0 for g in grades):
                self.note(f"partial-credit grades {sorted(set(grades), reverse=True)} have no equivalent; only the "
                          "best-graded answer is keyed")
        else:
            keyed = [g > 0 for g in grades]
            positive = {round(g, 3) for g in grades if g > 0}
            if len(positive) > 1:
                self.note(f"unequal grades {sorted(positive, reverse=True)} for the keys became equal keys")
        if not any(keyed):
            self.note("no answer has a positive grade, so nothing is keyed")
        return keyed

    def _options(self, answers: list[etree._Element], keyed: list[bool]) -> list[dict[str, Any]]:
        texts = [self.markdown(a, f"answer {n}") for n, a in enumerate(answers, 1)]
        options = []
        for n, (answer, text, oid, key) in enumerate(zip(answers, texts, option_ids(texts), keyed), 1):
            option: dict[str, Any] = {"id": oid, "text": text or self._missing(f"text for answer {n}", f"text for answer {n}")}
            option["correct"] = key
            parts, rest = self.parts(_child(answer, "feedback"), OPTION_PARTS, f"answer {n} feedback")
            if rest is not None:
                parts = {"rationale": self.text.markdown(rest, f"answer {n} feedback")}
            option.update({k: v for k, v in parts.items() if v})
            options.append(option)
        if len(options) < 2:
            self.note(f"the question has {len(options)} answer(s)")
        return options

    def _moodle_only(self) -> None:
        for child in self.el:
            name = local(child)
            if not name:
                continue
            if name in DEFAULT_COMBINED:
                text = re.sub(r"\s+", " ", "".join(html_fragment(_text(child)).itertext())).strip()
                if text and text != DEFAULT_COMBINED[name]:
                    self.note(f"<{name}> {short(text)} has no place in a qlint question", child)
            elif name == "hidden" and "".join(child.itertext()).strip() not in ("", "0"):
                self.note("the question is hidden in Moodle; qlint has no such setting (status is draft)", child)
            elif name not in IGNORED:
                text = "".join(child.itertext()).strip()
                if text:
                    self.note(f"<{name}> {short(text)} has no place in a qlint question", child)
