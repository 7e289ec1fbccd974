"""`qlint analyze` ends on SIGTERM or SIGINT in bounded time with one line and exit 143 / 130
(issue 24 point 2): every step it runs on input is linear per cell and bounded per array
(itemanalysis/data.MAX_CELLS), so no single C call (a regex, a csv field, a numpy step) keeps
the signal handler from running for long. Two runs of a few seconds each."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from conftest import REPO

GRACE = 5.0  # seconds from the signal to the exit, on a loaded 2-core machine (typically under 0.5)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("signals")
    shutil.copytree(REPO / "bank", root / "bank")
    for f in REPO.glob("qlint.toml"):
        shutil.copy(f, root / f.name)
    # CRLF and a timestamp column: the general reader, the sort by instant; ~4 s in all
    rows = (f"l{i % 20000},mla-c01-deploy-async-inference,{'asynchronous' if i % 3 else 'serverless'},"
            f"2024-03-01T10:{i % 60:02d}:00+05:00" for i in range(600_000))
    (root / "big.csv").write_bytes(("respondent,question,selected,timestamp\r\n" + "\r\n".join(rows) + "\r\n").encode())
    return root


@pytest.mark.parametrize("sig, code, line", [(signal.SIGTERM, 143, "qlint: terminated"),
                                             (signal.SIGINT, 130, "qlint: interrupted")])
def test_a_signal_ends_a_long_analysis_with_one_line(project, sig, code, line):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "qlint", "analyze", "big.csv"], cwd=project, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(1.5)  # past the imports: reading the file
    assert proc.poll() is None, "the analysis ended before the signal: make big.csv larger"
    sent = time.monotonic()
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=GRACE)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"still running {GRACE} s after {sig.name}")
    assert proc.returncode == code and err.strip() == line, (proc.returncode, err[-2000:])
    assert time.monotonic() - sent < GRACE
