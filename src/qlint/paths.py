"""Path helpers, the one leaf module for them: paths as shown to users (relative to the working
directory), real locations resolved once per folder, containment."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path


def display_path(path: str) -> str:
    """Relative to the working directory when below it, so editors and CI can open it."""
    path = str(path)
    if not os.path.isabs(path) and _tidy(path) and not path.endswith(os.sep):  # `bank/q.yaml`, as walks give
        return path
    cwd = os.getcwd()
    absolute = path if os.path.isabs(path) else os.path.join(cwd, path)
    absolute = os.path.normpath(absolute)
    if absolute.startswith(cwd + os.sep):  # the common case, without relpath's cost (10k files a run)
        return absolute[len(cwd) + 1:]
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def _tidy(path: str) -> bool:
    """No `.`, `..` or empty component: normpath would leave the path as it is."""
    return "/." not in path and "//" not in path and not path.startswith(".")


def display_paths(paths: list[str]) -> dict[str, str]:
    """`display_path` of each path; tidy absolute paths below the working directory (a walked
    bank) are sliced directly, the rest go through `display_path`."""
    prefix = os.getcwd().rstrip(os.sep) + os.sep
    return {p: p[len(prefix):] if p.startswith(prefix) and _tidy(p) else display_path(p) for p in paths}


def absolute_path(path: str, cwd: str) -> str:
    """os.path.abspath with `cwd` (ending in a separator) given, without its normpath for the
    tidy relative paths a walk gives (100k of them in a bank)."""
    if os.path.isabs(path) or not _tidy(path):
        return os.path.abspath(path)
    return cwd + path


@lru_cache(maxsize=4096)
def _real_dir(folder: str) -> str:
    return os.path.realpath(folder)


def real_path(path: str | Path) -> str:
    """os.path.realpath, resolving each folder once per run (a bank has few folders, many files)."""
    path = os.path.abspath(path)
    folder, name = os.path.split(path)
    full = os.path.join(_real_dir(folder), name)
    return os.path.realpath(full) if os.path.islink(full) else full


def is_within(path: str | Path, folder: Path) -> bool:
    """True if `path` (its real location) lies inside `folder` (a resolved path)."""
    real, root = real_path(path), str(folder)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)
