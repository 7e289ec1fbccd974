"""The configuration in force, checked against everything qlint knows: its schema, rule codes
and options, selectors and output formats (a mistake is a ConfigError, exit 2)."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

from qlint.diagnostic import Severity
from qlint.loading.limits import Limits
from qlint.paths import display_path
from qlint.project.config import PATH_KEYS, Config, ConfigError, FormatOptions, ReviewPolicy, find_config, inside_project
from qlint.project.toml_keys import key_position, split_key


def load_config(start: Path | None = None) -> Config:
    """The configuration in force at `start` (default: the working directory), validated."""
    start = start or Path.cwd()
    source, raw = find_config(start)
    root = source.parent if source else start.resolve()
    if source is not None:
        from qlint.lint.config_check import check_config  # imports the rule registry

        problems = check_config(raw) + _output_format(raw)
        problems += [] if problems else _paths(raw, root) + _languages(raw)
        if problems:
            raise ConfigError(_report(source, problems))
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
        date=str(raw.get("date", "")),
        lang=raw.get("lang", "en"),
        languages=tuple(raw.get("languages", ())),
        review=_review(raw.get("review", {})),
    )


def _review(table: dict[str, Any]) -> ReviewPolicy:
    """The [review] table (its shape checked by the config schema)."""
    return ReviewPolicy(roles=tuple(table.get("roles", ())), reviewers=int(table.get("reviewers", 0)),
                        author=str(table.get("author", "")).strip(),
                        statuses=tuple(table.get("statuses", ("published",))))


def _report(source: Path, problems: list[tuple[str, str]]) -> str:
    """One line per problem: `file:line:col: key: message` (the position of the key in the file)."""
    prefix = "tool.qlint." if source.name == "pyproject.toml" else ""
    shown = display_path(str(source))
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    lines = []
    for key, message in problems:
        at = key_position(text, split_key(prefix + key)) if key else None
        where = f"{shown}:{at[0]}:{at[1]}" if at else shown
        lines.append(f"{where}: {prefix}{key}: {message}" if key else f"{where}: {message}")
    return "\n".join(lines)


def _paths(raw: dict[str, Any], root: Path) -> list[tuple[str, str]]:
    """Configured paths that lead out of the project (`..`, an absolute path, a symlink out)."""
    return [(key, f"{raw[key]!r} leads outside the project folder {root} (links resolved); a configured "
                  "path must stay inside the folder of its configuration file")
            for key in PATH_KEYS if isinstance(raw.get(key), str) and inside_project(root, raw[key]) is None]


def _languages(raw: dict[str, Any]) -> list[tuple[str, str]]:
    """`languages` must hold the default `lang`: the translations are made from it."""
    langs, default = raw.get("languages"), raw.get("lang", "en")
    if langs and default.lower() not in [v.lower() for v in langs]:
        return [("languages", f"lists {', '.join(langs)} but not the default lang {default!r}: add it")]
    return []


def _by_code(tables: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Rule option tables keyed by code, whether the file named the rule by code or by name."""
    from qlint.rules import by_name_or_code

    out: dict[str, dict[str, Any]] = {}
    for key, table in tables.items():
        found = by_name_or_code(key)
        out.setdefault(found.code if found else key, {}).update(table)
    return out


def _output_format(raw: dict[str, Any]) -> list[tuple[str, str]]:
    from qlint.reports import REPORTERS

    fmt = raw.get("output-format")
    if isinstance(fmt, str) and fmt not in REPORTERS:  # (a wrong type is a schema problem)
        return [("output-format", f"unknown output format {fmt!r}; choose from: {', '.join(REPORTERS.names())}")]
    return []
