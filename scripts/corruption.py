#!/usr/bin/env python3
"""Corruption suite for the key-agreement rules: break real questions on purpose, count the catches.

    .venv/bin/python scripts/corruption.py                 # sample bank + ../shared/corpora, all items
    .venv/bin/python scripts/corruption.py --limit 300     # at most 300 items per corpus (seeded)

For every question of the sample bank (bank/) and of the converted corpora (scripts/corpora;
kept in memory, never written to bank/), four corrupted copies are made, each seeded:
  key-moved       the `correct` flag moves from a key to a distractor; no text changes
  key-swap        the key's and a distractor's rationales are swapped
  distractor-swap two distractors' rationales are swapped
  foreign-expl    the explanation is replaced by another random question's of the same corpus

A corruption is *detectable* by a criterion that does not use the rules' code (words are
case-folded tokens of letters and digits; a word is *distinctive* for option A against option B
when it is in A's text, not in B's text and not in STOPWORDS below):
  key-moved       the original key's rationale or the explanation contains a word distinctive
                  for the key against the distractor that receives the flag
  key-swap,       each of the two rationales contains a word distinctive for its own option
  distractor-swap against the other
  foreign-expl    the original explanation contains a word of some option's text that no other
                  option has, and the foreign explanation contains none of this question's
A corruption is *caught* when a key-agreement rule that users get by default (not preview, not
off) reports on the corrupted copy a finding (code and pointer) that the uncorrupted question
does not have; the preview-inclusive figure is printed beside it. The clean flag rate is the
share of uncorrupted questions with a default key-agreement finding, leaving out findings that
only say a field is absent (the corpora lack traps; questions without a source explanation lose
the explanation findings). Not every flagged "clean" item is a false flag: snts42's rationales
are assigned by position (scripts/corpora) and some source questions list their distractor
sentences out of option order, so the table also gives an estimated false-flag rate: per rule,
the clean items it flags times (1 - its judged precision on real text, tests/real/precision.json).
Intervals are Wilson 95%.
"""

from __future__ import annotations

import argparse
import copy
import math
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO / "src"))

import corpora  # noqa: E402  (scripts/corpora/, beside this file)
import json  # noqa: E402

from qlint.rules.context import RuleContext  # noqa: E402
from qlint.model import Question  # noqa: E402
from qlint.cli.config import load_config  # noqa: E402
from qlint.rules import RULES  # noqa: E402

KEY_RULES = ("K003", "K004", "K010", "K011", "K012")
CORRUPTIONS = ("key-moved", "key-swap", "distractor-swap", "foreign-expl")
TARGET_CAUGHT = 0.90
TARGET_CLEAN = 0.03

# A fixed English function-word list, independent of qlint's own.
STOPWORDS = frozenset("""a an the and or but nor of to in on at by for with from as is are was were be been
being it its this that these those which who whom what when where why how not no all any each
every some such than then there their they them you your we our can could would should will may
might must do does did has have had so if into onto over under about after before between""".split())

# Findings that say a field is absent: true of every converted question, no judgement.
_ABSENT = re.compile(r"has no 'trap'|has no rationale")


@dataclass
class Item:
    corpus: str
    data: dict[str, Any]
    missing: set[str] = field(default_factory=set)


def words(text: str | None) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", (text or "").casefold()))


def distinctive(a: str, b: str) -> set[str]:
    """Words of option text `a` that option text `b` lacks, stopwords left out."""
    return words(a) - words(b) - STOPWORDS


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


# ---------------------------------------------------------------------------------------------
# loading


def bank_items(bank: Path = REPO / "bank") -> list[Item]:
    import yaml

    out = []
    for path in sorted(bank.rglob("*.yaml")):
        if {"exams", "cases"} & set(path.relative_to(bank).parts):
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if data.get("type", "single") in ("single", "multiple"):  # the corruptions swap options
            out.append(Item("sample-bank", data))
    return out


def corpus_items(root: Path = corpora.CORPORA) -> list[Item]:
    return [Item(c.corpus, c.data, set(c.missing)) for c in corpora.convert(root, corpora.AWS)]


# ---------------------------------------------------------------------------------------------
# checking


def default_rules(codes: tuple[str, ...] = KEY_RULES) -> tuple[str, ...]:
    """The key-agreement rules a user gets without `preview = true` or a `select`."""
    return tuple(c for c in codes if c in RULES.names() and RULES.get(c).default_enabled
                 and not getattr(RULES.get(c), "preview", False))


def judged_precision(path: Path = REPO / "tests" / "real" / "precision.json") -> dict[str, float]:
    if not path.exists():
        return {}
    rows = json.loads(path.read_text(encoding="utf-8")).get("rules", {})
    return {c: r["precision"] for c, r in rows.items() if r.get("precision") is not None}


class Checker:
    def __init__(self, codes: tuple[str, ...] = KEY_RULES) -> None:
        config = load_config(REPO)
        self.rules = [RULES.get(c) for c in codes if c in RULES.names()]
        self.contexts = [RuleContext(r, config, {}) for r in self.rules]

    def findings(self, item: Item, data: dict[str, Any] | None = None) -> set[tuple[str, str]]:
        q = Question("corruption.yaml", data if data is not None else item.data)
        out = set()
        for r, ctx in zip(self.rules, self.contexts):
            for f in r.check(q, ctx):
                if _ABSENT.search(f.message):
                    continue
                if "explanation" in item.missing and f.pointer.startswith("/explanation"):
                    continue
                out.add((r.code, f.pointer))
        return out


# ---------------------------------------------------------------------------------------------
# corruptions: each returns (corrupted data, detectable) or None when it does not apply


def _rationale(o: dict[str, Any]) -> str:
    r = o.get("rationale")
    return r if isinstance(r, str) else ""


def key_moved(item: Item, rng: random.Random, pool: list[Item]) -> tuple[dict, bool] | None:
    opts = item.data["options"]
    keys = [i for i, o in enumerate(opts) if o.get("correct")]
    dis = [i for i, o in enumerate(opts) if not o.get("correct")]
    has_expl = "explanation" not in item.missing
    if not keys or not dis or not (has_expl or any(_rationale(opts[k]) for k in keys)):
        return None
    k, d = rng.choice(keys), rng.choice(dis)
    data = copy.deepcopy(item.data)
    data["options"][k]["correct"], data["options"][d]["correct"] = False, True
    own = distinctive(opts[k]["text"], opts[d]["text"])
    seen = words(_rationale(opts[k])) | (words(item.data.get("explanation")) if has_expl else set())
    return data, bool(own & seen)


def _swap(item: Item, rng: random.Random, first: list[int], second: list[int]) -> tuple[dict, bool] | None:
    opts = item.data["options"]
    pairs = [(a, b) for a in first for b in second if a != b]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    data = copy.deepcopy(item.data)
    data["options"][a]["rationale"], data["options"][b]["rationale"] = _rationale(opts[b]), _rationale(opts[a])
    ok = (distinctive(opts[a]["text"], opts[b]["text"]) & words(_rationale(opts[a]))
          and distinctive(opts[b]["text"], opts[a]["text"]) & words(_rationale(opts[b])))
    return data, bool(ok)


def key_swap(item: Item, rng: random.Random, pool: list[Item]) -> tuple[dict, bool] | None:
    opts = item.data["options"]
    keys = [i for i, o in enumerate(opts) if o.get("correct") and _rationale(o)]
    dis = [i for i, o in enumerate(opts) if not o.get("correct") and _rationale(o)]
    return _swap(item, rng, keys, dis)


def distractor_swap(item: Item, rng: random.Random, pool: list[Item]) -> tuple[dict, bool] | None:
    opts = item.data["options"]
    dis = [i for i, o in enumerate(opts) if not o.get("correct") and _rationale(o)]
    if len(dis) < 2:
        return None
    a = rng.choice(dis)
    return _swap(item, rng, [a], [b for b in dis if b != a])


def foreign_expl(item: Item, rng: random.Random, pool: list[Item]) -> tuple[dict, bool] | None:
    donors = [p for p in pool if p is not item and "explanation" not in p.missing]
    if "explanation" in item.missing or not donors:
        return None
    donor = rng.choice(donors)
    data = copy.deepcopy(item.data)
    data["explanation"] = donor.data["explanation"]
    texts = [o["text"] for o in item.data["options"]]
    unique = set()
    for i, t in enumerate(texts):
        others = set().union(*(words(u) for j, u in enumerate(texts) if j != i))
        unique |= words(t) - others - STOPWORDS
    named_before = bool(unique & words(item.data["explanation"]))
    named_after = bool(unique & words(data["explanation"]))
    return data, named_before and not named_after


MAKERS: dict[str, Callable[..., tuple[dict, bool] | None]] = {
    "key-moved": key_moved, "key-swap": key_swap, "distractor-swap": distractor_swap, "foreign-expl": foreign_expl,
}


# ---------------------------------------------------------------------------------------------


@dataclass
class Row:
    n: int = 0
    detectable: int = 0
    caught: int = 0  # by default rules
    caught_all: int = 0  # preview rules included

    @property
    def rate(self) -> float:
        return self.caught / self.detectable if self.detectable else float("nan")


@dataclass
class Result:
    corpus: str
    items: int
    clean_flagged: int
    rows: dict[str, Row]
    missed: dict[str, list[str]] = field(default_factory=dict)
    clean_all: int = 0  # clean items flagged when preview rules are included
    estimated_false: float = 0.0  # clean flags weighted by (1 - judged precision) per rule

    @property
    def clean_rate(self) -> float:
        return self.clean_flagged / self.items if self.items else 0.0


def run(items: list[Item], seed: int = 12, limit: int | None = None, checker: Checker | None = None) -> list[Result]:
    """Default rules decide "caught" and "clean"; `checker` (all key-agreement rules, preview
    ones included, unless given) gives the preview-inclusive figures."""
    checker = checker or Checker()
    defaults = set(default_rules(tuple(r.code for r in checker.rules)))
    precision = judged_precision()
    out = []
    for corpus in sorted({i.corpus for i in items}):
        pool = [i for i in items if i.corpus == corpus]
        rng = random.Random(f"{seed}:{corpus}")
        chosen = rng.sample(pool, limit) if limit and len(pool) > limit else pool
        rows = {c: Row() for c in CORRUPTIONS}
        missed: dict[str, list[str]] = {c: [] for c in CORRUPTIONS}
        flagged = flagged_all = 0
        false_est = 0.0
        for item in chosen:
            clean = checker.findings(item)
            flagged_all += bool(clean)
            flagged += any(code in defaults for code, _p in clean)
            for code in {c for c, _p in clean if c in defaults}:
                false_est += 1 - precision.get(code, 0.0)
            for name in CORRUPTIONS:
                made = MAKERS[name](item, rng, pool)
                if made is None:
                    continue
                data, detectable = made
                row = rows[name]
                row.n += 1
                if not detectable:
                    continue
                row.detectable += 1
                new = checker.findings(item, data) - clean
                row.caught_all += bool(new)
                if any(code in defaults for code, _p in new):
                    row.caught += 1
                else:
                    missed[name].append(item.data.get("id", "?"))
        out.append(Result(corpus, len(chosen), flagged, rows, missed, flagged_all, false_est))
    return out


def _pct(x: float) -> str:
    return "—" if x != x else f"{100 * x:.1f}%"


def table(results: list[Result]) -> str:
    on = "/".join(default_rules()) or "none"
    lines = [f"Default key-agreement rules: {on}. 'with preview': {'/'.join(KEY_RULES)}.", "",
             "| corpus | corruption | n | detectable | caught (default) | rate | 95% CI | with preview |",
             "|---|---|---:|---:|---:|---:|---|---:|"]
    for r in results:
        for name, row in r.rows.items():
            lo, hi = wilson(row.caught, row.detectable)
            allr = row.caught_all / row.detectable if row.detectable else float("nan")
            lines.append(f"| {r.corpus} | {name} | {row.n} | {row.detectable} | {row.caught} | {_pct(row.rate)} "
                         f"| {_pct(lo)}–{_pct(hi)} | {_pct(allr)} |")
        lo, hi = wilson(r.clean_flagged, r.items)
        lines.append(f"| {r.corpus} | clean, flagged (raw) | {r.items} | — | {r.clean_flagged} "
                     f"| {_pct(r.clean_rate)} | {_pct(lo)}–{_pct(hi)} | {_pct(r.clean_all / r.items if r.items else 0)} |")
        lines.append(f"| {r.corpus} | clean, estimated false flags | {r.items} | — | {r.estimated_false:.1f} "
                     f"| {_pct(r.estimated_false / r.items if r.items else 0)} | — | — |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--limit", type=int, default=None, help="at most this many questions per corpus (seeded)")
    ap.add_argument("--no-corpora", action="store_true", help="the sample bank only")
    ap.add_argument("--missed", action="store_true", help="list the ids of detectable corruptions not caught")
    args = ap.parse_args(argv)
    items = bank_items()
    if not args.no_corpora:
        if corpora.available():
            items += corpus_items()
        else:
            print(f"corpora not found at {corpora.CORPORA}; sample bank only", file=sys.stderr)
    results = run(items, args.seed, args.limit)
    print(table(results))
    if args.missed:
        for r in results:
            for name, ids in r.missed.items():
                if ids:
                    print(f"{r.corpus} {name} missed: {' '.join(ids[:40])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
