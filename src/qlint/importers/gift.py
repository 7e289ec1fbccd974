"""`gift`: Moodle's GIFT text format, multiple-choice and matching questions with their feedback.

    // comment
    $CATEGORY: MLA-C01/ML Model Development
    ::Title::[markdown]Stem text {
      =Right answer #why it is right
      ~Wrong answer #why it is wrong
      ~%50%Half-right answer #...
      ####General feedback: the explanation
    }

Mapping: title -> id (slugged), stem (text before and after the answer block) -> stem, `=` or a
positive `%weight%` -> keyed option, `#feedback` -> rationale, `####` -> explanation, the category
path -> exam code and domain (a segment naming an exam code, a segment naming one of its domains).
`\\~ \\= \\# \\{ \\} \\:` and `\\n` escapes are decoded; `[id:…]` and `[tag:…]` in a question's
comments (Moodle's idnumber and tags) -> id and tags. Matching (`=prompt -> response`, no `~`)
becomes a matching question: each prompt matches its response, an empty prompt (`=-> text`) is a
surplus response. An `[html]` question (qlint's export writes every text so) has its texts read as
HTML into Markdown and qlint's feedback sections split back into their fields (`_gift_html`),
each pair's rationale included; qlint's equal-share weights of a multiple-response question are
its own scoring, not partial credit to report. Questions of other GIFT types (true/false, short
answer, numeric, essay, description) are reported and not imported; so is any answer or text that
cannot be placed. Comments are kept as comments in the new files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from qlint.importers import Imported, ImportJob, ImportResult, Unmapped, importer, match_exam
from qlint.importers._gift_html import HtmlTexts
from qlint.importers._rationale import split_rationale
from qlint.importers._text import TooDeep
from qlint.importers.common import QUESTION_ID, clean_tags, clean_tasks, in_schema_order, option_ids, place, placeholder, question, split_task_tags, stem_words

_ESCAPES = {"~": "~", "=": "=", "#": "#", "{": "{", "}": "}", ":": ":", "n": "\n", "\\": "\\"}
_WEIGHT = re.compile(r"^%(-?\d+(?:\.\d+)?)%")
_FORMAT = re.compile(r"^\[(html|markdown|plain|moodle)\]", re.I)
# Moodle's GIFT reader takes `[id:…]` and `[tag:…]` from a question's comments as its idnumber and tags
_MARK = re.compile(r"\[(id|tag):([^\]]*)\]")


def unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in _ESCAPES:
            out.append(_ESCAPES[text[i + 1]])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _split_unescaped(text: str, marks: str) -> list[tuple[str, str, int]]:
    """Pieces of `text` starting at an unescaped mark in `marks`: (mark, body, offset)."""
    pieces: list[tuple[str, str, int]] = []
    i, start, mark = 0, 0, ""
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] in marks:
            if i > start or mark:
                pieces.append((mark, text[start:i], start))
            mark, start = text[i], i + 1
        i += 1
    pieces.append((mark, text[start:], start))
    return pieces


@dataclass
class _Block:
    line: int
    lines: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


def _blocks(text: str) -> tuple[list[_Block], list[tuple[int, str]], list[tuple[int, str]]]:
    """Questions (separated by blank lines outside braces), $CATEGORY lines, and comments that
    precede no question. A question takes the // comments just above it."""
    blocks: list[_Block] = []
    categories: list[tuple[int, str]] = []
    pending: list[tuple[int, str]] = []
    current: _Block | None = None
    depth = 0
    for n, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if depth == 0 and stripped.startswith("//"):
            if current is not None:
                current.comments.append(stripped[2:].strip())
            else:
                pending.append((n, stripped[2:].strip()))
            continue
        if depth == 0 and stripped.startswith("$CATEGORY:"):
            categories.append((n, stripped[len("$CATEGORY:"):].strip()))
            current = None
            continue
        if depth == 0 and not stripped:
            current = None
            continue
        if current is None:
            current = _Block(n, comments=[c for _n, c in pending])
            pending = []
            blocks.append(current)
        current.lines.append(raw)
        depth = max(0, depth + _brace_delta(raw))
    return blocks, categories, pending


def _brace_delta(line: str) -> int:
    delta, i = 0, 0
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        delta += {"{": 1, "}": -1}.get(line[i], 0)
        i += 1
    return delta


def _category_for(line: int, categories: list[tuple[int, str]]) -> str:
    current = ""
    for n, path in categories:
        if n < line:
            current = path
    return current


def _place_from_category(q: Imported, job: ImportJob, category: str, line: int) -> None:
    parts = [unescape(p).strip() for p in re.split(r"(?<!\\)/", category) if p.strip()]
    exam_part = next((p for p in parts if match_exam(p, job.exams)), "")
    rest = [p for p in parts if p != exam_part and p.lower() not in ("$course$", "top", "default")]
    place(q, job, exam_part, rest[-1] if rest else "", line)


def _parse_question(block: _Block, q: Imported) -> dict | None:
    text = "\n".join(block.lines)
    title = ""
    m = re.match(r"^\s*::(.*?)(?<!\\)::", text, re.S)
    if m:
        title, text = unescape(m[1]).strip(), text[m.end():]
    open_at = _find_unescaped(text, "{")
    if open_at < 0:
        q.unmapped.append(Unmapped(block.line, f"description or text without answers, not a question: {_short(text)}"))
        return None
    close_at = _find_unescaped(text, "}", open_at + 1)
    if close_at < 0:
        q.unmapped.append(Unmapped(block.line, "answer block '{' is never closed; question skipped"))
        return None
    before, answers, after = text[:open_at], text[open_at + 1:close_at], text[close_at + 1:]
    fm = _FORMAT.match(before.strip())
    fmt = fm[1].lower() if fm else "moodle"
    stem_raw = (before.strip()[fm.end():] if fm else before.strip())
    stem = unescape(stem_raw).strip()
    tail = unescape(after).strip()
    if tail:
        stem = f"{stem} _____ {tail}" if stem else tail
        q.unmapped.append(Unmapped(block.line, f"text after the answers ({_short(tail)}) was appended to the stem with a blank"))
    body = answers.strip()
    general = ""
    gm = _find_unescaped(body, "####")
    if gm >= 0:
        body, general = body[:gm], unescape(body[gm + 4:]).strip()
    if "->" in body and _find_unescaped(body, "~") < 0 and _find_unescaped(body, "=") >= 0:
        return {"title": title, "stem": stem, "pairs": _pairs(body, block, q), "general": general, "format": fmt}
    if not body or body.upper() in ("T", "F", "TRUE", "FALSE") or body.startswith("#") or "->" in body:
        kind = "essay" if not body else "numeric" if body.startswith("#") else "matching" if "->" in body else "true/false"
        q.unmapped.append(Unmapped(block.line, f"{kind} question, not multiple choice; not imported: {_short(stem)}"))
        return None
    options = []
    for mark, piece, _off in _split_unescaped(body, "=~"):
        if not mark:
            if piece.strip():
                q.unmapped.append(Unmapped(block.line, f"answer text outside an = or ~ answer: {_short(unescape(piece))}"))
            continue
        fb_at = _find_unescaped(piece, "#")
        answer, feedback = (piece[:fb_at], piece[fb_at + 1:]) if fb_at >= 0 else (piece, "")
        answer = answer.strip()
        weight = 100.0 if mark == "=" else 0.0
        wm = _WEIGHT.match(answer)
        if wm:
            weight, answer = float(wm[1]), answer[wm.end():].strip()
        options.append({"text": unescape(answer), "weight": weight, "rationale": unescape(feedback).strip()})
    if not any(o["weight"] <= 0 for o in options):
        q.unmapped.append(Unmapped(block.line, f"short-answer question (no wrong ~ answers), not multiple choice; not imported: {_short(stem)}"))
        return None
    return {"title": title, "stem": stem, "options": options, "general": general, "format": fmt}


def _pairs(body: str, block: _Block, q: Imported) -> list[tuple[str, str]]:
    """GIFT matching as Moodle reads it: answers split at each unescaped `=`, each at its first
    `->` into (subquestion, answer); an empty subquestion is an extra wrong answer."""
    pairs = []
    for mark, piece, _off in _split_unescaped(body, "="):
        if not mark:
            if piece.strip():
                q.unmapped.append(Unmapped(block.line, f"text before the first = answer: {_short(unescape(piece))}"))
            continue
        left, arrow, right = piece.partition("->")
        if not arrow:
            q.unmapped.append(Unmapped(block.line, f"matching answer without '->': {_short(unescape(piece))}"))
            continue
        pairs.append((unescape(left).strip(), unescape(right).strip()))
    return pairs


def _matching(parsed: dict, q: Imported) -> dict | None:
    """prompts and responses of a GIFT matching question (ids: slugs of the texts); the rationales
    of qlint's pair-by-pair block, when the general feedback has one."""
    responses = list(dict.fromkeys(right for _, right in parsed["pairs"] if right))
    prompts = [(left, right) for left, right in parsed["pairs"] if left]
    if not prompts or any(not right for _, right in prompts):
        q.unmapped.append(Unmapped(q.line, "matching question with a prompt but no answer; not imported"))
        return None
    plain = parsed.get("plain")  # GIFT's responses are plain text: as Markdown in an [html] question
    texts = [plain(r, f"response {n}") for n, r in enumerate(responses, 1)] if plain else responses
    ids = dict(zip(responses, option_ids(texts)))
    pairs, explained = parsed.get("pair_parts") or ([], {})
    shape = {"prompts": [{"id": pid, "text": left, "match": ids[right]}
                         for pid, (left, right) in zip(option_ids([p for p, _ in prompts]), prompts)],
             "responses": [{"id": ids[r], "text": t} for r, t in zip(responses, texts)]}
    for prompt, parts in zip(shape["prompts"], pairs):
        prompt.update(parts)
    for r, response in zip(responses, shape["responses"]):
        if why := explained.pop(" ".join(r.split()), ""):
            response["rationale"] = why
    for label in explained:
        q.unmapped.append(Unmapped(q.line, f"the general feedback explains a response {label!r} the question does not have"))
    return shape


def _find_unescaped(text: str, what: str, start: int = 0) -> int:
    i = start
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text.startswith(what, i):
            return i
        i += 1
    return -1


def _short(text: str, n: int = 60) -> str:
    one = " ".join(text.split())
    return repr(one if len(one) <= n else one[: n - 3] + "...")


def _marks(comments: list[str], q: Imported) -> tuple[str, list[str], list[str], list[str]]:
    """(id, tags, task ids, the other comments) from `// [id:…] [tag:…]` comments (`[tag:task:1.2]`
    names a task statement); a comment of marks alone goes."""
    qid, tags, kept = "", [], []
    for comment in comments:
        for kind, value in _MARK.findall(comment):
            if kind == "id" and QUESTION_ID.match(value.strip()):
                qid = value.strip()
            elif kind == "tag" and value.strip():
                tags.append(value.strip())
            elif kind == "id":
                q.unmapped.append(Unmapped(q.line, f"[id:{value}] is not a qlint question id; the id comes from the title"))
        if _MARK.sub("", comment).strip():
            kept.append(comment)
    def note(message: str) -> None:
        q.unmapped.append(Unmapped(q.line, message))

    tags, tasks = split_task_tags(tags)
    return qid, clean_tags(tags, note), clean_tasks(tasks, note), kept


def _equal_shares(opts: list[dict]) -> bool:
    """The weights qlint's export (and Moodle's own default) gives a multiple-response question:
    each of k keys 100/k, each of m distractors -100/m (0 when there are none); 5 decimals written."""
    keys = [o["weight"] for o in opts if o["weight"] > 0]
    wrong = [o["weight"] for o in opts if o["weight"] <= 0]
    return bool(keys) and all(abs(w - 100 / len(keys)) < 1e-3 for w in keys) \
        and all(abs(w + 100 / len(wrong)) < 1e-3 for w in wrong)


def _from_html(parsed: dict, q: Imported) -> None:
    """An `[html]` question's texts as Markdown, and qlint's feedback sections as their fields."""
    texts = HtmlTexts(q, q.line)
    parsed["stem"] = texts.stem(parsed["stem"])
    general, block = texts.general(parsed["general"], pairs="pairs" in parsed) if parsed["general"] else ({}, None)
    parsed["general_parts"] = general
    if "pairs" in parsed:
        prompts = [(texts.text(left, f"prompt {n}") if left else "", right) for n, (left, right) in enumerate(parsed["pairs"], 1)]
        parsed["pairs"] = prompts
        parsed["pair_parts"] = texts.pair_parts(block, sum(1 for left, _ in prompts if left)) if block is not None else None
        parsed["plain"] = texts.plain
        return
    for n, o in enumerate(parsed["options"], 1):
        o["text"] = texts.text(o["text"], f"answer {n}")
        o["parts"] = texts.feedback(o["rationale"], f"answer {n} feedback") if o["rationale"] else {}


def _general(parsed: dict, data: dict, q: Imported) -> None:
    parts = parsed.get("general_parts")
    if parts is None:
        parts = {"explanation": parsed["general"]} if parsed["general"] else {}
    data.update(parts)
    if not data.get("explanation"):
        data["explanation"] = placeholder("general feedback")
        q.unmapped.append(Unmapped(q.line, "no general feedback (####) to use as the explanation"))


@importer("gift", "Moodle GIFT: multiple-choice and matching questions with per-answer and general feedback", suffixes=(".gift", ".txt"),
          not_carried="GIFT holds no option ids, status, difficulty, related questions, case studies or shuffle settings: "
                      "options are named after their text, every question is a draft, a case question's scenario is "
                      "left out of its stem, and the others are left unset")
def read_gift(job: ImportJob) -> ImportResult:
    blocks, categories, stray = _blocks(job.text)
    result = ImportResult()
    result.unmapped += [Unmapped(n, f"comment after the last question: {c!r}") for n, c in stray]
    for block in blocks:
        q = Imported({}, block.line)
        parsed = _parse_question(block, q)
        if parsed is not None and parsed["format"] == "html":
            try:
                _from_html(parsed, q)
            except TooDeep as exc:
                q.unmapped.append(Unmapped(block.line, f"{exc}; the question was not imported"))
                parsed = None
        if parsed is None:
            result.unmapped += q.unmapped
            result.unmapped += [Unmapped(block.line, f"comment of a question not imported: {c!r}") for c in block.comments]
            continue
        _place_from_category(q, job, _category_for(block.line, categories), block.line)
        qid, tags, tasks, comments = _marks(block.comments, q)
        if "pairs" in parsed:
            if (shape := _matching(parsed, q)) is None:
                result.unmapped += q.unmapped
                continue
            data = {"format": 1}
            words = parsed["title"] or stem_words(parsed["stem"], [p["text"] for p in shape["prompts"]])
            data["id"] = qid or question(words, data, q.data["exam"], q.data["domain"])
            data.update({"exam": q.data["exam"], "domain": q.data["domain"], "type": "matching", "status": "draft"})
            if tags:
                data["tags"] = tags
            if tasks:
                data["tasks"] = tasks
            data.update({"stem": parsed["stem"], **shape})
            _general(parsed, data, q)
            if parsed.get("pair_parts") is None:
                q.unmapped.append(Unmapped(block.line, "GIFT matching has no feedback per pair: the prompts have no rationale"))
            q.data, q.comments = in_schema_order(data), comments
            result.questions.append(q)
            continue
        opts = parsed["options"]
        keyed = [o for o in opts if o["weight"] > 0]
        weights = {round(o["weight"], 3) for o in keyed}
        if len(keyed) > 1 and len(weights) > 1:
            q.unmapped.append(Unmapped(block.line, f"unequal partial-credit weights {sorted(weights)} became equal keys"))
        elif any(0 > o["weight"] > -100 or 0 < o["weight"] < 100 and len(keyed) == 1 for o in opts) \
                and not (len(keyed) > 1 and _equal_shares(opts)):
            q.unmapped.append(Unmapped(block.line, "partial-credit weights have no equivalent; the options were keyed or not"))
        ids = option_ids([o["text"] for o in opts])
        options = []
        for oid, o in zip(ids, opts):
            entry = {"id": oid, "text": o["text"], "correct": o["weight"] > 0}
            if "parts" in o:
                entry.update(o["parts"])
            elif o["rationale"]:
                entry["rationale"] = o["rationale"]
            unlabelled = {"right_when", "why_chosen"} - set(entry)
            if not entry["correct"] and entry.get("rationale") and len(unlabelled) == 2:  # plain feedback, as on a page
                rest, moved = split_rationale(entry["rationale"], unlabelled)
                if moved and rest:
                    entry.update(rationale=rest, **moved)
            options.append(entry)
        data = {"format": 1}
        words = parsed["title"] or stem_words(parsed["stem"], [o["text"] for o in opts])
        data["id"] = qid or question(words, data, q.data["exam"], q.data["domain"])
        data.update({"exam": q.data["exam"], "domain": q.data["domain"]})
        data["type"] = "multiple" if len(keyed) > 1 else "single"
        if len(keyed) > 1:
            data["choose"] = len(keyed)
        data["status"] = "draft"
        if tags:
            data["tags"] = tags
        if tasks:
            data["tasks"] = tasks
        data["stem"] = parsed["stem"]
        data["options"] = options
        _general(parsed, data, q)
        q.data = in_schema_order(data)
        q.comments = comments
        result.questions.append(q)
    return result
