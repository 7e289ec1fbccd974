"""What every converter shares: the converted question, ids, the qlint question it becomes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Converted:
    corpus: str
    source: str  # file inside the corpus folder
    qid: str  # the source's own id (snts42) or the question number (kananinirav)
    data: dict[str, Any]
    missing: set[str] = field(default_factory=set)
    line: int = 0  # where the question starts in its source file (1-based)

    @property
    def key(self) -> str:
        """How judgments refer to the question: corpus/source#qid."""
        return f"{self.corpus}/{self.source}#{self.qid}"

    @property
    def relpath(self) -> str:
        """Where `write_bank` puts the file, relative to the output folder."""
        return f"{self.corpus}/{Path(self.source).with_suffix('').as_posix()}/{self.data['id']}.yaml"


# ---------------------------------------------------------------------------------------------
# shared helpers

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text.strip()) if s.strip()]


def _slug(text: str, limit: int = 40) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:limit].rstrip("-")


def _option_ids(texts: list[str]) -> list[str]:
    out: list[str] = []
    for i, text in enumerate(texts):
        base = _slug(text) or f"option-{i + 1}"
        if len(base) < 1 or not base[0].isalnum():
            base = f"option-{i + 1}"
        elif base.isdigit():  # a YAML 1.2 reader takes a bare 084 for the number 84
            base = f"n{base}"
        candidate, n = base, 2
        while candidate in out:
            candidate, n = f"{base}-{n}", n + 1
        out.append(candidate)
    return out


def _question(qid: str, exam: str, domain: str, stem: str, texts: list[str], keys: set[int],
              explanation: str | None, rationales: dict[int, str], references: list[str]) -> dict[str, Any]:
    ids = _option_ids(texts)
    options = []
    for i, text in enumerate(texts):
        opt: dict[str, Any] = {"id": ids[i], "text": text, "correct": i in keys}
        if i in rationales:
            opt["rationale"] = rationales[i]
        options.append(opt)
    data: dict[str, Any] = {"format": 1, "id": qid, "exam": exam, "domain": domain,
                            "type": "multiple" if len(keys) > 1 else "single"}
    if len(keys) > 1:
        data["choose"] = len(keys)
    data["status"] = "published"
    data["stem"] = stem
    data["options"] = options
    # The schema requires an explanation; where the source has none, a neutral sentence keeps the
    # file checkable by every other rule, and `missing` tells the measurement to drop what reads it.
    data["explanation"] = explanation or NO_EXPLANATION
    if references:
        data["references"] = [{"title": _ref_title(u), "url": u} for u in references]
    return data


def _ref_title(url: str) -> str:
    tail = [p for p in re.split(r"[/?#]", url.split("://", 1)[-1]) if p]
    return " / ".join(tail[:3])[:120] or url


NO_EXPLANATION = "The source gives no explanation for this question."


def _missing(data: dict[str, Any]) -> set[str]:
    """The fields the source lacks: no source here has traps or right_when."""
    gone = {"trap", "right_when"}
    if data["explanation"] == NO_EXPLANATION:
        gone.add("explanation")
    if any("rationale" not in o for o in data["options"]):
        gone.add("rationale")
    return gone




def question(qid: str, exam: str, domain: str, stem: str, texts: list[str], keys: set[int],
             explanation: str | None, rationales: dict[int, str] | None = None,
             references: list[str] | None = None) -> dict[str, Any]:
    return _question(qid, exam, domain, stem, texts, keys, explanation, rationales or {}, references or [])


def missing(data: dict[str, Any]) -> set[str]:
    return _missing(data)


def slug(text: str, limit: int = 40) -> str:
    return _slug(text, limit)


def key_letters(count: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(count)]
