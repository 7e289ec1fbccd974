"""Convert the real practice banks in ../shared/corpora into qlint question files, for measuring.

The corpora are other people's questions under permissive licences (see ../shared/corpora/README.md).
They stay in shared/: this package converts them into a folder the caller names (a temporary folder
in tests, benchmarks and scripts/realtext.py), never into bank/.

    .venv/bin/python scripts/corpora --out /tmp/real    # writes <out>/<corpus>/... and prints counts

One module per corpus (aws: the two AWS banks; lydiahallie, kcna, seedu, carpentries, casimedicos,
opentrivia, aqua). The conversion is faithful: nothing the source lacks is invented. Where a source
has a field qlint wants but not in qlint's shape, it is mapped by position, letter or number,
not by the rules' own reading, so that the rules measured on the result are not tested against
themselves. One exception: snts42 lists its distractor sentences unkeyed and sometimes out of
option order, so a sentence goes to the option its opening words name (aws.py, a plain word match
of its own). Each converted question records which fields its source lacks
(`missing`), so the measurement can leave out the findings that only say "this field is absent"
(they are true of every question and say nothing about a rule's judgement). Each corpus is its own
bank with its own exam file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from . import aqua, aws, carpentries, casimedicos, kcna, lydiahallie, opentrivia, seedu
from .aws import KANA, SNTS, kananinirav, snts42
from .common import NO_EXPLANATION, Converted, sentences

REPO = Path(__file__).resolve().parent.parent.parent
SHARED = Path(os.environ.get("QLINT_SHARED", REPO.parent / "shared"))
CORPORA = SHARED / "corpora"

# corpus folder -> its converter, in the order the tables list them
CONVERTERS: dict[str, Callable[[Path], Iterator[Converted]]] = {
    SNTS: snts42,
    KANA: kananinirav,
    lydiahallie.NAME: lydiahallie.convert,
    kcna.NAME: kcna.convert,
    seedu.NAME: seedu.convert,
    carpentries.NAME: carpentries.convert,
    casimedicos.NAME: casimedicos.convert,
    opentrivia.NAME: opentrivia.convert,
    aqua.NAME: aqua.convert,
}
NAMES = tuple(CONVERTERS)
AWS = (SNTS, KANA)  # the two banks the rules were first tuned on

__all__ = ["AWS", "CONVERTERS", "CORPORA", "Converted", "EXAMS", "KANA", "NAMES", "NO_EXPLANATION", "SNTS",
           "available", "convert", "exams", "sentences", "write_bank"]

EXAMS: dict[str, dict[str, Any]] = {**aws.EXAMS, **lydiahallie.EXAMS, **seedu.EXAMS, **carpentries.EXAMS,
                                    **casimedicos.EXAMS, **opentrivia.EXAMS, **aqua.EXAMS}


def exams(root: Path = CORPORA) -> dict[str, dict[str, Any]]:
    """Every exam a converted question names (the KCNA weights are read from its source)."""
    out = dict(EXAMS)
    if (root / kcna.NAME).is_dir():
        out.update(kcna.exams(root))
    return out


def available(root: Path = CORPORA, names: Iterable[str] = AWS) -> bool:
    """True when every named corpus is in `root` (by default the two AWS banks every caller needs)."""
    return all((root / name).is_dir() for name in names)


def present(root: Path = CORPORA) -> tuple[str, ...]:
    return tuple(n for n in NAMES if (root / n).is_dir())


def convert(root: Path = CORPORA, names: Iterable[str] | None = None) -> list[Converted]:
    """The named corpora converted (default: every corpus present in `root`)."""
    chosen = present(root) if names is None else tuple(names)
    unknown = [n for n in chosen if n not in CONVERTERS]
    if unknown:
        raise ValueError(f"unknown corpus {', '.join(unknown)} (known: {', '.join(NAMES)})")
    return [item for name in chosen for item in CONVERTERS[name](root)]


def _exam_yaml(code: str, spec: dict[str, Any]) -> str:
    lines = ["format: 1", f"code: {code}", f"name: {json.dumps(spec['name'])}", "domains:"]
    for did, name, weight in spec["domains"]:
        lines += [f"  - id: {did}", f"    name: {json.dumps(name)}", f"    weight: {weight}"]
    return "\n".join(lines) + "\n"


# The lifecycle rules (V codes) judge services by the date of the check: the measured banks pin it,
# so their figures and judged findings stay what they were when judged.
CHECK_DATE = "2026-12-02"


def write_bank(items: list[Converted], out: Path, root: Path = CORPORA) -> dict[str, Path]:
    """Write each corpus as its own bank (exams/ + question files); returns corpus -> bank folder."""
    import yaml  # PyYAML: a plain, safe dump of plain data

    specs = exams(root)
    banks: dict[str, Path] = {}
    codes: dict[str, set[str]] = {}
    for item in items:
        bank = out / item.corpus
        if item.corpus not in banks:
            banks[item.corpus] = bank
            (bank / "exams").mkdir(parents=True, exist_ok=True)
            (bank / "qlint.toml").write_text(f'bank = "."\nexams = "exams"\ndate = "{CHECK_DATE}"\n', encoding="utf-8")
        codes.setdefault(item.corpus, set()).add(item.data["exam"])
        target = out / item.relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(yaml.safe_dump(item.data, sort_keys=False, allow_unicode=True, width=100),
                          encoding="utf-8")
    for corpus, bank in banks.items():
        for code in sorted(codes[corpus]):
            (bank / "exams" / f"{code.lower()}.yaml").write_text(_exam_yaml(code, specs[code]), encoding="utf-8")
    return banks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="folder to write the converted banks into")
    ap.add_argument("--corpora", type=Path, default=CORPORA)
    ap.add_argument("--corpus", action="append", choices=NAMES, help="only this corpus (repeatable)")
    args = ap.parse_args(argv)
    names = args.corpus or present(args.corpora)
    if not names or not available(args.corpora, names):
        print(f"corpora not found at {args.corpora}", file=sys.stderr)
        return 2
    items = convert(args.corpora, names)
    banks = write_bank(items, args.out, args.corpora)
    for corpus, bank in banks.items():
        n = sum(1 for i in items if i.corpus == corpus)
        print(f"{corpus}: {n} questions -> {bank}")
    return 0
