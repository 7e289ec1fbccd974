"""Bank entries cached in segments (lint/cache.py; the codec: test_cache_codec.py): a one-file run
reads a few rows, not one per bank file, and gets exactly what computing would give, through
edits, merges, damaged segments, unwritable databases and edits within one timestamp tick."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from qlint.cli.config import load_config
from qlint.lint import cache as cache_module
from qlint.lint.engine import lint, make_settings
from qlint.lint.runner import RunOptions

import synthbank

@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    root = tmp_path / "proj"
    synthbank.generate(root / "bank", 30, seed=7, dup_every=4, flaw_every=5)  # bank rules find the twins
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def check(root: Path, paths: list[str], cache: Path | None):
    return lint(paths, make_settings(load_config(root)), RunOptions(cache, jobs=1, lean=True))


def found(result) -> list[dict]:
    return [d.as_dict() for d in result.diagnostics]


def segments(cache: Path) -> int:
    with sqlite3.connect(cache / "cache.sqlite3") as db:
        return db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]


def test_one_file_edited_again_and_again(project, tmp_path, monkeypatch):
    """Each run adds a segment of what it computed; past SEGMENTS_MAX they are merged; every run
    finds what a run without a cache finds, bank rules included."""
    monkeypatch.setattr(cache_module, "SEGMENTS_MAX", 4)
    cache = tmp_path / "cache"
    check(project, ["bank"], cache)
    files = sorted(str(p.relative_to(project)) for p in (project / "bank").rglob("*.yaml") if "exams" not in p.parts)
    target = Path(files[3])
    counts = []
    for i in range(cache_module.SEGMENTS_MAX + 3):
        # a duplicate of another question, then not: the bank rules' findings change each time
        source = files[5] if i % 2 == 0 else files[3 + 1]
        target.write_text(Path(source).read_text(encoding="utf-8") + f"# edit {i}\n", encoding="utf-8")
        cached = check(project, [str(target)], cache)
        assert found(cached) == found(check(project, [str(target)], None)), i
        assert cached.checker.hits  # the other files' entries came from the cache
        counts.append(segments(cache))
    assert max(counts) <= 4
    assert counts[:4] == [2, 3, 4, 1]  # added, then merged
    assert found(check(project, ["bank"], cache)) == found(check(project, ["bank"], None))


def test_a_damaged_segment_is_computed_again(project, tmp_path):
    cache = tmp_path / "cache"
    check(project, ["bank"], cache)
    with sqlite3.connect(cache / "cache.sqlite3") as db:
        db.execute("UPDATE entries SET entry = ?", (b"P" + b"\x00" * 40,))
    target = next((project / "bank").rglob("q000003.yaml"))
    target.write_text(target.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    path = str(target.relative_to(project))
    again = check(project, [path], cache)
    assert found(again) == found(check(project, [path], None))
    assert len(again.checker.computed) > 20  # every entry computed again, none misread
    target.write_text(target.read_text(encoding="utf-8") + "# again\n", encoding="utf-8")
    third = check(project, [path], cache)
    assert len(third.checker.hits) > 20 and found(third) == found(check(project, [path], None))


def test_an_unwritable_database_still_gives_the_findings(project, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    check(project, ["bank"], cache)
    target = next((project / "bank").rglob("q000003.yaml"))
    target.write_text(target.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")

    def readonly(self, db, rows):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(cache_module.Cache, "_write_entries", readonly)
    path = str(target.relative_to(project))
    assert found(check(project, [path], cache)) == found(check(project, [path], None))


def test_an_edit_within_one_timestamp_tick_is_seen(project, tmp_path, monkeypatch):
    """On a file system with coarse timestamps, a same-size edit in the second the file was
    hashed keeps its whole stat signature: such a file is not remembered by signature (racy,
    as git's index treats it), so the next run hashes it again and sees the edit."""
    import qlint.lint.runner as runner

    real = os.lstat

    class Coarse:
        def __init__(self, info):
            self._info = info
            self.st_mtime_ns = info.st_mtime_ns // 10**9 * 10**9
            self.st_ctime_ns = info.st_ctime_ns // 10**9 * 10**9

        def __getattr__(self, name):
            return getattr(self._info, name)

    monkeypatch.setattr(runner.os, "lstat", lambda p: Coarse(real(p)))
    cache = tmp_path / "cache"
    target = next((project / "bank").rglob("q000007.yaml"))
    path = str(target.relative_to(project))
    text = target.read_text(encoding="utf-8")
    edited = text.replace("correct: false", "correct: fals2", 1)
    assert len(edited) == len(text) and edited != text
    target.write_text(text, encoding="utf-8")
    check(project, ["bank"], cache)
    before = real(target)
    target.write_text(edited, encoding="utf-8")
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert Coarse(real(target)).st_mtime_ns == Coarse(before).st_mtime_ns
    again = check(project, [path], cache)
    assert any(d.code == "S001" for d in again.diagnostics)
    assert found(again) == found(check(project, [path], None))


def test_segments_holding_more_old_entries_than_live_ones_are_merged(project, tmp_path):
    """Whole-bank runs that each compute every entry again (another branch checked out, say)
    must not pile up copies: the rows stay about one bank's worth."""
    cache = tmp_path / "cache"
    files = sorted((project / "bank").rglob("q0000*.yaml"))
    for i in range(4):
        for f in files:  # every file changed
            f.write_text(f.read_text(encoding="utf-8") + f"# round {i}\n", encoding="utf-8")
        one = str(files[0].relative_to(project))
        assert found(check(project, [one], cache)) == found(check(project, [one], None))
    with sqlite3.connect(cache / "cache.sqlite3") as db:
        (blobs,) = db.execute("SELECT COUNT(*) FROM entries").fetchone()
    assert blobs <= 3
