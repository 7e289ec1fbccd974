"""Configuration: `qlint.toml` or `[tool.qlint]` in `pyproject.toml`, found by searching upward."""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from qlint.diagnostic import Severity
from qlint.loading.limits import Limits

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
    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    severity: dict[str, Severity] = field(default_factory=dict)
    rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    output_format: str = ""
    limits: Limits = Limits()
    format: "FormatOptions" = field(default_factory=lambda: FormatOptions())

    @property
    def bank_dir(self) -> Path:
        return (self.root / self.bank).resolve()

    @property
    def exams_dir(self) -> Path:
        return (self.root / self.exams).resolve()


_KEYS = {
    "bank": str, "exams": str, "select": list, "extend-select": list, "ignore": list,
    "per-file-ignores": dict, "severity": dict, "rules": dict, "output-format": str, "limits": dict,
    "format": dict,
}


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
            table = data.get("tool", {}).get("qlint")
            if isinstance(table, dict):
                return candidate, table
    return None, {}


def _strings(where: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings")
    return tuple(value)


def load_config(start: Path | None = None) -> Config:
    start = start or Path.cwd()
    source, raw = find_config(start)
    root = source.parent if source else start.resolve()
    where = str(source) if source else "configuration"
    for key, value in raw.items():
        if key not in _KEYS:
            close = difflib.get_close_matches(key, list(_KEYS), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ConfigError(f"{where}: unknown setting {key!r}{hint}")
        if not isinstance(value, _KEYS[key]):
            raise ConfigError(f"{where}: {key!r} must be a {_KEYS[key].__name__}")
    severity = {}
    for code, sev in raw.get("severity", {}).items():
        try:
            severity[code] = Severity.parse(str(sev))
        except ValueError as exc:
            raise ConfigError(f"{where}: severity.{code}: {exc}") from None
    limits_raw = raw.get("limits", {})
    names = {f.name.replace("_", "-"): f.name for f in fields(Limits)}
    for key, value in limits_raw.items():
        if key not in names or not isinstance(value, int) or value <= 0:
            raise ConfigError(f"{where}: limits.{key}: expected one of {', '.join(names)} with a positive integer")
    return Config(
        root=root,
        source=source,
        bank=raw.get("bank", "bank"),
        exams=raw.get("exams", "bank/exams"),
        select=_strings(f"{where}: select", raw.get("select", [])),
        extend_select=_strings(f"{where}: extend-select", raw.get("extend-select", [])),
        ignore=_strings(f"{where}: ignore", raw.get("ignore", [])),
        per_file_ignores={k: _strings(f"{where}: per-file-ignores.{k}", v) for k, v in raw.get("per-file-ignores", {}).items()},
        severity=severity,
        rules={k: dict(v) for k, v in raw.get("rules", {}).items() if isinstance(v, dict)},
        output_format=raw.get("output-format", ""),
        limits=Limits(**{names[k]: v for k, v in limits_raw.items()}),
        format=format_options(where, raw.get("format", {})),
    )


# --- [tool.qlint.format]: layout settings of `qlint format` (authoring) -----------------------


@dataclass(frozen=True)
class FormatOptions:
    indent: int = 2  # spaces per nesting level
    width: int = 100  # line width the formatter wraps long text to


_FORMAT_BOUNDS = {"indent": (2, 8), "width": (40, 400)}


def format_options(where: str, raw: dict[str, Any]) -> FormatOptions:
    for key, value in raw.items():
        if key not in _FORMAT_BOUNDS:
            raise ConfigError(f"{where}: format.{key}: unknown setting; use {' or '.join(_FORMAT_BOUNDS)}")
        low, high = _FORMAT_BOUNDS[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(f"{where}: format.{key}: expected an integer from {low} to {high}")
    return FormatOptions(**raw)
