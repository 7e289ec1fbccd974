"""Which files a command works on."""

from __future__ import annotations

import os

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
