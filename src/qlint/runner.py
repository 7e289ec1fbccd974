"""Per-file checking at scale: a content-hash cache in front of `check_file`, and worker
processes for the files the cache cannot answer.

Results are identical whichever path produced them (a test compares serial, parallel and
cached runs); the cache only skips work whose inputs are unchanged.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from qlint import __version__
from qlint.cache import Cache, digest
from qlint.loading.errors import LoadError
from qlint.loading.reader import decode, read_bytes
from qlint.loading.schema import SCHEMAS, schema_text
from qlint.project.discovery import display_path

PARALLEL_MIN_FILES = 200  # below this, starting workers costs more than it saves


@dataclass(frozen=True)
class RunOptions:
    cache_dir: Path | None = None  # None: no cache
    jobs: int = 0  # 0: one worker per core; 1: serial


def _code_digest() -> str:
    """qlint's own source: a rule edited without a version bump must not reuse old results."""
    h = hashlib.blake2b(digest_size=16)
    package = Path(__file__).resolve().parent
    for f in sorted(package.rglob("*.py")):
        h.update(str(f.relative_to(package)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def fingerprint(settings: Any) -> str:
    """Everything besides a file's own bytes that can change its result."""
    config = settings.config
    parts = [
        __version__,
        _code_digest(),
        *(schema_text(k) for k in SCHEMAS),
        repr(sorted(settings.selection.enabled)),
        repr(sorted((k, str(v)) for k, v in settings.selection.severity.items())),
        repr(settings.selection.per_file),
        repr(sorted((k, sorted(v.items(), key=repr)) for k, v in config.rules.items())),
        repr(config.limits),
        str(config.root),
        str(config.exams_dir),
        repr(sorted((code, repr(exam)) for code, exam in settings.exams.items())),
    ]
    return hashlib.blake2b("\x00".join(parts).encode("utf-8"), digest_size=16).hexdigest()


_WORKER_SETTINGS: Any = None


def _init_worker(settings: Any) -> None:
    global _WORKER_SETTINGS
    _WORKER_SETTINGS = settings


def _check_in_worker(path: str) -> Any:
    from qlint.engine import check_file

    return check_file(path, _WORKER_SETTINGS)


def _jobs(requested: int) -> int:
    return requested if requested > 0 else (os.cpu_count() or 1)


def map_files(func: Callable[[str, Any], Any], worker: Callable[[str], Any], paths: list[str],
              settings: Any, jobs: int) -> list[Any]:
    """`func(path, settings)` for every path, in worker processes when there are enough."""
    n = _jobs(jobs)
    if n <= 1 or len(paths) < PARALLEL_MIN_FILES or "fork" not in multiprocessing.get_all_start_methods():
        return [func(p, settings) for p in paths]
    ctx = multiprocessing.get_context("fork")  # workers inherit the loaded rules and schemas
    with ctx.Pool(n, initializer=_init_worker, initargs=(settings,)) as pool:
        return pool.map(worker, paths, chunksize=max(8, len(paths) // (n * 8)))


class FileChecker:
    """Checks files through the cache; remembers each file's digest for the bank-level key."""

    def __init__(self, settings: Any, options: RunOptions) -> None:
        self.settings = settings
        self.options = options
        self.cache = Cache(options.cache_dir, fingerprint(settings)) if options.cache_dir else None
        self.digests: dict[str, str] = {}
        self._raw: dict[str, bytes] = {}
        self.hits: list[str] = []  # paths answered by the cache (tests and --statistics read them)
        self.computed: list[str] = []
        self.bank_hit = False

    def _digest(self, path: str, keep: bool = False) -> str | None:
        try:
            raw = read_bytes(path, self.settings.config.limits)
        except LoadError:
            return None  # unreadable: never cached, check_file reports it
        if keep:
            self._raw[path] = raw
        d = self.digests[path] = digest(raw)
        return d

    def check(self, paths: list[str], func: Callable[[str, Any], Any], worker: Callable[[str], Any],
              kind: str = "result", also: tuple[str, ...] = ()) -> dict[str, Any]:
        """Results for `paths`: from the cache when the bytes are unchanged, computed otherwise.
        `also` names other kinds whose entries answer too (a full result serves as context)."""
        out: dict[str, Any] = {}
        todo: list[str] = []
        for p in paths:
            d = self._digest(p, keep=True) if self.cache else None
            raw = self._raw.pop(p, None)
            hit = None
            if self.cache and d:
                shown = display_path(p)
                for k in (kind, *also):
                    hit = self.cache.get(f"{k}:{shown}", d)
                    if hit is not None:
                        break
            if hit is not None:
                out[p] = replace(hit, path=p, text=decode(raw)) if raw is not None else hit
                self.hits.append(p)
            else:
                todo.append(p)
        self.computed += todo
        fresh = map_files(func, worker, todo, self.settings, self.options.jobs)
        for p, result in zip(todo, fresh):
            out[p] = result
            d = self.digests.get(p)
            if self.cache and d:
                self.cache.put(f"{kind}:{display_path(p)}", d, strip_text(result))
        return out

    def get_bank(self, key: str | None) -> Any | None:
        found = self.cache.get_bank(key) if (self.cache and key) else None
        self.bank_hit = found is not None
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
            d = self.digests.get(p) or self._digest(p)
            if d is None:
                return None
            items.append(f"{p}\x00{d}")
        items.append("\x01".join(sorted(targets)))
        return hashlib.blake2b("\x02".join(items).encode("utf-8"), digest_size=16).hexdigest()

    def close(self) -> None:
        if self.cache:
            self.cache.close()


def strip_text(result: Any) -> Any:
    """What the cache stores: the result without its text (re-read from disk when needed)."""
    return replace(result, text="")
