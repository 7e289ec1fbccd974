"""The README's commands are real: every `qlint ...` line in its code blocks parses with the
actual CLI, and the quick start's two make targets exist."""

from __future__ import annotations

import re
import shlex

import pytest

from qlint.cli import build_parser

from conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(?:sh|console|bash)\n(.*?)```", README, re.S)
COMMANDS = [
    line.split("#", 1)[0].strip().removeprefix("$ ")
    for block in BLOCKS
    for line in block.splitlines()
    if re.match(r"^(\$ )?(\.venv/bin/)?qlint ", line.strip())
]


def test_readme_shows_commands():
    assert len(COMMANDS) >= 15
    used = {shlex.split(c)[1] for c in COMMANDS}
    assert {"check", "rule", "format", "shuffle", "new", "import", "export"} <= used
    exported = {m.group(1) for c in COMMANDS if (m := re.search(r"--format (\w+)", c)) and " export " in f" {c} "}
    assert exported >= {"qti21", "qti30", "canvas", "moodle", "gift", "markdown", "html", "json"}


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_parses(command):
    argv = shlex.split(command)[1:]
    args = build_parser().parse_args(argv)  # exits (SystemExit 2) on an unknown flag or command
    assert getattr(args, "_run", None) is not None


def test_quick_start_targets_exist():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert "make check" in README and "make test" in README
    assert re.search(r"^check:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    assert "make test" in (REPO / ".ci" / "run").read_text(encoding="utf-8")
