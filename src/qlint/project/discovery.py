"""Which files a command works on."""

from __future__ import annotations

import os
from pathlib import Path

YAML_SUFFIXES = (".yaml", ".yml")


def discover(paths: list[str]) -> tuple[list[str], list[str]]:
    """(files, missing): YAML files under each directory (sorted, hidden folders skipped),
    explicit files as given. Symlinked folders are not followed, so a loop cannot hang the walk."""
    files: list[str] = []
    missing: list[str] = []
    seen: set[str] = set()
    for p in paths:
        if os.path.isdir(p) and not p.rstrip("/").endswith(YAML_SUFFIXES):
            found = []
            for folder, dirs, names in os.walk(p):
                # A folder named like a question file is reported (as unreadable), not entered.
                found += [os.path.join(folder, d) for d in dirs if d.endswith(YAML_SUFFIXES)]
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not d.endswith(YAML_SUFFIXES))
                found += [os.path.join(folder, n) for n in names if n.endswith(YAML_SUFFIXES) and not n.startswith(".")]
            new = sorted(found)
        elif os.path.lexists(p):
            new = [p]
        else:
            missing.append(p)
            continue
        for f in new:
            key = os.path.normpath(f)
            if key not in seen:
                seen.add(key)
                files.append(f)
    return files, missing


def display_path(path: str) -> str:
    """Relative to the working directory when below it, so editors and CI can open it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def is_within(path: str | Path, folder: Path) -> bool:
    """True if `path` (its folder's real location) lies inside `folder` (a resolved path)."""
    try:
        Path(os.path.realpath(path)).relative_to(folder)
        return True
    except ValueError:
        return False
