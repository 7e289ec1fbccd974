"""NumPy is loaded in one place with one BLAS thread unless the user chose a count, and running
out of memory ends a command with one line and exit 2 (issue 24 point 3: under a 200 MB
address-space limit a 20,000-file check died in OpenBLAS's thread buffers, exit 1, no report)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import REPO
from qlint.bank._numpy import THREAD_VARIABLES
from qlint.cli import main

LOADER = REPO / "src" / "qlint" / "bank" / "_numpy.py"


def test_no_module_imports_numpy_but_the_loader():
    direct = re.compile(r"^\s*(import numpy|from numpy\b)", re.M)
    found = [str(p.relative_to(REPO)) for p in (REPO / "src").rglob("*.py")
             if p != LOADER and direct.search(p.read_text(encoding="utf-8"))]
    assert not found, f"import NumPy through qlint.bank._numpy: {found}"


def _threads_after_import(env: dict[str, str]) -> tuple[int, str]:
    code = ("import os, qlint.bank.hash_counts, qlint.itemanalysis.stats\n"
            "threads = next(l for l in open('/proc/self/status') if l.startswith('Threads:')).split()[1]\n"
            "print(threads, os.environ.get('OPENBLAS_NUM_THREADS', '-'))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), out[1]


@pytest.mark.skipif(not os.path.exists("/proc/self/status") or (os.cpu_count() or 1) < 2,
                    reason="counts threads in /proc; OpenBLAS starts one per core")
def test_numpy_starts_one_blas_thread_unless_the_user_chose_a_count():
    base = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    base["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")])
    assert _threads_after_import(base) == (1, "-")  # one thread, and the environment put back
    assert _threads_after_import({**base, "OPENBLAS_NUM_THREADS": "2"}) == (2, "2")  # the user's choice stands


def test_running_out_of_memory_is_one_line_and_exit_2(monkeypatch, capsys):
    import qlint.cli.commands.analyze as analyze

    def no_memory():
        raise MemoryError()

    monkeypatch.setattr(analyze, "load_config", no_memory)
    assert main(["analyze", "responses.csv"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("qlint: error: out of memory") and err.count("\n") == 1 and "Traceback" not in err, err
