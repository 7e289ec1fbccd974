"""`gitlab`: the Code Quality report a GitLab merge request shows (a JSON array of issues)."""

from __future__ import annotations

from typing import Any

from qlint.diagnostic import Diagnostic, Severity
from qlint.reports import ReportContext, reporter
from qlint.reports._common import dump_json, fingerprints, report_path
from qlint.rules import RULES

SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}
UNREADABLE = "critical"  # a file that is not a question at all outranks any finding inside one


def _severity(d: Diagnostic) -> str:
    return UNREADABLE if d.code in RULES and RULES.get(d.code).fatal else SEVERITIES[d.severity]


def issue(d: Diagnostic, fingerprint: str, ctx: ReportContext) -> dict[str, Any]:
    return {
        "description": f"{d.code} {d.message} ({d.name})",
        "check_name": d.code,
        "fingerprint": fingerprint,
        "severity": _severity(d),
        "location": {"path": report_path(d.path, ctx), "lines": {"begin": d.line, "end": d.end_line or d.line}},
    }


@reporter("gitlab")
def gitlab_report(diagnostics: list[Diagnostic], ctx: ReportContext) -> str:
    # GitLab matches fingerprints between the merge request's branches to tell new issues from old.
    return dump_json([issue(d, fp, ctx) for d, fp in zip(diagnostics, fingerprints(diagnostics, ctx))])
