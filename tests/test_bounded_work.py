"""Bounded work for any input: every importer, the Markdown renderer, every exporter and the lint
get adversarial inputs of about 70 KB (tests/adversarial.py: runs of spaces and blank lines, deep
nesting of brackets, lists and quotes, runs of emphasis markers and backticks, long lines).

Each group runs in its own process under a 1 GiB address-space limit and a timeout, so a hang or
a blow-up fails here instead of freezing the suite; the groups run side by side. Before the fixes
(docs/safety.md, "Bounded work"): blank lines after the XML declaration hung the Moodle and QTI
importers, a title line of spaces hung the page importer, a stem of `*a ` runs needed 5 GB to
export, and a run of blank lines or spaces hung the lint and the HTML-to-Markdown conversion.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from qlint.importers import IMPORTERS

pytestmark = pytest.mark.slow  # adversarial inputs at full size, each in a child process with time and memory limits

HERE = Path(__file__).parent
# One group per importer (qti30 is qti21's reader with other names), so a new importer is run on
# the adversarial inputs too: tests/adversarial.py must have its group (CONTRIBUTING.md).
SAME_READER = {"qti30": "qti21"}
GROUPS = (*sorted(n for n in IMPORTERS.names() if n not in SAME_READER), "renderer", "exporters", "lint", "analyze")
LIMIT_BYTES = 1 << 30  # 1 GiB of address space: the 100 KB emphasis stem took 5 GB
CASE_SECONDS = 5.0  # CPU seconds per case (they take well under one; see tests/adversarial.py)
GROUP_SECONDS = 150  # a hang is killed here and named by its last "start" line


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))


@pytest.fixture(scope="module")
def runs() -> dict[str, tuple[int | None, str, str]]:
    """group -> (exit code, or None when killed; stdout; stderr), all groups run at once."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent / "src"), os.environ.get("PYTHONPATH", "")])}
    procs = {g: subprocess.Popen([sys.executable, str(HERE / "adversarial.py"), g], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env, preexec_fn=_limit) for g in GROUPS}
    deadline = time.monotonic() + GROUP_SECONDS
    out = {}
    for g, proc in procs.items():
        try:
            stdout, stderr = proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
            out[g] = (proc.returncode, stdout, stderr)
        except subprocess.TimeoutExpired:
            proc.kill()
            stdout, stderr = proc.communicate()
            out[g] = (None, stdout, stderr)
    return out


@pytest.mark.parametrize("group", GROUPS)
def test_adversarial_inputs_finish_in_bounded_time_and_memory(group, runs):
    code, stdout, stderr = runs[group]
    started = [ln.split("\t", 1)[1] for ln in stdout.splitlines() if ln.startswith("start\t")]
    timed = dict(ln.split("\t") for ln in stdout.splitlines() if ln.count("\t") == 1 and not ln.startswith("start\t"))
    if code is None:
        pytest.fail(f"{group}: still running after {GROUP_SECONDS} s, at case {started[-1] if started else '?'!r}")
    assert code == 0 and stdout.rstrip().endswith("done"), (
        f"{group}: failed at case {started[-1] if started else '?'!r} (exit {code}; "
        f"a MemoryError means over {LIMIT_BYTES >> 20} MiB)\n{stderr[-3000:]}")
    assert len(timed) >= 5 and len(timed) == len(set(started)), stdout
    slow = {case: float(s) for case, s in timed.items() if float(s) > CASE_SECONDS}
    assert not slow, f"{group}: over {CASE_SECONDS} s: {slow}"
