"""deepmind/AQuA dev and test: JSON lines `{question, options: ["A)21", ...], rationale, correct}`.

The option letter glued to each option is dropped (qlint assigns letters); the rationale is the
explanation, as written (some are wrong or disagree with the key: that is the source).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

from .common import Converted, missing, question

NAME = "deepmind-aqua-rat"
EXAMS: dict[str, dict[str, Any]] = {
    "AQUA-RAT": {"name": "AQuA algebra word problems (no domains in the source)",
                 "domains": [("algebra", "Algebra word problems", 100)]},
}
_LETTER = re.compile(r"^\s*([A-E])\s*\)\s*")


def convert(root: Path) -> Iterator[Converted]:
    for split in ("dev", "test"):
        path = root / NAME / f"{split}.json"
        for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not raw.strip():
                continue
            item = json.loads(raw)
            letters: list[str] = []
            texts: list[str] = []
            for opt in item["options"]:
                m = _LETTER.match(opt)
                letters.append(m.group(1) if m else "")
                texts.append(opt[m.end():].strip() if m else opt.strip())
            if item["correct"] not in letters or any(not t for t in texts):
                continue
            keys = {letters.index(item["correct"])}
            data = question(f"aqua-{split}-{n:04d}", "AQUA-RAT", "algebra", item["question"].strip(), texts, keys,
                            str(item.get("rationale") or "").strip() or None)
            yield Converted(NAME, path.name, str(n), data, missing(data), n)
