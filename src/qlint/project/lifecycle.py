"""The vendor lifecycle catalogue: services that ended, closed to new customers or were renamed,
with the date and source page of each change. Shipped as package data (`lifecycle.json`, read
offline); a project adds or overrides entries in `<bank>/lifecycle.json`. A check is judged by
the date of the check: today, or the configured `date` (`--date`) to reproduce a run."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

STATUSES = ("available", "maintenance", "closed", "end-of-support", "renamed")
PROJECT_FILE = "lifecycle.json"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class CatalogueError(ValueError):
    """A catalogue file that cannot be used: the message names the file and the entry."""


@dataclass(frozen=True)
class Event:
    status: str
    source: str
    date: dt.date | None = None  # None: the page states the change without a date (in force when read)


@dataclass(frozen=True)
class Service:
    name: str
    aliases: tuple[str, ...] = ()
    former: tuple[str, ...] = ()
    events: tuple[Event, ...] = ()
    replaced_by: str = ""
    excludes: tuple[str, ...] = ()  # longer names of other products that contain this one ("Amazon Chime SDK")
    ambiguous: str = ""  # why a former name is no safe rename (it is still some product's name)
    verified: bool = True

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    def status(self, on: dt.date) -> str:
        """The lifecycle status on `on`: the latest change in force (undated changes always are)."""
        current = "available"
        for event in sorted(self.events, key=lambda e: e.date or dt.date.min):
            if event.status != "renamed" and (event.date is None or event.date <= on):
                current = event.status
        return current

    def event(self, status: str) -> Event | None:
        return next((e for e in self.events if e.status == status), None)

    def renamed_by(self, on: dt.date) -> bool:
        e = self.event("renamed")
        return e is not None and (e.date is None or e.date <= on)


@dataclass(frozen=True)
class Catalogue:
    services: tuple[Service, ...] = field(default_factory=tuple)

    def get(self, name: str) -> Service | None:
        return next((s for s in self.services if s.name == name), None)


def _text_list(value: Any, where: str, key: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise CatalogueError(f"{where}: {key!r} must be a list of names")
    return tuple(value)


def _event(raw: Any, where: str) -> Event:
    if not isinstance(raw, dict):
        raise CatalogueError(f"{where}: each event is an object with status, source and optionally date")
    status, source, date = raw.get("status"), raw.get("source"), raw.get("date")
    if status not in STATUSES:
        raise CatalogueError(f"{where}: status {status!r} is not one of {', '.join(STATUSES)}")
    if not isinstance(source, str) or not source.startswith("https://"):
        raise CatalogueError(f"{where}: every fact needs its source: an https:// address of the page that states it")
    if date is not None and (not isinstance(date, str) or not _DATE.match(date)):
        raise CatalogueError(f"{where}: date {date!r} must be written YYYY-MM-DD")
    try:
        day = dt.date.fromisoformat(date) if date else None
    except ValueError:
        raise CatalogueError(f"{where}: {date!r} is not a date") from None
    return Event(status, source, day)


def parse(data: Any, origin: str) -> Catalogue:
    """The catalogue in `data` (a parsed catalogue file); CatalogueError names what is wrong."""
    if not isinstance(data, dict) or data.get("format") != 1 or not isinstance(data.get("entries"), list):
        raise CatalogueError(f"{origin}: expected an object with \"format\": 1 and a list of \"entries\"")
    services = []
    for i, raw in enumerate(data["entries"]):
        name = raw.get("name") if isinstance(raw, dict) else None
        where = f"{origin}: entry {i + 1} ({name!r})"
        if not isinstance(name, str) or not name.strip():
            raise CatalogueError(f"{where}: each entry needs a \"name\"")
        events = raw.get("events")
        if not isinstance(events, list) or not events:
            raise CatalogueError(f"{where}: list at least one event (status, date, source)")
        replaced_by = raw.get("replaced_by", "")
        if replaced_by and not str(raw.get("replaced_by_source", "")).startswith("https://"):
            raise CatalogueError(f"{where}: replaced_by needs replaced_by_source, the https:// page that says so")
        former = _text_list(raw.get("former"), where, "former")
        if former and not any(e.get("status") == "renamed" for e in events if isinstance(e, dict)):
            raise CatalogueError(f"{where}: former names need a \"renamed\" event with its source")
        services.append(Service(
            name=name, aliases=_text_list(raw.get("aliases"), where, "aliases"), former=former,
            events=tuple(_event(e, f"{where}, event {j + 1}") for j, e in enumerate(events)),
            replaced_by=str(replaced_by), excludes=_text_list(raw.get("excludes"), where, "excludes"),
            ambiguous=str(raw.get("ambiguous", "")), verified=raw.get("verified", True) is not False,
        ))
    return Catalogue(tuple(services))


@lru_cache(maxsize=1)
def shipped() -> Catalogue:
    """The catalogue qlint ships (package data)."""
    text = resources.files("qlint.project").joinpath("lifecycle.json").read_text(encoding="utf-8")
    return parse(json.loads(text), "qlint/project/lifecycle.json")


def project_file(bank_dir: Path) -> Path:
    return bank_dir / PROJECT_FILE


@lru_cache(maxsize=16)
def _project(path: Path, stamp: tuple[int, int]) -> Catalogue:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogueError(f"{path}: cannot read the lifecycle catalogue: {exc}") from None
    except json.JSONDecodeError as exc:
        raise CatalogueError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    return parse(data, str(path))


def catalogue(bank_dir: Path) -> Catalogue:
    """The shipped catalogue with the project's entries (same name: the project's wins) added."""
    base = shipped()
    path = project_file(bank_dir)
    try:
        info = path.stat()
    except OSError:
        return base
    own = _project(path, (info.st_mtime_ns, info.st_size))
    names = {s.name for s in own.services}
    return Catalogue(tuple(s for s in base.services if s.name not in names) + own.services)


def check_date(configured: str = "", today: dt.date | None = None) -> dt.date:
    """The date a check is judged by: the configured one, else today (UTC)."""
    if configured:
        if not _DATE.match(configured):
            raise ValueError(f"date {configured!r} must be written YYYY-MM-DD")
        return dt.date.fromisoformat(configured)
    return today or dt.datetime.now(dt.timezone.utc).date()


def fingerprint(bank_dir: Path, configured: str = "") -> str:
    """What the cache must know: the date judged by and the project's catalogue file."""
    path = project_file(bank_dir)
    try:
        own = path.read_bytes()
    except OSError:
        own = b""
    return f"{check_date(configured).isoformat()}:{hashlib.blake2b(own, digest_size=16).hexdigest()}"
