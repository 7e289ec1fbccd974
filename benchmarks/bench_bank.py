"""Time the bank rules on a generated bank and check the planted near-duplicates are found.

    .venv/bin/python benchmarks/bench_bank.py --questions 20000            # in memory: rules only
    .venv/bin/python benchmarks/bench_bank.py --questions 20000 --files    # also end to end via files

The in-memory run builds the Bank the engine would build and times each bank rule's check, so
the figures are "beyond loading". With --files the bank is written as YAML and `lint()` runs
twice: schema only (the loading floor), then with the bank rules; the difference is what bank
rules add end to end, including placing their findings at YAML lines.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthbank import planted as generate, write_planted as write  # noqa: E402

from qlint.bank import Bank  # noqa: E402
from qlint.bank.entry import BankEntry  # noqa: E402
from qlint.bank.similarity import SimilarityIndex, shingle_sets  # noqa: E402
from qlint.rules.context import RuleContext  # noqa: E402
from qlint.lint.engine import lint, load_exams, make_settings
from qlint.project.config import Config  # noqa: E402
from qlint.rules import RULES  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


def planted_recall(questions: list[BankEntry], pairs: list[tuple[str, str]], threshold: float) -> dict[str, float]:
    """How many planted pairs the index finds, and how many found pairs were not planted."""
    start = time.perf_counter()
    index = SimilarityIndex(shingle_sets(questions), threshold)
    found = {(min(i, j), max(i, j)) for i in range(len(questions)) for j, _s in index.similar(i)}
    seconds = time.perf_counter() - start
    pos = {q.id: i for i, q in enumerate(questions)}
    group = list(range(len(questions)))  # planted copies of copies form clusters

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for a, b in pairs:
        group[root(pos[a])] = root(pos[b])
    planted = [(pos[a], pos[b]) for a, b in pairs]
    eligible = [p for p in planted if index.sets[p[0]] and
                len(index.sets[p[0]] & index.sets[p[1]]) / len(index.sets[p[0]] | index.sets[p[1]]) >= threshold]
    hits = sum((min(p), max(p)) in found for p in eligible)
    unplanted = sum(root(i) != root(j) for i, j in found)
    return {"planted": len(planted), "at_threshold": len(eligible), "found": hits, "pairs_reported": len(found),
            "unplanted": unplanted, "candidates": index.candidates_checked, "seconds": seconds}


def in_memory(count: int) -> None:
    t0 = time.perf_counter()
    gen = generate(count)
    questions = [BankEntry.of(f"/gen/{q['domain']}/{q['id']}.yaml", q) for q in gen.questions]
    print(f"generated {len(questions)} questions in {time.perf_counter() - t0:.1f} s "
          f"({len(gen.duplicates)} planted near-duplicates, {len(gen.leaks)} planted leaks)\n")
    config = Config(root=REPO, exams=str(REPO / "bank" / "exams"))
    settings = make_settings(config)
    load_exams(settings)
    exam_paths = {e.path for e in settings.exams.values()}
    bank = Bank(questions, settings.exams, {q.path for q in questions} | exam_paths, [True] * len(questions))
    bank.is_target = lambda path: True  # type: ignore[method-assign]  # synthetic paths: all are targets
    print("| rule | findings | wall s | CPU s |\n|---|---:|---:|---:|")
    wall = cpu = 0.0
    for code, rule in RULES.items():
        if rule.scope != "bank":
            continue
        start, start_cpu = time.perf_counter(), time.process_time()
        findings = list(rule.check(bank, RuleContext(rule, config, settings.exams, bank)))  # type: ignore[misc]
        took, took_cpu = time.perf_counter() - start, time.process_time() - start_cpu
        wall, cpu = wall + took, cpu + took_cpu
        print(f"| {code} {rule.name} | {len(findings)} | {took:.2f} | {took_cpu:.2f} |")
    print(f"| **all bank rules** | | **{wall:.2f}** | **{cpu:.2f}** |\n")
    from qlint.bank.leaks import find_leaks

    leaks = {(questions[x.source].id, questions[x.stem_of].id) for x in find_leaks(questions)}
    print(f"key leaks: {sum(p in leaks for p in gen.leaks)} of {len(gen.leaks)} planted found; {len(leaks)} pairs in all "
          "(other questions keyed with the same pooled option text leak into the same stems)")
    r = planted_recall(questions, gen.duplicates, 0.5)
    print(f"near-duplicate index at Jaccard 0.5: {r['found']} of {r['at_threshold']} planted pairs at or above 0.5 found "
          f"({r['planted']} planted in all); {r['pairs_reported']} pairs reported, {r['unplanted']} not planted; "
          f"{r['candidates']} candidates verified of {len(questions) * (len(questions) - 1)} ordered pairs; "
          f"{r['seconds']:.2f} s")


def end_to_end(count: int) -> None:
    gen = generate(count)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "bank"
        write(gen, root)
        config = Config(root=Path(tmp), bank="bank", exams=str(REPO / "bank" / "exams"))
        rows = []
        for label, select in (("load + schema only", ["S001"]), ("load + schema + bank rules", ["S001", "B"])):
            start = time.perf_counter()
            result = lint([str(root)], make_settings(config, select=select))
            rows.append((label, len(result.diagnostics), time.perf_counter() - start))
        print("\n| end to end (files) | findings | seconds |\n|---|---:|---:|")
        for label, n, s in rows:
            print(f"| {label} | {n} | {s:.1f} |")
        print(f"| bank rules beyond loading | | {rows[1][2] - rows[0][2]:.1f} |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--questions", type=int, default=20000)
    p.add_argument("--files", action="store_true", help="also write the bank as files and time lint() end to end")
    args = p.parse_args()
    in_memory(args.questions)
    if args.files:
        end_to_end(args.questions)


if __name__ == "__main__":
    main()
