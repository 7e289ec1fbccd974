#!/usr/bin/env python3
"""Measure K020 (reason-relevance) on moved keys and clean items, with a fixed tune / held-out split.

    .venv/bin/python scripts/relevance_eval.py                      # held-out half of snts42, seed 59
    .venv/bin/python scripts/relevance_eval.py --half tune --seed tune1
    .venv/bin/python scripts/relevance_eval.py --corpus sample-bank --corpus carpentries-lessons

The split is decided by a stable hash of each question's id, fixed before the rule was written:
`half(id)` is "tune" or "held-out". The rule was developed looking only at tune-half questions
(their moved-key copies and their clean form); figures to quote come from the held-out half, at a
corruption seed no change was judged on. Moved-key copies are scripts/corruption.py's `key_moved`
(its detectability criterion too). A moved key is *caught* by K020 when K020 reports on the copy
a finding the clean question lacks; *caught (default set)* counts any default key-agreement rule,
K020 included, to show what it adds. Clean: questions K020 flags as they are. Wilson 95%.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO / "src"))

import corruption  # noqa: E402  (scripts/corruption.py)
import corpora  # noqa: E402

RULE = "K020"
HALVES = ("tune", "held-out", "all")


def half(qid: str) -> str:
    """The half a question belongs to: a stable hash of its id (salted, so it is no other split)."""
    return "tune" if hashlib.sha256(f"relevance-split:{qid}".encode()).digest()[0] % 2 == 0 else "held-out"


def items(names: list[str]) -> list[corruption.Item]:
    out: list[corruption.Item] = []
    if "sample-bank" in names:
        out += corruption.bank_items()
    real = tuple(n for n in names if n != "sample-bank")
    if real:
        out += corruption.corpus_items(corpora.CORPORA, real)
    return out


def measure(pool: list[corruption.Item], seed: str, which: str = "held-out", show: int = 0) -> dict[str, tuple[int, int]]:
    """Per figure, (k, n): moved keys caught by K020 alone and by the default set with and
    without it, clean items K020 flags."""
    mine = corruption.Checker((RULE,))
    others = tuple(c for c in corruption.default_rules() if c != RULE)
    rest = corruption.Checker(others)
    on = not getattr(__import__("qlint.rules", fromlist=["RULES"]).RULES.get(RULE), "preview", False)
    counts = {"moved": [0, 0], "moved, default set without K020": [0, 0], "moved, default set with K020": [0, 0],
              "clean flagged": [0, 0]}
    shown_c = shown_m = 0
    chosen = [i for i in pool if which == "all" or half(str(i.data.get("id"))) == which]
    for item in chosen:
        clean = {f for f in mine.findings(item) if "(preview here)" not in f[0] or not on}
        counts["clean flagged"][1] += 1
        if clean:
            counts["clean flagged"][0] += 1
            if shown_c < show:
                shown_c += 1
                print("CLEAN FLAG", item.corpus, item.data.get("id"), sorted(clean))
        made = corruption.key_moved(item, random.Random(f"{seed}:{item.corpus}:key-moved:{item.data.get('id')}"), chosen)
        if made is None or not made[1]:
            continue
        data = made[0]
        got = bool(mine.findings(item, data) - clean)
        before = bool(rest.findings(item, data) - rest.findings(item))
        for name, hit in (("moved", got), ("moved, default set without K020", before),
                          ("moved, default set with K020", before or got)):
            counts[name][1] += 1
            counts[name][0] += hit
        if not got and not before and shown_m < show:
            shown_m += 1
            print("MISSED", item.corpus, item.data.get("id"))
    return {k: (v[0], v[1]) for k, v in counts.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", action="append", default=None,
                    help=f"a converted corpus or 'sample-bank' (repeatable; default {corpora.SNTS})")
    ap.add_argument("--half", choices=HALVES, default="held-out",
                    help="which half of the questions (by id hash); corpora other than snts42 are held out entirely: use 'all'")
    ap.add_argument("--seed", default="59", help="the corruption seed (tuned on 'tune1'; report on 59)")
    ap.add_argument("--show", type=int, default=0, help="print the ids of this many clean flags and misses")
    args = ap.parse_args(argv)
    names = args.corpus or [corpora.SNTS]
    pool = items(names)
    print(f"{RULE} on {', '.join(names)}, half {args.half}, seed {args.seed}\n")
    print("| corpus | figure | k | n | rate | Wilson 95% |\n|---|---|---:|---:|---:|---|")
    for corpus in names:
        figures = measure([i for i in pool if i.corpus == corpus], args.seed, args.half, args.show)
        for name, (k, n) in figures.items():
            lo, hi = corruption.wilson(k, n)
            rate = f"{100 * k / n:.1f}%" if n else "-"
            print(f"| {corpus} | {name} | {k} | {n} | {rate} | {100 * lo:.1f}-{100 * hi:.1f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
