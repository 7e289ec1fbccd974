"""Output formats: each reads only Diagnostic records and a ReportContext and returns the report text.

A reporter is a pure function `(diagnostics, context) -> str` registered by name; modules in this
package register themselves on import. Helpers shared by several formats live in `_common.py`;
`_context.py` reads the environment; the command builds the rest of the context from its run
(`qlint.cli.reporting`), since formats never import the engine (.importlinter).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from qlint import __version__
from qlint.diagnostic import Diagnostic
from qlint.registry import Registry


@dataclass(frozen=True)
class ReportContext:
    files_checked: int
    color: bool = False
    show_source: bool = False
    sources: dict[str, str] = field(default_factory=dict)  # shown path -> text, for --show-source
    statistics: bool = False
    extra: dict = field(default_factory=dict)  # bank figures etc., for formats that show them
    version: str = __version__  # fixed in golden tests so reports stay byte-stable
    exit_code: int = 0  # what `qlint check` returns for this run, decided before any format runs
    root: str = ""  # absolute repository root; formats for CI systems give paths relative to it
    cwd: str = ""  # absolute folder the diagnostics' relative paths start from ("" = already root-relative)
    link_base: str = ""  # URL prefix for links to files (e.g. a GitHub blob URL ending in '/')
    rules: tuple[str, ...] = ()  # codes of the rules that ran (empty: unknown, treat as all)
    summary: bool = True  # text: end with the count line (commands with a summary of their own say no)


Reporter = Callable[[list[Diagnostic], ReportContext], str]
REPORTERS: Registry[Reporter] = Registry("output format", "qlint.reports")
NEEDS_FIGURES: set[str] = set()  # formats that show the bank's figures (computed only for them)


def reporter(name: str, *, figures: bool = False) -> Callable[[Reporter], Reporter]:
    """Register a format; `figures=True` asks the check command for the bank figures in `extra`."""

    def deco(fn: Reporter) -> Reporter:
        if figures:
            NEEDS_FIGURES.add(name)
        return REPORTERS.add(name, fn)

    return deco


def needs_figures(name: str) -> bool:
    REPORTERS.names()  # import the format modules so their registrations are known
    return name in NEEDS_FIGURES
