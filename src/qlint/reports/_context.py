"""What a ReportContext takes from the environment: the repository root and the CI's link base.
The run's figures come from the command (`qlint.cli.reporting`), so no format reads the bank."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping


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
