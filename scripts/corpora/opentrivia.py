"""uberspot/OpenTriviaQA categories (one file each): `#Q stem` (possibly over several lines), `^ key text`, `A option`, ...

The key is given as text: it is the option whose text equals it (after trimming; then ignoring
case); a question whose key matches no option, or several, is left out. Two files are cp1252 and
all mix CRLF and LF. The source has no explanations.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from .common import Converted, missing, question

NAME = "opentriviaqa"
CATEGORIES = ("brain-teasers", "for-kids", "general", "science-technology")
EXAMS: dict[str, dict[str, Any]] = {
    "TRIVIA": {"name": "OpenTriviaQA (no domains in the source)", "domains": [("trivia", "Trivia", 100)]},
}
_OPTION = re.compile(r"^([A-F])\s(.*)$")


def _text(path: Path) -> str:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _blocks(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    start = None
    for i, line in enumerate([*lines, "#Q"]):
        if line.startswith("#Q"):
            if start is not None:
                yield start + 1, lines[start:i]
            start = i


def _parse(block: list[str]) -> tuple[str, list[str], int] | None:
    stem = [block[0][2:].strip()]
    key_text = None
    texts: list[str] = []
    for line in block[1:]:
        if key_text is None:
            if line.startswith("^"):
                key_text = line[1:].strip()
            else:
                stem.append(line.strip())
            continue
        m = _OPTION.match(line)
        if m:
            texts.append(m.group(2).strip())
        elif line.strip() and texts:
            texts[-1] = f"{texts[-1]} {line.strip()}"
    if key_text is None or len(texts) < 2 or any(not t for t in texts):
        return None
    hits = [i for i, t in enumerate(texts) if t == key_text]
    if not hits:
        hits = [i for i, t in enumerate(texts) if t.casefold() == key_text.casefold()]
    if len(hits) != 1:
        return None
    return "\n".join(stem).strip(), texts, hits[0]


def convert(root: Path) -> Iterator[Converted]:
    for cat in CATEGORIES:
        path = root / NAME / cat
        for line, block in _blocks(_text(path).split("\n")):
            parsed = _parse(block)
            if parsed is None or not parsed[0]:
                continue
            stem, texts, key = parsed
            data = question(f"trivia-{cat}-{line:05d}", "TRIVIA", "trivia", stem, texts, {key}, None)
            yield Converted(NAME, cat, str(line), data, missing(data), line)
