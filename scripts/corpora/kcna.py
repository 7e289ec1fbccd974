"""msahihi/KCNA-study-guide mock exams: `### Question N`, `A. text  `, `**Answer: B**`, a `<details>` explanation.

The domain is the `## Section k: Name (Questions a-b)` the question sits under; the exam's domain
weights are the ones the mock exam itself states ("Kubernetes Fundamentals (44%)"). Explanations
that argue against options by letter stay in the explanation: they are prose, not keyed reasons.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from .common import Converted, missing, question, slug

NAME = "msahihi-kcna"
_WEIGHT = re.compile(r"^-\s+\*\*(.+?)\s+\((\d+)%\)\*\*")
_SECTION = re.compile(r"^##\s+Section\s+\d+:\s+(.+?)\s+\(Questions")
_QUESTION = re.compile(r"^###\s+Question\s+(\d+)\s*$")
_OPTION = re.compile(r"^([A-F])\.\s+(.*?)\s*$")
_ANSWER = re.compile(r"^\*\*Answer:\s*([A-F](?:\s*,\s*[A-F])*)\*\*\s*$")


def exams(root: Path) -> dict[str, dict[str, Any]]:
    domains = []
    for line in (root / NAME / "mock-exam-set-1.md").read_text(encoding="utf-8").splitlines():
        m = _WEIGHT.match(line)
        if m:
            domains.append((slug(m.group(1)), m.group(1), int(m.group(2))))
    return {"KCNA": {"name": "Kubernetes and Cloud Native Associate (mock exams)", "domains": domains}}


def _questions(lines: list[str]) -> Iterator[tuple[int, str, int, list[str]]]:
    section = ""
    start = number = None
    for i, line in enumerate([*lines, "### Question 0"]):
        s = _SECTION.match(line)
        q = _QUESTION.match(line)
        if (q or s or line.startswith("## ")) and start is not None:
            yield number, block_section, start + 1, lines[start + 1:i]  # type: ignore[misc]
            start = None
        if s:
            section = s.group(1)
        if q and i < len(lines):
            start, number, block_section = i, int(q.group(1)), section


def _parse(block: list[str]) -> tuple[str, list[str], set[int], str] | None:
    stem: list[str] = []
    texts: list[str] = []
    answer: list[str] = []
    expl: list[str] = []
    state = "stem"
    for line in block:
        s = line.strip()
        if state in ("stem", "options"):
            m = _OPTION.match(s)
            if m:
                texts.append(m.group(2))
                state = "options"
                continue
            a = _ANSWER.match(s)
            if a:
                answer = re.findall(r"[A-F]", a.group(1))
                state = "answer"
                continue
            if state == "stem":
                stem.append(line.rstrip())
            continue
        if s.startswith("<summary"):
            state = "explanation"
            continue
        if s == "</details>":
            break
        if state == "explanation":
            expl.append(line.rstrip())
    keys = {ord(a) - ord("A") for a in answer}
    if not texts or not keys or max(keys) >= len(texts):
        return None
    return "\n".join(stem).strip(), texts, keys, "\n".join(expl).strip()


def convert(root: Path) -> Iterator[Converted]:
    for path in sorted((root / NAME).glob("mock-exam-set-*.md")):
        set_no = int(re.sub(r"\D", "", path.stem))
        for number, section, line, block in _questions(path.read_text(encoding="utf-8").splitlines()):
            parsed = _parse(block)
            if parsed is None:
                continue
            stem, texts, keys, explanation = parsed
            data = question(f"kcna-s{set_no}-q{number:02d}", "KCNA", slug(section), stem, texts, keys,
                            explanation or None)
            yield Converted(NAME, path.name, str(number), data, missing(data), line)
