"""Write paths (issue 8): every command that writes, under a full disk, an exception halfway, a
failed rename, SIGKILL mid-batch, and inputs that try to write outside their folder.

The cases live in tests/hostile/writes.py (so `python -m tests.hostile.writes` can print them as the
table in docs/safety.md); here each one runs and must hold. Smaller checks of files.py follow.
"""

from __future__ import annotations

import errno
import os
import re
import signal
import stat
from pathlib import Path

import pytest

from qlint.exporters import EXPORTERS
from qlint.files import Batch, StaleFile, UnsafePathError, atomic_write, is_temp_name, safe_output
from qlint.project.discovery import discover

from hostile.writes import CASES


@pytest.mark.parametrize("case", CASES, ids=[f"{c.command}: {c.situation}" for c in CASES])
def test_write_case(case, tmp_path):
    case.run(tmp_path)


def test_every_write_command_is_covered():
    commands = {c.command.split(" (")[0] for c in CASES}
    for fmt, exporter in EXPORTERS.items():  # every registered exporter, packaged ones as folders too
        assert f"export -f {fmt}" in commands
        assert not exporter.packaged or f"export -f {fmt} --no-zip" in commands
    assert {"format", "check --fix", "shuffle", "new", "import --from page", "import --from gift",
            "check --output-file"} <= commands


def test_temporary_names_are_recognised_and_never_discovered(tmp_path):
    target = tmp_path / "q.yaml"
    atomic_write(target, "id: q\n")
    with Batch() as batch:
        batch.replace(target, "id: r\n")
        staged = [p.name for p in tmp_path.iterdir() if p.name != "q.yaml"]
        assert len(staged) == 1 and is_temp_name(staged[0]) and staged[0].startswith(".q.yaml.")
        assert discover([str(tmp_path)])[0] == [str(target)]
    assert [p.name for p in tmp_path.iterdir()] == ["q.yaml"]  # left without commit: discarded
    assert target.read_text() == "id: q\n"
    assert not is_temp_name("q.yaml") and not is_temp_name(".q.yaml.swp")


def test_a_file_changed_meanwhile_stops_the_whole_batch(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("a1\n")
    b.write_text("b1\n")
    with pytest.raises(StaleFile), Batch() as batch:
        batch.replace(a, "a2\n", before=b"a1\n")
        batch.replace(b, "b2\n", before=b"b1\n")
        b.write_text("edited by someone else\n")
        batch.commit()
    assert a.read_text() == "a1\n" and b.read_text() == "edited by someone else\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml"]


def test_a_failed_batch_removes_the_folders_it_created(tmp_path, monkeypatch):
    real = os.fsync

    def full(fd):
        if stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError), Batch() as batch:
        batch.create(tmp_path / "new" / "deeper" / "q.yaml", "id: q\n")
    assert list(tmp_path.iterdir()) == []


def test_create_never_replaces_a_file_that_appears_before_commit(tmp_path):
    target = tmp_path / "q.yaml"
    with pytest.raises(FileExistsError), Batch() as batch:
        batch.create(target, "mine\n")
        target.write_text("theirs\n")
        batch.commit()
    assert target.read_text() == "theirs\n" and [p.name for p in tmp_path.iterdir()] == ["q.yaml"]


@pytest.mark.skipif(os.geteuid() != 0, reason="only root may give a file to another owner")
def test_owner_and_group_are_kept(tmp_path):
    target = tmp_path / "q.yaml"
    target.write_text("id: q\n")
    os.chown(target, 65534, 65534)
    os.chmod(target, 0o2640)
    atomic_write(target, "id: r\n")
    st = target.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (65534, 65534, 0o2640)


def test_safe_output_follows_links_only_inside_their_folder(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "real.zip").write_bytes(b"")
    (tmp_path / "out" / "inside.zip").symlink_to("real.zip")
    (tmp_path / "out" / "outside.zip").symlink_to(tmp_path / "elsewhere.zip")
    assert safe_output(tmp_path / "out" / "inside.zip") == (tmp_path / "out" / "real.zip").resolve()
    assert safe_output(tmp_path / "out" / "new.zip") == (tmp_path / "out" / "new.zip").resolve()
    with pytest.raises(UnsafePathError, match="symbolic link to .*elsewhere.zip"):
        safe_output(tmp_path / "out" / "outside.zip")


def test_docs_list_every_case():
    """docs/safety.md's tables come from these cases (`python -m tests.hostile.writes` and
    `python -m tests.hostile.corpus`): a case added without regenerating them fails here."""
    from hostile.corpus import CASES as READING

    from conftest import REPO

    doc = (REPO / "docs" / "safety.md").read_text(encoding="utf-8")
    missing = [f"{c.command} | {c.situation}" for c in CASES if f"| {c.command} | {c.situation} |" not in doc]
    missing += [c.name for c in READING if f"| {c.name} |" not in doc and f"| {c.name} (" not in doc]
    assert not missing, f"docs/safety.md lacks {missing[:5]}: regenerate its tables"
    assert "FAILED" not in doc and "MISMATCH" not in doc


def test_a_symlink_and_its_target_in_one_batch_are_written_once(tmp_path):
    """Regression: the batch refuses to stage one file twice, so two paths to one file must merge."""
    from hostile.writes import bank, messy, qlint

    files = bank(tmp_path / "proj", messy)
    alias = files[0].parent / "alias.yaml"
    alias.symlink_to(files[0].name)
    code, out = qlint(tmp_path / "proj", ["format", "bank"])
    assert code == 0, out
    assert alias.is_symlink() and alias.read_text(encoding="utf-8") == files[0].read_text(encoding="utf-8")
    assert files[0].read_text(encoding="utf-8").startswith("# yaml-language-server") and "\nformat: 1\nid:" in files[0].read_text(encoding="utf-8")


# --- edits that land during a write, and interrupts (issue 18) ---------------------------------

from hostile.writes import TARGETS, leftovers, snapshot  # noqa: E402

REWRITERS = [t for t in TARGETS if t.name in ("format", "check --fix", "shuffle", "import --from gift --force")]
AUTHOR = b"# saved by the author while qlint was writing\n"


def _save(path: str, data: bytes, style: str, real_replace) -> None:
    """An editor's save: written into the file (`in place`) or a new file renamed over it."""
    if style == "in place":
        with open(path, "r+b") as fh:
            fh.truncate(0)
            fh.write(data)
    else:
        side = os.path.join(os.path.dirname(path), ".editor-save~")
        with open(side, "wb") as fh:
            fh.write(data)
        real_replace(side, path)


class _Renames:
    """Wraps the calls that move files (os.link, os.replace, os.rename) and sees which of the
    user's files (`users`: real paths) each one touches, in order; `on(call, victim)` runs before
    (`when`="before") or after each call."""

    def __init__(self, monkeypatch, users: set[str]):
        self.users, self.touched, self.hooks = users, [], []
        self.real = {name: getattr(os, name) for name in ("link", "replace", "rename")}
        for name, real in self.real.items():
            monkeypatch.setattr(os, name, self._wrap(name, real))

    def _wrap(self, name, real):
        def op(src, dst, *a, **k):
            paths = [os.path.realpath(p) for p in (src, dst)]
            for p in paths:
                if p in self.users and p not in self.touched:
                    self.touched.append(p)
            for when, hook in list(self.hooks):
                if when == "before":
                    hook(name, paths)
            out = real(src, dst, *a, **k)
            for when, hook in list(self.hooks):
                if when == "after":
                    hook(name, paths)
            return out
        return op


def _users(proj) -> dict[str, bytes]:
    return {os.path.realpath(p): p.read_bytes() for p in (proj / "bank").rglob("*.yaml") if p.parent.name != "exams"}


def _setup_rewriter(t, tmp_path):
    proj = tmp_path / "proj"
    (tmp_path / "aside").mkdir()
    t.build(proj)
    return proj, _users(proj)


MOMENTS = [
    ("before", "in place"),  # saved after qlint read it, before qlint touched it again
    ("before", "by rename"),
    ("at the rename", "in place"),  # saved in the instant before qlint's rename over it
    ("after", "in place"),  # saved just after qlint's rename, before the batch ended
    ("after", "by rename"),
]


@pytest.mark.parametrize("moment,style", MOMENTS, ids=[f"{m}, {s}" for m, s in MOMENTS])
@pytest.mark.parametrize("t", REWRITERS, ids=[t.name for t in REWRITERS])
def test_an_edit_saved_during_the_write_is_kept_and_reported(t, moment, style, tmp_path, monkeypatch):
    """The 3rd file of the batch is saved by its author while qlint writes: the author's bytes
    stay, every other file keeps its old bytes, the file is named and the exit is 2."""
    from hostile.writes import qlint

    proj, before = _setup_rewriter(t, tmp_path)
    renames = _Renames(monkeypatch, set(before))
    saved: list[str] = []

    def hook(call, paths):
        if saved or len(renames.touched) < 3:
            return
        victim = renames.touched[2]
        if moment == "before" and victim in paths or moment != "before" and call == "replace" and paths[1] == victim:
            saved.append(victim)
            _save(victim, before[victim] + AUTHOR, style, renames.real["replace"])

    renames.hooks.append(("after" if moment == "after" else "before", hook))
    code, out = qlint(proj, t.argv)
    assert saved, "the batch never reached its 3rd file"
    victim = saved[0]
    assert code == 2 and "Traceback" not in out, f"exit {code}\n{out}"
    assert Path(victim).read_bytes() == before[victim] + AUTHOR, "the author's save was lost"
    # format/shuffle/fix report it as A002, import as its I003 diagnostic
    assert re.search(rf"{re.escape(Path(victim).name)}:1:1: (A002|I003) changed on disk while qlint was writing it", out), out
    now = _users(proj)
    assert {p: b for p, b in now.items() if p != victim} == {p: b for p, b in before.items() if p != victim}
    assert not leftovers(snapshot(tmp_path)), leftovers(snapshot(tmp_path))


def test_the_batch_compares_each_file_at_its_own_rename_not_only_up_front(tmp_path):
    """Batch API: an in-place edit between staging and commit of the 2nd file is seen."""
    files = [tmp_path / f"{c}.yaml" for c in "abc"]
    for f in files:
        f.write_text(f"{f.stem}1\n")
    with pytest.raises(StaleFile) as info, Batch() as batch:
        for f in files:
            batch.replace(f, f"{f.stem}2\n", before=f"{f.stem}1\n".encode())
        real = os.link

        def link(src, dst, *a, **k):
            if Path(src) == files[1]:
                files[1].write_text("edited\n")
            return real(src, dst, *a, **k)

        os.link = link
        try:
            batch.commit()
        finally:
            os.link = real
    assert info.value.paths == [files[1]]
    assert [f.read_text() for f in files] == ["a1\n", "edited\n", "c1\n"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml", "c.yaml"]


@pytest.mark.parametrize("how", ["SIGINT", "KeyboardInterrupt"])
@pytest.mark.parametrize("t", REWRITERS, ids=[t.name for t in REWRITERS])
def test_an_interrupt_during_the_renames_puts_every_file_back(t, how, tmp_path, monkeypatch):
    """Ctrl-C (a real SIGINT to this process, or KeyboardInterrupt raised by the rename itself)
    right after the 2nd file is renamed into place: every file holds its old bytes, exit 130,
    one line."""
    from hostile.writes import qlint

    proj, before = _setup_rewriter(t, tmp_path)
    renames = _Renames(monkeypatch, set(before))
    fired = []

    def hook(call, paths):
        if not fired and call == "replace" and len(renames.touched) >= 2 and paths[1] == renames.touched[1]:
            fired.append(paths[1])
            if how == "SIGINT":
                signal.raise_signal(signal.SIGINT)
            else:
                raise KeyboardInterrupt

    renames.hooks.append(("after", hook))
    code, out = qlint(proj, t.argv)
    assert fired, "the batch never renamed its 2nd file"
    assert code == 130 and out.strip().splitlines()[-1] == "qlint: interrupted" and "Traceback" not in out, out
    assert out.count("interrupted") == 1
    assert _users(proj) == before, "a file kept qlint's new bytes after the interrupt"
    assert not leftovers(snapshot(tmp_path)), leftovers(snapshot(tmp_path))


SIGNAL_HARNESS = r"""
import os, sys, time
marker, sent, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
real_replace, seen = os.replace, [0]
def replace(src, dst, *a, **k):
    real_replace(src, dst, *a, **k)
    if ".qlint-tmp" not in os.fspath(dst) and os.fspath(dst).endswith(".yaml"):
        seen[0] += 1
        if seen[0] == 2:  # the 2nd file is in place: tell the test, wait for its signal
            open(marker, "w").close()
            deadline = time.monotonic() + 30
            while not os.path.exists(sent) and time.monotonic() < deadline:
                time.sleep(0.01)
os.replace = replace
from qlint.cli import main
sys.exit(main(argv))
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_real_signal_mid_batch_puts_every_file_back(sig, tmp_path):
    """`qlint format` in a subprocess gets SIGINT or SIGTERM from outside once its 2nd file is
    renamed into place: exit 130, one line on stderr, no traceback, every file as it was."""
    import subprocess
    import sys
    import time

    t = next(t for t in REWRITERS if t.name == "format")
    proj, before = _setup_rewriter(t, tmp_path)
    marker, sent = tmp_path / "aside" / "paused", tmp_path / "aside" / "sent"
    import qlint

    src = str(Path(qlint.__file__).resolve().parent.parent)  # the qlint under test
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-c", SIGNAL_HARNESS, str(marker), str(sent), *t.argv], cwd=proj,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert proc.poll() is None, f"finished before the 2nd rename: {proc.communicate()}"
            assert time.monotonic() < deadline, "never reached the 2nd rename"
            time.sleep(0.01)
        proc.send_signal(sig)
        sent.touch()
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (proc.returncode, err)
    assert err.decode().splitlines() == ["qlint: interrupted"], err
    assert _users(proj) == before, "a file kept qlint's new bytes after the signal"
    assert not leftovers(snapshot(tmp_path)), leftovers(snapshot(tmp_path))


def test_staging_and_import_planning_compare_paths_a_linear_number_of_times(tmp_path, monkeypatch):
    """Batch bookkeeping must not compare every file with every other (it was O(n^2): minutes at
    100,000 files). Counts path comparisons for an import of n and 2n GIFT questions."""
    import pathlib

    from hostile.corpus import project
    from hostile.writes import qlint

    import sys
    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    from bench_writes import gift

    monkeypatch.setattr(os, "fsync", lambda fd: None)  # the disk is not what is measured
    real_eq, count = pathlib.PurePath.__eq__, [0]

    def eq(self, other):
        count[0] += 1
        return real_eq(self, other)

    def comparisons(n: int) -> int:
        proj = project(tmp_path / f"p{n}")
        (proj / "src.gift").write_text(gift(n), encoding="utf-8")
        count[0] = 0
        with monkeypatch.context() as m:
            m.setattr(pathlib.PurePath, "__eq__", eq)
            code, out = qlint(proj, ["import", "--from", "gift", "--exam", "MLA-C01", "--domain", "data-preparation", "src.gift"])
        assert code in (0, 1) and len(list((proj / "bank").rglob("q*.yaml"))) == n, out[-500:]
        return count[0]

    small, large = comparisons(60), comparisons(120)
    assert large <= 2.5 * small + 50, f"{small} path comparisons for 60 questions, {large} for 120"
