"""Sealed files beside the per-user key (loading/sealed.py): read back only when this user's key
sealed them under that name, from a private folder, as a regular file of this user's."""

from __future__ import annotations

import os

import pytest

from qlint.loading import sealed


@pytest.fixture(autouse=True)
def where(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    return sealed.folder("things")


def test_what_is_written_reads_back(where):
    assert sealed.write(where, "a", b"payload\x00bytes")
    assert sealed.read(where, "a") == b"payload\x00bytes"
    assert oct(where.stat().st_mode & 0o777) == oct(0o700)
    assert oct((where / "a").stat().st_mode & 0o777) == oct(0o600)
    assert sorted(os.listdir(where)) == ["a"]  # no temporary left
    assert sealed.read(where, "missing") is None


def test_another_key_or_name_or_byte_reads_as_missing(where, tmp_path, monkeypatch):
    sealed.write(where, "a", b"payload")
    blob = (where / "a").read_bytes()
    (where / "b").write_bytes(blob)
    assert sealed.read(where, "b") is None  # the seal covers the name
    (where / "a").write_bytes(blob[:-1] + b"X")
    assert sealed.read(where, "a") is None
    sealed.write(where, "a", b"payload")
    sealed.key_path().write_bytes(os.urandom(sealed.KEY_BYTES))  # another user's key, say
    assert sealed.read(where, "a") is None


def test_links_and_shared_files_are_not_read(where, tmp_path):
    sealed.write(where, "a", b"payload")
    os.symlink(where / "a", where / "link")
    assert sealed.read(where, "link") is None
    (where / "a").chmod(0o666)
    assert sealed.read(where, "a") is None
    (where / "a").chmod(0o600)
    where.chmod(0o777)
    assert sealed.read(where, "a") is None
    where.chmod(0o700)
    assert sealed.read(where, "a") == b"payload"


def test_a_key_that_cannot_be_kept_means_nothing_is_kept(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert sealed.write(sealed.folder("things"), "a", b"payload") is False
    assert sealed.read(sealed.folder("things"), "a") is None
    with pytest.raises(sealed.Unavailable):
        sealed.user_key()
