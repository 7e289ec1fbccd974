"""Which files a command works on."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

YAML_SUFFIXES = (".yaml", ".yml")


def discover(paths: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """(files, problems): YAML files under each directory (sorted, hidden folders skipped),
    explicit files as given; problems are (path, why) for paths that do not exist and folders
    that cannot be listed, which callers report as Y010 (never skipped in silence). Symlinked
    folders are not followed, so a loop cannot hang the walk."""
    files: list[str] = []
    problems: list[tuple[str, str]] = []
    seen: set[str] = set()
    for p in paths:
        if os.path.isdir(p) and not p.rstrip("/").endswith(YAML_SUFFIXES):
            new = walk(p, problems)[0]
        elif os.path.lexists(p):
            new = [p]
        else:
            problems.append((p, "no such file or directory"))
            continue
        for f in new:
            key = os.path.normpath(f)
            if key not in seen:
                seen.add(key)
                files.append(f)
    return files, problems


def entered(name: str) -> bool:
    """Whether `walk` goes into a folder of this name below the one it starts from: hidden
    folders and folders named like a question file (reported as unreadable) it does not."""
    return not name.startswith(".") and not name.endswith(YAML_SUFFIXES)


def walk(folder: str, unreadable: list[tuple[str, str]] | None = None) -> tuple[list[str], set[str]]:
    """(files, symbolic links among them): the YAML files under `folder`, sorted, hidden entries
    skipped. Symlinked folders are not entered, so a loop cannot hang the walk; a folder named
    like a question file is listed (and reported as unreadable), not entered. Folders that
    cannot be listed (no permission, removed meanwhile) are added to `unreadable` as (folder, why)."""
    found: list[str] = []
    links: set[str] = set()
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as it:
                entries = list(it)
        except OSError as exc:
            if unreadable is not None:
                unreadable.append((current, f"cannot list this folder: {exc.strerror or exc}; its files were not checked"))
            continue
        for e in entries:
            if e.name.startswith("."):
                continue
            is_link = e.is_symlink()
            if e.name.endswith(YAML_SUFFIXES):
                found.append(e.path)
                if is_link:
                    links.add(e.path)
            elif not is_link and e.is_dir(follow_symlinks=False):
                stack.append(e.path)
    found.sort()
    return found, links


def display_path(path: str) -> str:
    """Relative to the working directory when below it, so editors and CI can open it."""
    path = str(path)
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
