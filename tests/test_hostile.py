"""Hostile input: every case in tests/hostile/corpus.py gets its diagnostic and exit code, no traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from qlint.cli import main

from hostile.corpus import CASES, project

LINE = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]\d{3}) ")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_case(case, tmp_path, monkeypatch, capsys):
    if case.name == "unreadable file" and os.geteuid() == 0:
        # root reads mode-000 files; simulate the refusal the kernel gives everyone else
        real_open = open

        def deny(path, *a, **k):
            if str(path).endswith("locked.yaml"):
                raise PermissionError(13, "Permission denied")
            return real_open(path, *a, **k)

        monkeypatch.setattr("builtins.open", deny)
    root = project(tmp_path / "proj")
    target = case.build(root)
    monkeypatch.chdir(root)
    code = main(["check", str(target)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code == case.exit, out + err
    hits = [m for m in map(LINE.match, out.splitlines()) if m]
    if case.code is None:
        assert not hits, out
        return
    assert hits and hits[0]["code"] == case.code, out
    if case.line is not None:
        assert int(hits[0]["line"]) == case.line, out
    assert "do-not-echo" not in out  # nothing from a file outside the project is echoed


def test_python_tags_never_execute(tmp_path):
    root = project(tmp_path / "proj")
    f = root / "bank" / "evil.yaml"
    marker = tmp_path / "PWNED"
    f.write_text(f"id: !!python/object/apply:os.system ['touch {marker}']\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "qlint", "check", str(f)], cwd=root, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Y007" in proc.stdout
    assert not marker.exists()


@pytest.mark.parametrize("name", ["alias bomb", "50 MB file", "deep nesting"])
def test_bounded_memory(name, tmp_path):
    """Run the worst cases under a 512 MB address-space limit: they must still answer cleanly."""
    case = next(c for c in CASES if c.name == name)
    root = project(tmp_path / "proj")
    target = case.build(root)
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (512 * 2**20, 512 * 2**20));"
    code = f"{limit} import sys; from qlint.cli import main; sys.exit(main(['check', {str(target)!r}]))"
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert proc.returncode == case.exit, proc.stdout + proc.stderr
    assert case.code in proc.stdout and "Traceback" not in proc.stderr


def test_limits_are_configurable(tmp_path, monkeypatch, capsys):
    root = project(tmp_path / "proj")
    (root / "qlint.toml").write_text('bank = "bank"\n[limits]\nmax-depth = 3\n', encoding="utf-8")
    f = root / "bank" / "nested.yaml"
    f.write_text("a:\n  b:\n    c:\n      d: 1\n", encoding="utf-8")
    monkeypatch.chdir(root)
    assert main(["check", str(f)]) == 2
    assert "Y009" in capsys.readouterr().out
