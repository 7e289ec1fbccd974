"""Configuration: `qlint.toml` or `[tool.qlint]` in `pyproject.toml`, found by searching upward."""

from __future__ import annotations

import tomllib
from functools import cached_property
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from qlint.diagnostic import Severity
from qlint.loading.limits import Limits
from qlint.project.discovery import display_path

CONFIG_FILES = ("qlint.toml", "pyproject.toml")


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
    scoring: str = "partial"  # [export] scoring: multiple-response credit in every export (all-or-nothing | partial)

    @cached_property  # asked once per file: resolve once
    def bank_dir(self) -> Path:
        return (self.root / self.bank).resolve()

    @cached_property
    def exams_dir(self) -> Path:
        return (self.root / self.exams).resolve()


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


def load_config(start: Path | None = None) -> Config:
    """The configuration in force at `start` (default: the working directory), validated."""
    start = start or Path.cwd()
    source, raw = find_config(start)
    root = source.parent if source else start.resolve()
    if source is not None:
        from qlint.project.validation import check_config  # imports the rule registry

        problems = check_config(raw)
        if problems:
            prefix = "tool.qlint." if source.name == "pyproject.toml" else ""
            shown = display_path(str(source))
            raise ConfigError("\n".join(f"{shown}: {prefix}{key}: {message}" if key else f"{shown}: {message}"
                                         for key, message in problems))
    names = {f.name.replace("_", "-"): f.name for f in fields(Limits)}
    return Config(
        root=root,
        source=source,
        bank=raw.get("bank", "bank"),
        exams=raw.get("exams", "bank/exams"),
        select=tuple(raw.get("select", ())),
        extend_select=tuple(raw.get("extend-select", ())),
        preview=bool(raw.get("preview", False)),
        ignore=tuple(raw.get("ignore", ())),
        per_file_ignores={k: tuple(v) for k, v in raw.get("per-file-ignores", {}).items()},
        severity={k: Severity.parse(v) for k, v in raw.get("severity", {}).items()},
        rules=_by_code(raw.get("rules", {})),
        output_format=raw.get("output-format", ""),
        limits=Limits(**{names[k]: v for k, v in raw.get("limits", {}).items()}),
        format=FormatOptions(**raw.get("format", {})),  # the config schema checked the keys and ranges
        scoring=raw.get("export", {}).get("scoring", "partial"),
    )


def _by_code(tables: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Rule option tables keyed by code, whether the file named the rule by code or by name."""
    from qlint.rules import by_name_or_code

    out: dict[str, dict[str, Any]] = {}
    for key, table in tables.items():
        found = by_name_or_code(key)
        out.setdefault(found.code if found else key, {}).update(table)
    return out


# --- [tool.qlint.format]: layout settings of `qlint format` (authoring) -----------------------


@dataclass(frozen=True)
class FormatOptions:
    indent: int = 2  # spaces per nesting level
    width: int = 100  # line width the formatter wraps long text to
