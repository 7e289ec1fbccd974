"""`sarif`: SARIF 2.1.0 as GitHub code scanning reads it.

`tool.driver.rules` lists the rules that ran (the selection), not every rule qlint knows: a rule
listed without results was checked and found nothing, which is what code scanning should believe.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from qlint.diagnostic import Diagnostic, Severity
from qlint.reports import ReportContext, reporter
from qlint.reports._common import HOMEPAGE, RuleMeta, dump_json, fingerprints, report_path, rules_run

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "qlint/v1"  # rule + repository path + JSON pointer; bump if the recipe changes
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _rule(meta: RuleMeta) -> dict[str, Any]:
    r = meta.rule
    return {
        "id": r.code,
        "name": r.name,
        "shortDescription": {"text": meta.summary},
        "fullDescription": {"text": meta.full_description},
        "help": {"text": meta.help_markdown, "markdown": meta.help_markdown},
        "helpUri": meta.help_uri,
        "defaultConfiguration": {"level": LEVELS[r.severity], "enabled": r.enabled_by_default},
        "properties": {"tags": ["qlint", r.scope]},
    }


def _artifact(path: str) -> dict[str, str]:
    """Repository-relative paths are URI references against %SRCROOT%; others become file: URIs."""
    return dict(_artifact_of(path))


@lru_cache(maxsize=4096)  # a file's findings come one after another
def _artifact_of(path: str) -> dict[str, str]:
    if os.path.isabs(path):
        return {"uri": PurePath(path).as_uri()}
    return {"uri": quote(path, safe="/"), "uriBaseId": SRCROOT}


def _result(d: Diagnostic, index: int, fingerprint: str, ctx: ReportContext) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": d.code,
        "ruleIndex": index,
        "level": LEVELS[d.severity],
        "message": {"text": d.message},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": _artifact(report_path(d.path, ctx)),
                "region": {
                    "startLine": d.line,
                    "startColumn": d.col,
                    "endLine": d.end_line or d.line,
                    # SARIF's end column is the one after the region; ours is the last character.
                    "endColumn": (d.end_col or d.col) + 1,
                },
            }
        }],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
    }
    if d.pointer:
        result["properties"] = {"pointer": d.pointer}
    return result


def document(diagnostics: list[Diagnostic], ctx: ReportContext) -> dict[str, Any]:
    rules = rules_run(diagnostics, ctx)
    index = {m.rule.code: i for i, m in enumerate(rules)}
    run: dict[str, Any] = {
        "tool": {"driver": {
            "name": "qlint",
            "version": ctx.version,
            "informationUri": HOMEPAGE,
            "rules": [_rule(m) for m in rules],
        }},
        # Exit code 2 means some input could not be read as a question, so the analysis is partial.
        "invocations": [{"executionSuccessful": ctx.exit_code != 2, "exitCode": ctx.exit_code}],
        "columnKind": "unicodeCodePoints",  # our columns count characters, not UTF-16 units
        "results": [_result(d, index[d.code], fp, ctx) for d, fp in zip(diagnostics, fingerprints(diagnostics, ctx))],
    }
    if ctx.root:
        root_uri = PurePath(ctx.root).as_uri()
        run["originalUriBaseIds"] = {SRCROOT: {"uri": root_uri if root_uri.endswith("/") else root_uri + "/"}}
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


@reporter("sarif")
def sarif_report(diagnostics: list[Diagnostic], ctx: ReportContext) -> str:
    return dump_json(document(diagnostics, ctx))
