"""A file the user made read-only (chmod 444) is not rewritten (issue 24, from point 7). Format,
`check --fix`, shuffle and `import --force` replace files by rename, which never asks the file
itself, and root may write anything, so the mode bits are checked explicitly. Like black, ruff
and prettier, each such file is named on its own line; as every failed write of a batch, nothing
is written (the batch is all or nothing) and the command exits 2."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from hostile.writes import ASIDE, TARGETS, differences, qlint, snapshot

REWRITERS = [t for t in TARGETS if t.name in ("format", "check --fix", "shuffle", "import --from gift --force")]


def _changed_by_a_clean_run(tmp: Path, t) -> list[str]:
    """The user's files the command rewrites (found on a copy of the project)."""
    trial = tmp / "trial"
    (trial / ASIDE).mkdir(parents=True)
    t.build(trial / "proj")
    before = snapshot(trial / "proj")
    code, out = qlint(trial / "proj", t.argv)
    assert code in (0, 1), out
    after = snapshot(trial / "proj")
    return [k for k in differences(before, after) if k in before and before[k][0] == "file"]


@pytest.mark.parametrize("mode", [0o444, 0o400], ids=["0444", "0400"])
@pytest.mark.parametrize("t", REWRITERS, ids=[t.name for t in REWRITERS])
def test_a_read_only_file_is_named_and_nothing_is_written(t, mode, tmp_path):
    rewritten = _changed_by_a_clean_run(tmp_path, t)
    assert len(rewritten) >= 2, rewritten
    proj = tmp_path / "proj"
    (tmp_path / ASIDE).mkdir()
    t.build(proj)
    locked = proj / rewritten[1]
    os.chmod(locked, mode)
    before = snapshot(proj)
    code, out = qlint(proj, t.argv)
    assert code == 2, out
    assert differences(before, snapshot(proj)) == [], out  # every file, the locked one too, as it was
    assert stat.S_IMODE(os.stat(locked).st_mode) == mode
    line = next(ln for ln in out.splitlines() if rewritten[1] in ln and f"read-only (mode {mode:04o})" in ln)
    assert "not rewriting it" in line and "Traceback" not in out


def test_two_read_only_files_are_each_named(tmp_path):
    t = next(t for t in REWRITERS if t.name == "format")
    rewritten = _changed_by_a_clean_run(tmp_path, t)
    proj = tmp_path / "proj"
    (tmp_path / ASIDE).mkdir()
    t.build(proj)
    for rel in rewritten[:2]:
        os.chmod(proj / rel, 0o444)
    code, out = qlint(proj, t.argv)
    assert code == 2 and all(any(rel in ln and "read-only (mode 0444)" in ln for ln in out.splitlines())
                             for rel in rewritten[:2]), out


def test_check_mode_and_diff_still_report_a_read_only_file(tmp_path):
    """Only writing is refused: --check and --diff read the file as usual."""
    t = next(t for t in REWRITERS if t.name == "format")
    rewritten = _changed_by_a_clean_run(tmp_path, t)
    proj = tmp_path / "proj"
    (tmp_path / ASIDE).mkdir()
    t.build(proj)
    os.chmod(proj / rewritten[0], 0o444)
    code, out = qlint(proj, ["format", "--check", "bank"])
    assert code == 1 and f"would be reformatted: {rewritten[0]}" in out
