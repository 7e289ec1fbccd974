"""A question file's earlier versions from git: the version a sign-off or a freeze approved
(for a case question whose case study changed, the case file's approved version).

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
from typing import Any, Callable

from qlint.loading.fast import load_fast
from qlint.loading.limits import Limits
from qlint.project.contenthash import case_hash, content_hash, with_case

DEPTH = 200  # commits of the file looked at, newest first
TIMEOUT = 10.0  # seconds per git call
MAX_FILES = 500  # files looked up per process: a mass edit makes every sign-off stale at once
# No repository setting may run a program for these read-only calls (a bank can come from a
# pull request): no filesystem monitor, no pager, no external diff or text conversion.
_SAFE = ("-c", "core.fsmonitor=false", "-c", "core.pager=cat", "--no-pager")


def _git(folder: Path, *args: str, stdin: bytes | None = None) -> bytes | None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["GIT_TERMINAL_PROMPT"] = "0"
    try:
        done = subprocess.run(["git", *_SAFE, "-C", str(folder), *args], capture_output=True, timeout=TIMEOUT,
                              env=env, check=False, input=stdin)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _versions(folder: Path, name: str) -> list[tuple[str, bytes]]:
    """(commit, bytes) of the file's last DEPTH committed versions, newest first: one `git log`
    and one `git cat-file --batch` for all of them."""
    log = _git(folder, "log", f"-n{DEPTH}", "--follow", "--format=%H", "--name-only", "--", name)
    if not log:
        return []
    wanted: list[tuple[str, str]] = []
    commit = ""
    for line in log.decode("utf-8", errors="replace").splitlines():
        line = line.strip()
        if not line:
            continue
        if not commit and len(line) == 40 and all(c in "0123456789abcdef" for c in line):
            commit = line
        elif commit:  # the file's path (from the top of the repository) in that commit
            wanted.append((commit, line))
            commit = ""
    if not wanted:
        return []
    out = _git(folder, "cat-file", "--batch", stdin="".join(f"{c}:{p}\n" for c, p in wanted).encode("utf-8"))
    if out is None:
        return []
    versions, at = [], 0
    for commit, _ in wanted:  # each answer: "<oid> blob <size>\n<bytes>\n", or "<name> missing\n"
        end = out.find(b"\n", at)
        if end < 0:
            break
        header = out[at:end].split()
        at = end + 1
        if len(header) == 3 and header[1] == b"blob" and header[2].isdigit():
            size = int(header[2])
            versions.append((commit, out[at:at + size]))
            at += size + 1
    return versions


_lookups = 0


def _hash(data: dict[str, Any], case: str | None) -> str:
    own = content_hash(data)
    return with_case(own, case) if case is not None and isinstance(data.get("case"), str) and data["case"] else own


def _newest(path: str, matches: Callable[[dict[str, Any]], bool]) -> tuple[str, dict[str, Any]] | None:
    """(commit, data) of the newest committed version of `path` whose data `matches`; None past
    the lookup budget, for a file that is gone, or when no version matches."""
    global _lookups
    file = Path(path).resolve()
    if _lookups >= MAX_FILES or not file.is_file():
        return None
    _lookups += 1
    for commit, raw in _versions(file.parent, file.name):
        try:
            data = load_fast(raw.decode("utf-8"), Limits())
        except Exception:  # an old version that does not parse approved nothing we can read
            continue
        if isinstance(data, dict) and matches(data):
            return commit, data
    return None


@lru_cache(maxsize=256)
def approved_version(path: str, digest: str, case: str | None = None) -> tuple[str, dict[str, Any]] | None:
    """(commit, data) of the newest committed version of `path` whose content hash is `digest`;
    `case`: the `case_hash` of its case study now, for a version that names a case."""
    return _newest(path, lambda data: _hash(data, case) == digest)


@lru_cache(maxsize=256)
def approved_case_version(path: str, digest: str, question: str) -> tuple[str, dict[str, Any]] | None:
    """(commit, data) of the newest committed version of the case file `path` that, with the
    question's own hash `question` as it is now, gives the content hash `digest` (the case's
    scenario changed since, not the question)."""
    return _newest(path, lambda data: with_case(question, case_hash(data)) == digest)
