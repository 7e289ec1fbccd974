"""lydiahallie/javascript-questions: the English README.md, `###### N. stem`, `- A: option`, `#### Answer: X`.

The stem is the heading's text and what follows it up to the options (usually a fenced code block);
the explanation is what follows the answer line inside `<details>`, without the wrapping `<p>` tags.
The source gives no per-option reasons. The 22 translations are not converted: their layouts vary
(translated answer lines, RTL headings with the key as a sentence) and they repeat the same items.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from .common import Converted, key_letters, missing, question

NAME = "lydiahallie-javascript-questions"
EXAMS: dict[str, dict[str, Any]] = {
    "JS-QUESTIONS": {"name": "JavaScript questions (no domains in the source)",
                     "domains": [("javascript", "JavaScript", 100)]},
}

_HEAD = re.compile(r"^#{6}\s+(\d+)\.\s+(.*)$")
_OPTION = re.compile(r"^\s*-\s+([A-F]):\s?(.*)$")
_ANSWER = re.compile(r"^####\s+Answer:\s*([A-F])\s*$")


def _blocks(lines: list[str]) -> Iterator[tuple[int, int, list[str]]]:
    start = None
    for i, line in enumerate(lines):
        if _HEAD.match(line):
            if start is not None:
                yield start + 1, start, lines[start:i]
            start = i
    if start is not None:
        yield start + 1, start, lines[start:]


def _parse(block: list[str]) -> tuple[str, list[str], int, str] | None:
    head = _HEAD.match(block[0])
    assert head
    stem = [head.group(2).strip()]
    texts: list[str] = []
    key = None
    expl: list[str] = []
    fence = False
    state = "stem"
    for line in block[1:]:
        if state == "stem":
            if line.lstrip().startswith("```"):
                fence = not fence
            m = None if fence else _OPTION.match(line)
            if m:
                state = "options"
            else:
                stem.append(line)
                continue
        if state == "options":
            m = _OPTION.match(line)
            if m:
                texts.append(m.group(2).strip())
            elif "<details" in line:
                state = "details"
            continue
        if state == "details":
            a = _ANSWER.match(line.strip())
            if a:
                key = ord(a.group(1)) - ord("A")
                state = "explanation"
            continue
        if state == "explanation":
            if line.strip() == "</details>":
                break
            expl.append(line)
    if not texts or key is None or key >= len(texts):
        return None
    body = "\n".join(expl).strip()
    body = re.sub(r"^<p>\s*", "", body)
    body = re.sub(r"\s*</p>$", "", body).strip()
    return "\n".join(stem).strip(), texts, key, body


def convert(root: Path) -> Iterator[Converted]:
    path = root / NAME / "README.md"
    lines = path.read_text(encoding="utf-8").splitlines()
    for line, _, block in _blocks(lines):
        parsed = _parse(block)
        if parsed is None:
            continue
        stem, texts, key, explanation = parsed
        number = int(_HEAD.match(block[0]).group(1))  # type: ignore[union-attr]
        data = question(f"js-q{number:03d}", "JS-QUESTIONS", "javascript", stem, texts, {key}, explanation or None)
        yield Converted(NAME, path.name, str(number), data, missing(data), line)


assert key_letters  # the option letters are the source's A-F
