"""Output that cannot be forged: a file name (or text) holding ESC, CR, a line break or a bidi
override is printed with those characters escaped, in every report a person reads (text, github,
markdown) and in the CLI's error messages, so it cannot move the cursor, erase a line, print a
fake "All checks passed" or reverse what a reviewer reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import SAMPLE
from kit.export import copy_project
from qlint.cli import main

# ESC [2K erases the line, CR returns to its start: a raw print would show only the forged text.
FORGED = "x\x1b[2K\rAll checks passed (1 file checked).\n\u202eevil\u2066"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
HOSTILE_FILES = {
    "findings": FORGED + ".yaml",  # loads, with schema findings (S001)
    "y-error": FORGED + "-broken.yaml",  # does not parse (Y001, exit 2)
}
CONTENT = {"findings": "format: 1\nid: x\n", "y-error": "key: [unclosed\n"}


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = copy_project(tmp_path)
    monkeypatch.chdir(root)
    return root


def _write(root: Path, kind: str) -> str:
    rel = f"bank/{HOSTILE_FILES[kind]}"
    (root / rel).write_text(CONTENT[kind], encoding="utf-8")
    return rel


def _no_raw_controls(text: str) -> None:
    assert not RAW.search(text), repr(RAW.search(text).group())
    assert "\r" not in text


@pytest.mark.parametrize("kind", sorted(HOSTILE_FILES))
@pytest.mark.parametrize("fmt", ["text", "github", "markdown"])
def test_reports_escape_control_and_bidi_characters_in_paths(project, capsys, kind, fmt):
    rel = _write(project, kind)
    code = main(["check", rel, "--no-cache", "--output-format", fmt])
    assert code == (2 if kind == "y-error" else 1)
    out = capsys.readouterr().out
    _no_raw_controls(out)
    shown = out.replace("\\\\", "\\").replace("\\[", "[")  # markdown escapes its own punctuation
    assert "\\x1b[2K" in shown and "\\u202e" in shown and "\\u2066" in shown
    # the forged text never starts a line of its own
    assert not any(line.startswith("All checks passed") for line in out.splitlines())
    if fmt == "text":
        assert "\\r" in out and "\\n" in out
        found = [line for line in out.splitlines() if "S001" in line or "Y001" in line]
        assert found and all(line.startswith("bank/x\\x1b[2K\\rAll checks passed (1 file checked).\\n\\u202eevil\\u2066")
                             for line in found)
        assert out.splitlines()[-1].startswith("Found ")
    if fmt == "github":  # line breaks in the runner's own encoding, the rest escaped
        assert "file=bank/x\\x1b[2K%0DAll checks passed (1 file checked).%0A\\u202eevil\\u2066" in out
        assert all(line.startswith(("::error ", "Found ")) for line in out.splitlines())


def test_messages_and_source_lines_are_escaped(project, capsys):
    rel = "bank/bidi.yaml"
    (project / rel).write_text("format: an \u202etrap\u2066\n", encoding="utf-8")  # S001 on the bidi line
    assert main(["check", rel, "--no-cache", "--show-source"]) == 1
    out = capsys.readouterr().out
    _no_raw_controls(out)
    assert "\\u202etrap\\u2066" in out and "   1 | format: an \\u202etrap\\u2066" in out


def test_cli_error_messages_escape_the_paths_they_echo(project, capsys):
    rel = _write(project, "y-error")
    assert main(["format", rel]) == 2
    captured = capsys.readouterr()
    _no_raw_controls(captured.err)
    assert "\\x1b[2K" in captured.err and "\\u202e" in captured.err
    assert not any(line.startswith("All checks passed") for line in captured.err.splitlines())
    assert main(["check", "bank/no\x1b[31msuch\u202e.yaml", "--no-cache"]) == 2
    out = capsys.readouterr().out
    _no_raw_controls(out)
    assert "no\\x1b[31msuch\\u202e.yaml" in out


def test_export_errors_name_hostile_files_escaped(project, capsys):
    """A scripted image behind a hostile name: the refusal names it escaped."""
    folder = project / "bank" / "mla-c01" / "model-development"
    name = "fig\u202e\u2066.svg"  # YAML text cannot hold ESC (Y003); bidi controls it can
    (folder / name).write_bytes(b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')
    q = folder / "layer-split-across-gpus.yaml"
    q.write_text(q.read_text(encoding="utf-8").replace(
        "  Which distributed training strategy", "  ![x](<fig\u202e\u2066.svg>)\n\n  Which distributed training strategy", 1),
        encoding="utf-8")
    assert main(["export", "-f", "html", "-o", str(project / "site"), "--force"]) == 2
    err = capsys.readouterr().err
    _no_raw_controls(err)
    assert "image 'fig\\u202e\\u2066.svg' has an event handler (onload=)" in err and not (project / "site").exists()


def test_printable_escapes_each_class_and_keeps_ordinary_text():
    from qlint.printable import printable  # here, so the report tests above run (and fail) without it

    assert printable("caf\u00e9 \u6771\u4eac \U0001f642 a\tb") == "caf\u00e9 \u6771\u4eac \U0001f642 a\\tb"
    assert printable("\x00\x1b\x7f\x85\u061c\u200b\u200e\u2028\u202e\u2066\ufeff\U000e0001") == (
        "\\x00\\x1b\\x7f\\x85\\u061c\\u200b\\u200e\\u2028\\u202e\\u2066\\ufeff\\U000e0001")
    assert printable("a\nb\r", keep="\n") == "a\nb\\r"
    assert SAMPLE.is_file()


def test_printable_escapes_the_invisible_letters_f003_reports():
    """Hangul fillers are letters (category Lo) that draw nothing: F003 reports them in text, so a
    report must not print them raw in a path either."""
    from qlint.printable import printable

    assert printable("bank/a\u3164b.yaml") == "bank/a\\u3164b.yaml"
    assert printable("\u115f") == "\\u115f"
