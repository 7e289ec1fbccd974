"""`page`: the plain-text practice-question page (a page saved as text, one question per file).

Layout, in order (headings on their own lines; "⚠" and case do not matter):
    <EXAM> <Domain name> Practice Question        title: exam code and domain name
    <stem paragraphs>
    ⚠ Common exam trap / <trap>
    Answer choices / <one option per line, may be empty>
    Correct answer & explanation / ✓ / <key text> / <explanation paragraphs>
    Option-by-option breakdown / then per option: ✓ or ✗ / <option text> /
        "Why this is correct" or "Why it's wrong here" / <rationale>
        (optional labels: "Why learners choose it", "When it would be right"; without them, a
        distractor's "It would be the correct choice when ..." and "It is tempting because ..."
        sentences move from the rationale to right_when and why_chosen: `_rationale`)
    Go deeper / <"Title — URL" lines, or a title line then a URL line>
    Related to this question / <question ids>
The page's own interface text ("Why each option matters", "Answer analysis", the instructions
under them, the title repeated as navigation) is recognised and skipped; any other line that fits
nowhere is reported as unmapped.
"""

from __future__ import annotations

import re

from qlint.importers import Imported, ImportJob, ImportResult, Unmapped, importer
from qlint.importers._rationale import split_rationale
from qlint.importers.common import option_ids, place, placeholder, question, stem_words

EXAM = re.compile(r"[A-Z0-9][A-Z0-9-]{1,31}", re.I)
TITLE_END = "practice question"
HEADINGS = {
    "common exam trap": "trap",
    "answer choices": "choices",
    "correct answer & explanation": "answer",
    "correct answer and explanation": "answer",
    "option-by-option breakdown": "breakdown",
    "go deeper": "references",
    "related to this question": "related",
    "why each option matters": "interface",
    "answer analysis": "interface",
}
INTERFACE = {  # instructions the page shows around its sections
    "answer the question above first, then reveal the full breakdown to understand why each option is right or wrong.",
    "for each option: why learners choose it and why it is or isn't the right answer here.",
}
LABELS = {
    "why this is correct": "rationale",
    "why it's wrong here": "rationale",
    "why it is wrong here": "rationale",
    "why learners choose it": "why_chosen",
    "when it would be right": "right_when",
}
VERDICT = re.compile(r"^([✓✔✗✘])\s*(.*)$")
URL = re.compile(r"https?://\S+")
ID = re.compile(r"^[a-z0-9][a-z0-9-]{2,79}\Z")  # \Z: `$` lets a final newline through
CHOICE_PREFIX = re.compile(r"^(?:[A-J][.)]|[-*•])\s+")


def read_title(line: str) -> dict[str, str] | None:
    """{"exam", "domain"} from '<EXAM> <Domain> Practice Question' (any case), or None. Split by
    hand: the regex `\\s+(.+?)\\s+practice question\\s*$` took cubic time on a line of spaces."""
    parts = line.split(None, 1)
    if len(parts) != 2 or not EXAM.fullmatch(parts[0]):
        return None
    rest = parts[1].rstrip()
    domain = rest[: -len(TITLE_END)]
    if rest[-len(TITLE_END):].lower() != TITLE_END or not domain[-1:].isspace() or not domain.strip():
        return None
    return {"exam": parts[0], "domain": domain.rstrip()}


def _norm(line: str) -> str:
    return line.strip().lstrip("⚠").strip().replace("’", "'").lower()


def _paragraphs(lines: list[tuple[int, str]]) -> str:
    """Lines joined into Markdown paragraphs: one line break inside, a blank line between."""
    paras: list[list[str]] = [[]]
    for _n, text in lines:
        if text.strip():
            paras[-1].append(text.strip())
        elif paras[-1]:
            paras.append([])
    return "\n\n".join("\n".join(p) for p in paras if p)


def _first_line(lines: list[tuple[int, str]]) -> int:
    return next((n for n, t in lines if t.strip()), 0)


@importer("page", "the plain-text practice-question page layout (one question per file)", suffixes=(".txt",),
          single=True)
def read_page(job: ImportJob) -> ImportResult:
    lines = job.text.splitlines()
    result = ImportResult()
    start = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if start is None:
        result.unmapped.append(Unmapped(0, "the page is empty"))
        return result
    title = lines[start].strip()
    m = read_title(title)
    sections: dict[str, list[tuple[int, str]]] = {}
    section = "stem"
    q = Imported({}, start + 1)
    if not m:
        q.unmapped.append(Unmapped(start + 1, f"title line {title!r} does not name an exam and a domain "
                                              "('<EXAM> <Domain> Practice Question'); it was read as the stem"))
        section_lines = lines[start:]
        offset = start
    else:
        section_lines = lines[start + 1:]
        offset = start + 1
    for i, raw in enumerate(section_lines):
        n = offset + i + 1
        key = _norm(raw)
        if key in HEADINGS:
            section = HEADINGS[key]
            continue
        if raw.strip() == title or key in INTERFACE:
            continue  # the page's navigation and instructions
        sections.setdefault(section, []).append((n, raw))
    for n, text in sections.pop("interface", []):
        if text.strip():
            q.unmapped.append(Unmapped(n, f"text under an interface heading: {text.strip()!r}"))

    place(q, job, m["exam"] if m else "", m["domain"] if m else "", start + 1)
    q.data["type"] = "single"
    q.data["status"] = "draft"
    q.data["stem"] = _paragraphs(sections.get("stem", []))
    trap = _paragraphs(sections.get("trap", []))
    if trap:
        q.data["trap"] = trap
    options = _breakdown(sections.get("breakdown", []), q)
    options = _order(options, sections.get("choices", []), q)
    keys, explanation = _answer(sections.get("answer", []), q)
    _check_keys(options, keys, sections.get("answer", []), q)
    texts = [o["text"] for o in options]
    for o, oid in zip(options, option_ids(texts)):
        o["id"] = oid
    q.data["options"] = [{k: o[k] for k in ("id", "text", "correct", "rationale", "right_when", "why_chosen") if k in o}
                         for o in options]
    n_keys = sum(1 for o in options if o["correct"])
    if n_keys > 1:
        q.data["type"] = "multiple"
        q.data["choose"] = n_keys
    q.data["explanation"] = explanation or placeholder("explanation")
    if not explanation:
        q.unmapped.append(Unmapped(_first_line(sections.get("answer", [])) or start + 1, "no explanation under 'Correct answer & explanation'"))
    refs = _references(sections.get("references", []), q)
    if refs:
        q.data["references"] = refs
    related = _related(sections.get("related", []), q)
    if related:
        q.data["related"] = related
    q.data["id"] = question(stem_words(q.data["stem"], texts), q.data, q.data["exam"], q.data["domain"])
    q.data = {"format": 1, **q.data}
    result.questions.append(q)
    return result


def _breakdown(lines: list[tuple[int, str]], q: Imported) -> list[dict]:
    options: list[dict] = []
    parts: list[dict[str, list[tuple[int, str]]]] = []
    field, expect_text = "rationale", False
    for n, raw in lines:
        text = raw.strip()
        v = VERDICT.match(text)
        if v:
            options.append({"correct": v[1] in "✓✔", "line": n, "text": v[2].strip()})
            parts.append({})
            field, expect_text = "rationale", not v[2].strip()
        elif not options:
            if text:
                q.unmapped.append(Unmapped(n, f"breakdown text before the first ✓/✗ verdict: {text!r}"))
        elif expect_text:
            if text:
                options[-1]["text"], expect_text = text, False
        elif LABELS.get(_norm(text)):
            field = LABELS[_norm(text)]
        else:
            parts[-1].setdefault(field, []).append((n, raw))
    for o, fields in zip(options, parts):
        for k, ls in fields.items():
            if _paragraphs(ls):
                o[k] = _paragraphs(ls)
        unlabelled = {"right_when", "why_chosen"} - set(o)
        if not o["correct"] and o.get("rationale") and unlabelled:  # "It would be the correct choice when ..."
            rest, moved = split_rationale(o["rationale"], unlabelled)
            if moved and rest:
                o.update(rationale=rest, **moved)
    return [o for o in options if o.get("text")]


def _order(options: list[dict], choices: list[tuple[int, str]], q: Imported) -> list[dict]:
    """Options in the order of 'Answer choices' when the page lists them, else breakdown order."""
    listed = [(n, CHOICE_PREFIX.sub("", t.strip())) for n, t in choices if t.strip()]
    if not listed:
        return options
    by_text = {o["text"].lower(): o for o in options}
    ordered = []
    for n, text in listed:
        o = by_text.pop(text.lower(), None)
        if o is None:
            q.unmapped.append(Unmapped(n, f"answer choice {text!r} has no entry in the breakdown: no verdict or rationale"))
            o = {"text": text, "correct": False, "line": n}
        ordered.append(o)
    for o in by_text.values():
        q.unmapped.append(Unmapped(o["line"], f"breakdown option {o['text']!r} is not among the answer choices; kept last"))
        ordered.append(o)
    return ordered


def _answer(lines: list[tuple[int, str]], q: Imported) -> tuple[list[tuple[int, str]], str]:
    """(key texts named under 'Correct answer', the explanation)."""
    keys: list[tuple[int, str]] = []
    rest: list[tuple[int, str]] = []
    waiting = False
    for n, raw in lines:
        text = raw.strip()
        v = VERDICT.match(text)
        if v and not rest:
            if v[2].strip():
                keys.append((n, v[2].strip()))
            else:
                waiting = True
            continue
        if waiting and text:
            keys.append((n, text))
            waiting = False
            continue
        if text or rest:
            rest.append((n, raw))
    return keys, _paragraphs(rest)


def _check_keys(options: list[dict], keys: list[tuple[int, str]], lines, q: Imported) -> None:
    keyed = {o["text"].lower() for o in options if o["correct"]}
    for n, text in keys:
        if text.lower() not in keyed:
            q.unmapped.append(Unmapped(n, f"the correct answer {text!r} is not an option marked ✓ in the breakdown"))
    if not options:
        q.unmapped.append(Unmapped(_first_line(lines), "no options found (no 'Option-by-option breakdown' with ✓/✗ verdicts)"))


def _references(lines: list[tuple[int, str]], q: Imported) -> list[dict]:
    refs: list[dict] = []
    pending: tuple[int, str] | None = None
    for n, raw in lines:
        text = raw.strip()
        if not text:
            continue
        url = URL.search(text)
        if url:
            title = text[: url.start()].strip(" -–—:(|").strip() or (pending[1] if pending else "") or url.group(0)
            refs.append({"title": title, "url": url.group(0).rstrip(").,")})
            pending = None
            continue
        if pending:
            q.unmapped.append(Unmapped(pending[0], f"reference without a URL: {pending[1]!r}"))
        pending = (n, text)
    if pending:
        q.unmapped.append(Unmapped(pending[0], f"reference without a URL: {pending[1]!r}"))
    return refs


def _related(lines: list[tuple[int, str]], q: Imported) -> list[str]:
    out = []
    for n, raw in lines:
        text = raw.strip()
        if not text:
            continue
        if ID.match(text):
            out.append(text)
        else:
            q.unmapped.append(Unmapped(n, f"related question {text!r} is not a question id"))
    return out
