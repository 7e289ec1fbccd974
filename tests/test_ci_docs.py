"""The CI recipes in docs/ci.md: every YAML block parses, and every qlint command in them is one
the real argument parser accepts, with output formats that exist."""

from __future__ import annotations

import re
import shlex

import pytest
import yaml

from qlint.cli import build_parser
from qlint.reports import REPORTERS

from conftest import REPO

DOC = REPO / "docs" / "ci.md"
BLOCK = re.compile(r"^```ya?ml\n(.*?)^```", re.M | re.S)
SHELL_OPERATORS = {"|", "||", "&&", ";", ">", ">>", "<", "2>", "&"}


def blocks() -> list[str]:
    found = BLOCK.findall(DOC.read_text(encoding="utf-8"))
    assert found, "docs/ci.md has no YAML blocks"
    return found


SHELL_KEYS = {"run", "script", "before_script", "after_script", "entry"}  # values a shell runs


def shell_lines(node, shell=False):
    """Every string a CI system or pre-commit hands to a shell: GitHub `run:`, GitLab `script:`..."""
    if isinstance(node, str):
        if shell:
            yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from shell_lines(value, shell or key in SHELL_KEYS)
    elif isinstance(node, list):
        for value in node:
            yield from shell_lines(value, shell)


def qlint_commands(text: str) -> list[list[str]]:
    """argv after `qlint` for each qlint invocation in a shell line, up to the first shell operator."""
    out = []
    for line in text.splitlines():
        words = shlex.split(line, comments=True)
        for i, word in enumerate(words):
            if word.rsplit("/", 1)[-1] == "qlint" and (i == 0 or words[i - 1] in SHELL_OPERATORS):
                argv = []
                for w in words[i + 1:]:
                    if w in SHELL_OPERATORS:
                        break
                    argv.append(w)
                out.append(argv)
    return out


def option_strings(parser, command: str) -> set[str]:
    """The exact flags of a subcommand (argparse would also accept abbreviations of them)."""
    (sub,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    return {s for action in sub.choices[command]._actions for s in action.option_strings}


def test_blocks_parse_and_use_real_flags():
    parser = build_parser()
    commands = []
    for block in blocks():
        doc = yaml.safe_load(block)
        assert isinstance(doc, dict), block
        for text in shell_lines(doc):
            commands += qlint_commands(text)
    assert len(commands) >= 3, commands  # GitHub lint + summary, GitLab
    formats = set()
    for argv in commands:
        try:
            args = parser.parse_args(argv)
        except SystemExit:
            pytest.fail(f"docs/ci.md runs 'qlint {' '.join(argv)}', which qlint rejects")
        flags = {w.split("=", 1)[0] for w in argv[1:] if w.startswith("-")}
        assert flags <= option_strings(parser, argv[0]), f"not a flag of 'qlint {argv[0]}': {flags - option_strings(parser, argv[0])}"
        if getattr(args, "output_format", None):
            formats.add(args.output_format)
    assert formats <= set(REPORTERS.names()), formats
    assert {"sarif", "markdown", "gitlab"} <= formats


def test_github_workflow_uploads_sarif_and_writes_the_summary():
    workflow = next(yaml.safe_load(b) for b in blocks() if "jobs" in yaml.safe_load(b))
    steps = workflow["jobs"]["qlint"]["steps"]
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@"))
    lint = next(s for s in steps if "--output-format sarif" in s.get("run", ""))
    assert upload["with"]["sarif_file"] in lint["run"]
    assert "cancelled()" in upload["if"]
    assert workflow["permissions"]["security-events"] == "write"
    assert any("$GITHUB_STEP_SUMMARY" in s.get("run", "") and "markdown" in s["run"] for s in steps)


def test_gitlab_job_publishes_the_code_quality_report():
    job = next(yaml.safe_load(b)["qlint"] for b in blocks() if "script" in str(yaml.safe_load(b).get("qlint", "")))
    (command,) = [c for c in job["script"] if "--output-format gitlab" in c]
    assert job["artifacts"]["reports"]["codequality"] in command and job["artifacts"]["when"] == "always"


def test_command_extraction():
    assert qlint_commands('qlint check --output-format markdown >> "$GITHUB_STEP_SUMMARY" || true') == [
        ["check", "--output-format", "markdown"]]
    assert qlint_commands("pip install x && .venv/bin/qlint rule K001") == [["rule", "K001"]]
    assert qlint_commands('pip install "qlint @ git+https://x/qlint.git"') == []
    assert list(shell_lines({"env": {"QLINT": "qlint @ x"}, "steps": [{"run": "qlint check"}]})) == ["qlint check"]
