"""Writing export output without losing anyone's files.

A single-file target replaces its file atomically. A folder target (Markdown pages, the HTML site)
writes only into a new or empty folder, or one that an earlier `qlint export` wrote: a marker file
lists what it wrote, so a re-export removes pages of questions that are gone and never deletes
anything else.
"""

from __future__ import annotations

from pathlib import Path

from qlint.files import UnsafePathError, atomic_write, safe_join

MARKER = ".qlint-export"


def write_file(path: Path, data: bytes) -> list[Path]:
    if path.is_dir():
        raise ValueError(f"{path} is a folder; give a file name for this format")
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, data)
    return [path]


def _previous(root: Path, fmt: str) -> list[str]:
    marker = root / MARKER
    if root.exists() and not root.is_dir():
        raise ValueError(f"{root} is a file; give a folder for this format")
    if not root.exists() or not any(root.iterdir()):
        return []
    if not marker.is_file():
        raise ValueError(f"{root} is not empty and was not written by qlint export; choose a new or empty folder")
    lines = marker.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0] != f"format: {fmt}":
        raise ValueError(f"{root} holds a different export ({lines[0] if lines else 'unknown'}); choose another folder")
    return lines[1:]


def write_folder(root: Path, files: dict[str, bytes], fmt: str) -> list[Path]:
    """Write `files` (POSIX relative path -> bytes) under `root`; drop files of the previous export
    that are no longer produced; record the list in the marker."""
    stale = set(_previous(root, fmt)) - set(files)
    root.mkdir(parents=True, exist_ok=True)
    written = []
    for name in sorted(files):
        if name.startswith("/") or ".." in name.split("/") or name == MARKER:
            raise UnsafePathError(f"refusing output path {name!r}")
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(safe_join(root, name), files[name])
        written.append(target)
    for name in sorted(stale):
        try:
            gone = safe_join(root, name)
            gone.unlink()
        except (FileNotFoundError, UnsafePathError):
            continue
        for folder in gone.parents:  # drop folders the removal emptied, never root itself
            if folder == root.resolve() or any(folder.iterdir()):
                break
            folder.rmdir()
    atomic_write(root / MARKER, "".join(f"{line}\n" for line in [f"format: {fmt}", *sorted(files)]))
    return written
