"""`qlint check` shows progress on a terminal while it checks a large bank (issue 28, point 10), as
export does, and never in a pipe or a CI log."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import synthbank

from conftest import REPO

FILES = 240  # questions; the generator adds two exam definitions


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    root = tmp_path_factory.mktemp("progress")
    synthbank.generate(root / "bank", FILES)
    (root / "qlint.toml").write_text('bank = "bank"\nexams = "bank/exams"\n', encoding="utf-8")
    return root


def _check(root, jobs: str, tty: bool, ci: bool = False) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    env.pop("CI", None)
    if ci:
        env["CI"] = "true"
    argv = [sys.executable, "-m", "qlint", "check", "--no-cache", "--jobs", jobs, "bank"]
    if not tty:
        proc = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, timeout=300)
        return proc.returncode, proc.stdout, proc.stderr
    main, side = os.openpty()  # stderr is a terminal; the report on stdout is a pipe, as in `qlint check | less`
    try:
        proc = subprocess.Popen(argv, cwd=root, env=env, stdout=subprocess.PIPE, stderr=side, text=True)
        os.close(side)
        chunks = []
        while True:
            try:
                data = os.read(main, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        out = proc.stdout.read()
        proc.wait(timeout=300)
    finally:
        os.close(main)
    return proc.returncode, out, b"".join(chunks).decode()


@pytest.mark.parametrize("jobs", ["1", "2"], ids=["serial", "workers"])
def test_a_terminal_sees_how_far_the_check_is(bank, jobs):
    code, out, err = _check(bank, jobs, tty=True)
    assert code == 1 and re.search(r"^Found \d+ problems", out, re.M), out[-2000:] + err
    shown = [(int(a), int(b)) for a, b in re.findall(r"\r\[[#.]{30}\] (\d+)/(\d+) files checked", err)]
    assert len(shown) >= 3 and {b for _, b in shown} == {FILES}, err[-2000:]  # every question file counted
    counts = [a for a, _ in shown]
    assert counts == sorted(counts) and counts[-1] < FILES, err[-2000:]  # it moved, in order
    assert err.endswith("\r\x1b[K"), repr(err[-200:])  # erased at the end: the report starts on a clean line


def test_no_progress_in_a_pipe_or_a_ci_log(bank):
    _, out, err = _check(bank, "2", tty=False)
    assert "\r" not in err and "files checked" not in err + out, err
    _, _out, err = _check(bank, "2", tty=True, ci=True)
    assert "files checked" not in err and "\r" not in err.replace("\r\n", "\n"), repr(err[-300:])
