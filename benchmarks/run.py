"""The speed benchmark: `make bench` (or `python benchmarks/run.py`). Prints a Markdown table.

For banks of 1k, 10k and 100k generated questions (benchmarks/synthbank.py), in one run on the
same files: qlint cold (no cache), qlint warm (cache, nothing changed), qlint on one changed
file inside the bank (the pre-commit case, bank rules on), check-jsonschema with qlint's schema
(schema only), yamllint, and the floor (read + parse every file with the fastest YAML parser
here, libyaml through PyYAML, in one process). The sub-second qlint runs (warm, one changed
file) are the median of 5, each a real run (a new edit each time), with their spread. Wall and CPU time, peak memory of the whole
process tree (proportional set size, so a page forked workers share with their parent counts
once; never less than the largest single process's resident size), and wall time as a ratio
to check-jsonschema.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
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


def run_bank(n: int, root: Path, tools: set[str], reference_max: int) -> list[tuple[str, Measure | None]]:
    bank = root / "bank"
    synthbank.generate(bank, n)
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    files = sorted(str(p.relative_to(root)) for p in bank.rglob("*.yaml") if "exams" not in p.parts)
    (root / "files.txt").write_text("\n".join(files), encoding="utf-8")
    qlint = [str(BIN / "qlint"), "check", "--fail-on", "error"]
    rows: list[tuple[str, Measure | None]] = []
    shutil.rmtree(root / ".qlint_cache", ignore_errors=True)
    rows.append(("qlint cold (no cache)", measure(qlint + ["--no-cache", "bank"], root)))
    measure(qlint + ["bank"], root)  # fill the cache
    rows.append(("qlint warm (cache)", median([measure(qlint + ["bank"], root) for _ in range(REPEAT)])))
    changed = root / files[len(files) // 2]

    def edit_and_check() -> Measure:  # each time a new edit: the file and the bank rules recomputed
        changed.write_text(changed.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
        return measure(qlint + [str(changed.relative_to(root))], root)

    rows.append(("qlint, one changed file", median([edit_and_check() for _ in range(REPEAT)])))
    schema = str(REPO / "schema" / "question.schema.json")
    rows.append(("check-jsonschema (schema only)",
                 measure_batched([str(BIN / "check-jsonschema"), "--schemafile", schema], files, root)
                 if "check-jsonschema" in tools and n <= reference_max else None))
    rows.append(("yamllint", measure([str(BIN / "yamllint"), "-d", "relaxed", "bank"], root)
                 if "yamllint" in tools and n <= reference_max else None))
    rows.append(("floor: read + libyaml parse", measure([sys.executable, "-c", FLOOR, str(root / "files.txt")], root)))
    return rows


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="1000,10000,100000", help="bank sizes, comma-separated")
    p.add_argument("--work", type=Path, default=None, help="folder for the generated banks (default: a temp folder)")
    p.add_argument("--reference-max", type=int, default=10_000,
                   help="run check-jsonschema and yamllint only on banks up to this size (they take minutes at 100k)")
    args = p.parse_args()
    tools = {t for t in ("check-jsonschema", "yamllint") if (BIN / t).exists()}
    work = args.work or Path(tempfile.mkdtemp(prefix="qlint-bench-"))
    print(f"qlint benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, "
          f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB, Python {platform.python_version()}")
    print()
    print("| bank | tool | wall s | CPU s | peak MB | wall vs check-jsonschema |")
    print("|---:|---|---:|---:|---:|---:|")
    refs: dict[str, Measure] = {}  # a larger bank without a reference run is compared per file
    runs: dict[int, dict[str, Measure | None]] = {}
    for n in (int(s) for s in args.sizes.split(",")):
        rows = run_bank(n, work / f"bank-{n}", tools, args.reference_max)
        runs[n] = dict(rows)
        ref = dict(rows).get("check-jsonschema (schema only)") or refs.get("check-jsonschema")
        if dict(rows).get("check-jsonschema (schema only)"):
            refs["check-jsonschema"] = dict(rows)["check-jsonschema (schema only)"]
        for name, m in rows:
            if m is None:
                print(f"| {n:,} | {name} | — | — | — | not run |")
                continue
            ratio = "—"
            if ref is not None and dict(rows).get("check-jsonschema (schema only)") is ref:
                ratio = f"{m.wall / ref.wall:.2f}x"
            flag = "" if m.code in (0, 1) else f" (exit {m.code})"
            if m.spread:
                flag += f", median of {REPEAT} ({m.spread[0]:.2f}-{m.spread[1]:.2f} s)"
            print(f"| {n:,} | {name}{flag} | {m.wall:.2f} | {m.cpu:.2f} | {m.peak_mb:.0f} | {ratio} |")
        sys.stdout.flush()
    print_targets(runs)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def print_targets(runs: dict[int, dict[str, Measure | None]]) -> None:
    """The speed targets (issue #7), judged on the figures of this run; a target whose banks
    were not run is left out."""
    lines = []
    ten, hundred = runs.get(10_000, {}), runs.get(100_000, {})
    cold, warm, one = ten.get("qlint cold (no cache)"), ten.get("qlint warm (cache)"), ten.get("qlint, one changed file")
    ref = ten.get("check-jsonschema (schema only)")
    if cold and ref:
        lines.append(("10k cold, all rules: at most 0.8x check-jsonschema", f"{cold.wall / ref.wall:.2f}x", cold.wall <= 0.8 * ref.wall))
    if warm and ref:
        lines.append(("10k warm, nothing changed: at most 0.1x check-jsonschema", f"{warm.wall / ref.wall:.2f}x", warm.wall <= 0.1 * ref.wall))
    if one:
        lines.append(("one changed file in the 10k bank, bank rules on: under 0.5 s", f"{one.wall:.2f} s", one.wall < 0.5))
    big = hundred.get("qlint cold (no cache)")
    if big and cold:
        lines.append(("100k cold: at most 11x the 10k cold time", f"{big.wall / cold.wall:.1f}x", big.wall <= 11 * cold.wall))
    if big:
        lines.append(("100k cold: peak memory under 1 GiB", f"{big.peak_mb:.0f} MB", big.peak_mb < 1024))
    if lines:
        print("\n| target | this run | met |\n|---|---:|---|")
        for what, value, ok in lines:
            print(f"| {what} | {value} | {'yes' if ok else 'NO'} |")


if __name__ == "__main__":
    sys.exit(main())
