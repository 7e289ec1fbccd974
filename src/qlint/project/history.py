"""A question file's earlier versions from git: the version a sign-off or a freeze approved.

A stale sign-off records only the content hash of what was approved; when the file is in a git
repository, the committed version whose content has that hash says which fields changed since.
Read-only (`git log`, `git show`), bounded (the last `DEPTH` commits of the file, a time limit),
and silent: no git, no repository, or no match gives None, and the finding says less.
"""

from __future__ import annotations

import os
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Any

from qlint.loading.fast import load_fast
from qlint.loading.limits import Limits
from qlint.project.contenthash import content_hash

DEPTH = 200  # commits of the file looked at, newest first
TIMEOUT = 10.0  # seconds per git call
# No repository setting may run a program for these read-only calls (a bank can come from a
# pull request): no filesystem monitor, no pager, no external diff or text conversion.
_SAFE = ("-c", "core.fsmonitor=false", "-c", "core.pager=cat", "--no-pager")


def _git(folder: Path, *args: str) -> str | None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["GIT_TERMINAL_PROMPT"] = "0"
    try:
        done = subprocess.run(["git", *_SAFE, "-C", str(folder), *args], capture_output=True, timeout=TIMEOUT,
                              env=env, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", errors="replace")


@lru_cache(maxsize=256)
def approved_version(path: str, digest: str) -> tuple[str, dict[str, Any]] | None:
    """(commit, data) of the newest committed version of `path` whose content hash is `digest`."""
    file = Path(path).resolve()
    if not file.is_file():
        return None
    log = _git(file.parent, "log", f"-n{DEPTH}", "--follow", "--format=%H", "--name-only", "--", file.name)
    if not log:
        return None
    commit = ""
    for line in log.splitlines():
        line = line.strip()
        if not line:
            continue
        if len(line) == 40 and all(c in "0123456789abcdef" for c in line) and not commit:
            commit = line
            continue
        if commit:  # the file's path (from the top of the repository) in that commit
            text = _git(file.parent, "show", f"{commit}:{line}")
            commit, found = "", commit
            if text is None:
                continue
            try:
                data = load_fast(text, Limits())
            except Exception:  # an old version that does not parse approved nothing we can read
                continue
            if isinstance(data, dict) and content_hash(data) == digest:
                return found, data
    return None
