"""How batch writes scale: seconds to write n files through the shared write path.

    PYTHONPATH=src python benchmarks/bench_writes.py [N ...]   (default: 1000 10000 100000)

Two rows per n, each in a fresh temporary project:
- `publish`: n changed question files written by `qlint.authoring.changes.publish` (what format, check --fix
  and shuffle do once their results are computed): target resolution, staging, compare, rename, verify;
- `import gift`: `qlint import --from gift` of one GIFT file with n questions into an empty bank
  (parse, plan n targets, write them).
A column over 300 s is cut short and shown as `>300`.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LIMIT = 300.0


def _project(root: Path) -> None:
    (root / "bank" / "exams").mkdir(parents=True)
    shutil.copy(REPO / "bank" / "exams" / "mla-c01.yaml", root / "bank" / "exams" / "mla-c01.yaml")
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")


def bench_publish(n: int, root: Path) -> float:
    from qlint.authoring.changes import Change, publish

    changes = []
    for i in range(n):
        folder = root / "bank" / f"d{i // 1000:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"q{i:06d}.yaml"
        before = f"id: q{i}\nstem:  old\n".encode()
        path.write_bytes(before)
        changes.append(Change(str(path), before, f"id: q{i}\nstem: new\n"))
    err = io.StringIO()
    start = time.perf_counter()
    changed, failed = publish(changes, "write", io.StringIO(), err, root=root)
    took = time.perf_counter() - start
    assert (changed, failed) == (n, 0), err.getvalue()
    return took


def gift(n: int) -> str:
    return "".join(
        f"::q{i}:: Which store answers request {i} within 10 ms? {{\n"
        f"=Online store {i} #Fast.\n~Offline store #Too slow.\n~Athena query #Seconds to start.\n}}\n\n"
        for i in range(n))


def bench_import(n: int, root: Path) -> float:
    from qlint.cli import main

    _project(root)
    (root / "src.gift").write_text(gift(n), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.chdir(root), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["import", "--from", "gift", "--exam", "MLA-C01", "--domain", "deployment-orchestration", "src.gift"])
    took = time.perf_counter() - start
    assert code in (0, 1), err.getvalue()[-2000:]
    return took


def timed(fn, n: int) -> str:
    """Seconds, or `>LIMIT` if the run is not done by then (it is left running in a daemon thread
    and the process exits at the end)."""
    root = Path(tempfile.mkdtemp(prefix="qlint-bench-writes-"))
    box: list = []
    thread = threading.Thread(target=lambda: box.append(fn(n, root)), daemon=True)
    thread.start()
    thread.join(LIMIT)
    if not box:
        return f">{LIMIT:.0f}" if thread.is_alive() else "failed"
    shutil.rmtree(root, ignore_errors=True)
    return f"{box[0]:.2f}"


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [1000, 10000, 100000]
    print(f"{'n files':>8}  {'publish s':>10}  {'import gift s':>14}")
    for n in sizes:
        print(f"{n:>8}  {timed(bench_publish, n):>10}  {timed(bench_import, n):>14}", flush=True)
    sys.stdout.flush()
    os._exit(0)  # a run cut short may still be working in its thread


if __name__ == "__main__":
    main(sys.argv[1:])
