"""A content-hash cache of per-file results and bank-rule results, in one SQLite file.

Entries are keyed by a fingerprint of everything that can change a result (qlint's version,
the schemas, the configuration, the exam definitions) plus the file's path and the hash of its
bytes, so editing a file, the config or a schema invalidates exactly what it must. The folder
(default `.qlint_cache/` beside the configuration) can be deleted at any time.
"""

from __future__ import annotations

import hashlib
import pickle
import sqlite3
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (fp TEXT, path TEXT, digest TEXT, result BLOB, PRIMARY KEY (fp, path));
CREATE TABLE IF NOT EXISTS banks (fp TEXT PRIMARY KEY, key TEXT, result BLOB);
"""


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class Cache:
    """Per-file results (diagnostics, kind and the plain data bank rules read) and one bank-rule
    result per fingerprint."""

    def __init__(self, folder: Path, fingerprint: str) -> None:
        self.folder = folder
        self.fp = fingerprint
        self._db: sqlite3.Connection | None = None
        self._index: dict[str, tuple[str, bytes]] | None = None
        self._pending: list[tuple[Any, ...]] = []
        self._broken = False

    def _open(self) -> sqlite3.Connection:
        self.folder.mkdir(parents=True, exist_ok=True)
        gitignore = self.folder / ".gitignore"
        if not gitignore.exists():
            gitignore.write_text("*\n", encoding="utf-8")
        db = sqlite3.connect(self.folder / "cache.sqlite3", timeout=10)
        try:
            db.executescript(SCHEMA)
        except sqlite3.Error:
            db.close()
            raise
        return db

    def _conn(self) -> sqlite3.Connection | None:
        if self._db is None and not self._broken:
            try:
                self._db = self._open()
            except sqlite3.DatabaseError:
                try:  # a damaged cache file: it only ever holds derived data, so start it afresh
                    (self.folder / "cache.sqlite3").unlink()
                    self._db = self._open()
                except (OSError, sqlite3.Error):
                    self._broken = True
            except (OSError, sqlite3.Error):
                self._broken = True  # a cache that cannot be opened is no cache, never an error
        return self._db

    def _load_index(self) -> dict[str, tuple[str, bytes]]:
        if self._index is None:
            db = self._conn()
            rows = db.execute("SELECT path, digest, result FROM results WHERE fp = ?", (self.fp,)).fetchall() if db else []
            self._index = {p: (d, r) for p, d, r in rows}
        return self._index

    def get(self, path: str, file_digest: str) -> Any | None:
        hit = self._load_index().get(path)
        if hit is None or hit[0] != file_digest:
            return None
        return pickle.loads(hit[1])

    def put(self, path: str, file_digest: str, result: Any) -> None:
        self._pending.append((self.fp, path, file_digest, pickle.dumps(result, 5)))

    def get_bank(self, key: str) -> Any | None:
        db = self._conn()
        row = db.execute("SELECT key, result FROM banks WHERE fp = ?", (self.fp,)).fetchone() if db else None
        return pickle.loads(row[1]) if row and row[0] == key else None

    def put_bank(self, key: str, result: Any) -> None:
        db = self._conn()
        if db:
            db.execute("INSERT OR REPLACE INTO banks VALUES (?, ?, ?)", (self.fp, key, pickle.dumps(result, 5)))

    def flush(self) -> None:
        db = self._conn()
        if not db:
            return
        try:
            if self._pending:
                db.executemany("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?)", self._pending)
            db.commit()
        except sqlite3.Error:
            pass
        self._pending.clear()

    def close(self) -> None:
        self.flush()
        if self._db is not None:
            self._db.close()
            self._db = None
