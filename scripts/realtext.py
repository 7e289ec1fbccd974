#!/usr/bin/env python3
"""Measure qlint's rules on real questions nobody here wrote (../shared/corpora), per corpus, against judgments.

    .venv/bin/python scripts/realtext.py                    # per corpus and rule: fires/100, judged n, precision,
                                                            # Wilson 95%, est. false/100; noise budget per corpus
    .venv/bin/python scripts/realtext.py --corpus msahihi-kcna           # one corpus only
    .venv/bin/python scripts/realtext.py --draw O011 --corpus NAME --seed 2   # report draw: unjudged findings
    .venv/bin/python scripts/realtext.py --draw O011 --corpus NAME --seed 1 --purpose tune  # tuning draw
    .venv/bin/python scripts/realtext.py --write-summary --update-doc docs/rules-design.md

Every rule runs (preview and off-by-default ones too) with its default options on each corpus as
scripts/corpora converts it, each corpus as its own bank. A default rule's findings on an item
shape it reads only in preview (`@rule(preview_on=...)`) are left out of its row: the rule as
shipped does not make them. Findings that only say "the source has no
trap / right_when / rationale / explanation" are left out: they are true of every converted question
and are no judgement of the rule (the converted question's `missing` set says which fields its
source lacks).

Precision is per corpus, from the rule's report draw there: its findings in that corpus less those
judged on a tuning draw (judgment "draw": "tune", or no "draw": older lines), shuffled with seed
`--seed` (2) and the rule's code, the first `--n` (20). A judgment names its finding by corpus,
question (source file and id), rule and JSON pointer, so it still counts while the rule still makes
that finding. Judgments live in tests/real/judgments.jsonl, one JSON object a line: corpus,
question, rule, pointer, message, verdict ("true"/"false"), reason, round, draw. They never quote a
question (the corpora stay in shared/). The noise budget of a corpus is the sum over default rules
of fires/100 x (1 - precision); the policy (tests/test_real_precision.py) holds each default rule at
the bar on every corpus where it fires at least 5 times, and each budget at 3 per 100.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "scripts"))

import corpora  # noqa: E402
from qlint.lint.engine import lint, make_settings  # noqa: E402
from qlint.cli.config import load_config  # noqa: E402
from qlint.rules import RULES  # noqa: E402
from qlint.lint.runner import RunOptions  # noqa: E402
from qlint.model import Question  # noqa: E402
from qlint.prose.shapes import shapes  # noqa: E402

JUDGMENTS = REPO / "tests" / "real" / "judgments.jsonl"
DOC_BEGIN, DOC_END = "<!-- realtext:begin -->", "<!-- realtext:end -->"
SUMMARY = REPO / "tests" / "real" / "precision.json"
DRAW_N = 20
DRAW_SEED = 2  # the report draw's seed (issue 23 protocol); tuning draws use seed 1

# A finding that only says a field the source lacks is absent: (rule, field, words of its message).
ABSENT = (
    ("K001", "rationale", "has no rationale"),
    ("K003", "trap", "has no 'trap'"),
    ("K005", "right_when", "add right_when"),
)
READS_EXPLANATION = {"K004", "K009", "K012"}

# Rules whose verdict is a fact of the file, not a judgement of its text (schema, syntax, unique
# ids, case study links, suppression comments, forbidden or hidden characters): the precision bar
# is for heuristics.
EXACT = {"S001", "S002", "S003", "S004", "S005", "S006", "S007", "X001", "M001", "M002", "B001", "B002",
         "B009", "B010", "B011", "F001", "F003", *(f"Y{n:03d}" for n in range(1, 11))}
BAR_DEFAULT = 0.90  # judged precision a heuristic needs to be on by default
BAR_ERROR = 0.95  # ... and to be an error


@dataclass(frozen=True)
class RealFinding:
    corpus: str
    question: str  # <source file>#<qid>
    rule: str
    pointer: str
    message: str
    severity: str
    path: str  # the converted file (for showing context)
    line: int

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.corpus, self.question, self.rule, self.pointer)


def _absent(item: corpora.Converted, code: str, pointer: str, message: str) -> bool:
    for rule, fieldname, words in ABSENT:
        if code == rule and fieldname in item.missing and words in message:
            return True
    if "explanation" in item.missing and (code in READS_EXPLANATION or pointer.startswith("/explanation")):
        return True
    return False


def _preview_only(code: str, item: corpora.Converted, path: str) -> bool:
    """A default rule's finding on an item shape it reads only in preview (`preview_on`): the rule
    as shipped does not report it, so its default row leaves it out (every rule runs in preview
    here, to measure the preview rules)."""
    rule = RULES.get(code)
    if rule is None or rule.preview or not rule.shaped:
        return False
    return rule.on_shapes(shapes(Question(path, item.data))) == "preview"


def run(items: list[corpora.Converted], out: Path, jobs: int = 0) -> list[RealFinding]:
    """Write the corpora under `out`, lint each as its own bank with every rule, map findings back."""
    banks = corpora.write_bank(items, out)
    by_path = {(out / i.relpath).resolve(): i for i in items}
    found: list[RealFinding] = []
    here = os.getcwd()
    for corpus, bank in banks.items():
        os.chdir(bank)  # shown paths are relative to the bank
        try:
            settings = make_settings(load_config(bank), select=("ALL",), preview=True)
            result = lint(["."], settings, RunOptions(jobs=jobs))
        finally:
            os.chdir(here)
        for d in result.diagnostics:
            item = by_path.get((bank / d.path).resolve())
            if item is None:  # an exam file: the converter wrote it, nothing to judge
                continue
            if _absent(item, d.code, d.pointer, d.message) or _preview_only(d.code, item, d.path):
                continue
            found.append(RealFinding(item.corpus, f"{item.source}#{item.qid}", d.code, d.pointer, d.message,
                                     str(d.severity), str(bank / d.path), d.line))
    return found


def load_judgments(path: Path = JUDGMENTS) -> dict[tuple[str, str, str, str], dict[str, Any]]:
    """The latest judgment of each finding."""
    out: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    if not path.exists():
        return out
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        j = json.loads(line)
        if j.get("verdict") not in ("true", "false"):
            raise ValueError(f"{path}:{n}: verdict must be 'true' or 'false'")
        out[(j["corpus"], j["question"], j["rule"], j["pointer"])] = j
    return out


def draw(findings: Iterable[RealFinding], rule: str, n: int = DRAW_N, seed: int = DRAW_SEED) -> list[RealFinding]:
    mine = sorted({f.key: f for f in findings if f.rule == rule}.values(), key=lambda f: f.key)
    random.Random(f"{seed}-{rule}").shuffle(mine)
    return mine[:n]


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def status(rule_code: str) -> str:
    r = RULES.get(rule_code)
    if getattr(r, "preview", False):
        return "preview"
    return "default" if r.default_enabled else "off"


def tuned_keys(path: Path = JUDGMENTS) -> set[tuple[str, str, str, str]]:
    """Findings judged on a tuning draw (draw "tune"; a line without "draw" predates the field and
    counts as tune): a report draw leaves them out, so a reported figure never rests on what a
    rule was tuned against."""
    out: set[tuple[str, str, str, str]] = set()
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            j = json.loads(line)
            if j.get("draw", "tune") == "tune":
                out.add((j["corpus"], j["question"], j["rule"], j["pointer"]))
    return out


def before_rounds(path: Path = JUDGMENTS) -> dict[tuple[str, str], tuple[int, int]]:
    """Per (corpus, rule): (true, judged) over the 'before' round: draws judged on the code as it was
    before a change (their findings may no longer exist, so they are counted from the file)."""
    out: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for j in load_judgments(path).values():
        if j.get("round") == "before":
            out[(j["corpus"], j["rule"])][0] += j["verdict"] == "true"
            out[(j["corpus"], j["rule"])][1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


def report_draw(findings: Iterable[RealFinding], rule: str, tuned: set, n: int = DRAW_N,
                seed: int = DRAW_SEED) -> list[RealFinding]:
    """The rule's draw for a report: its findings not judged on a tuning draw, shuffled, the first n."""
    return draw((f for f in findings if f.key not in tuned), rule, n, seed)


def measured(code: str) -> bool:
    """A rule the table measures: it reads question text and judges single/multiple questions."""
    r = RULES.get(code)
    return r.reads_text and not r.new_types_only


def _row(code: str, fires: int, questions: int, flagged: int, sample: list[RealFinding], judged: dict) -> dict[str, Any]:
    r = RULES.get(code)
    verdicts = [judged[f.key]["verdict"] for f in sample if f.key in judged]
    k, m = verdicts.count("true"), len(verdicts)
    lo, hi = wilson(k, m)
    per100 = 100 * fires / questions if questions else 0.0
    prec = k / m if m else None
    return {
        "name": r.name, "scope": r.scope, "exact": code in EXACT, "severity": str(r.severity), "status": status(code),
        "fires": fires, "per100": round(per100, 2), "questions": flagged, "drawn": len(sample), "judged": m,
        "true": k, "precision": round(prec, 3) if m else None, "low": round(lo, 3) if m else None,
        "high": round(hi, 3) if m else None,
        # estimated false findings per 100 questions: exact rules are facts of the file
        "false100": 0.0 if code in EXACT else (round(per100 * (1 - prec), 2) if prec is not None else None),
    }


def summarise(findings: list[RealFinding], judged: dict, questions: dict[str, int], n: int = DRAW_N,
              seed: int = DRAW_SEED, tuned: set | None = None) -> dict[str, Any]:
    """Per corpus and pooled: a row per measured rule (fires, per 100, the report draw's judged
    precision and Wilson interval, estimated false findings per 100), and per corpus the noise
    budget over the default rules."""
    tuned = tuned_keys() if tuned is None else tuned
    by_corpus: dict[str, list[RealFinding]] = defaultdict(list)
    for f in findings:
        by_corpus[f.corpus].append(f)
    codes = [c for c, _ in RULES.items() if measured(c)]
    corpora_rows: dict[str, dict[str, dict[str, Any]]] = {}
    for corpus, count in questions.items():
        mine = by_corpus.get(corpus, [])
        fires = Counter(f.rule for f in mine)
        flagged: dict[str, set[str]] = defaultdict(set)
        for f in mine:
            flagged[f.rule].add(f.question)
        corpora_rows[corpus] = {
            code: _row(code, fires.get(code, 0), count, len(flagged[code]),
                       report_draw(mine, code, tuned, n, seed), judged)
            for code in codes}
    total = sum(questions.values())
    pooled: dict[str, dict[str, Any]] = {}
    for code in codes:
        rows = [rows[code] for rows in corpora_rows.values()]
        fires = sum(r["fires"] for r in rows)
        k, m = sum(r["true"] for r in rows), sum(r["judged"] for r in rows)
        lo, hi = wilson(k, m)
        false100 = sum((r["false100"] or 0.0) * questions[c] / total for c, r in
                       zip(corpora_rows, rows)) if total else 0.0
        pooled[code] = {**{f: rows[0][f] for f in ("name", "scope", "exact", "severity", "status")},
                        "fires": fires, "per100": round(100 * fires / total, 2) if total else 0.0,
                        "judged": m, "true": k, "precision": round(k / m, 3) if m else None,
                        "low": round(lo, 3) if m else None, "high": round(hi, 3) if m else None,
                        "false100": round(false100, 2)}
    return {"questions": questions, "n": n, "seed": seed, "corpora": corpora_rows, "pooled": pooled,
            "budget": {c: budget(rows) for c, rows in corpora_rows.items()}}


def budget(rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The noise budget of one corpus: estimated false findings per 100 questions over the default
    rules (volume x (1 - precision)); the volume of default rules not judged there is reported
    beside it, since the estimate cannot include it."""
    default = {c: r for c, r in rows.items() if r["status"] == "default" and not r["exact"] and r["fires"]}
    judged = {c: r for c, r in default.items() if r["false100"] is not None}
    return {"false100": round(sum(r["false100"] for r in judged.values()), 2),
            "volume100": round(sum(r["per100"] for r in default.values()), 2),
            "unjudged": sorted(c for c in default if c not in judged),
            "unjudged100": round(sum(r["per100"] for c, r in default.items() if c not in judged), 2),
            "below_bar": sorted(c for c, r in judged.items() if r["fires"] >= MIN_FIRES and r["precision"] < bar(c))}


MIN_FIRES = 5  # below this many findings in a corpus, the per-corpus policy does not bind


def bar(code: str) -> float:
    return BAR_ERROR if str(RULES.get(code).severity) == "error" else BAR_DEFAULT


def _prec(r: dict[str, Any]) -> tuple[str, str]:
    if r["precision"] is None:
        return "-", "-"
    return f"{r['precision']:.2f}", f"{r['low']:.2f}-{r['high']:.2f}"


def table(summary: dict[str, Any]) -> str:
    """The per-corpus tables (rules that fire there), the noise budgets, and the pooled view."""
    questions = summary["questions"]
    before = before_rounds()
    total = sum(questions.values())
    out = [f"Real text: {total} questions in {len(questions)} corpora (../shared/corpora via scripts/corpora); "
           f"report draw n={summary['n']}, seed {summary['seed']}, leaving out findings judged on a tuning draw. "
           f"false/100: estimated false findings per 100 questions (fires/100 x (1 - precision)). "
           f"A rule that fires fewer than {MIN_FIRES} times in a corpus is marked '<{MIN_FIRES}': "
           "the per-corpus policy does not bind there.", "",
           "Noise budget per corpus (default rules; the policy allows 3.00 false findings per 100 questions):", "",
           "| corpus | questions | default volume/100 | est. false/100 | unjudged default rules (volume/100) "
           "| below the bar |",
           "|---|---:|---:|---:|---|---|"]
    for corpus, b in summary["budget"].items():
        unj = ", ".join(b["unjudged"]) + f" ({b['unjudged100']:.2f})" if b["unjudged"] else "-"
        out.append(f"| {corpus} | {questions[corpus]} | {b['volume100']:.2f} | {b['false100']:.2f} | {unj} | "
                   f"{', '.join(b['below_bar']) or '-'} |")
    for corpus, rows in summary["corpora"].items():
        out += ["", f"**{corpus}** ({questions[corpus]} questions)", "",
                "| rule | status | severity | fires/100 | fires | judged n | precision | 95% CI | false/100 | before (n) |",
                "|---|---|---|---:|---:|---:|---:|---|---:|---|"]
        for code, r in rows.items():
            if not r["fires"]:
                continue
            prec, ci = _prec(r)
            judged = f"{r['judged']}" + (f" (of {r['drawn']})" if r["judged"] < r["drawn"] else "")
            false = "-" if r["false100"] is None else f"{r['false100']:.2f}"
            k, m = before.get((corpus, code), (0, 0))
            was = f"{k / m:.2f} ({m})" if m else "-"
            few = f" <{MIN_FIRES}" if r["fires"] < MIN_FIRES else ""
            out.append(f"| {code} {r['name']} | {r['status']} | {r['severity']} | {r['per100']:.2f} | {r['fires']}{few} "
                       f"| {judged} | {prec} | {ci} | {false} | {was} |")
    out += ["", f"**Pooled** ({total} questions; precision over every corpus's report draw; false/100 weighted "
                "by corpus size)", "",
            "| rule | status | severity | fires/100 | fires | judged n | precision | 95% CI | false/100 |",
            "|---|---|---|---:|---:|---:|---:|---|---:|"]
    for code, r in summary["pooled"].items():
        if not r["fires"]:
            continue
        prec, ci = _prec(r)
        out.append(f"| {code} {r['name']} | {r['status']} | {r['severity']} | {r['per100']:.2f} | {r['fires']} "
                   f"| {r['judged']} | {prec} | {ci} | {r['false100']:.2f} |")
    return "\n".join(out)


def context(f: RealFinding) -> dict[str, Any]:
    import yaml

    data = yaml.safe_load(Path(f.path).read_text(encoding="utf-8"))
    opts = [{"id": o["id"], "text": o["text"], "correct": o["correct"],
             **({"rationale": o["rationale"]} if "rationale" in o else {})} for o in data["options"]]
    return {"stem": data["stem"], "options": opts, "explanation": data.get("explanation")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", action="append", choices=corpora.NAMES, metavar="NAME",
                    help="only this corpus (repeatable; default: every corpus present)")
    ap.add_argument("--draw", metavar="RULE", help="print the rule's draw: unjudged findings with their question")
    ap.add_argument("--purpose", choices=("report", "tune"), default="report",
                    help="with --draw: a report draw leaves out findings judged on a tuning draw (default); "
                         "a tuning draw (seed 1, round before) takes every finding")
    ap.add_argument("--all", action="store_true", help="with --draw: judged ones too")
    ap.add_argument("--n", type=int, default=DRAW_N)
    ap.add_argument("--seed", type=int, default=DRAW_SEED)
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--write-summary", action="store_true", help=f"write {SUMMARY.relative_to(REPO)}")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--update-doc", type=Path, metavar="MD",
                    help=f"replace the table between the {DOC_BEGIN} / {DOC_END} markers in this Markdown file")
    args = ap.parse_args(argv)
    names = tuple(args.corpus) if args.corpus else corpora.present()
    if not names or not corpora.available(corpora.CORPORA, names):
        print(f"qlint: the corpora are not at {corpora.CORPORA} (set QLINT_SHARED to the shared folder)",
              file=sys.stderr)
        return 2
    if (args.write_summary or args.update_doc) and set(names) != set(corpora.NAMES):
        print("qlint: --write-summary / --update-doc measure every corpus: drop --corpus", file=sys.stderr)
        return 2
    items = corpora.convert(corpora.CORPORA, names)
    questions = {name: sum(1 for i in items if i.corpus == name) for name in names}
    with tempfile.TemporaryDirectory(prefix="qlint-real-") as tmp:
        findings = run(items, Path(tmp), args.jobs)
        judged = load_judgments()
        tuned = tuned_keys()
        if args.draw:
            rule = args.draw.upper()
            for corpus in names:
                mine = [f for f in findings if f.corpus == corpus]
                sample = (report_draw(mine, rule, tuned, args.n, args.seed) if args.purpose == "report"
                          else draw(mine, rule, args.n, args.seed))
                for f in sample:
                    if f.key in judged and not args.all:
                        continue
                    row = {"corpus": f.corpus, "question": f.question, "rule": f.rule, "pointer": f.pointer,
                           "message": f.message, "judged": judged.get(f.key, {}).get("verdict")}
                    print(json.dumps({**row, "context": context(f)}, ensure_ascii=False))
            return 0
    summary = summarise(findings, judged, questions, args.n, args.seed, tuned)
    text = table(summary)
    print(json.dumps(summary, indent=1) if args.json else text)
    if args.update_doc:
        doc = args.update_doc.read_text(encoding="utf-8")
        head, _, rest = doc.partition(DOC_BEGIN)
        _, _, tail = rest.partition(DOC_END)
        if not rest or DOC_END not in rest:
            print(f"qlint: {args.update_doc}: no {DOC_BEGIN} ... {DOC_END} markers", file=sys.stderr)
            return 2
        args.update_doc.write_text(f"{head}{DOC_BEGIN}\n{text}\n{DOC_END}{tail}", encoding="utf-8")
    if args.write_summary:
        SUMMARY.parent.mkdir(parents=True, exist_ok=True)
        SUMMARY.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
