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
from qlint.prose.shapes import shapes  # noqa: E402
from qlint.cli.config import load_config  # noqa: E402
from qlint.rules import RULES  # noqa: E402

KEY_RULES = ("K003", "K004", "K010", "K011", "K012", "K013", "K014", "K015", "K019", "K020", "K021")
CORRUPTIONS = ("key-moved", "key-swap", "distractor-swap", "foreign-expl", "named-distractor", "argued-distractor")
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


# The corpora whose questions carry per-option reasons or a key-anchored explanation (issue 23's
# targets); `--corpus all` runs every converted corpus.
REASONED = ("se-edu-se-book", "carpentries-lessons", "casimedicos-arg", corpora.SNTS)


def corpus_items(root: Path = corpora.CORPORA, names: tuple[str, ...] = corpora.AWS) -> list[Item]:
    return [Item(c.corpus, c.data, set(c.missing)) for c in corpora.convert(root, names)]


# ---------------------------------------------------------------------------------------------
# checking


def default_rules(codes: tuple[str, ...] = KEY_RULES) -> tuple[str, ...]:
    """The key-agreement rules a user gets without `preview = true` or a `select`."""
    return tuple(c for c in codes if c in RULES.names() and RULES.get(c).default_enabled
                 and not getattr(RULES.get(c), "preview", False))


def judged_precision(path: Path = REPO / "tests" / "real" / "precision.json",
                     corpus: str | None = None) -> dict[str, float]:
    """Per rule, its judged precision on real text: on `corpus` where the summary has it judged
    there (scripts/realtext.py writes one table per corpus), else pooled over the corpora."""
    if not path.exists():
        return {}
    summary = json.loads(path.read_text(encoding="utf-8"))
    pooled = summary.get("pooled", summary.get("rules", {}))
    out = {c: r["precision"] for c, r in pooled.items() if r.get("precision") is not None}
    for c, r in summary.get("corpora", {}).get(corpus or "", {}).items():
        if r.get("precision") is not None:
            out[c] = r["precision"]
    return out


class Checker:
    def __init__(self, codes: tuple[str, ...] = KEY_RULES) -> None:
        config = load_config(REPO)
        self.rules = [RULES.get(c) for c in codes if c in RULES.names()]
        self.contexts = [RuleContext(r, config, {}) for r in self.rules]

    def findings(self, item: Item, data: dict[str, Any] | None = None) -> set[tuple[str, str]]:
        q = Question("corruption.yaml", data if data is not None else item.data)
        out = set()
        for r, ctx in zip(self.rules, self.contexts):
            code = r.code
            if r.shaped:  # as the engine does: no finding on a shape it abstains on
                state = r.on_shapes(shapes(q))
                if state == "abstains":
                    continue
                if state == "preview":
                    code += " (preview here)"  # not a default rule on this item
            for f in r.check(q, ctx):
                if _ABSENT.search(f.message):
                    continue
                if "explanation" in item.missing and f.pointer.startswith("/explanation"):
                    continue
                out.add((code, f.pointer))
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


# ---------------------------------------------------------------------------------------------
# an explanation rewritten to name a distractor as the answer, or to argue for one in plain words
#
# Phrasings come in two sets: TUNE (the rules were developed against these) and HELD_OUT (never
# looked at while the rules were written; the reported figures and the tests use them). Each
# phrasing is a template over the distractor's name, written one of several ways (its text, the
# words only it has, an acronym, its letter or number, "Option C (name)"), and a body: the
# distractor's right_when when it has one (when it would be the answer), else nothing.

_Name = dict[str, str]

NAMED_TUNE = (
    "The correct answer is {x}. {body}",
    "{X} is the best choice: {lc}",
    "Answer: {x}. {body}",
    "{X} is correct because {lc}",
)
NAMED_HELD_OUT = (
    "The right answer here is {x}, since {lc}",
    "Correct answer: {x}. {body}",
    "{X} is the correct option. {body}",
    "The best answer is {x}: {lc}",
    "{X} is the right choice. {body}",
    "So the answer is {x}. {body}",
)
ARGUED_TUNE = (
    "{X} fits this scenario: {lc}",
    "Use {x}. {body}",
    "{X} is what the team needs here. {body}",
)
ARGUED_HELD_OUT = (
    "The engineer should choose {x}, because {lc}",
    "{body} That is why {x} is the way to go.",
    "{X} suits these requirements. {body}",
    "Go with {x}: {lc}",
)
PHRASINGS = {"tune": (NAMED_TUNE, ARGUED_TUNE), "held-out": (NAMED_HELD_OUT, ARGUED_HELD_OUT)}
phrasing_set = "held-out"  # main() and the tests choose; the rules were tuned on "tune"

_VENDOR = {"amazon", "aws"}


def _tokens(text: str) -> list[str]:
    return re.findall(r"[A-Za-z0-9][A-Za-z0-9\-]*", text)


def own_words(opts: list[dict], i: int) -> list[str]:
    """Tokens of option i's text, in order, that no other option's text has (stopwords out)."""
    others = set().union(*(words(o["text"]) for j, o in enumerate(opts) if j != i))
    return [t for t in _tokens(opts[i]["text"]) if t.casefold() not in others | STOPWORDS | _VENDOR]


def acronym(text: str) -> str | None:
    """An all-capital name in the text ("SMOTE", "EMR"), else the initials of a run of two or
    more capitalised words ("RCF" for "Random Cut Forest"); None when it has neither."""
    toks = [t for t in _tokens(text) if t.casefold() not in _VENDOR]
    caps = [t for t in toks if len(t) >= 2 and t.isupper() and t.isalpha()]
    if caps:
        return caps[0]
    run: list[str] = []
    best: list[str] = []
    for t in toks + ["."]:
        if t[:1].isupper():
            run.append(t)
        else:
            best = run if len(run) > len(best) else best
            run = []
    return "".join(t[0] for t in best).upper() if len(best) >= 2 else None


def _singular(ws: set[str]) -> set[str]:
    """Plural -s folded ("tables" names "TABLE"): a body that says the key's word in the plural
    argues about the key."""
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in ws}


def _names(opts: list[dict], i: int) -> list[tuple[str, str]]:
    """(form, name) pairs for option i: each way an explanation may name it."""
    text = " ".join(opts[i]["text"].split()).rstrip(".")
    out = [("text", text)]
    own = own_words(opts, i)
    if own:
        out.append(("own-words", " ".join(own)))
    ac = acronym(opts[i]["text"])
    others = [o["text"] for j, o in enumerate(opts) if j != i]
    if ac and ac.casefold() not in set().union(*map(words, others)) and ac not in map(acronym, others):
        out.append(("acronym", ac))
    letter = "ABCDEFGHIJ"[i]
    out += [("letter", f"option {letter}"), ("number", f"option {i + 1}")]
    if own:
        out.append(("letter+words", f"option {letter} ({own[0].lower()})"))
    return out


def _fill(template: str, name: str, body: str) -> str:
    body = " ".join(body.split())
    lc = body[:1].lower() + body[1:] if body[1:2].islower() else body
    cap = name[:1].upper() + name[1:]
    return " ".join(template.format(x=name, X=cap, body=body, lc=lc).split()).replace(" .", ".").strip()


def _rewrite(item: Item, rng: random.Random, templates: tuple[str, ...], forms: set[str] | None,
             need_body: bool) -> tuple[dict, bool] | None:
    opts = item.data["options"]
    keys = [i for i, o in enumerate(opts) if o.get("correct")]
    dis = [i for i, o in enumerate(opts) if not o.get("correct")]
    if not keys or not dis:
        return None
    d = rng.choice(dis)
    body = opts[d].get("right_when") or ""
    if need_body and not body.strip():
        return None
    choices = [(f, n) for f, n in _names(opts, d) if forms is None or f in forms]
    form, name = rng.choice(choices)
    template = rng.choice(templates)
    if not body.strip():
        template = template.replace("{body}", "").replace(": {lc}", ".").replace(", since {lc}", ".") \
            .replace(" because {lc}", ".").replace(", because {lc}", ".")
    data = copy.deepcopy(item.data)
    data["explanation"] = _fill(template, name, body)
    # detectable: the name tells the distractor from every key, and the body argues for no key
    # (none of the key's own words against the distractor)
    tells = form in ("letter", "number", "letter+words") or any(
        words(name) & distinctive(opts[d]["text"], opts[k]["text"]) for k in keys) or form == "acronym"
    for_key = any(_singular(distinctive(opts[k]["text"], opts[d]["text"])) & _singular(words(body)) for k in keys)
    return data, bool(tells and not for_key)


def named_distractor(item: Item, rng: random.Random, pool: list[Item]) -> tuple[dict, bool] | None:
    if "explanation" in item.missing:
        return None
    return _rewrite(item, rng, PHRASINGS[phrasing_set][0], None, need_body=False)


def argued_distractor(item: Item, rng: random.Random, pool: list[Item]) -> tuple[dict, bool] | None:
    """Plain words: the distractor named by its text or its own words, no verdict word."""
    if "explanation" in item.missing:
        return None
    return _rewrite(item, rng, PHRASINGS[phrasing_set][1], {"text", "own-words", "acronym"}, need_body=True)


MAKERS: dict[str, Callable[..., tuple[dict, bool] | None]] = {
    "key-moved": key_moved, "key-swap": key_swap, "distractor-swap": distractor_swap, "foreign-expl": foreign_expl,
    "named-distractor": named_distractor, "argued-distractor": argued_distractor,
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


VARIANTS = 6  # rewrites per question for the rewritten-explanation corruptions (a bank has few questions)
_REWRITES = ("named-distractor", "argued-distractor")


def _runs() -> list[tuple[str, int]]:
    """(corruption, variant): the first four once each on the corpus's shared seeded stream (so
    their figures do not move when corruptions are added), the rewrites VARIANTS times each on a
    stream of their own per question."""
    return [(n, 0) for n in CORRUPTIONS if n not in _REWRITES] + [(n, v) for n in _REWRITES for v in range(1, VARIANTS + 1)]


def run(items: list[Item], seed: int = 12, limit: int | None = None, checker: Checker | None = None) -> list[Result]:
    """Default rules decide "caught" and "clean"; `checker` (all key-agreement rules, preview
    ones included, unless given) gives the preview-inclusive figures."""
    checker = checker or Checker()
    defaults = set(default_rules(tuple(r.code for r in checker.rules)))
    out = []
    for corpus in sorted({i.corpus for i in items}):
        precision = judged_precision(corpus=corpus)
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
            for name, variant in _runs():
                own = random.Random(f"{seed}:{corpus}:{name}:{item.data.get('id')}:{variant}") if variant else rng
                made = MAKERS[name](item, own, pool)
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
    ap.add_argument("--phrasings", choices=sorted(PHRASINGS), default="held-out",
                    help="the rewritten explanations' phrasings (the rules were tuned on 'tune')")
    ap.add_argument("--corpus", action="append", default=None,
                    help="a converted corpus to corrupt (repeatable; 'reasoned' for issue 23's four, 'all' for every "
                         "one; default: the two AWS banks)")
    args = ap.parse_args(argv)
    global phrasing_set
    phrasing_set = args.phrasings
    items = bank_items()
    if not args.no_corpora:
        names: tuple[str, ...] = corpora.AWS
        if args.corpus:
            names = tuple(n for c in args.corpus for n in (
                REASONED if c == "reasoned" else corpora.NAMES if c == "all" else (c,)))
        if corpora.available(corpora.CORPORA, names):
            items += corpus_items(corpora.CORPORA, names)
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
