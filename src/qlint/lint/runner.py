"""Per-file work at scale: a content-hash cache in front of it, and worker processes for the
files the cache cannot answer.

Results are identical whichever path produced them (a test compares serial, parallel and
cached runs); the cache only skips work whose inputs are unchanged.
"""

from __future__ import annotations

import gc
import hashlib
import os
import stat
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from qlint import __version__
from qlint.lint.cache import Cache, digest
from qlint.lint.cache_codec import FORMAT as CACHE_FORMAT
from qlint.project.lifecycle import fingerprint as lifecycle_fingerprint
from qlint.loading.errors import LoadError
from qlint.loading.reader import read_bytes
from qlint.loading.schema import SCHEMAS, schema_text
from qlint.paths import absolute_path, display_path, display_paths

PARALLEL_MIN_FILES = 200  # below this, starting workers costs more than it saves


@dataclass(frozen=True)
class RunOptions:
    cache_dir: Path | None = None  # None: no cache
    jobs: int = 0  # 0: one worker per core; 1: serial
    lean: bool = False  # keep a file's text only when a report may need it, and never its data


def code_files() -> list[Path]:
    """qlint's own source files (the whole package: the rules and the prose they read, not only
    this folder, which held none of them)."""
    return sorted(Path(__file__).resolve().parent.parent.rglob("*.py"))


def _code_digest() -> str:
    """qlint's own source: a rule edited without a version bump must not reuse old results."""
    h = hashlib.blake2b(digest_size=16)
    package = Path(__file__).resolve().parent.parent
    for f in code_files():
        h.update(str(f.relative_to(package)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def fingerprint(settings: Any) -> str:
    """Everything besides a file's own bytes that can change its result."""
    config = settings.config
    parts = [
        __version__,
        _code_digest(),
        sys.version,  # the tuple hash behind n-gram hashes belongs to one Python
        str(CACHE_FORMAT),
        *(schema_text(k) for k in SCHEMAS),
        repr(sorted(settings.selection.enabled)),
        repr(sorted((k, str(v)) for k, v in settings.selection.severity.items())),
        repr(settings.selection.per_file),
        repr((settings.selection.preview, sorted(settings.selection.named))),  # rules' preview shapes
        repr(sorted((k, sorted(v.items(), key=repr)) for k, v in config.rules.items())),
        repr(config.limits),
        repr(config.review),  # W rules: the sign-off policy
        str(config.root),
        str(config.exams_dir),
        lifecycle_fingerprint(config.bank_dir, config.date),
        repr((config.lang, config.languages)),  # L rules: the default language, the bank's languages  # V rules: the date judged by, the project's catalogue
        repr(sorted((code, repr(exam)) for code, exam in settings.exams.items())),
        # other banks' exams: their files' S002/S003 and O012 findings read them
        repr(sorted((str(bank), sorted((c, repr(e)) for c, e in exams.items()))
                    for bank, exams in settings.bank_exams.items())),
    ]
    return hashlib.blake2b("\x00".join(parts).encode("utf-8"), digest_size=16).hexdigest()


def _jobs(requested: int) -> int:
    return requested if requested > 0 else (os.cpu_count() or 1)


_progress: Callable[[int, int], None] | None = None  # (files done, files to check), see `progress_to`
PROGRESS_MIN_FILES = 200  # fewer files are checked before a progress bar would be read


@contextmanager
def progress_to(callback: Callable[[int, int], None] | None) -> Iterator[None]:
    """Report (files done, files to check) of the per-file checks run inside the block to
    `callback` (a terminal's progress bar); runs with fewer than PROGRESS_MIN_FILES to check
    report nothing."""
    global _progress
    before, _progress = _progress, callback
    try:
        yield
    finally:
        _progress = before


def map_files(func: Callable[[str, Any], Any], paths: list[str], settings: Any, jobs: int) -> list[Any]:
    """`func(path, settings)` for every path, in worker processes when there are enough."""
    n = _jobs(jobs)
    report = _progress if len(paths) >= PROGRESS_MIN_FILES else None
    if n <= 1 or len(paths) < PARALLEL_MIN_FILES or not hasattr(os, "fork"):
        if report is None:
            return [func(p, settings) for p in paths]
        out = []
        for i, p in enumerate(paths, 1):
            out.append(func(p, settings))
            if i % 25 == 0 or i == len(paths):
                report(i, len(paths))
        return out
    from qlint.lint import workers

    gc.freeze()  # the parent's objects stay put in the workers: no copy-on-write from collections
    try:  # forked: workers inherit the loaded rules and schemas
        return workers.run(func, paths, settings, n, max(8, min(256, len(paths) // (n * 8))), report)
    finally:
        gc.unfreeze()


class FileChecker:
    """Per-file work through the cache; remembers each file's digest for the bank-level key."""

    def __init__(self, settings: Any, options: RunOptions) -> None:
        self.settings = settings
        self.options = options
        self.cache = Cache(options.cache_dir, fingerprint(settings)) if options.cache_dir else None
        self.digests: dict[str, str] = {}
        self.hits: list[str] = []  # paths answered by the cache (tests and --statistics read them)
        self.computed: list[str] = []
        self.bank_hit = False
        self._cwd = os.getcwd().rstrip(os.sep) + os.sep  # digest_of runs for every bank file on every run
        self._read: dict[str, bytes] = {}  # bytes digest_of read, handed to the check that needs them
        self.hit_sources: dict[str, bytes] = {}  # bytes hashing read of files the cache answered (`take_source`)

    def digest_of(self, path: str) -> str | None:
        """The hash of the file's bytes: remembered by stat signature, else read and hashed.
        (Called for every bank file on every run: kept to one lstat and one dict lookup.)"""
        d = self.digests.get(path)
        if d is not None:
            return d
        assert self.cache is not None
        key = absolute_path(path, self._cwd)
        try:
            info = os.lstat(path)
        except OSError:
            return None
        regular = stat.S_ISREG(info.st_mode)
        d = self.cache.known_digest(key, info) if regular else None
        if d is None:
            try:
                data = read_bytes(path, self.settings.config.limits)
            except LoadError:
                return None  # unreadable: never cached, the check reports it
            d = digest(data)
            if regular:  # a link is read again by the check, which refuses one leading outside
                self.cache.remember_digest(key, info, d)
                self._read[path] = data
        self.digests[path] = d
        return d

    def check(self, paths: list[str], func: Callable[[str, Any], tuple[str | None, Any]], table: str = "results",
              stored: Callable[[Any], Any] | None = None, restored: Callable[[Any], Any] | None = None) -> dict[str, Any]:
        """`func(path, settings)` for `paths`: from the cache when the bytes are unchanged (as
        `restored(cached)`, when given), computed otherwise and cached (as `stored(value)`).
        `func` returns (hash of the bytes it read, value): the value is filed under that hash;
        `func(path, settings, source)` gets the bytes hashing read, so no file is read twice."""
        out: dict[str, Any] = {}
        todo: list[str] = []
        cache = self.cache
        if cache:
            keys = display_paths(paths)  # results name their file as shown: the key does too
            wanted = {keys[p]: d for p in paths if (d := self.digest_of(p))}
            found = cache.lookup(table, wanted)
            for p in paths:
                hit = found.get(keys[p])
                if hit is not None:
                    out[p] = restored(hit) if restored else hit
                    self.hits.append(p)
                else:
                    todo.append(p)
        else:
            todo = list(paths)
        self.computed += todo
        held = {p: self._read.pop(p) for p in todo if p in self._read}
        for p in out:
            if p in self._read:
                self.hit_sources[p] = self._read.pop(p)
        run = func if not held else (lambda p, settings: func(p, settings, held.get(p)))  # forked workers inherit it
        fresh = map_files(run, todo, self.settings, self.options.jobs)
        held.clear()
        for p, (d, value) in zip(todo, fresh):
            out[p] = value
            if not cache:
                continue
            if d is None:  # unreadable when checked: never cached, and no bank key from old bytes
                self.digests.pop(p, None)
                continue
            self.digests[p] = d  # the bytes the check read: an edit since the hash above wins
            if not getattr(value, "volatile", False):  # volatile: its result reads other files too
                cache.put(table, keys[p], d, stored(value) if stored else value)
        return out

    def store(self, table: str, path: str, value: Any) -> None:
        """Cache a value computed for `path` elsewhere (a bank entry made by the full check)."""
        d = self.digests.get(path) if self.cache else None
        if self.cache and d:
            self.cache.put(table, display_path(path), d, value)

    def get_bank(self, key: str | None) -> Any | None:
        found = self.cache.get_bank(key) if (self.cache and key) else None
        self.bank_hit = found is not None
        if found is not None:  # no context file is loaded: the bytes hashing read are not needed
            self._read.clear()
        return found

    def put_bank(self, key: str | None, value: Any) -> None:
        if self.cache and key:
            self.cache.put_bank(key, value)

    def bank_key(self, paths: list[str], targets: list[str]) -> str | None:
        """A key for the bank rules' result: every bank file's bytes and the targets."""
        if not self.cache:
            return None
        items = []
        for p in sorted(paths):
            d = self.digest_of(p)
            if d is None:
                return None
            items.append(f"{p}\x00{d}")
        items.append("\x01".join(sorted(targets)))
        return hashlib.blake2b("\x02".join(items).encode("utf-8"), digest_size=16).hexdigest()

    def take_source(self, path: str) -> bytes | None:
        """The bytes hashing read of a file the cache answered (a racy or moved file), once."""
        return self.hit_sources.pop(path, None)

    def close(self) -> None:
        self._read.clear()
        self.hit_sources.clear()
        if self.cache:
            self.cache.close()
