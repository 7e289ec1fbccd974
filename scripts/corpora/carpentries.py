"""Software Carpentry lessons: the multiple-choice `::: challenge` blocks whose `::: solution` gives the key.

A challenge counts as multiple choice when its text holds one numbered list (`1.` to `k.`, k >= 2;
an option may run over several lines or be a fenced code block) and its solution names the key by
number, either per option ("1. No: ...", "3. Is correct: ...", "2. Yes, ...": one item per option, at least
one with a verdict; each item's words after the verdict become that option's rationale) or in a sentence that names numbers
("The correct answer is 2", "Option 4 is the solution", "Answer: 1 and 4"). Open exercises, and
multiple-choice challenges whose key is given only in prose, are left out: a key guessed from
word overlap would be invented. The stem is the challenge text around the list (its `##` title
left out); the explanation is the solution text.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from .common import Converted, missing, question

NAME = "carpentries-lessons"
EXAMS: dict[str, dict[str, Any]] = {
    "CARPENTRIES": {"name": "Software Carpentry lesson challenges (no blueprint in the source)",
                    "domains": [("lessons", "Lessons", 100)]},
}

_FENCE = re.compile(r"^(:{3,})\s*(\w+)?\s*$")
_ITEM = re.compile(r"^(\d+)\.\s+(.*)$")
_VERDICT = re.compile(r"^(\d+)\.\s+(No|Yes|Is correct|Correct|Incorrect|Wrong|True|False)\b[\s.,:;!-]*(.*)$", re.S)
_RIGHT = {"yes", "is correct", "correct", "true"}
_NAMED = [
    re.compile(r"\b(?:the\s+)?(?:correct\s+)?(?:answer|solution)\s+is\s*:?\s*(?:option\s*)?[`(]?(\d+)", re.I),
    re.compile(r"^\s*answer\s*:\s*(\d+(?:\s*(?:,|and)\s*\d+)*)", re.I),
    re.compile(r"\boption\s+(\d+)\s+is\s+(?:the\s+)?(?:correct|solution|right)", re.I),
    re.compile(r"^\s*(\d+)\s+is\s+the\s+(?:correct|right)\s+answer", re.I),
]


def _challenges(lines: list[str]) -> Iterator[tuple[int, list[str], list[str]]]:
    """(first line, challenge lines without its solution, solution lines) for each challenge."""
    stack: list[tuple[str, int]] = []
    spans: dict[int, list[tuple[int, int]]] = {}
    for i, line in enumerate(lines):
        m = _FENCE.match(line.strip())
        if not m:
            continue
        if m.group(2):
            stack.append((m.group(2), i))
        elif stack:
            kind, start = stack.pop()
            if kind == "solution" and stack and stack[-1][0] == "challenge":
                spans.setdefault(stack[-1][1], []).append((start, i))
            elif kind == "challenge":
                sols = spans.pop(start, [])
                if len(sols) != 1:
                    continue
                s0, s1 = sols[0]
                yield start + 1, lines[start + 1:s0], lines[s0 + 1:s1]


def _list(challenge: list[str]) -> tuple[list[str], list[str]] | None:
    """(stem lines, option texts) when the challenge holds exactly one numbered list 1..k."""
    stem: list[str] = []
    options: list[list[str]] = []
    ended = False
    fence = False
    for line in challenge:
        if line.startswith("#"):
            continue
        m = _ITEM.match(line)
        if m and not fence:
            if ended or int(m.group(1)) != len(options) + 1:
                return None
            options.append([m.group(2)])
            if m.group(2).lstrip().startswith("```"):
                fence = True
            continue
        if options and not ended:
            if line.strip().startswith("```"):
                fence = not fence
            if fence or line.startswith((" ", "\t")) or (not line.strip()):
                options[-1].append(line)
                continue
            ended = True
        stem.append(line)
    if len(options) < 2:
        return None
    texts = []
    for opt in options:
        first, rest = opt[0], [ln[3:] if ln.startswith("   ") else ln.strip() for ln in opt[1:]]
        texts.append("\n".join([first, *rest]).strip())
    return stem, texts


def _key(solution: list[str], count: int) -> tuple[set[int], dict[int, str], str] | None:
    body = [ln for ln in solution if not ln.startswith("#")]
    text = "\n".join(body).strip()
    if not text:
        return None
    # per-option verdicts: the solution's first numbered items, one per option
    items: list[str] = []
    for line in body:
        m = _ITEM.match(line)
        if m:
            items.append(line)
        elif items and (line.startswith((" ", "\t")) or not line.strip()):
            items[-1] += "\n" + line
        elif items:
            break
    verdicts = [_VERDICT.match(i.strip()) for i in items]
    numbered = [int(i.split(".", 1)[0]) for i in items]
    # one item per option, in order, and at least one names its verdict ("3. Is correct: ...")
    if len(items) == count and numbered == list(range(1, count + 1)) and any(verdicts):
        keys, reasons = set(), {}
        for n, (item, v) in enumerate(zip(items, verdicts)):
            if v and v.group(2).lower() in _RIGHT:
                keys.add(n)
            reason = v.group(3) if v else item.split(".", 1)[1]
            reason = re.sub(r"\s+", " ", reason).strip()
            if reason:
                reasons[n] = reason
        return (keys, reasons, text) if keys else None
    first = re.split(r"\n\s*\n", text)[0]
    for pattern in _NAMED:
        m = pattern.search(first)
        if m:
            keys = {int(x) - 1 for x in re.findall(r"\d+", m.group(1))}
            if keys and all(0 <= k < count for k in keys):
                return keys, {}, text
            return None
    return None


def convert(root: Path) -> Iterator[Converted]:
    folder = root / NAME
    for path in sorted([*folder.glob("*/episodes/*.md"), *folder.glob("*/episodes/*.Rmd")]):
        rel = path.relative_to(folder).as_posix()
        lesson = rel.split("/")[0]
        for line, challenge, solution in _challenges(path.read_text(encoding="utf-8").splitlines()):
            listed = _list(challenge)
            if listed is None:
                continue
            stem_lines, texts = listed
            keyed = _key(solution, len(texts))
            if keyed is None:
                continue
            keys, reasons, explanation = keyed
            stem = "\n".join(stem_lines).strip()
            if not stem:
                continue
            episode = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-")
            qid = f"carp-{lesson}-{episode}-l{line}"[:80].rstrip("-")
            data = question(qid, "CARPENTRIES", "lessons", stem, texts, keys, explanation, reasons)
            yield Converted(NAME, rel, f"L{line}", data, missing(data), line)
