"""`qlint init`: the files of a new bank repository, each one written only where it is missing.

The schemas are copied into the repository (`schema/`), so the `# yaml-language-server: $schema=`
lines `qlint new` writes are relative paths that resolve in any clone and any editor, not paths
into the local installation. The pre-commit configuration pins qlint where it was installed from
when pip recorded it (a git URL and the commit it resolved, in the distribution's
`direct_url.json`, PEP 610); otherwise it runs the installed `qlint` as a local hook.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path

from qlint.loading.schema import schema

DISTRIBUTION = "qlint-exams"
SCHEMA_KINDS = ("question", "case", "exam", "config")
DEFAULT_EXAM = "EXAM-C01"


class InitError(ValueError):
    """A bad exam code: the message says what to use instead."""


@dataclass(frozen=True)
class HookSource:
    """Where pre-commit gets qlint: a repository and a commit, or None for the installed command."""

    repo: str
    rev: str


def installed_from() -> HookSource | None:
    """The git repository and commit pip installed this qlint from (PEP 610), if it was a git URL."""
    try:
        raw = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    try:
        info = json.loads(raw or "null")
    except ValueError:
        return None
    vcs = info.get("vcs_info") if isinstance(info, dict) else None
    if not isinstance(vcs, dict) or vcs.get("vcs") != "git" or not re.fullmatch(r"[0-9a-f]{40}", str(vcs.get("commit_id"))):
        return None
    return HookSource(str(info.get("url", "")), vcs["commit_id"]) if info.get("url") else None


def check_exam_code(code: str) -> str:
    pattern = schema("exam")["properties"]["code"]["pattern"]
    if not re.match(pattern, code):
        raise InitError(f"exam code {code!r} must be capital letters, digits and hyphens (2-32 characters), e.g. {DEFAULT_EXAM}")
    return code


def config_text() -> str:
    return "\n".join([
        "#:schema ./schema/config.schema.json",
        "# qlint's configuration for this bank: every setting is described in qlint's",
        "# docs/configuration.md (rule selection, severities, per-file ignores, rule options).",
        'bank = "bank"          # the question files: bank/<exam>/<domain>/<name>.yaml',
        'exams = "bank/exams"   # one exam definition per file',
        "",
    ])


def exam_text(code: str, ref: str) -> str:
    return "\n".join([
        f"# yaml-language-server: $schema={ref}",
        "# The exam this bank prepares for: its code, its full name and the content domains of its",
        "# published exam guide with their weights (percent, adding up to 100). Replace every TODO,",
        "# rename the domain ids (questions cite them in `domain:`) and add as many domains as the",
        "# guide has. Then: qlint new --exam " + code + " --domain domain-1",
        "format: 1",
        f"code: {code}",
        "name: TODO the exam's full name",
        "domains:",
        "  - id: domain-1",
        "    name: TODO the first domain's name in the exam guide",
        "    weight: 50",
        "  - id: domain-2",
        "    name: TODO the second domain's name in the exam guide",
        "    weight: 50",
        "",
    ])


def schema_file(kind: str) -> str:
    return resources.files("qlint").joinpath("schemas", f"{kind}.schema.json").read_text(encoding="utf-8")


def precommit_text(source: HookSource | None) -> str:
    head = [
        "# pre-commit runs qlint on the staged question files before every commit; run",
        "# `pre-commit install` once in each clone (pre-commit: https://pre-commit.com).",
    ]
    if source is None:
        return "\n".join(head + [
            "# This hook runs the `qlint` installed where you commit (qlint was not installed from a",
            "# git URL, so there is no commit to pin; see qlint's README for the remote form).",
            "repos:",
            "  - repo: local",
            "    hooks:",
            "      - id: qlint",
            "        name: qlint",
            "        entry: qlint check",
            "        language: system",
            r"        files: ^bank/.*\.ya?ml$",
            "        require_serial: true   # one process: each qlint run loads the whole bank",
            "",
        ])
    return "\n".join(head + [
        "# rev is the commit of qlint's main branch this qlint was installed from (qlint has no",
        "# release tags); `pre-commit autoupdate` moves it to the newest commit.",
        "repos:",
        f"  - repo: {source.repo}",
        f"    rev: {source.rev}",
        "    hooks:",
        "      - id: qlint          # lint staged question files, with the whole bank loaded for bank rules",
        "      # - id: qlint-format # rewrite staged files in canonical form",
        "",
    ])


GITIGNORE = "# qlint's results cache (safe to delete) and export output\n.qlint_cache/\nout/\n"


def plan(root: Path, exams_dir: Path, code: str, source: HookSource | None) -> list[tuple[Path, str]]:
    """(path, text) of every file of a new bank repository under `root`, in writing order."""
    exam_path = exams_dir / f"{code.lower()}.yaml"
    exam_ref = Path(_rel(root / "schema" / "exam.schema.json", exam_path.parent)).as_posix()
    files = [(root / "qlint.toml", config_text()), (exam_path, exam_text(code, exam_ref))]
    files += [(root / "schema" / f"{kind}.schema.json", schema_file(kind)) for kind in SCHEMA_KINDS]
    files += [(root / ".pre-commit-config.yaml", precommit_text(source)), (root / ".gitignore", GITIGNORE)]
    return files


def _rel(target: Path, start: Path) -> str:
    return os.path.relpath(target, start)
