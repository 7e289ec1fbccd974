"""A content-hash cache of per-file results, bank entries and bank-rule results, in one SQLite file.

Entries are keyed by a fingerprint of everything that can change a result (qlint's version and
source, the schemas, the configuration, the exam definitions) plus the file's path and the hash
of its bytes, so editing a file, the config or a schema invalidates exactly what it must. The
folder (default `.qlint_cache/` beside the configuration) can be deleted at any time.

Rows are data, never code (see `cache_codec`): a row that does not decode is a miss. The folder
is used only if qlint made it for this user (see `cache_folder`); otherwise the run has no cache
and `warning` says why.

A file's hash is remembered with its stat signature (size, mtime, ctime, inode), as git's index
does, so an unchanged file is not read again. A file modified within `RACY_NS` of being hashed
is not remembered: a second write in the same clock tick could keep its size and mtime.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from qlint.lint import cache_codec as codec
from qlint.lint.cache_folder import DB, Refused, create_db, prepare

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (fp TEXT, path TEXT, digest TEXT, result BLOB, PRIMARY KEY (fp, path));
CREATE TABLE IF NOT EXISTS entries (fp TEXT, seq INTEGER, entry BLOB, PRIMARY KEY (fp, seq));
CREATE TABLE IF NOT EXISTS banks (fp TEXT PRIMARY KEY, key TEXT, result BLOB);
CREATE TABLE IF NOT EXISTS fingerprints (fp TEXT PRIMARY KEY, used INTEGER);
CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, size INTEGER, mtime INTEGER, ctime INTEGER,
                                  ino INTEGER, digest TEXT);
"""
TABLES = ("results", "entries")
_DUMP = {"results": codec.dump_result}
_LOAD = {"results": codec.load_result}
RACY_NS = 2_000_000_000  # coarser than any file system's timestamp tick
BY_KEY_MAX = 64  # up to this many paths, look each up; more, and one scan of the table is cheaper
KEEP_FINGERPRINTS = 4  # results of the last few configurations (say, with and without --select)
# Bank entries are kept in segments (cache_codec.dump_entries), many entries per row, the later
# segment winning for a path: a run adds one with what it computed, so a pre-commit run reads a
# few rows rather than one per bank file. Past SEGMENTS_MAX segments, or once they hold more
# superseded entries than live ones, they are merged into one (0.4 s for 10k entries).
SEGMENTS_MAX = 32
# Reading the database through a memory map: a 10k bank's entries are one 27 MB row, which SQLite
# otherwise reads as a chain of 6,700 pages, one read each (0.07-0.1 s against 0.015 s).
MMAP_BYTES = 1 << 30


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def signature(info: os.stat_result) -> tuple[int, int, int, int]:
    return info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino


class Cache:
    """Per-file results and bank entries, one bank-rule result per fingerprint, and the stat
    signatures of files already hashed."""

    def __init__(self, folder: Path, fingerprint: str) -> None:
        self.folder = folder
        self.fp = fingerprint
        self._db: sqlite3.Connection | None = None
        self._pending: dict[str, list[tuple[Any, ...]]] = {t: [] for t in TABLES}
        self._entries: dict[str, tuple[str, Any]] | None = None  # path -> (hash, entry), all segments
        self._segments = 0
        self._stored = 0  # entries in all segments, superseded ones included
        self._signatures: dict[str, tuple[tuple[int, int, int, int], str]] | None = None
        self._new_signatures: list[tuple[Any, ...]] = []
        self._broken = False
        self.warning: str | None = None  # why the folder was not used, for the command to print

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(create_db(self.folder), timeout=10)
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] != codec.FORMAT:
                # another format (older qlint's rows were pickles): drop them unread
                for table in (*TABLES, "banks", "fingerprints", "files"):
                    db.execute(f"DROP TABLE IF EXISTS {table}")
                db.execute(f"PRAGMA user_version = {int(codec.FORMAT)}")
            db.executescript(SCHEMA)
            db.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        except sqlite3.Error:
            db.close()
            raise
        return db

    def _conn(self) -> sqlite3.Connection | None:
        if self._db is None and not self._broken:
            try:
                prepare(self.folder)
            except Refused as exc:
                self._broken = True
                self.warning = f"not using the cache folder {self.folder}: {exc}; delete it and qlint will make its own"
                return None
            try:
                self._db = self._open()
            except sqlite3.DatabaseError:
                try:  # a damaged cache file: it only ever holds derived data, so start it afresh
                    (self.folder / DB).unlink()  # unlinks a name, never follows it
                    self._db = self._open()
                except (OSError, sqlite3.Error, Refused):
                    self._broken = True
            except (OSError, sqlite3.Error, Refused):
                self._broken = True  # a cache that cannot be opened is no cache, never an error
        return self._db

    def _query(self, sql: str, args: tuple[Any, ...]) -> list[Any]:
        db = self._conn()
        if not db:
            return []
        try:
            return db.execute(sql, args).fetchall()
        except sqlite3.Error:
            return []

    def lookup(self, table: str, wanted: dict[str, str]) -> dict[str, Any]:
        """path -> cached value, for the paths in `wanted` (path -> hash of the bytes) whose
        row has that hash: rows read one by one, or in one scan of the table when many."""
        if table == "entries":
            known = self._all_entries()
            return {p: hit[1] for p, d in wanted.items() if (hit := known.get(p)) is not None and hit[0] == d}
        if len(wanted) > BY_KEY_MAX:
            rows = self._query(f"SELECT path, digest, {_blob(table)} FROM {table} WHERE fp = ?", (self.fp,))
        else:
            rows = [row for p in wanted for row in self._query(
                f"SELECT path, digest, {_blob(table)} FROM {table} WHERE fp = ? AND path = ?", (self.fp, p))]
        load = _LOAD[table]
        out = {}
        for p, d, blob in rows:
            if wanted.get(p) == d:
                try:
                    out[p] = load(blob)
                except codec.Malformed:
                    pass  # a row this format did not write: a miss
        return out

    def _all_entries(self) -> dict[str, tuple[str, Any]]:
        """Every cached entry of this fingerprint: path -> (hash of the bytes, entry)."""
        if self._entries is None:
            rows = self._query("SELECT entry FROM entries WHERE fp = ? ORDER BY seq", (self.fp,))
            known: dict[str, tuple[str, Any]] = {}
            stored = 0
            for (blob,) in rows:
                try:
                    decoded = codec.load_entries(blob)
                except codec.Malformed:
                    continue  # a segment this format did not write: its entries are misses
                stored += len(decoded)
                for path, file_digest, entry in decoded:
                    known[path] = (file_digest, entry)
            self._entries, self._segments, self._stored = known, len(rows), stored
        return self._entries

    def put(self, table: str, path: str, file_digest: str, value: Any) -> None:
        if table == "entries":  # checked and encoded with the others when written (`flush`)
            self._pending[table].append((path, file_digest, value))
            return
        try:
            self._pending[table].append((self.fp, path, file_digest, _DUMP[table](value)))
        except codec.Unencodable:
            pass  # not storable exactly: computed again next time

    def signatures(self) -> dict[str, tuple[tuple[int, int, int, int], str]]:
        """Absolute path -> (stat signature, hash of the bytes) of the files hashed before."""
        if self._signatures is None:
            rows = self._query("SELECT path, size, mtime, ctime, ino, digest FROM files", ())
            self._signatures = {p: ((s, m, c, i), d) for p, s, m, c, i, d in rows}
        return self._signatures

    def known_digest(self, path: str, info: os.stat_result) -> str | None:
        known = self.signatures().get(path)
        return known[1] if known is not None and known[0] == signature(info) else None

    def remember_digest(self, path: str, info: os.stat_result, file_digest: str) -> None:
        if time.time_ns() - info.st_mtime_ns > RACY_NS and time.time_ns() - info.st_ctime_ns > RACY_NS:
            self._new_signatures.append((path, *signature(info), file_digest))

    def get_bank(self, key: str) -> Any | None:
        rows = self._query("SELECT key, result FROM banks WHERE fp = ?", (self.fp,))
        if not (rows and rows[0][0] == key):
            return None
        try:
            return codec.load_diagnostics(rows[0][1])
        except codec.Malformed:
            return None

    def put_bank(self, key: str, result: Any) -> None:
        db = self._conn()
        if db:
            try:
                db.execute("INSERT OR REPLACE INTO banks VALUES (?, ?, ?)", (self.fp, key, codec.dump_diagnostics(result)))
            except (sqlite3.Error, codec.Unencodable):
                pass

    def flush(self) -> None:
        db = self._conn()
        if not db:
            return
        try:
            if any(self._pending.values()):
                self._retire(db)
            if self._pending["entries"]:
                self._write_entries(db, self._pending["entries"])
            rows = self._pending["results"]
            if rows:
                db.executemany("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?)", rows)
            if self._new_signatures:
                db.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?)", self._new_signatures)
            db.commit()
        except sqlite3.Error:
            pass
        for rows in self._pending.values():
            rows.clear()
        self._new_signatures.clear()

    def _write_entries(self, db: sqlite3.Connection, rows: list[tuple[str, str, Any]]) -> None:
        """A segment of the entries computed in this run, or, when merging is due, all of them in one."""
        if self._entries is None:
            self._segments = db.execute("SELECT COUNT(*) FROM entries WHERE fp = ?", (self.fp,)).fetchone()[0]
        superseded = self._entries is not None and self._stored > 2 * len(self._entries)  # more old than live
        if self._segments + 1 > SEGMENTS_MAX or superseded:
            known = dict(self._all_entries())
            known.update((path, (d, entry)) for path, d, entry in rows)
            rows = [(path, d, entry) for path, (d, entry) in known.items()]
            db.execute("DELETE FROM entries WHERE fp = ?", (self.fp,))
            self._segments = self._stored = 0
        # time orders the segments (a later one wins); two runs writing at once need no read first
        db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)", (self.fp, time.time_ns(), codec.dump_entries(rows)))
        self._segments += 1
        self._stored += len(rows)
        if self._entries is not None:
            self._entries.update((path, (d, entry)) for path, d, entry in rows)

    def _retire(self, db: sqlite3.Connection) -> None:
        """Keep the rows of the few most recently used fingerprints only: every edit of the
        config or of qlint makes a new one, and the file must not grow without end."""
        known = db.execute("SELECT 1 FROM fingerprints WHERE fp = ?", (self.fp,)).fetchone()
        db.execute("INSERT OR REPLACE INTO fingerprints VALUES (?, ?)", (self.fp, time.time_ns()))
        if known:
            return
        db.execute("DELETE FROM fingerprints WHERE fp NOT IN "
                   "(SELECT fp FROM fingerprints ORDER BY used DESC LIMIT ?)", (KEEP_FINGERPRINTS,))
        for table in (*TABLES, "banks"):
            db.execute(f"DELETE FROM {table} WHERE fp NOT IN (SELECT fp FROM fingerprints)")

    def close(self) -> None:
        self.flush()
        if self._db is not None:
            self._db.close()
            self._db = None


def _blob(table: str) -> str:
    return "result" if table == "results" else "entry"
