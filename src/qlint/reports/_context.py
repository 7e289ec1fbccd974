"""Build a ReportContext from a lint run: the one place that reads the environment and the bank,
so the formats themselves stay pure functions of (diagnostics, context)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from qlint.bank.figures import blueprint_coverage, key_balance
from qlint.engine import LintResult, Settings, bank_context


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


def bank_figures(result: LintResult, settings: Settings) -> dict[str, Any]:
    """Key balance and blueprint coverage of the whole bank (not only the files checked)."""
    bank = result.bank
    if bank is None:  # no bank rule ran (or their result came from the cache): load the context now
        questions = {p: r for p, r in result.results.items() if r.kind == "question"}
        bank = bank_context(settings, questions, result.checker)
    return {
        "key_balance": key_balance(bank.entries),
        "coverage": blueprint_coverage(bank.entries, settings.exams),
    }


def run_context(result: LintResult, settings: Settings, exit_code: int, environ: Mapping[str, str],
                cwd: Path | None = None) -> dict[str, Any]:
    """The ReportContext fields every format shares for this run."""
    here = (cwd or Path.cwd()).resolve()
    return {
        "files_checked": len(result.files),
        "rules": tuple(sorted(settings.selection.enabled)),
        "exit_code": exit_code,
        "root": str(repository_root(here)),
        "cwd": str(here),
        "link_base": link_base(environ),
    }
