"""Write paths (issue 8): every command that writes, under a full disk, an exception halfway, a
failed rename, SIGKILL mid-batch, and inputs that try to write outside their folder.

The cases live in tests/hostile/writes.py (so `python -m tests.hostile.writes` can print them as the
table in docs/safety.md); here each one runs and must hold. Smaller checks of files.py follow.
"""

from __future__ import annotations

import errno
import os
import stat

import pytest

from qlint.files import Batch, StaleFile, UnsafePathError, atomic_write, is_temp_name, safe_output
from qlint.project.discovery import discover

from hostile.writes import CASES


@pytest.mark.parametrize("case", CASES, ids=[f"{c.command}: {c.situation}" for c in CASES])
def test_write_case(case, tmp_path):
    case.run(tmp_path)


def test_every_write_command_is_covered():
    commands = {c.command.split(" (")[0] for c in CASES}
    for fmt in ("qti21", "qti30", "canvas", "moodle", "gift", "json", "jsonl", "markdown", "html"):
        assert f"export -f {fmt}" in commands
    for fmt in ("qti21", "qti30", "canvas"):
        assert f"export -f {fmt} --no-zip" in commands
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
