"""A folder that cannot be listed is a Y010 error naming it (exit 2), never skipped in silence.

The suite runs as root in CI, where mode 000 does not stop a listing: the refusal the kernel gives
everyone else is simulated by making `os.scandir` raise for that folder (both qlint's walk and
`os.walk` list folders with it). One test uses real permissions and runs when not root.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kit.authoring import make_project, question_yaml, run

LOCKED = "locked"


@pytest.fixture
def bank(tmp_path, monkeypatch):
    """A project whose bank holds one readable question and a folder `locked` that cannot be listed."""
    bank = make_project(tmp_path)
    (bank / "mla-c01" / "model-development").mkdir(parents=True)
    (bank / "mla-c01" / "model-development" / "open-question.yaml").write_text(question_yaml("mla-c01-open-question"))
    (bank / "mla-c01" / LOCKED).mkdir()
    (bank / "mla-c01" / LOCKED / "hidden-question.yaml").write_text(question_yaml("mla-c01-hidden-question"))
    real = os.scandir

    def scandir(path="."):
        if os.path.basename(os.fspath(path).rstrip("/")) == LOCKED:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.chdir(tmp_path)
    return bank


def _names_folder(text: str) -> bool:
    return "bank/mla-c01/locked:1:1: Y010 cannot list this folder: Permission denied" in text


@pytest.mark.parametrize("argv", [["check", "--no-cache"], ["check", "--no-cache", "bank"], ["check", "--no-cache", "bank/mla-c01"]])
def test_check_reports_the_folder(bank, capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2, out + err
    assert _names_folder(out), out
    assert "All checks passed" not in out


def test_check_with_the_cache_reports_it_too(bank, capsys):
    assert run(capsys, "check")[0] == 2
    code, out, _ = run(capsys, "check")  # a warm run must not hide it either
    assert code == 2 and _names_folder(out)


@pytest.mark.parametrize("argv", [["format", "--check"], ["format"], ["check", "--diff"], ["shuffle", "--seed", "1", "--diff"]])
def test_authoring_commands_report_the_folder(bank, capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2, out + err
    assert _names_folder(err), err


def test_check_fix_reports_the_folder_once(bank, capsys):
    code, out, err = run(capsys, "check", "--fix", "--no-cache")
    assert code == 2
    assert (out + err).count("bank/mla-c01/locked:1:1: Y010") == 1, out + err


def test_export_refuses(bank, capsys, tmp_path):
    code, out, err = run(capsys, "export", "-f", "json", "-o", str(tmp_path / "out.json"), "--status", "draft")
    assert code == 2 and _names_folder(err), err
    assert not (tmp_path / "out.json").exists()


def test_import_names_the_folder(bank, capsys, tmp_path):
    source = tmp_path / "gift"
    (source / LOCKED).mkdir(parents=True)
    (source / LOCKED / "more.gift").write_text("::q1:: What? {=yes ~no}\n")
    code, out, err = run(capsys, "import", str(source), "--from", "gift", "-o", str(tmp_path / "imported"))
    assert code == 2, err
    assert "gift/locked:1:1: I002 cannot list this folder: Permission denied" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root lists mode-000 folders; the tests above simulate the refusal")
def test_real_permissions(tmp_path):
    bank = make_project(tmp_path)
    locked = bank / "mla-c01" / LOCKED
    locked.mkdir(parents=True)
    (locked / "hidden-question.yaml").write_text(question_yaml("mla-c01-hidden-question"))
    locked.chmod(0)
    try:
        proc = subprocess.run([sys.executable, "-m", "qlint", "check", "--no-cache"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")})
    finally:
        locked.chmod(0o755)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "bank/mla-c01/locked:1:1: Y010" in proc.stdout


@pytest.mark.parametrize("cache", [["--no-cache"], []])
def test_checking_one_file_names_a_bank_folder_its_bank_rules_could_not_see(bank, capsys, cache):
    """Pre-commit passes only staged files; bank rules then walk the bank for context, and a folder
    they cannot list would hide its questions (a duplicate id there goes unseen)."""
    one = "bank/mla-c01/model-development/open-question.yaml"
    for _ in range(2):  # a warm run must say it too
        code, out, err = run(capsys, "check", *cache, one)
        assert code == 2, out + err
        assert "bank/mla-c01/locked:1:1: Y010 cannot list this folder: Permission denied" in out, out
        assert "not compared with the files checked" in out
