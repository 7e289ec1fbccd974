#!/usr/bin/env python3
"""Score qlint's item rules on the labelled set (tests/labelled/): per rule TP/FP/FN/TN, precision,
recall and Cohen's kappa, with 95% intervals, beside the published figures from rules.md.

    .venv/bin/python scripts/rule_quality.py [--set tests/labelled/items.yaml] [--details]

A rule "predicts" an item when it reports at least one finding on it; an item is a positive when
its `labels` list the rule's code. Rules run with their default options (not the project's
configuration), because the published figures are for the published thresholds.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from qlint.rules.context import RuleContext  # noqa: E402
from qlint.loading.schema import validate  # noqa: E402
from qlint.model import Question  # noqa: E402
from qlint.project.config import Config  # noqa: E402
from qlint.project.exams import Exam  # noqa: E402
from qlint.rules import RULES  # noqa: E402

DEFAULT_SET = REPO / "tests" / "labelled" / "items.yaml"
EXAM_DIRS = (REPO / "bank" / "exams", REPO / "tests" / "labelled" / "exams")

# Published precision / recall / kappa (MedIWF on the BenchMarker labels; ../shared/reference/rules.md).
PUBLISHED: dict[str, tuple[str, float, float, float]] = {
    "O001": ("none-of-the-above", 1.00, 0.50, 0.66),
    "O002": ("all-of-the-above", 1.00, 0.57, 0.72),
    "T004": ("fill-in-blank", 1.00, 0.88, 0.93),
    "T001|T002": ("negative stem", 0.67, 0.67, 0.63),
    "O004": ("numeric order", 0.93, 0.74, 0.81),
    "O003": ("K-type", 0.75, 0.19, 0.28),
    "C002": ("length outlier", 0.25, 0.39, 0.14),
    "O009": ("absolute terms", 0.29, 0.53, 0.30),
    "C003": ("word repeat", 0.42, 0.36, 0.35),
    "O010": ("vague terms", 0.0, 0.0, 0.0),
    "C004": ("grammatical consistency", 0.0, 0.0, 0.0),
}
APPROXIMATE = {"O010", "C004"}  # rules.md gives "~0"


@dataclass(frozen=True)
class Item:
    question: Question
    labels: frozenset[str]


@dataclass(frozen=True)
class Confusion:
    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.fn + self.tn


class SetError(Exception):
    """The labelled set is malformed: a schema error or an unknown rule code in a label."""


def load_set(path: Path = DEFAULT_SET) -> tuple[list[Item], set[str]]:
    """The labelled items (defaults merged, schema-checked) and the codes the set does not label."""
    spec = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    defaults = spec.get("defaults", {})
    unlabelled = set(spec.get("unlabelled", []))
    items, seen = [], set()
    for entry in spec["items"]:
        data = {**defaults, **entry["question"]}
        errors = validate("question", data)
        if errors:
            raise SetError(f"{data.get('id')}: {errors[0].pointer or '/'}: {errors[0].message}")
        if data["id"] in seen:
            raise SetError(f"{data['id']}: duplicate id")
        seen.add(data["id"])
        labels = frozenset(entry.get("labels") or [])
        unknown = [c for c in labels if c not in RULES]
        if unknown:
            raise SetError(f"{data['id']}: unknown rule code {unknown[0]}")
        items.append(Item(Question(f"{path}#{data['id']}", data), labels))
    return items, unlabelled


def load_exams(dirs: tuple[Path, ...] = EXAM_DIRS) -> dict[str, Exam]:
    exams = {}
    for folder in dirs:
        for f in sorted(folder.glob("*.yaml")):
            data = YAML(typ="safe").load(f.read_text(encoding="utf-8"))
            exams[data["code"]] = Exam.from_data(data, str(f))
    return exams


def predict(items: list[Item], codes: list[str], exams: dict[str, Exam]) -> dict[str, set[str]]:
    """For each rule code, the ids of the items it reports on (default options)."""
    config = Config(root=REPO)
    out: dict[str, set[str]] = {}
    for code in codes:
        rule = RULES.get(code)
        ctx = RuleContext(rule, config, exams)
        out[code] = {it.question.id for it in items if any(True for _ in rule.check(it.question, ctx))}
    return out


def confusion(items: list[Item], codes: set[str], predicted: set[str]) -> Confusion:
    """Confusion counts for a rule (or a group of codes scored as one) against the labels."""
    tp = fp = fn = tn = 0
    for it in items:
        truth = bool(it.labels & codes)
        said = it.question.id in predicted
        tp += truth and said
        fp += said and not truth
        fn += truth and not said
        tn += not truth and not said
    return Confusion(tp, fp, fn, tn)


def cohen_kappa(c: Confusion) -> float:
    """Cohen's kappa of rule vs labels: (po - pe) / (1 - pe); 1.0 when both agree on a constant."""
    n = c.n
    if not n:
        return float("nan")
    po = (c.tp + c.tn) / n
    pe = ((c.tp + c.fp) * (c.tp + c.fn) + (c.fn + c.tn) * (c.fp + c.tn)) / (n * n)
    return 1.0 if pe == 1 else (po - pe) / (1 - pe)


def kappa_interval(c: Confusion, z: float = 1.959964) -> tuple[float, float]:
    """Approximate 95% interval for kappa from Cohen's (1960) large-sample standard error.

    Kappa is not a proportion, so it has no Clopper-Pearson interval; with tens of items this
    normal approximation is rough, which the table says."""
    n, k = c.n, cohen_kappa(c)
    po = (c.tp + c.tn) / n
    pe = ((c.tp + c.fp) * (c.tp + c.fn) + (c.fn + c.tn) * (c.fp + c.tn)) / (n * n)
    if pe >= 1:
        return (k, k)
    se = math.sqrt(po * (1 - po) / n) / (1 - pe)
    return max(-1.0, k - z * se), min(1.0, k + z * se)


def _binom_cdf(k: int, n: int, p: float) -> float:
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def _solve(f, target: float) -> float:
    """p in [0, 1] with f(p) == target for a decreasing f, by bisection (exact to 1e-12)."""
    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if f(mid) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def clopper_pearson(k: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """Exact (Clopper-Pearson) interval for a binomial proportion k/n.

    Lower bound: the p with P(X >= k) = alpha/2; upper: the p with P(X <= k) = alpha/2."""
    if n == 0:
        return (float("nan"), float("nan"))
    lower = 0.0 if k == 0 else _solve(lambda p: _binom_cdf(k - 1, n, p), 1 - alpha / 2)
    upper = 1.0 if k == n else _solve(lambda p: _binom_cdf(k, n, p), alpha / 2)
    return lower, upper


def _ratio(k: int, n: int) -> str:
    if not n:
        return "   -                "
    lo, hi = clopper_pearson(k, n)
    return f"{k / n:4.2f} [{lo:4.2f}-{hi:4.2f}]"


def table(items: list[Item], unlabelled: set[str], details: bool = False) -> str:
    codes = [c for c, r in RULES.items() if r.scope == "item" and c not in unlabelled
             and not r.new_types_only]  # the set holds single and multiple questions only
    exams = load_exams()
    predicted = predict(items, codes, exams)
    rows = [(c, RULES.get(c).name, {c}, predicted[c]) for c in codes]
    for group in (g for g in PUBLISHED if "|" in g):
        parts = group.split("|")
        rows.append((group, PUBLISHED[group][0], set(parts), set().union(*(predicted[p] for p in parts))))
    head = (f"{'rule':<10}{'name':<26}{'pos':>4}{'TP':>4}{'FP':>4}{'FN':>4}{'TN':>4}  "
            f"{'precision [95% CI]':<20}  {'recall [95% CI]':<20}  {'kappa [~95% CI]':<21}  published P/R/kappa")
    lines = [f"{len(items)} labelled items; intervals: Clopper-Pearson (precision, recall), "
             "Cohen 1960 normal approximation (kappa)", head, "-" * len(head)]
    for code, name, group, said in rows:
        c = confusion(items, group, said)
        k = cohen_kappa(c)
        lo, hi = kappa_interval(c)
        pub = PUBLISHED.get(code)
        pub_s = ""
        if pub:
            approx = "~" if code in APPROXIMATE else ""
            pub_s = f"{approx}{pub[1]:.2f}/{approx}{pub[2]:.2f}/{approx}{pub[3]:.2f} ({pub[0]})"
        kap = f"{k:5.2f} [{lo:5.2f}-{hi:4.2f}]" if not math.isnan(k) else "  -"
        lines.append(f"{code:<10}{name[:25]:<26}{c.tp + c.fn:>4}{c.tp:>4}{c.fp:>4}{c.fn:>4}{c.tn:>4}  "
                     f"{_ratio(c.tp, c.tp + c.fp):<20}  {_ratio(c.tp, c.tp + c.fn):<20}  {kap:<21}  {pub_s}")
        if details:
            for it in items:
                truth, hit = bool(it.labels & group), it.question.id in said
                if truth != hit:
                    lines.append(f"{'':<10}{'FP' if hit else 'FN'} {it.question.id}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", type=Path, default=DEFAULT_SET, help="labelled set (YAML)")
    p.add_argument("--details", action="store_true", help="list the false positives and negatives under each rule")
    args = p.parse_args(argv)
    try:
        items, unlabelled = load_set(args.set)
    except (SetError, OSError) as exc:
        print(f"rule_quality: {args.set}: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(table(items, unlabelled, args.details))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
