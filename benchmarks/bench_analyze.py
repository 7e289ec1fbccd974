"""`qlint analyze` speed: 10,000 simulated respondents x 65 items (target: under 2 s end to end).

    python benchmarks/bench_analyze.py [--respondents 10000] [--items 65] [--runs 3]

Writes a 65-question synthetic bank (benchmarks/synthbank.py) and a generic long CSV of simulated
answers (scripts/simulate_responses.py: 650,000 rows) to a temporary folder, then prints a
Markdown table: each phase in this process (read the bank's keys, read the CSV, statistics,
rules and placement, HTML), and the whole `qlint analyze` command in a fresh process (median of
--runs). Not a timed test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO / "src"))

import synthbank  # noqa: E402
import simulate_responses as sim  # noqa: E402


def _timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--respondents", type=int, default=10_000)
    p.add_argument("--items", type=int, default=65)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()

    from qlint.lint.engine import make_settings
    from qlint.itemanalysis.bankkeys import load_keys
    from qlint.itemanalysis.findings import only_responses, run_rules
    from qlint.itemanalysis.html import render
    from qlint.itemanalysis.readers import read_responses
    from qlint.itemanalysis.stats import analyse
    from qlint.cli.config import load_config

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        synthbank.generate(root / "bank", args.items, dup_every=0, flaw_every=10**9)
        os.chdir(root)
        config = load_config(root)
        keys, _ = load_keys(config, ["bank"])
        ordered = [keys[k] for k in sorted(keys)]
        plan = sim.plant(ordered, miskeys=2, dead=3)
        csv_path = root / "responses.csv"
        sim.write_csv(csv_path, ordered, sim.simulate(ordered, args.respondents, plan=plan))
        size = csv_path.stat().st_size

        rows = []
        (keys, _), t = _timed(lambda: load_keys(config, ["bank"]))
        rows.append(("read the bank's keys", t))
        responses, t = _timed(lambda: read_responses([str(csv_path)], keys))
        rows.append((f"read the CSV ({size / 2**20:.1f} MiB, {args.respondents * args.items:,} rows)", t))
        a, t = _timed(lambda: analyse(responses, keys))
        rows.append(("statistics (p, point-biserials, D, option shares, KR-20, alpha if deleted)", t))
        settings = only_responses(make_settings(config, ["R"], responses=True))
        found, t = _timed(lambda: run_rules(a, settings))
        rows.append((f"response rules and placement ({len(found)} findings)", t))
        _, t = _timed(lambda: render(a, found, "bench"))
        rows.append(("HTML report", t))

        walls = []
        env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
        for _ in range(args.runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "qlint", "analyze", str(csv_path), "--bank", "bank"], cwd=root, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            walls.append(time.perf_counter() - start)

    print(f"qlint analyze: {args.respondents:,} respondents x {args.items} items on {platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}\n")
    print("| phase | seconds |\n|---|---:|")
    for name, t in rows:
        print(f"| {name} | {t:.3f} |")
    median = statistics.median(walls)
    print(f"| **`qlint analyze` end to end, fresh process (median of {args.runs})** | **{median:.3f}** |")
    print(f"\ntarget under 2 s: {'met' if median < 2 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
