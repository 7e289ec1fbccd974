"""se-edu/se-book MarkBind questions: `<panel header="{{ icon_Q_A }} ...">`, options `- ( ) a. text` / `- [ ] a. text`,
and the answer in a nested `<panel ... header="{{ icon_A }} Answer">`.

The stem is the panel header when the body says nothing more; when the header is a lead-in (it ends
in "?" or ":") and the body is a statement, the header comes first and the body after it; otherwise
the body alone (a header that only names the topic is a title). A prerequisite `<panel>` inside the
body is left out. The key comes from the answer's first line: `(a)(b)~~(c)~~` (struck letters are
distractors), bare letters `a, b`, `True`/`False`, `All`; or from per-option bullets (`* a. Reason:
... {{ bullet_checkbox_red }}`, `* i: :+1: Correct. ...`, `1. Incorrect: ...`). Reasons are mapped to
options only where the source keys them by letter or number: `~~(c)~~ Reason: ...` paragraphs and
the per-option bullets. Files with several questions in one panel (`A)` / `B)`) and answers that
name no option are left out.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from .common import Converted, missing, question

NAME = "se-edu-se-book"
EXAMS: dict[str, dict[str, Any]] = {
    "SE-BOOK": {"name": "NUS software engineering textbook self-check questions (no blueprint in the source)",
                "domains": [("se-book", "Software engineering", 100)]},
}

_HEADER = re.compile(r'^<panel\s+header="\{\{\s*icon_Q_A\s*\}\}\s*(.*?)"\s*>\s*$')
_ANSWER_PANEL = re.compile(r'^<panel\b[^>]*header="\{\{\s*icon_A\s*\}\}[^"]*"[^>]*>\s*$')
_OPTION = re.compile(r"^-\s+(?:\(\s?\)|\[\s?\])\s+(.*)$")
_LABEL = re.compile(r"^(?:([a-z]|[ivx]+|\d+)[.)]|\((\w+)\))\s+(.*)$")
_PARENS = re.compile(r"^(?:~~)?\(\w+\)")
_BULLET = re.compile(r"^[*-]\s+(\w+)\s*[.:]\s*(.*)$")
_NUMBERED = re.compile(r"^(\d+)\.\s+(Correct|Incorrect)\b\s*[:.]?\s*(.*)$", re.I)
_STRUCK_REASON = re.compile(r"^~~\((\w+)\)~~\s*Reason:\s*(.*)$", re.S)
_ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]


def _split(lines: list[str]) -> tuple[str, list[str], list[str]] | None:
    """(header, body lines before the answer panel, answer lines)."""
    header = None
    body: list[str] = []
    answer: list[str] = []
    state = "before"
    depth = 0
    for line in lines:
        s = line.strip()
        if state == "before":
            m = _HEADER.match(s)
            if m:
                header, state = m.group(1).strip(), "body"
            continue
        if state == "body":
            if _ANSWER_PANEL.match(s):
                state = "answer"
                continue
            body.append(line)
            continue
        if s.startswith("<panel"):
            depth += 1
        if s == "</panel>":
            if depth == 0:
                break
            depth -= 1
        answer.append(line)
    if header is None or state != "answer":
        return None
    return header, body, answer


def _drop_panels(lines: list[str]) -> list[str]:
    out: list[str] = []
    depth = 0
    for line in lines:
        s = line.strip()
        if s.startswith("<panel"):
            depth += 1
            continue
        if s == "</panel>" and depth:
            depth -= 1
            continue
        if not depth:
            out.append(line)
    return out


def _options(body: list[str]) -> tuple[list[str], list[str], list[str], list[str]] | None:
    """(stem lines, option texts, option labels, lines after the options); None for several option lists."""
    stem: list[str] = []
    texts: list[str] = []
    labels: list[str] = []
    after: list[str] = []
    groups = 0
    last_was_option = False
    for line in body:
        m = _OPTION.match(line.strip())
        if m:
            if not last_was_option:
                groups += 1
            last_was_option = True
            text = m.group(1).strip()
            lab = _LABEL.match(text)
            if lab:
                labels.append((lab.group(1) or lab.group(2)).lower())
                text = lab.group(3).strip()
            else:
                labels.append("")
            texts.append(text)
            continue
        if line.strip():
            last_was_option = False
            (after if texts else stem).append(line)
        elif not texts:
            stem.append(line)
    if groups != 1 or not 2 <= len(texts) <= 10:  # qlint's schema allows 2-10 options
        return None
    return stem, texts, labels, after


def _position(label: str, labels: list[str], count: int) -> int | None:
    label = label.lower()
    if label in labels and label:
        return labels.index(label)
    if len(label) == 1 and label.isalpha() and ord(label) - ord("a") < count and not any(labels):
        return ord(label) - ord("a")
    if label in _ROMAN and _ROMAN.index(label) < count and not any(labels):
        return _ROMAN.index(label)
    if label.isdigit() and 0 < int(label) <= count and not any(labels):
        return int(label) - 1
    return None


def _paragraphs(lines: list[str]) -> list[str]:
    text = "\n".join(lines).strip()
    return [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]


def _key(answer: list[str], texts: list[str], labels: list[str]):
    """(keys, rationales, explanation) or None."""
    paras = _paragraphs(answer)
    if not paras:
        return None
    n = len(texts)
    first, rest = paras[0], paras[1:]
    keys: set[int] = set()
    reasons: dict[int, str] = {}
    explanation: list[str] = []
    tf = [t.rstrip(".").lower() for t in texts]
    line1, _, tail1 = first.partition("\n")
    bullets = [_BULLET.match(ln.strip()) for ln in first.split("\n")]
    numbered = [_NUMBERED.match(ln.strip()) for ln in first.split("\n")]
    if sorted(tf) == ["false", "true"]:
        word = re.match(r"^(True|False)\b[.!]?\s*(.*)$", first, re.S)
        if not word:
            return None
        keys = {tf.index(word.group(1).lower())}
        if word.group(2).strip():
            explanation.append(word.group(2).strip())
    elif all(bullets) and len(bullets) == n:
        for b in bullets:
            pos = _position(b.group(1), labels, n)  # type: ignore[union-attr]
            if pos is None:
                return None
            body = b.group(2)  # type: ignore[union-attr]
            right = "bullet_checkbox_selected_green" in body or ":+1:" in body
            body = re.sub(r"\{\{\s*bullet_checkbox_\w+\s*\}\}", "", body).replace(":+1:", "").strip()
            body = re.sub(r"^Reason:\s*", "", body)
            if right:
                keys.add(pos)
            if body:
                reasons[pos] = body
    elif all(numbered) and len(numbered) == n:
        for m in numbered:
            pos = _position(m.group(1), labels, n)  # type: ignore[union-attr]
            if pos is None:
                return None
            if m.group(2).lower() == "correct":  # type: ignore[union-attr]
                keys.add(pos)
            if m.group(3).strip():  # type: ignore[union-attr]
                reasons[pos] = m.group(3).strip()  # type: ignore[union-attr]
    elif _PARENS.match(line1):
        code = line1.replace(" ", "")
        struck = set(re.findall(r"\((\w+)\)", "".join(re.findall(r"~~(.*?)~~", code))))
        named = re.findall(r"\((\w+)\)", code)
        for label in named:
            pos = _position(label, labels, n)
            if pos is None:
                return None
            if label not in struck:
                keys.add(pos)
        if tail1.strip():
            explanation.append(tail1.strip())
    elif re.fullmatch(r"[a-z](\s*,\s*[a-z])*\.?", line1.strip()):
        for label in re.findall(r"[a-z]", line1):
            pos = _position(label, labels, n)
            if pos is None:
                return None
            keys.add(pos)
        if tail1.strip():
            explanation.append(tail1.strip())
    elif re.match(r"^All\b", line1) and not re.match(r"^All\s+(?:of\s+)?(?:the\s+)?\w+\s+(?:are|is)\s+(?:not|in)", line1):
        keys = set(range(n))
        words = re.sub(r"^All(\s+\w+)?\s+(are\s+\w+)?\.?(<br>)?", "", line1).strip()
        if words or tail1.strip():
            explanation.append((words + "\n" + tail1).strip())
    else:
        return None
    reason_of = None  # a struck option's reason runs on until the next one or "Explanation:"
    for p in rest:
        m = _STRUCK_REASON.match(p)
        if m:
            reason_of = _position(m.group(1), labels, n)
            if reason_of is not None:
                reasons[reason_of] = m.group(2).strip()
                continue
        elif reason_of is not None and not p.startswith("Explanation:"):
            reasons[reason_of] = f"{reasons[reason_of]}\n\n{p}".strip()
            continue
        reason_of = None
        explanation.append(p)
    reasons = {k: v for k, v in reasons.items() if v}
    if not keys:
        return None
    text = "\n\n".join(explanation).strip()
    text = re.sub(r"^Explanation:\s*", "", text)
    return keys, reasons, text


def _stem(header: str, stem_lines: list[str], after: list[str]) -> str:
    body = "\n".join(_drop_panels(stem_lines)).strip()
    tail = "\n".join(after).strip()
    if tail:
        body = f"{body}\n\n{tail}".strip()
    if not body:
        return header
    if header.rstrip().endswith(("?", ":")) and not body.rstrip().endswith(("?", ":")):
        return f"{header}\n\n{body}"
    return body


def convert(root: Path) -> Iterator[Converted]:
    folder = root / NAME
    for path in sorted(folder.rglob("*.md")):
        rel = path.relative_to(folder).as_posix()
        lines = path.read_text(encoding="utf-8").splitlines()
        split = _split(lines)
        if split is None:
            continue
        header, body, answer = split
        opts = _options(body)
        if opts is None:
            continue
        stem_lines, texts, labels, after = opts
        keyed = _key(answer, texts, labels)
        if keyed is None:
            continue
        keys, reasons, explanation = keyed
        stem = _stem(header, stem_lines, after)
        if not stem:
            continue
        qid = "seedu-" + re.sub(r"[^a-z0-9]+", "-", rel.lower().removesuffix(".md")).strip("-")
        qid = qid[:80].rstrip("-")
        data = question(qid, "SE-BOOK", "se-book", stem, texts, keys, explanation or None, reasons)
        yield Converted(NAME, rel, path.stem, data, missing(data), 1)
