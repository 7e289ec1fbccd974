"""Which bank a question file belongs to, so bank rules compare it with its own bank only.

`qlint check ../other-repo/bank` run from this project must not compare that bank with this
project's bank/ (every question would be a duplicate of its twin here). A file belongs to:
the configured bank when it lies inside it; else the bank of the project holding it (the nearest
qlint.toml or [tool.qlint] above it; none when it lies outside that bank); else the nearest folder
above it named like the configured bank folder (the same layout in a project without
configuration); else, a loose file of this project or of none, the configured bank.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from qlint.project.config import Config, ConfigError, find_config, inside_project
from qlint.paths import is_within


def bank_folders(config: Config, question_files: list[str]) -> list[Path]:
    """The bank folders `question_files` (absolute paths) belong to, the configured one first."""
    own = str(config.bank_dir).rstrip(os.sep) + os.sep
    found: dict[Path, None] = {}
    for path in question_files:
        if path.startswith(own):  # the common case, without touching the file system
            found[config.bank_dir] = None
            continue
        bank = _bank_of(os.path.dirname(os.path.realpath(path)), config.bank_dir, config.source)
        if bank is not None:
            found[bank] = None
    return sorted(found, key=lambda b: b != config.bank_dir)


def bank_of(config: Config, path: str) -> Path | None:
    """The bank folder the file `path` (absolute) belongs to, as `bank_folders` decides; None for
    a file of another project lying outside that project's bank."""
    if path.startswith(str(config.bank_dir).rstrip(os.sep) + os.sep):
        return config.bank_dir
    return _bank_of(os.path.dirname(os.path.realpath(path)), config.bank_dir, config.source)


def exams_folder(config: Config, bank: Path) -> Path:
    """Where `bank`'s exam definitions live: the configured exams folder for the configured bank,
    else the same place relative to the bank (bank/exams by default)."""
    if bank == config.bank_dir:
        return config.exams_dir
    return _exams_of(bank, config.bank_dir, config.exams_dir)


@lru_cache(maxsize=256)
def _exams_of(bank: Path, own_bank: Path, own_exams: Path) -> Path:
    """Another bank's exams folder: its own project's `exams` setting when a configuration names
    that bank, else this project's layout applied to it (bank/exams)."""
    try:
        source, raw = find_config(bank)
    except ConfigError:
        source, raw = None, {}
    if source is not None and inside_project(source.parent, str(raw.get("bank", Config.bank))) == bank:
        # that project's exams folder, never one its configuration places outside it
        return inside_project(source.parent, str(raw.get("exams", Config.exams))) or bank / ".qlint-no-exams"
    try:
        return bank / own_exams.relative_to(own_bank)
    except ValueError:  # exams kept outside the bank: none of this bank's files is an exam file
        return bank / ".qlint-no-exams"


@lru_cache(maxsize=1024)
def _bank_of(folder: str, own: Path, own_config: Path | None) -> Path | None:
    here = Path(folder)
    if here == own or own in here.parents:
        return own
    try:
        source, raw = find_config(here)
    except ConfigError:
        source, raw = None, {}
    if source is not None and source != own_config:  # another project: its bank, or none of it
        bank = inside_project(source.parent, str(raw.get("bank", "bank")))  # None: out of that project
        return bank if bank is not None and (here == bank or bank in here.parents) else None
    if source is None:  # no project: a folder named like ours above it is a bank of its own
        named = next((a for a in (here, *here.parents) if a.name == own.name), None)
        if named is not None:
            return named
    return own  # a loose file of this project (or of none): judged with the bank qlint runs for


CASES_FOLDER = "cases"  # bank/<exam>/cases/<id>.yaml: case study files (schema/case.schema.json)


def file_kind(path: str, config: Config) -> str:
    """What a YAML file of the project holds: "exam" (a file of the exams folder), "case" (a case
    study: a file in a folder named `cases`) or "question". Decided once per folder."""
    return _folder_kind(os.path.dirname(path), os.getcwd(), config.bank_dir, config.exams_dir)


@lru_cache(maxsize=4096)
def _folder_kind(folder: str, cwd: str, bank_dir: Path, exams_dir: Path) -> str:
    folder = os.path.normpath(os.path.join(cwd, folder))
    if in_exams_folder(folder, bank_dir, exams_dir):
        return "exam"
    return "case" if os.path.basename(folder) == CASES_FOLDER else "question"


@lru_cache(maxsize=4096)
def in_exams_folder(folder: str, bank_dir: Path, exams_dir: Path) -> bool:
    """`folder` (absolute) holds exam definitions: the configured exams folder, or the exams folder
    of the other bank it lies in (`qlint check ../other-repo/bank`)."""
    if is_within(folder, exams_dir):
        return True
    if is_within(folder, bank_dir):
        return False
    bank = _bank_of(os.path.realpath(folder), bank_dir, None)
    if bank is not None and bank != bank_dir:
        return is_within(folder, _exams_of(bank, bank_dir, exams_dir))
    exams = _configured_exams(os.path.realpath(folder))  # another project's exams kept beside its bank
    return exams is not None and is_within(folder, exams)


@lru_cache(maxsize=1024)
def _configured_exams(folder: str) -> Path | None:
    """The exams folder the configuration above `folder` names, if any."""
    try:
        source, raw = find_config(Path(folder))
    except ConfigError:
        return None
    return None if source is None else inside_project(source.parent, str(raw.get("exams", Config.exams)))
