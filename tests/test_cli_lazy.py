"""`qlint` imports only the command it runs (cli/commands/INDEX), and says the same as the whole
command line would: `qlint --help`, every command's `--help` and usage errors, byte for byte."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from qlint.cli import COMMANDS, build_parser, main
from qlint.cli.commands import INDEX

from conftest import REPO


def test_the_index_names_every_command_with_its_help_and_module():
    assert sorted(INDEX) == COMMANDS.names()
    for name, (module, help) in INDEX.items():
        command = COMMANDS.get(name)
        assert help == command.help, name
        source = (REPO / "src" / "qlint" / "cli" / "commands" / f"{module}.py").read_text(encoding="utf-8")
        assert f'@command("{name}"' in source, name  # the module that registers it


def _eager(argv: list[str], capsys) -> tuple[int, str, str]:
    """What the whole command line (every command configured) prints for `argv`."""
    try:
        build_parser().parse_args(argv)
        code = 0
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def _lazy(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["--version"]] + [[name, "--help"] for name in sorted(INDEX)])
def test_help_is_byte_identical(argv, capsys):
    assert _lazy(argv, capsys) == _eager(argv, capsys)


@pytest.mark.parametrize("argv", [["chekc"], ["check", "--no-such-flag"], ["export"], ["rule", "a", "b"],
                                  ["--", "check", "--bogus"], ["analyze"]])
def test_usage_errors_are_the_same(argv, capsys):
    lazy, eager = _lazy(argv, capsys), _eager(argv, capsys)
    assert lazy == eager and lazy[0] == 2


def test_no_command_prints_the_help():
    parser = build_parser(only="")
    assert parser.format_help() == build_parser().format_help()


def _modules_after(args: str) -> set[str]:
    code = ("import sys\nfrom qlint.cli import main\n"
            f"main({args})\n"
            "print('\\n'.join(sorted(sys.modules)))")
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    return set(proc.stdout.split())


def test_a_command_imports_only_its_own_module():
    for args in ("['rule', 'K001']", "['check', '--help']"):
        loaded = _modules_after(args)
        commands = {m for m in loaded if m.startswith("qlint.cli.commands.") and not m.split(".")[-1].startswith("_")}
        assert commands == {"qlint.cli.commands." + INDEX[eval(args)[0]][0]}, args
        assert "numpy" not in loaded and "qlint.itemanalysis" not in loaded and "qlint.server" not in loaded
