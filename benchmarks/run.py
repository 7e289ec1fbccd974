"""The speed benchmark: `make bench` (or `python benchmarks/run.py`). Prints Markdown tables.

Banks, each timed on the same files in one run (issue 16):
- mostly clean: generated questions with few planted flaws (benchmarks/synthbank.py `generate`);
- findings-heavy: questions grown from the sample bank by word substitutions and left-out fields
  (synthbank.py `grow`), where most files have findings, as in banks written by others;
- the two real corpora in ../shared/corpora, converted with scripts/corpora into a temporary
  folder (skipped, with a line saying so, when ../shared is not there).

Per bank: files, the share of files with findings, findings, then qlint cold (`--no-cache`, all
cores), check-jsonschema with qlint's schema (schema only) and the floor (read + parse every file
with libyaml through PyYAML, one process), interleaved round by round (3 rounds: the machine is
shared); each tool's median run and the medians of the ratios paired within a round. For the
mostly-clean bank also warm (cache, nothing changed) and one changed file (the pre-commit case,
bank rules on), each the median of 5 real runs. On the findings-heavy bank, what making and
writing the text, JSON and SARIF reports adds to the run (benchmarks/report_cost.py). `--big`
adds a cold run over 100,000 grown questions for peak memory (the whole process tree's
proportional set size: a page forked workers share with their parent counts once). The targets
end the output, judged on this run's figures.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
import synthbank  # noqa: E402

BIN = Path(sys.executable).parent
ARG_MAX_FILES = 4000  # files per command line for tools that take file lists


@dataclass
class Measure:
    wall: float
    cpu: float
    peak_mb: float
    code: int
    spread: tuple[float, float] | None = None  # (fastest, slowest) wall of repeated runs


def _memory(pid: int) -> int:
    """Proportional set size of one process in bytes: pages shared with other processes (a
    forked worker shares its parent's) are split between them, so a tree's sum counts each
    page once. Resident size where the kernel has no smaps_rollup."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except (FileNotFoundError, ProcessLookupError, PermissionError, ValueError):
        pass
    with open(f"/proc/{pid}/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _tree_memory(pid: int) -> int:
    """Memory of `pid` and all its descendants, in bytes (Linux /proc), shared pages once."""
    total, stack, seen = 0, [pid], set()
    while stack:
        p = stack.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            total += _memory(p)
            with open(f"/proc/{p}/task/{p}/children") as fh:
                stack += [int(c) for c in fh.read().split()]
        except (FileNotFoundError, ProcessLookupError, ValueError):
            continue
    return total


def measure(cmd: list[str], cwd: Path) -> Measure:
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        # The kernel walks every page table to report PSS (6 ms for a 330 MB process): wait ten
        # times as long as a reading took, so the sampler never takes more than a tenth of a core.
        while not done.is_set():
            start = time.perf_counter()
            peak[0] = max(peak[0], _tree_memory(proc.pid))
            done.wait(max(0.02, 10 * (time.perf_counter() - start)))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    done.set()
    sampler.join()
    peak_mb = max(peak[0] / 2**20, usage.ru_maxrss / 1024)
    return Measure(wall, usage.ru_utime + usage.ru_stime, peak_mb, os.waitstatus_to_exitcode(status))


REPEAT = 5  # runs under a second are taken 5 times: a shared machine's noise is tens of ms


def median(runs: list[Measure]) -> Measure:
    """The run with the median wall time, with the spread of all of them."""
    ordered = sorted(runs, key=lambda m: m.wall)
    mid = ordered[len(ordered) // 2]
    return Measure(mid.wall, mid.cpu, mid.peak_mb, max(m.code for m in runs), (ordered[0].wall, ordered[-1].wall))


def measure_batched(cmd: list[str], files: list[str], cwd: Path) -> Measure:
    """Tools that take file lists, split under the OS argument limit, run one after another."""
    parts = [measure(cmd + files[i : i + ARG_MAX_FILES], cwd) for i in range(0, len(files), ARG_MAX_FILES)]
    return Measure(sum(p.wall for p in parts), sum(p.cpu for p in parts), max(p.peak_mb for p in parts), max(p.code for p in parts))


FLOOR = """
import sys, yaml
from yaml import CSafeLoader
for path in open(sys.argv[1]).read().split("\\n"):
    if path:
        with open(path, "rb") as fh:
            yaml.load(fh.read(), Loader=CSafeLoader)
"""

ROUNDS = 3  # interleaved rounds of the cold comparison
QLINT = [sys.executable, "-m", "qlint", "check", "--fail-on", "error"]  # this checkout's src/ (PYTHONPATH)
SCHEMA = str(REPO / "schema" / "question.schema.json")



@dataclass
class Bank:
    name: str
    root: Path  # cwd of every run: holds qlint.toml
    paths: list[str]  # what qlint checks
    files: list[str]  # question files, relative to root (check-jsonschema and the floor read these)


def _question_files(folder: Path, root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in folder.rglob("*.yaml") if "exams" not in p.relative_to(folder).parts)


def generated(kind: str, n: int, work: Path) -> Bank:
    root = work / f"{kind}-{n}"
    if kind == "grown":
        synthbank.grow(root / "bank", n)
    else:
        synthbank.generate(root / "bank", n)
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    name = f"{n:,} {'findings-heavy (grown from the sample)' if kind == 'grown' else 'mostly clean (generated)'}"
    return Bank(name, root, ["bank"], _question_files(root / "bank", root))


def real_corpora(work: Path) -> list[Bank] | str:
    """The converted corpora, or why there are none."""
    sys.path.insert(0, str(REPO / "scripts"))
    import corpora

    if not corpora.available():
        return f"real corpora: skipped, {corpora.CORPORA} is not here"
    banks = corpora.write_bank(corpora.convert(names=corpora.AWS), work / "real")
    return [Bank(f"{sum(1 for _ in _question_files(folder, folder)):,} real: {name}", folder, ["."],
                 _question_files(folder, folder)) for name, folder in banks.items()]


def counts(bank: Bank) -> tuple[int, int]:
    """(files with findings, findings) from qlint's JSON report; the run fills the cache."""
    report = bank.root / "findings.json"
    subprocess.run(QLINT + ["--output-format", "json", "--output-file", str(report)] + bank.paths, cwd=bank.root,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    found = json.loads(report.read_text(encoding="utf-8"))["diagnostics"]
    files = set(bank.files)
    return len({os.path.normpath(d["path"]) for d in found} & files), len(found)


def _mid(values: list[float]) -> float:
    return statistics.median(values)


@dataclass
class Cold:
    qlint: Measure
    cj: Measure | None
    floor: Measure
    vs_cj_cpu: float | None  # medians of the ratios paired within a round
    vs_cj_wall: float | None
    vs_floor_cpu: float


def cold(bank: Bank, reference: bool) -> Cold:
    (bank.root / "files.txt").write_text("\n".join(bank.files), encoding="utf-8")
    runs: list[tuple[Measure, Measure | None, Measure]] = []
    for _ in range(ROUNDS):
        q = measure(QLINT + ["--no-cache"] + bank.paths, bank.root)
        c = measure_batched([str(BIN / "check-jsonschema"), "--schemafile", SCHEMA], bank.files, bank.root) if reference else None
        f = measure([sys.executable, "-c", FLOOR, str(bank.root / "files.txt")], bank.root)
        runs.append((q, c, f))
    by_cpu = lambda ms: sorted(ms, key=lambda m: m.cpu)[len(ms) // 2]  # noqa: E731
    cj = by_cpu([r[1] for r in runs]) if reference else None
    return Cold(by_cpu([r[0] for r in runs]), cj, by_cpu([r[2] for r in runs]),
                _mid([q.cpu / c.cpu for q, c, _ in runs]) if reference else None,
                _mid([q.wall / c.wall for q, c, _ in runs]) if reference else None,
                _mid([q.cpu / f.cpu for q, _, f in runs]))


def warm_and_one(bank: Bank) -> tuple[Measure, Measure]:
    """Cache filled (by `counts`): nothing changed, then one file edited anew before each run."""
    warm = median([measure(QLINT + bank.paths, bank.root) for _ in range(REPEAT)])
    changed = bank.root / bank.files[len(bank.files) // 2]

    def edit_and_check() -> Measure:
        changed.write_text(changed.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
        return measure(QLINT + [str(changed.relative_to(bank.root))], bank.root)

    return warm, median([edit_and_check() for _ in range(REPEAT)])


def report_cost(bank: Bank) -> dict[str, float]:
    """Median over ROUNDS of each format's seconds as a share of the lint's wall time."""
    shares: dict[str, list[float]] = {}
    for _ in range(ROUNDS):
        out = subprocess.run([sys.executable, str(HERE / "report_cost.py")] + bank.paths, cwd=bank.root,
                             capture_output=True, text=True, check=True)
        got = json.loads(out.stdout.strip().splitlines()[-1])
        for fmt in ("text", "json", "sarif"):
            shares.setdefault(fmt, []).append(got[fmt] / got["lint"])
        shares.setdefault("findings", []).append(got["findings"])
    return {k: _mid(v) for k, v in shares.items()}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--questions", type=int, default=10_000, help="size of the generated banks (default 10000)")
    p.add_argument("--big", action="store_true",
                   help="also a cold run over 100,000 grown questions for peak memory (about 10 minutes more)")
    p.add_argument("--no-real", action="store_true", help="leave out the real corpora")
    p.add_argument("--work", type=Path, default=None, help="folder for the banks (default: a temp folder, removed)")
    args = p.parse_args()
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "src"), os.environ.get("PYTHONPATH")]))
    # An installed qlint has its modules compiled (pip writes the .pyc files); a checkout run with
    # PYTHONDONTWRITEBYTECODE set would compile ~100 modules on every run (~0.1 s of a warm run).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    compileall.compile_dir(str(REPO / "src" / "qlint"), quiet=1)
    reference = (BIN / "check-jsonschema").exists()
    work = args.work or Path(tempfile.mkdtemp(prefix="qlint-bench-"))
    n = args.questions
    print(f"qlint benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, "
          f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB, Python {platform.python_version()}; "
          f"cold comparisons: medians of {ROUNDS} interleaved rounds, ratios paired within a round\n")
    banks = [generated("clean", n, work), generated("grown", n, work)]
    skipped = ""
    if not args.no_real:
        found = real_corpora(work)
        banks += found if isinstance(found, list) else []
        skipped = found if isinstance(found, str) else ""
    print("| bank | files | with findings | findings | qlint cold CPU s | wall s | check-jsonschema CPU s | wall s "
          "| floor CPU s | qlint / check-jsonschema CPU | wall | qlint / floor CPU | qlint peak MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    colds: dict[str, Cold] = {}
    shares: dict[str, float] = {}
    for bank in banks:
        with_findings, findings = counts(bank)
        c = colds[bank.name] = cold(bank, reference)
        cj = f"{c.cj.cpu:.2f} | {c.cj.wall:.2f}" if c.cj else "— | —"
        vs = f"{c.vs_cj_cpu:.2f}x | {c.vs_cj_wall:.2f}x" if c.vs_cj_cpu is not None else "— | —"
        print(f"| {bank.name} | {len(bank.files):,} | {100 * with_findings / len(bank.files):.0f}% | {findings:,} "
              f"| {c.qlint.cpu:.2f} | {c.qlint.wall:.2f} | {cj} | {c.floor.cpu:.2f} | {vs} | {c.vs_floor_cpu:.2f}x "
              f"| {c.qlint.peak_mb:.0f} |")
        sys.stdout.flush()
    if skipped:
        print(f"\n{skipped}")
    warm, one = warm_and_one(banks[0])
    print(f"\n| {banks[0].name} | wall s | CPU s | peak MB | spread of {REPEAT} runs (wall s) |\n|---|---:|---:|---:|---|")
    for what, m in (("qlint warm (cache, nothing changed)", warm), ("qlint, one changed file (bank rules on)", one)):
        print(f"| {what} | {m.wall:.2f} | {m.cpu:.2f} | {m.peak_mb:.0f} | {m.spread[0]:.2f}-{m.spread[1]:.2f} |")
    shares = report_cost(banks[1])
    print(f"\n| report of the {banks[1].name} bank ({shares['findings']:,.0f} findings) | share of the run's wall time |"
          "\n|---|---:|")
    for fmt in ("text", "json", "sarif"):
        print(f"| {fmt}, made and written to a file | {100 * shares[fmt]:.1f}% |")
    sys.stdout.flush()
    big = None
    if args.big:
        bank = generated("grown", 100_000, work)
        big = measure(QLINT + ["--no-cache"] + bank.paths, bank.root)
        print(f"\n| {bank.name} | wall s | CPU s | peak MB |\n|---|---:|---:|---:|\n"
              f"| qlint cold (no cache) | {big.wall:.2f} | {big.cpu:.2f} | {big.peak_mb:.0f} |")
    print_targets(colds[banks[0].name], colds[banks[1].name], warm, one, shares, big, n)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


# Issue 25's "no worse" baselines: the README's run of 2026-12-01 19:06 (this machine, 10k banks),
# warm as a ratio to the floor's CPU timed in the same run (a shared machine's load inflates every
# CPU second; a ratio holds), peak memory of the 100k run as it was.
BEFORE_25 = {"warm_vs_floor_cpu": 0.41 / 2.63, "warm_cpu": 0.41, "big_peak_mb": 717}


def print_targets(clean: Cold, grown: Cold, warm: Measure, one: Measure, shares: dict[str, float],
                  big: Measure | None, n: int) -> None:
    """Issue 25's targets, judged on this run's figures."""
    k = f"{n:,}"
    lines = []
    if grown.vs_cj_cpu is not None:
        lines.append((f"{k} findings-heavy cold: at most 0.45x check-jsonschema's CPU", f"{grown.vs_cj_cpu:.2f}x", "",
                      grown.vs_cj_cpu <= 0.45))
    if clean.vs_cj_cpu is not None:
        lines.append((f"{k} mostly-clean cold: at most 0.35x check-jsonschema's CPU", f"{clean.vs_cj_cpu:.2f}x", "",
                      clean.vs_cj_cpu <= 0.35))
    lines.append((f"{k} mostly-clean, one changed file, bank rules on: under 0.45 s", f"{one.wall:.2f} s", "",
                  one.wall < 0.45))
    if n == 10_000:  # the figures of before are for a 10k bank
        now = warm.cpu / clean.floor.cpu
        lines.append((f"{k} mostly-clean warm, CPU vs the floor's: no worse than before issue 25",
                      f"{now:.3f}x ({warm.cpu:.2f} s)",
                      f"{BEFORE_25['warm_vs_floor_cpu']:.3f}x ({BEFORE_25['warm_cpu']:.2f} s)",
                      now <= BEFORE_25["warm_vs_floor_cpu"]))
    worst = max(("text", "json", "sarif"), key=lambda f: shares[f])
    lines.append((f"printing {shares['findings']:,.0f} findings (text, JSON, SARIF): at most +10% of the run",
                  f"+{100 * shares[worst]:.1f}% ({worst})", "", shares[worst] <= 0.10))
    if big is not None:
        lines.append(("100k findings-heavy cold: peak memory no worse than before issue 25", f"{big.peak_mb:.0f} MB",
                      f"{BEFORE_25['big_peak_mb']} MB", big.peak_mb <= BEFORE_25["big_peak_mb"]))
    print("\n| target | this run | before | met |\n|---|---:|---:|---|")
    for what, value, before, ok in lines:
        print(f"| {what} | {value} | {before or '—'} | {'PASS' if ok else 'FAIL'} |")


if __name__ == "__main__":
    sys.exit(main())
