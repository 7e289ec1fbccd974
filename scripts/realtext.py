#!/usr/bin/env python3
"""Measure qlint's rules on real questions nobody here wrote (../shared/corpora), against judgments.

    .venv/bin/python scripts/realtext.py                 # per rule: fires per 100, judged n, precision, Wilson 95%
    .venv/bin/python scripts/realtext.py --draw O011     # the rule's seeded draw, unjudged findings with context
    .venv/bin/python scripts/realtext.py --write-summary  # also refresh tests/real/precision.json

Every rule runs (preview and off-by-default ones too) with its default options on the corpora as
scripts/corpora converts them. Findings that only say "the source has no trap / right_when /
rationale / explanation" are left out: they are true of every converted question and are no
judgement of the rule (the converted question's `missing` set says which fields its source lacks).

Precision comes from a seeded random draw per rule: the first `--n` (20) findings of a shuffle of
the rule's current findings (seed `--seed` and the rule's code), all of them when it makes fewer.
A judgment names its finding by corpus, question (source file and id), rule and JSON pointer, so a
judgment made before a rule changed still counts for the same finding if the rule still makes it;
a finding the rule no longer makes drops out. Judgments live in tests/real/judgments.jsonl, one JSON
object a line: corpus, question, rule, pointer, message, verdict ("true"/"false"), reason, round.
They never quote a question (the corpora stay in shared/).
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

JUDGMENTS = REPO / "tests" / "real" / "judgments.jsonl"
DOC_BEGIN, DOC_END = "<!-- realtext:begin -->", "<!-- realtext:end -->"
SUMMARY = REPO / "tests" / "real" / "precision.json"
DRAW_N = 20
DRAW_SEED = 2026

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
            if _absent(item, d.code, d.pointer, d.message):
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


def before_rounds(path: Path = JUDGMENTS) -> dict[str, tuple[int, int]]:
    """Per rule (true, judged) over the 'before' round: seeded draws judged on the code as it was
    before a change (their findings may no longer exist, so they are counted from the file)."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for j in load_judgments(path).values():
        if j.get("round") == "before":
            out[j["rule"]][0] += j["verdict"] == "true"
            out[j["rule"]][1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


def summarise(findings: list[RealFinding], judged: dict, questions: int, n: int = DRAW_N,
              seed: int = DRAW_SEED) -> dict[str, dict[str, Any]]:
    fires = Counter(f.rule for f in findings)
    flagged: dict[str, set[str]] = defaultdict(set)
    for f in findings:
        flagged[f.rule].add(f"{f.corpus}/{f.question}")
    rows: dict[str, dict[str, Any]] = {}
    for code, r in RULES.items():
        # response rules read no text; the corpora hold no ordering or matching question to judge
        if (r.scope == "load" and code not in fires) or not r.reads_text or r.new_types_only:
            continue
        sample = draw(findings, code, n, seed)
        verdicts = [judged[f.key]["verdict"] for f in sample if f.key in judged]
        k = verdicts.count("true")
        m = len(verdicts)
        lo, hi = wilson(k, m)
        rows[code] = {
            "name": r.name, "scope": r.scope, "exact": code in EXACT, "severity": str(r.severity), "status": status(code),
            "fires": fires.get(code, 0), "per100": round(100 * fires.get(code, 0) / questions, 2),
            "questions": len(flagged[code]), "drawn": len(sample), "judged": m, "true": k,
            "precision": round(k / m, 3) if m else None, "low": round(lo, 3) if m else None,
            "high": round(hi, 3) if m else None,
        }
    return rows


def table(rows: dict[str, dict[str, Any]], questions: int) -> str:
    before = before_rounds()
    out = [f"Real text: {questions} questions (../shared/corpora via scripts/corpora.py); "
           f"draw n={DRAW_N}, seed {DRAW_SEED}. 'before': the judged draw on the code before the accuracy work.",
           "",
           "| rule | name | scope | status | severity | fires/100 | questions | judged n | precision | 95% CI "
           "| before: precision (n) |",
           "|---|---|---|---|---|---:|---:|---:|---:|---|---|"]
    for code, r in rows.items():
        prec = f"{r['precision']:.2f}" if r["precision"] is not None else "-"
        ci = f"{r['low']:.2f}-{r['high']:.2f}" if r["precision"] is not None else "-"
        judged = f"{r['judged']}" + (f" (of {r['drawn']})" if r["judged"] < r["drawn"] else "")
        k, m = before.get(code, (0, 0))
        was = f"{k / m:.2f} ({m})" if m else "-"
        out.append(f"| {code} | {r['name']} | {r['scope']} | {r['status']} | {r['severity']} | {r['per100']:.2f} | "
                   f"{r['questions']} | {judged} | {prec} | {ci} | {was} |")
    default_item = [r for r in rows.values() if r["status"] == "default" and r["scope"] == "item"]
    per100 = sum(r["per100"] for r in default_item)
    weighted = [(r["fires"], r["precision"]) for r in default_item if r["precision"] is not None and r["fires"]]
    total = sum(w for w, _ in weighted)
    est = sum(w * p for w, p in weighted) / total if total else float("nan")
    out += ["", f"Default item rules: {per100:.1f} findings per 100 questions; precision estimated over their "
                f"findings (each rule's precision weighted by its fires): {est:.3f}."]
    return "\n".join(out)


def context(f: RealFinding) -> dict[str, Any]:
    import yaml

    data = yaml.safe_load(Path(f.path).read_text(encoding="utf-8"))
    opts = [{"id": o["id"], "text": o["text"], "correct": o["correct"],
             **({"rationale": o["rationale"]} if "rationale" in o else {})} for o in data["options"]]
    return {"stem": data["stem"], "options": opts, "explanation": data.get("explanation")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--draw", metavar="RULE", help="print the rule's draw: unjudged findings with their question")
    ap.add_argument("--all", action="store_true", help="with --draw: judged ones too")
    ap.add_argument("--n", type=int, default=DRAW_N)
    ap.add_argument("--seed", type=int, default=DRAW_SEED)
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--write-summary", action="store_true", help=f"write {SUMMARY.relative_to(REPO)}")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    ap.add_argument("--update-doc", type=Path, metavar="MD",
                    help=f"replace the table between the {DOC_BEGIN} / {DOC_END} markers in this Markdown file")
    args = ap.parse_args(argv)
    if not corpora.available():
        print(f"qlint: the corpora are not at {corpora.CORPORA} (set QLINT_SHARED to the shared folder)",
              file=sys.stderr)
        return 2
    items = corpora.convert(names=corpora.AWS)
    with tempfile.TemporaryDirectory(prefix="qlint-real-") as tmp:
        findings = run(items, Path(tmp), args.jobs)
        judged = load_judgments()
        if args.draw:
            for f in draw(findings, args.draw.upper(), args.n, args.seed):
                if f.key in judged and not args.all:
                    continue
                row = {"corpus": f.corpus, "question": f.question, "rule": f.rule, "pointer": f.pointer,
                       "message": f.message, "judged": judged.get(f.key, {}).get("verdict")}
                print(json.dumps({**row, "context": context(f)}, ensure_ascii=False))
            return 0
    rows = summarise(findings, judged, len(items), args.n, args.seed)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(table(rows, len(items)))
    if args.update_doc:
        doc = args.update_doc.read_text(encoding="utf-8")
        head, _, rest = doc.partition(DOC_BEGIN)
        _, _, tail = rest.partition(DOC_END)
        if not rest or DOC_END not in rest:
            print(f"qlint: {args.update_doc}: no {DOC_BEGIN} ... {DOC_END} markers", file=sys.stderr)
            return 2
        args.update_doc.write_text(f"{head}{DOC_BEGIN}\n{table(rows, len(items))}\n{DOC_END}{tail}", encoding="utf-8")
    if args.write_summary:
        SUMMARY.parent.mkdir(parents=True, exist_ok=True)
        SUMMARY.write_text(json.dumps({"questions": len(items), "n": args.n, "seed": args.seed, "rules": rows},
                                      indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
