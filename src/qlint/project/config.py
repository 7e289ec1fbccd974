"""Configuration: `qlint.toml` or `[tool.qlint]` in `pyproject.toml`, found by searching upward."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from qlint.diagnostic import Severity
from qlint.loading.limits import Limits

CONFIG_FILES = ("qlint.toml", "pyproject.toml")
# Every setting that names a file or folder. The configuration comes with the repository (a pull
# request can change it), so each must stay inside the project; paths on the command line are
# the user's own choice and are not limited.
PATH_KEYS = ("bank", "exams")


class ConfigError(Exception):
    """A configuration mistake: reported with the file's name, exit 2."""


@dataclass(frozen=True)
class Config:
    root: Path
    source: Path | None = None
    bank: str = "bank"
    exams: str = "bank/exams"
    select: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    preview: bool = False  # preview rules (judged precision below the bar) join ALL and prefixes
    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    severity: dict[str, Severity] = field(default_factory=dict)
    rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    output_format: str = ""
    limits: Limits = Limits()
    format: "FormatOptions" = field(default_factory=lambda: FormatOptions())
    date: str = ""  # the date lifecycle rules judge by (YYYY-MM-DD); "" = today (project/lifecycle.py)
    lang: str = "en"  # the language of a question without `lang:` (BCP 47)
    languages: tuple[str, ...] = ()  # the bank's languages: each needs a translation of every item (L004)
    scoring: str = "partial"  # [export] scoring: multiple-response credit in every export (all-or-nothing | partial)
    review: "ReviewPolicy" = field(default_factory=lambda: ReviewPolicy())  # [review]: sign-off policy

    @cached_property  # asked once per file: resolve once
    def bank_dir(self) -> Path:
        return (self.root / self.bank).resolve()

    @cached_property
    def exams_dir(self) -> Path:
        return (self.root / self.exams).resolve()


def inside_project(root: Path, value: str) -> Path | None:
    """`value` (a configured path, relative to `root`) resolved, links included; None when it
    leads outside `root`."""
    project = root.resolve()
    path = (project / value).resolve()
    return path if path == project or project in path.parents else None


def find_config(start: Path) -> tuple[Path | None, dict[str, Any]]:
    """The nearest qlint.toml, or pyproject.toml with a [tool.qlint] table, at or above `start`."""
    start = start.resolve()
    for folder in [start, *start.parents]:
        for name in CONFIG_FILES:
            candidate = folder / name
            if not candidate.is_file():
                continue
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
                raise ConfigError(f"{candidate}: cannot read configuration: {exc}") from None
            if name == "qlint.toml":
                return candidate, data
            tool = data.get("tool")
            table = tool.get("qlint") if isinstance(tool, dict) else None
            if isinstance(table, dict):
                return candidate, table
    return None, {}


# --- [tool.qlint.format]: layout settings of `qlint format` (authoring) -----------------------


@dataclass(frozen=True)
class FormatOptions:
    indent: int = 2  # spaces per nesting level
    width: int = 100  # line width the formatter wraps long text to


# --- [tool.qlint.review]: the sign-off policy (rules W001-W005, export --require-review) -------


@dataclass(frozen=True)
class ReviewPolicy:
    roles: tuple[str, ...] = ()  # roles each reviewed question needs a sign-off for
    reviewers: int = 0  # fewest distinct reviewers (the author never counts)
    author: str = ""  # the author of questions without an `author` field
    statuses: tuple[str, ...] = ("published",)  # statuses the policy applies to

    @property
    def configured(self) -> bool:
        return bool(self.roles or self.reviewers)
