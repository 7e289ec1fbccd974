"""The results cache is data, never code, and never trusted from the repository (issue 18).

Each case plants what a pull request or a CI cache restore could put in `.qlint_cache/` and
checks that qlint runs none of it, writes nothing outside the project through it, and still
reports the schema error of a bad file. docs/safety.md lists these cases.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest


from qlint.lint import cache_codec
from qlint.lint.cache_folder import ENTRIES, MARKER
from qlint.lint.engine import lint, make_settings
from qlint.loading.schema import schema_text
from qlint.cli.config import load_config
from qlint.lint.runner import RunOptions

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import synthbank  # noqa: E402

BAD = "q000007.yaml"


@pytest.fixture(autouse=True)
def own_key(tmp_path, monkeypatch):
    """The per-user cache key lives outside the project: here, in a folder of this test's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = tmp_path / "proj"
    synthbank.generate(root / "bank", 12, seed=3, dup_every=1000, flaw_every=1000)
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    bad = next((root / "bank").rglob(BAD))
    bad.write_text(bad.read_text(encoding="utf-8").replace("correct: false", "correct: fals2", 1), encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def qlint(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full = {**os.environ, "PYTHONPATH": str(REPO / "src"), **(env or {})}
    return subprocess.run([sys.executable, "-m", "qlint", "check", *args], cwd=root, env=full,
                          capture_output=True, text=True, timeout=120)


def run(root: Path, cache: Path | None):
    return lint([str(root / "bank")], make_settings(load_config(root)), RunOptions(cache, jobs=1, lean=True))


def reports_bad_file(result) -> bool:
    return any(d.code == "S001" and d.path.endswith(BAD) for d in result.diagnostics)


class Evil:
    """Unpickling this creates `path` (what a planted row would run)."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


# Older qlint named its marshalled validators with fastjsonschema's version (2.22.3 was the last
# it used): the planted files carry the names it looked for.
FASTJSONSCHEMA_VERSION = "2.22.3"


def _planted_validator(marker: Path) -> bytes:
    """A marshalled "validator" that creates `marker` and accepts everything."""
    source = f"open({str(marker)!r}, 'w').close()\ndef validate(data, custom_formats={{}}, name_prefix=None):\n    return data\n"
    return marshal.dumps(("validate", compile(source, "<planted>", "exec")))


def test_a_committed_validator_is_never_run(project, tmp_path):
    """A `.qlint_cache/validator-*.marshal` committed with the checkout: older qlint exec'd it
    (running the author's code, and turning schema checks off)."""
    marker = tmp_path / "pwned"
    cache = project / ".qlint_cache"
    cache.mkdir()
    names = []
    for kind in ("question", "exam", "config"):  # the names older qlint looked for
        key = hashlib.blake2b(f"{schema_text(kind)}\0{FASTJSONSCHEMA_VERSION}\0{sys.version}".encode(), digest_size=12)
        names.append(f"validator-{kind}-{key.hexdigest()}.marshal")
        (cache / names[-1]).write_bytes(_planted_validator(marker))
    proc = qlint(project, "bank")
    assert not marker.exists()
    assert proc.returncode == 1 and BAD in proc.stdout and "S001" in proc.stdout
    assert "Traceback" not in proc.stderr
    warnings = [line for line in proc.stderr.splitlines() if "cache" in line]
    assert len(warnings) == 1 and "not using the cache folder" in warnings[0]
    assert sorted(p.name for p in cache.iterdir()) == sorted(names)  # left as it came, nothing added


def test_pickled_rows_are_never_loaded(project, tmp_path):
    """Rows rewritten with pickles whose loading would create a file (a database planted at a CI
    runner's fixed path, in a folder qlint made): they are misses, and the bad file is still reported."""
    cache = tmp_path / "cache"
    first = run(project, cache)
    assert reports_bad_file(first)
    marker = tmp_path / "pwned"
    evil = pickle.dumps(Evil(marker))
    with sqlite3.connect(cache / "cache.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM results").fetchone()[0] > 0
        for table, column in (("results", "result"), ("entries", "entry"), ("banks", "result")):
            db.execute(f"UPDATE {table} SET {column} = ?", (evil,))
    again = run(project, cache)
    assert not marker.exists()
    assert reports_bad_file(again)
    assert not again.checker.hits and again.checker.cache.warning is None
    assert [d.as_dict() for d in again.diagnostics] == [d.as_dict() for d in first.diagnostics]


@pytest.mark.parametrize("blob", [b"", b"not json", b"[1, 2]", b'["x", "question", true, false, [[1]]]',
                                  b'{"l": []}', b"\xff\xfe", b"[" * 100_000])
def test_a_row_of_the_wrong_shape_is_a_miss(project, tmp_path, blob):
    cache = tmp_path / "cache"
    run(project, cache)
    with sqlite3.connect(cache / "cache.sqlite3") as db:
        db.execute("UPDATE results SET result = ?", (blob,))
        db.execute("UPDATE entries SET entry = ?", (blob,))
        db.execute("UPDATE banks SET result = ?", (blob,))
    again = run(project, cache)
    assert not again.checker.hits and reports_bad_file(again)
    assert again.checker.computed


def test_rows_round_trip_exactly(project, tmp_path):
    """What the codec writes it reads back equal, fixes (tuples, lists, mappings) included."""
    from qlint.diagnostic import Diagnostic, Edit, Fix, Severity

    fix = Fix("d", (Edit("/a", ("x", [1, 2.5, None], {"k": True})), Edit("/b", None, True)), safe=False)
    diag = Diagnostic("p.yaml", 3, 4, "S001", "schema", Severity.WARNING, "m", 3, 9, "/a", fix)
    assert cache_codec.load_diagnostics(cache_codec.dump_diagnostics([diag])) == [diag]
    assert repr(cache_codec.load_diagnostics(cache_codec.dump_diagnostics([diag]))[0].fix) == repr(fix)
    with pytest.raises(cache_codec.Unencodable):
        cache_codec.dump_diagnostics([Diagnostic("p", 1, 1, "S001", "s", Severity.ERROR, "m", fix=Fix("d", (Edit("/a", object()),)))])


def test_a_copied_cache_folder_is_refused(project, tmp_path):
    """A folder qlint made, then committed or restored elsewhere (a new inode): its rows say the
    bad file is clean (they were made while it was), and they must not be believed."""
    bad = next((project / "bank").rglob(BAD))
    bad_text = bad.read_text(encoding="utf-8")
    good_text = bad_text.replace("correct: fals2", "correct: false", 1)
    bad.write_text(good_text, encoding="utf-8")
    cache = tmp_path / "cache"
    assert not reports_bad_file(run(project, cache))
    bad.write_text(bad_text, encoding="utf-8")
    planted = project / ".qlint_cache"
    shutil.copytree(cache, planted)
    # the planted rows claim the bad bytes are clean: file them under the bad file's hash
    from qlint.lint.cache import digest

    with sqlite3.connect(planted / "cache.sqlite3") as db:
        db.execute("UPDATE results SET digest = ? WHERE path LIKE ?", (digest(bad_text.encode()), f"%{BAD}"))
        db.execute("DELETE FROM files")
    result = run(project, planted)
    assert reports_bad_file(result) and not result.checker.hits
    assert "not using the cache folder" in result.checker.cache.warning
    proc = qlint(project, "bank")
    assert proc.returncode == 1 and "S001" in proc.stdout
    assert [line for line in proc.stderr.splitlines()] == [f"qlint: warning: {result.checker.cache.warning}"]


def test_a_key_of_another_user_does_not_match(project, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    run(project, cache)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "someone-else"))
    result = run(project, cache)
    assert not result.checker.hits and reports_bad_file(result) and result.checker.cache.warning


def test_a_symlinked_cache_folder_writes_nothing_outside(project, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / ".qlint_cache").symlink_to(outside, target_is_directory=True)
    proc = qlint(project, "bank")
    assert proc.returncode == 1 and "S001" in proc.stdout
    assert list(outside.iterdir()) == []
    assert "symbolic link" in proc.stderr and len(proc.stderr.splitlines()) == 1


@pytest.mark.parametrize("name", ENTRIES)
def test_a_symlinked_entry_writes_nothing_outside(project, tmp_path, name):
    """`.gitignore`, the database, its journals or the marker planted as a (dangling) link out of
    the project in an otherwise empty folder: nothing is created or changed where it points."""
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim.sqlite3"
    cache = project / ".qlint_cache"
    cache.mkdir(mode=0o700)
    (cache / name).symlink_to(victim)
    result = run(project, cache)
    assert not victim.exists() and list(outside.iterdir()) == []
    assert "symbolic link" in result.checker.cache.warning and reports_bad_file(result)


def test_a_symlinked_database_in_a_folder_qlint_made_is_refused(project, tmp_path):
    cache = tmp_path / "cache"
    run(project, cache)
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE precious (x)")
    before = other.read_bytes()
    (cache / "cache.sqlite3").unlink()
    (cache / "cache.sqlite3").symlink_to(other)
    result = run(project, cache)
    assert other.read_bytes() == before
    assert "symbolic link" in result.checker.cache.warning and reports_bad_file(result)


def test_a_folder_others_may_write_to_is_refused(project, tmp_path):
    cache = tmp_path / "cache"
    run(project, cache)
    cache.chmod(0o777)
    result = run(project, cache)
    assert not result.checker.hits and "other users may write" in result.checker.cache.warning


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a folder to another user")
def test_a_folder_of_another_user_is_refused(project, tmp_path):
    cache = tmp_path / "cache"
    run(project, cache)
    os.chown(cache, 54321, -1)
    result = run(project, cache)
    assert not result.checker.hits and "another user" in result.checker.cache.warning


def test_a_fresh_cache_holds_data_only(project, tmp_path):
    """What qlint writes: the marker, a `.gitignore` and the database; no code, no validator,
    no leftover temporary; a private folder; and the second run is answered from it."""
    cache = project / ".qlint_cache"
    run(project, cache)
    assert sorted(p.name for p in cache.iterdir()) == sorted([".gitignore", MARKER, "cache.sqlite3"])
    assert (cache / ".gitignore").read_text(encoding="utf-8") == "*\n"
    assert oct(cache.stat().st_mode & 0o777) == oct(0o700)
    warm = run(project, cache)
    assert warm.checker.hits and not warm.checker.computed and reports_bad_file(warm)
    with sqlite3.connect(cache / "cache.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == cache_codec.FORMAT
        for (blob,) in db.execute("SELECT result FROM results"):
            assert blob.startswith(b"[")  # JSON text, not a pickle


def test_an_old_format_database_is_dropped_unread(project, tmp_path):
    """A database of the pickle format (user_version 0) in a folder qlint made: its tables are
    dropped before anything is read."""
    cache = tmp_path / "cache"
    run(project, cache)
    marker = tmp_path / "pwned"
    with sqlite3.connect(cache / "cache.sqlite3") as db:
        db.execute("UPDATE results SET result = ?", (pickle.dumps(Evil(marker)),))
        db.execute("PRAGMA user_version = 0")
    result = run(project, cache)
    assert not marker.exists() and not result.checker.hits and reports_bad_file(result)
