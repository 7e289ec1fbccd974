"""ixa-ehu/antidote-casimedicos (CasiMedicos-Arg): MIR exam items as IOB2 token files, EN and ES.

Each file is one token a line (first column) and a blank line between sentences; the text comes back
by joining a sentence's tokens with spaces. An item opens with `QUESTION TYPE: ...`, then `CLINICAL
CASE:`, the case and question sentences, options `1- ...` to `5- ...`, `CORRECT ANSWER: N` and the
doctor's explanation. The explanation discusses options by number in running prose, which is not a
keyed reason per option, so no rationale is mapped. French and Italian are only in the tarball; they
are read from it (tarfile, nothing extracted) when asked for with `languages`.
"""

from __future__ import annotations

import re
import tarfile
from pathlib import Path
from typing import Any, Iterable, Iterator

from .common import Converted, missing, question

NAME = "casimedicos-arg"
LANGUAGES = ("EN", "ES")
SPLITS = ("train", "dev", "test")
EXAMS: dict[str, dict[str, Any]] = {
    "MIR": {"name": "Spanish MIR medical residency exam (CasiMedicos; no blueprint in the source)",
            "domains": [("mir", "MIR", 100)]},
}
_OPTION = re.compile(r"^(\d)\s*-\s*(.*)$")
_KEY = re.compile(r"^(?:CORRECT ANSWER|RISPOSTA CORRETTA)\s*:\s*(\d)\b\s*(.*)$")


def _sentences(text: str) -> list[str]:
    out = []
    for chunk in text.split("\n\n"):
        tokens = [ln.split()[0] for ln in chunk.split("\n") if ln.split()]
        if tokens:
            out.append(" ".join(tokens))
    return out


def _items(sents: Iterable[str]) -> Iterator[list[str]]:
    cur: list[str] | None = None
    for s in sents:
        if s.startswith("QUESTION TYPE"):
            if cur:
                yield cur
            cur = []
        if cur is not None:
            cur.append(s)
    if cur:
        yield cur


def _parse(item: list[str]) -> tuple[str, list[str], int, str] | None:
    stem: list[str] = []
    texts: list[str] = []
    numbers: list[int] = []
    key = None
    expl: list[str] = []
    for s in item[1:]:
        if key is not None:
            expl.append(s)
            continue
        k = _KEY.match(s)
        if k:
            key = int(k.group(1))
            if k.group(2):
                expl.append(k.group(2))
            continue
        m = _OPTION.match(s)
        if m and (texts or int(m.group(1)) == 1):
            numbers.append(int(m.group(1)))
            texts.append(m.group(2).strip())
        elif texts:
            texts[-1] = f"{texts[-1]} {s}"
        elif not s.startswith("CLINICAL CASE"):
            stem.append(s)
    if key is None or key not in numbers or numbers != list(range(1, len(numbers) + 1)) or not stem:
        return None
    return "\n\n".join(stem), texts, numbers.index(key), " ".join(expl).strip()


def _files(root: Path, languages: Iterable[str]) -> Iterator[tuple[str, str]]:
    tarball = root / NAME / "casimedicos-arg.tar.gz"
    for lang in languages:
        for split in SPLITS:
            path = root / NAME / "extracted" / lang / f"{split}.tsv"
            if path.is_file():
                yield f"{lang}/{split}.tsv", path.read_text(encoding="utf-8")
            elif tarball.is_file():
                with tarfile.open(tarball) as tar:
                    member = tar.extractfile(f"casimedicos-arg/{lang}/{split}.tsv")
                    if member is not None:
                        yield f"{lang}/{split}.tsv", member.read().decode("utf-8")


def convert(root: Path, languages: Iterable[str] = LANGUAGES) -> Iterator[Converted]:
    for source, text in _files(root, languages):
        lang, split = source.split("/")[0].lower(), source.split("/")[1].split(".")[0]
        for n, item in enumerate(_items(_sentences(text)), 1):
            parsed = _parse(item)
            if parsed is None:
                continue
            stem, texts, key, explanation = parsed
            data = question(f"casi-{lang}-{split}-{n:03d}", "MIR", "mir", stem, texts, {key}, explanation or None)
            yield Converted(NAME, source, str(n), data, missing(data), 0)
