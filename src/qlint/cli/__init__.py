"""The command line: parse arguments, dispatch to a registered command's `run() -> int`.

Exit codes: 0 clean, 1 findings, 2 usage / configuration / unreadable input / internal error,
130 interrupted (Ctrl-C), 143 terminated (SIGTERM).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from dataclasses import dataclass
from typing import Callable

from qlint import __version__
from qlint.lint import interrupts
from qlint.printable import EscapingStream
from qlint.registry import Registry

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    description: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


COMMANDS: Registry[Command] = Registry("command", "qlint.cli.commands")


def command(name: str, help: str, description: str = ""):
    """Register a command: decorate `configure(parser)`; it returns the `run(args)` function."""

    def deco(configure: Callable[[argparse.ArgumentParser], Callable[[argparse.Namespace], int]]):
        holder: dict[str, Callable[[argparse.Namespace], int]] = {}

        def _configure(parser: argparse.ArgumentParser) -> None:
            holder["run"] = configure(parser)

        COMMANDS.add(name, Command(name, help, description or help, _configure, lambda args: holder["run"](args)))
        return configure

    return deco


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors exit 2 with a one-line reason
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_ERROR)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with `only`, just that command configured (its module alone
    imported), every other listed with its one-line help as `qlint --help` shows it."""
    from qlint.cli.commands import INDEX

    parser = _Parser(
        prog="qlint",
        description="Lint, format and export certification-exam question banks.",
        epilog="Run 'qlint COMMAND --help' for a command's options. Exit codes: 0 clean, 1 findings, 2 errors.",
    )
    parser.add_argument("--version", action="version", version=f"qlint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, help) in sorted(INDEX.items()):
        if only is not None and name != only:
            sub.add_parser(name, help=help)
            continue
        cmd = COMMANDS.get(name) if only is None else _load(module, name)
        p = sub.add_parser(name, help=cmd.help, description=cmd.description)
        cmd.configure(p)
        p.set_defaults(_run=cmd.run)
    return parser


def _load(module: str, name: str) -> Command:
    importlib.import_module(f"qlint.cli.commands.{module}")
    return COMMANDS.registered(name)


def _command_of(argv: list[str]) -> str:
    """The command `argv` runs: its first word that is not an option (qlint's own options take
    no value), or "" when there is none (`qlint`, `qlint --help`)."""
    from qlint.cli.commands import INDEX

    word = next((a for a in argv if a == "--" or not a.startswith("-")), "")
    if word == "--":
        rest = argv[argv.index("--") + 1:]
        word = rest[0] if rest else ""
    return word if word in INDEX else ""


def main(argv: list[str] | None = None) -> int:
    # Messages echo paths and text from the repository: control and bidi characters are escaped.
    stderr = sys.stderr
    sys.stderr = EscapingStream(stderr)  # type: ignore[assignment]
    try:
        return _main(argv)
    finally:
        sys.stderr = stderr


def _main(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(only=_command_of(argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if isinstance(exc.code, int) else EXIT_ERROR
    if not getattr(args, "_run", None):
        parser.print_help()
        return EXIT_ERROR
    interrupts.install()
    try:
        return args._run(args)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (interrupts.Terminated)
        code, what = interrupts.exit_code(exc)
        print(f"qlint: {what}", file=sys.stderr)
        return code
    except interrupts.Failure as exc:
        print(f"qlint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_ERROR
    except MemoryError:  # a limit (ulimit -v, a container) or a huge input: one line, never a traceback
        print("qlint: error: out of memory: the run needs more than this process may use (ulimit -v, a container "
              "limit?); it stopped before its end", file=sys.stderr)
        return EXIT_ERROR
    except Exception as exc:  # last resort: a message and exit 2, never a traceback
        print(f"qlint: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        print("qlint: please report this with the command and the file that caused it", file=sys.stderr)
        return EXIT_ERROR
