"""The one builder of a ReportContext's shared fields, for every command that prints Diagnostics:
the repository root, the working folder and the CI's link base, so one file has one shown path
in every report of every command. The run's figures come from the command (`qlint.cli.reporting`),
so no format reads the bank."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping


def context_fields(files_checked: int, exit_code: int, rules: tuple[str, ...] = (),
                   environ: Mapping[str, str] | None = None, cwd: Path | None = None) -> dict[str, Any]:
    """The ReportContext fields every command and format shares: `ReportContext(**fields, ...)`.
    `rules`: the codes that ran (empty: unknown). Diagnostics' relative paths start from `cwd`
    (the working folder by default); CI formats give them relative to the repository root."""
    here = (cwd or Path.cwd()).resolve()
    return {
        "files_checked": files_checked,
        "rules": tuple(sorted(rules)),
        "exit_code": exit_code,
        "root": str(repository_root(here)),
        "cwd": str(here),
        "link_base": link_base(os.environ if environ is None else environ),
    }


def repository_root(start: Path) -> Path:
    """The nearest folder at or above `start` holding `.git` (a folder, or a file in worktrees and
    submodules): CI systems resolve report paths against it. `start` itself when there is none."""
    start = start.resolve()
    for folder in [start, *start.parents]:
        if (folder / ".git").exists():
            return folder
    return start


def link_base(environ: Mapping[str, str]) -> str:
    """URL prefix for links to files at the commit being checked, from GitHub's or GitLab's CI variables."""
    if environ.get("GITHUB_REPOSITORY") and environ.get("GITHUB_SHA"):
        server = environ.get("GITHUB_SERVER_URL") or "https://github.com"
        return f"{server.rstrip('/')}/{environ['GITHUB_REPOSITORY']}/blob/{environ['GITHUB_SHA']}/"
    if environ.get("CI_PROJECT_URL") and environ.get("CI_COMMIT_SHA"):
        return f"{environ['CI_PROJECT_URL'].rstrip('/')}/-/blob/{environ['CI_COMMIT_SHA']}/"
    return ""
