"""The command line as a user runs it: exit codes, output lines, help, version, rule docs."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from qlint import __version__
from qlint.cli import main

from conftest import BANK, REPO

SAMPLE = BANK / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml"
LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]\d{3}) .+ \((?P<name>[a-z0-9-]+)\)$")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def corrupt(tmp_path, old, new, name="q.yaml"):
    text = SAMPLE.read_text(encoding="utf-8")
    assert old in text
    f = tmp_path / name
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    return f


def test_sample_bank_is_clean(capsys, in_repo):
    code, out, _ = run(capsys, "check")
    assert code == 0, out
    assert out.startswith("All checks passed")


@pytest.mark.parametrize(
    "old, new, expected_code, expected_line",
    [
        ("    rationale: |\n      Parallel tuning jobs", "    why_chosen: |\n      Parallel tuning jobs", "K001", 36),
        ("text: Data parallelism\n    correct: false", "text: Data parallelism\n    correct: true", "K002", None),
        ("text: Model parallelism\n    correct: true", "text: Model parallelism\n    correct: yes", "S001", 48),
    ],
)
def test_corrupted_copies_are_reported_at_the_line(capsys, in_repo, tmp_path, old, new, expected_code, expected_line):
    f = corrupt(tmp_path, old, new)
    code, out, _ = run(capsys, "check", str(f))
    assert code == 1
    hits = [LINE.match(ln) for ln in out.splitlines() if LINE.match(ln)]
    mine = [m for m in hits if m["code"] == expected_code]
    assert mine, out
    if expected_line:
        assert int(mine[0]["line"]) == expected_line, out


def test_unreadable_input_exits_2(capsys, in_repo, tmp_path):
    f = tmp_path / "broken.yaml"
    f.write_text("id: [unclosed\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(f))
    assert code == 2
    assert ": Y001 " in out and "Traceback" not in out


def test_missing_path_exits_2(capsys, in_repo, tmp_path):
    code, out, _ = run(capsys, "check", str(tmp_path / "nope.yaml"))
    assert code == 2 and "Y010" in out


@pytest.mark.parametrize("fmt", ["text", "github", "markdown"])
def test_a_missing_folder_is_not_counted_as_a_file(capsys, in_repo, tmp_path, fmt):
    """`qlint check missing/` said "Found 1 problem (1 error) in 1 of 0 files" (issue 28 point 8)."""
    code, out, _ = run(capsys, "check", "--no-cache", "--output-format", fmt, str(tmp_path / "missing") + "/")
    assert code == 2 and "no such file or directory" in out, out
    assert "of 0" not in out and "Found 1 problem (1 error); no file checked." in out, out


def test_unknown_rule_in_select_names_the_closest(capsys, in_repo):
    code, _, err = run(capsys, "check", "--select", "K0001")
    assert code == 2 and "unknown rule" in err


def test_select_and_ignore(capsys, in_repo, tmp_path):
    f = corrupt(tmp_path, "text: Data parallelism\n    correct: false", "text: Data parallelism\n    correct: true")
    code, out, _ = run(capsys, "check", "--ignore", "K,B", str(f))  # B: the copy duplicates a bank question
    assert code == 0, out
    code, out, _ = run(capsys, "check", "--select", "key-count", str(f))
    assert code == 1 and "K002" in out and "K003" not in out


def test_rule_docs(capsys):
    code, out, _ = run(capsys, "rule", "K001")
    assert code == 0 and out.startswith("# K001 option-rationale") and "## Fix" in out
    code, out, _ = run(capsys, "rule", "option-rationale")
    assert code == 0 and "K001" in out
    code, out, _ = run(capsys, "rule", "--all")
    assert code == 0 and "K004" in out and "Y001" in out
    code, _, err = run(capsys, "rule", "Z999")
    assert code == 2 and "no rule" in err


def test_version_and_help(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and __version__ in out
    for cmd in (["--help"], ["check", "--help"], ["rule", "--help"]):
        code, out, _ = run(capsys, *cmd)
        assert code == 0 and "usage:" in out


def test_bad_usage_exits_2(capsys):
    code, _, err = run(capsys, "check", "--no-such-flag")
    assert code == 2 and "error" in err


def test_console_script_has_no_colour_when_piped(tmp_path):
    exe = shutil.which("qlint", path=str(REPO / ".venv" / "bin")) or shutil.which("qlint")
    cmd = [exe] if exe else [sys.executable, "-m", "qlint"]
    f = corrupt(tmp_path, "text: Data parallelism\n    correct: false", "text: Data parallelism\n    correct: true")
    proc = subprocess.run(cmd + ["check", str(f)], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "\033[" not in proc.stdout
    assert all(LINE.match(ln) for ln in proc.stdout.splitlines()[:-1]), proc.stdout
