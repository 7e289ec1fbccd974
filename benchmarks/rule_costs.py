"""What each rule costs per question, on a generated bank: where a lint's CPU time goes.

    .venv/bin/python benchmarks/rule_costs.py                      # generates 10,000 questions
    .venv/bin/python benchmarks/rule_costs.py --questions 2000
    .venv/bin/python benchmarks/rule_costs.py --bank /tmp/rs/bank  # an existing bank folder
    .venv/bin/python benchmarks/rule_costs.py --grown --selection default   # `make bench`'s findings-heavy bank, as `qlint check` runs

Every rule runs (`--select ALL`; `--selection default`: what `qlint check` runs), in the engine's order, on fresh questions: each item rule is
timed per call, so a rule that first builds a view later rules share pays for it, as in a real
run. The reading, parsing and schema figures put the rules in proportion to the per-file floor.
Bank rules run once over the whole bank (a fresh Bank, nothing memoised) and are shown per
question. Placing the findings (`engine.place`) and making the bank entries are timed too.
Single process. Rows are CPU time of this process (a shared machine's other load does not
inflate them as it does wall time).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthbank import generate, grow  # noqa: E402

from qlint.bank import Bank  # noqa: E402
from qlint.bank.entry import BankEntry  # noqa: E402
from qlint.rules.context import RuleContext  # noqa: E402
from qlint.lint.engine import entry_gram, load_exams, make_settings, place
from qlint.loading.document import Document  # noqa: E402
from qlint.loading.fast import load_fast  # noqa: E402
from qlint.loading.reader import decode, read_bytes  # noqa: E402
from qlint.loading.schema import validate  # noqa: E402
from qlint.model import Question  # noqa: E402
from qlint.cli.config import load_config  # noqa: E402
from qlint.project.discovery import discover  # noqa: E402


def load(root: Path, select: tuple[str, ...] = ("ALL",)) -> tuple[object, list[Question], dict[str, float]]:
    """Settings for the bank at `root` and its valid questions; the loading phases' seconds."""
    config = load_config(root)
    settings = make_settings(config, select=select)
    load_exams(settings)
    files = [f for f in discover([str(config.bank_dir)])[0] if not f.startswith(str(config.exams_dir))]
    phases = {"read + decode": 0.0, "parse (libyaml)": 0.0, "schema": 0.0}
    questions = []
    for f in files:
        t0 = time.process_time()
        text = decode(read_bytes(f, config.limits))
        t1 = time.process_time()
        data = load_fast(text, config.limits)
        t2 = time.process_time()
        errors = validate("question", data)
        t3 = time.process_time()
        phases["read + decode"] += t1 - t0
        phases["parse (libyaml)"] += t2 - t1
        phases["schema"] += t3 - t2
        if not errors:
            questions.append(Question(f, data))
            texts[f] = text
    return settings, questions, phases


texts: dict[str, str] = {}  # path -> text, for placing findings


def item_costs(settings, questions: list[Question]) -> tuple[dict[str, float], dict[str, int], dict[str, list]]:
    """Seconds and findings per item rule, run question by question as the engine does; the
    findings per path."""
    rules = settings.selection.rules("item")
    contexts = [(r, RuleContext(r, settings.config, settings.exams)) for r in rules]
    seconds = {r.code: 0.0 for r in rules}
    found = {r.code: 0 for r in rules}
    findings: dict[str, list] = {}
    clock = time.process_time
    for q in questions:
        q = Question(q.path, q.data)  # fresh: no view computed by an earlier pass
        for r, ctx in contexts:
            t0 = clock()
            got = list(r.check(q, ctx))
            seconds[r.code] += clock() - t0
            found[r.code] += len(got)
            findings.setdefault(q.path, []).extend((r, f) for f in got)
    return seconds, found, findings


def placing_costs(settings, questions: list[Question], findings: dict[str, list]) -> dict[str, float]:
    """Seconds to place each file's findings at line:col, and to make its bank entry."""
    out = {"place findings": 0.0, "bank entry": 0.0}
    gram = entry_gram(settings)
    for q in questions:
        t0 = time.process_time()
        place(findings.get(q.path, []), Document(q.path, texts[q.path], q.path), settings)
        t1 = time.process_time()
        BankEntry.of(q.path, q.data, gram)
        out["place findings"] += t1 - t0
        out["bank entry"] += time.process_time() - t1
    return out


def bank_costs(settings, questions: list[Question]) -> tuple[dict[str, float], dict[str, int]]:
    bank = Bank.of_questions(questions, settings.exams, {os.path.realpath(q.path) for q in questions})
    seconds, found = {}, {}
    for r in settings.selection.rules("bank"):
        ctx = RuleContext(r, settings.config, settings.exams, bank)
        t0 = time.process_time()
        found[r.code] = len(list(r.check(bank, ctx)))
        seconds[r.code] = time.process_time() - t0
    return seconds, found


def table(title: str, seconds: dict[str, float], found: dict[str, int] | None, n: int) -> str:
    lines = [title, f"{'rule':<18}{'us/question':>12}{'findings':>10}", "-" * 40]
    for code, s in sorted(seconds.items(), key=lambda kv: -kv[1]):
        lines.append(f"{code:<18}{s / n * 1e6:>12.1f}{'' if found is None else found[code]:>10}")
    lines.append("-" * 40)
    lines.append(f"{'total':<18}{sum(seconds.values()) / n * 1e6:>12.1f}")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--questions", type=int, default=10000, help="size of the generated bank (default 10000)")
    p.add_argument("--bank", type=Path, help="an existing bank folder instead (its parent holds qlint.toml)")
    p.add_argument("--grown", action="store_true", help="generate the findings-heavy bank (synthbank.grow) instead")
    p.add_argument("--selection", choices=("all", "default"), default="all",
                   help="every rule (default), or the rules `qlint check` runs by default")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.bank:
            root = args.bank.resolve().parent
        else:
            root = Path(tmp)
            (grow if args.grown else generate)(root / "bank", args.questions)
            (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
        settings, questions, phases = load(root, ("ALL",) if args.selection == "all" else ())
        n = len(questions)
        print(f"{n} valid questions in {args.bank or root / 'bank'}\n")
        print(table("loading (per file)", phases, None, n) + "\n")
        cpu = time.process_time()
        seconds, found, findings = item_costs(settings, questions)
        cpu_items = time.process_time() - cpu
        print(table("item rules (engine order, shared views)", seconds, found, n))
        print(f"(CPU time of the pass: {cpu_items / n * 1e6:.1f} us/question)\n")
        with_findings = sum(1 for q in questions if findings.get(q.path))
        after = placing_costs(settings, questions, findings)
        print(table(f"after the rules (per file; {with_findings} of {n} files have item findings)", after, None, n) + "\n")
        cpu = time.process_time()
        bseconds, bfound = bank_costs(settings, questions)
        cpu_bank = time.process_time() - cpu
        print(table("bank rules (whole bank, per question)", bseconds, bfound, n))
        print(f"(CPU time of the pass: {cpu_bank / n * 1e6:.1f} us/question)\n")
        total = sum(phases.values()) + sum(seconds.values()) + sum(after.values()) + sum(bseconds.values())
        print(f"per question, loading + item rules + placing + bank rules: {total / n * 1e3:.3f} ms CPU; "
              f"rules alone {(cpu_items + cpu_bank) / n * 1e3:.3f} ms CPU")


if __name__ == "__main__":
    main()
