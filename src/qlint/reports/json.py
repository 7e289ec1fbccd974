"""`json`: a stable, versioned document described by schema/report.schema.json."""

from __future__ import annotations

from typing import Any

from qlint.diagnostic import Diagnostic
from qlint.reports import ReportContext, reporter
from qlint.reports._common import dump_json, severity_counts

FORMAT_VERSION = 1  # bump on any incompatible change, together with the schema's $id
SCHEMA_ID = "https://qlint.dev/schema/report/v1.json"


def _fix(d: Diagnostic) -> dict[str, Any] | None:
    if d.fix is None:
        return None
    return {
        "description": d.fix.description,
        "safe": d.fix.safe,
        "edits": [{"pointer": e.pointer, "value": e.value, "delete": e.delete} for e in d.fix.edits],
    }


def document(diagnostics: list[Diagnostic], ctx: ReportContext) -> dict[str, Any]:
    counts = severity_counts(diagnostics)
    return {
        "$schema": SCHEMA_ID,
        "format": FORMAT_VERSION,
        "tool": {"name": "qlint", "version": ctx.version},
        "summary": {
            "files_checked": ctx.files_checked,
            "files_with_problems": len({d.path for d in diagnostics}),
            "problems": len(diagnostics),
            "by_severity": {str(s): n for s, n in counts.items()},
            "exit_code": ctx.exit_code,
        },
        "diagnostics": [{**d.as_dict(), "fix": _fix(d)} for d in diagnostics],
    }


@reporter("json")
def json_report(diagnostics: list[Diagnostic], ctx: ReportContext) -> str:
    return dump_json(document(diagnostics, ctx))
