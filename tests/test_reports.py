"""Output formats as pure functions: golden files, escaping, fingerprints, schemas.

Regenerate the golden files deliberately with `QLINT_UPDATE_GOLDEN=1 .venv/bin/python -m pytest
tests/test_reports.py` and review the diff before committing it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re

import pytest
from markdown_it import MarkdownIt

from qlint.rules.docs import render
from qlint.diagnostic import Severity
from qlint.reports import REPORTERS, ReportContext
from qlint.reports._common import fingerprints, report_path, rule_meta
from qlint.reports.github import escape_data, escape_property
from qlint.rules import RULES

from conftest import REPO
from kit.reports import (CONTEXT, DIAGNOSTICS, ODD, TRICKY, assert_valid_sarif, report_validator,
                             schema_errors)

GOLDEN = REPO / "tests" / "golden"
EXTENSIONS = {"json": "json", "sarif": "sarif", "gitlab": "json", "markdown": "md"}  # others: .txt
UPDATE = os.environ.get("QLINT_UPDATE_GOLDEN") == "1"


def report(fmt: str, diagnostics=DIAGNOSTICS, ctx: ReportContext = CONTEXT) -> str:
    return REPORTERS.get(fmt)(list(diagnostics), ctx)


def _stable(fmt: str, text: str) -> str:
    """Rule documentation is tested against `qlint rule` below; the golden file keeps its place only,
    so editing a rule's docs does not invalidate the SARIF golden file."""
    if fmt != "sarif":
        return text
    doc = json.loads(text)
    for rule in doc["runs"][0]["tool"]["driver"]["rules"]:
        rule["shortDescription"]["text"] = rule["fullDescription"]["text"] = "<from the rule's docs>"
        rule["help"] = {"text": f"<qlint rule {rule['id']}>", "markdown": f"<qlint rule {rule['id']}>"}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("fmt", REPORTERS.names())
def test_golden(fmt):
    path = GOLDEN / f"{fmt}.{EXTENSIONS.get(fmt, 'txt')}"
    actual = _stable(fmt, report(fmt))
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(actual.encode("utf-8"))
        pytest.skip(f"rewrote {path.relative_to(REPO)}")
    assert path.exists(), f"no golden file for format {fmt!r}: run with QLINT_UPDATE_GOLDEN=1 and review it"
    assert actual == path.read_bytes().decode("utf-8"), f"{fmt} output changed; see the module docstring"


@pytest.mark.parametrize("fmt", REPORTERS.names())
def test_formats_are_pure(fmt):
    """Same input, same bytes; the input list is left alone."""
    diagnostics = list(DIAGNOSTICS)
    assert REPORTERS.get(fmt)(diagnostics, CONTEXT) == REPORTERS.get(fmt)(list(DIAGNOSTICS), CONTEXT)
    assert diagnostics == DIAGNOSTICS


def test_the_reports_doc_describes_every_format():
    """docs/reports.md has a section per format and names each in the --output-format row."""
    doc = (REPO / "docs" / "reports.md").read_text(encoding="utf-8")
    (row,) = [line for line in doc.splitlines() if line.startswith("| `--output-format NAME`")]
    assert [f for f in REPORTERS.names() if f"\n### `{f}`" not in doc or f"`{f}`" not in row] == []


# --- SARIF -----------------------------------------------------------------------------------


def test_sarif_golden_input_is_valid():
    doc = json.loads(report("sarif"))
    assert_valid_sarif(doc)
    (run,) = doc["runs"]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["K001", "K002", "K003", "K005", "S001", "Y001"]
    assert run["invocations"] == [{"executionSuccessful": False, "exitCode": 2}]
    assert [r["level"] for r in run["results"]] == ["error", "error", "error", "warning", "note", "note"]
    odd = [r for r in run["results"] if r["ruleId"] == "S001"][0]
    assert odd["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "bank/odd%2C%20name%3A%2050%25.yaml", "uriBaseId": "%SRCROOT%"}


def test_sarif_region_end_column_is_exclusive():
    (result,) = json.loads(report("sarif", DIAGNOSTICS[:1]))["runs"][0]["results"]
    d = DIAGNOSTICS[0]
    assert result["locations"][0]["physicalLocation"]["region"] == {
        "startLine": d.line, "startColumn": d.col, "endLine": d.end_line, "endColumn": d.end_col + 1}


def test_sarif_rules_come_from_the_rule_docs():
    """The same text `qlint rule CODE` prints, for every rule qlint has."""
    doc = json.loads(report("sarif", [], dataclasses.replace(CONTEXT, rules=())))
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == RULES.names()
    for entry in rules:
        rule = RULES.get(entry["id"])
        assert entry["name"] == rule.name
        assert entry["shortDescription"]["text"] == rule.summary
        assert entry["help"]["markdown"] == entry["help"]["text"] == render(rule)
        assert entry["helpUri"].endswith(rule.code)
        assert entry["fullDescription"]["text"] == rule_meta(rule.code).full_description
        assert entry["defaultConfiguration"]["level"] == {"error": "error", "warning": "warning", "info": "note"}[str(rule.severity)]
    k001 = next(r for r in rules if r["id"] == "K001")
    assert k001["fullDescription"]["text"].startswith("Checks that every option has a `rationale`")


def test_sarif_full_description_is_clipped_at_a_word(monkeypatch):
    rule = RULES.get("K001")
    long_doc = "Summary.\n\n## What it does\n" + "word " * 400 + "\n\n## Why it matters\nx"
    from qlint.reports import _common

    monkeypatch.setitem(RULES._items, "K001", dataclasses.replace(rule, doc=long_doc))  # Rule is frozen
    _common.rule_meta.cache_clear()
    try:
        text = _common.rule_meta("K001").full_description
    finally:
        _common.rule_meta.cache_clear()
    assert len(text) <= 1024 and text.endswith("word…") and "Why it matters" not in text


def test_sarif_paths_relative_to_the_repository_root():
    ctx = dataclasses.replace(CONTEXT, root="/repo", cwd="/repo/sub")
    d = DIAGNOSTICS[0]
    doc = json.loads(report("sarif", [d], ctx))
    (run,) = doc["runs"]
    assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == f"sub/{d.path}"
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": "file:///repo/"}}
    outside = dataclasses.replace(d, path="/elsewhere/q.yaml")
    loc = json.loads(report("sarif", [outside], ctx))["runs"][0]["results"][0]["locations"][0]
    assert loc["physicalLocation"]["artifactLocation"] == {"uri": "file:///elsewhere/q.yaml"}


def test_report_path():
    ctx = dataclasses.replace(CONTEXT, root="/repo", cwd="/repo/a")
    assert report_path("b/q.yaml", ctx) == "a/b/q.yaml"
    assert report_path("../c/q.yaml", ctx) == "c/q.yaml"
    assert report_path("/repo/x.yaml", ctx) == "x.yaml"
    assert report_path("/repository/x.yaml", ctx) == "/repository/x.yaml"  # a sibling, not below
    assert report_path("b/q.yaml", CONTEXT) == "b/q.yaml"  # no root: as given


# --- fingerprints ------------------------------------------------------------------------------


def test_fingerprints_survive_line_shifts_and_tell_findings_apart():
    d = DIAGNOSTICS[1]
    moved = dataclasses.replace(d, line=d.line + 7, end_line=d.end_line + 7, col=1, message="reworded")
    assert fingerprints([d], CONTEXT) == fingerprints([moved], CONTEXT)
    for change in ({"pointer": "/options/9"}, {"path": "bank/other.yaml"}, {"code": "K004"}):
        assert fingerprints([dataclasses.replace(d, **change)], CONTEXT) != fingerprints([d], CONTEXT)


def test_repeated_findings_get_occurrence_numbers():
    twins = [d for d in DIAGNOSTICS if d.path == ODD]
    first, second = fingerprints(twins, CONTEXT)
    assert first.endswith(":1") and second.endswith(":2") and first[:-2] == second[:-2]


def test_fingerprints_ignore_where_qlint_runs():
    """The same file reached from the root or from a sub-folder has one fingerprint."""
    d = DIAGNOSTICS[1]
    from_sub = dataclasses.replace(d, path=d.path.removeprefix("bank/"))
    at_root = dataclasses.replace(CONTEXT, root="/repo", cwd="/repo")
    in_bank = dataclasses.replace(CONTEXT, root="/repo", cwd="/repo/bank")
    assert fingerprints([d], at_root) == fingerprints([from_sub], in_bank)


# --- JSON and GitLab ---------------------------------------------------------------------------


def test_json_report_matches_its_schema():
    doc = json.loads(report("json"))
    assert not schema_errors(report_validator(), doc)
    assert doc["summary"] == {"files_checked": 3, "files_with_problems": 3, "problems": 6,
                              "by_severity": {"error": 3, "warning": 1, "info": 2}, "exit_code": 2}
    fixed = [d for d in doc["diagnostics"] if d["fix"]]
    assert fixed == [dict(fixed[0], fix={"description": "add the missing sentence", "safe": True,
                                         "edits": [{"pointer": "/stem", "value": "Which two? (Choose TWO.)", "delete": False}]})]


def test_report_schema_rejects_what_it_should():
    doc = json.loads(report("json"))
    doc["diagnostics"][0]["severity"] = "fatal"
    del doc["summary"]["exit_code"]
    errors = schema_errors(report_validator(), doc)
    assert len(errors) == 2, errors


def test_report_schema_is_packaged():
    from importlib import resources

    packaged = resources.files("qlint").joinpath("schemas", "report.schema.json").read_text(encoding="utf-8")
    assert json.loads(packaged)["$id"] == json.loads(report("json"))["$schema"]


def test_gitlab_code_quality_fields():
    issues = json.loads(report("gitlab"))
    assert len(issues) == len(DIAGNOSTICS)
    for issue, d in zip(issues, DIAGNOSTICS):
        assert issue["check_name"] == d.code and d.message in issue["description"]
        assert issue["location"] == {"path": d.path, "lines": {"begin": d.line, "end": d.end_line}}
    assert [i["severity"] for i in issues] == ["critical", "major", "major", "minor", "info", "info"]
    assert len({i["fingerprint"] for i in issues}) == len(issues)


@pytest.mark.parametrize("fmt", ["json", "sarif", "gitlab"])
def test_json_formats_keep_unicode_and_control_characters(fmt):
    lone = "half a pair: \ud83d here"
    diagnostics = [dataclasses.replace(DIAGNOSTICS[0], message=TRICKY), dataclasses.replace(DIAGNOSTICS[1], message=lone)]
    text = report(fmt, diagnostics)
    text.encode("utf-8")  # writable as UTF-8, even with a lone surrogate in a message
    assert "café ✓ 😀" in text and "\\u00e9" not in text  # UTF-8 text, not \u escapes
    assert "\\ud83d" in text
    found = json.dumps(json.loads(text), ensure_ascii=False)
    for message in (TRICKY, lone):
        assert json.dumps(message, ensure_ascii=False)[1:-1] in found


# --- GitHub annotations ------------------------------------------------------------------------


def _unescape(text: str) -> str:
    """What the Actions runner does to a value (its order: %0D, %0A, %3A, %2C, then %25)."""
    for code, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, char)
    return text


def parse_workflow_command(line: str) -> tuple[str, dict[str, str], str]:
    """Split `::cmd k=v,k=v::data` the way the runner does."""
    match = re.fullmatch(r"::(\w+) ([^:]*)::(.*)", line)
    assert match, line
    props = dict(p.split("=", 1) for p in match[2].split(","))
    return match[1], {k: _unescape(v) for k, v in props.items()}, _unescape(match[3])


def test_github_escaping_rules():
    assert escape_data("50%: a, b\r\nc") == "50%25: a, b%0D%0Ac"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert escape_data("%0A") == "%250A"  # an already-escaped-looking text stays literal


def test_github_annotations_round_trip():
    lines = report("github").splitlines()
    assert len(lines) == len(DIAGNOSTICS) + 1 and lines[-1].startswith("Found 6 problems")
    for line, d in zip(lines, DIAGNOSTICS):
        assert "\n" not in line and "\r" not in line
        command, props, message = parse_workflow_command(line)
        assert command == {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}[d.severity]
        assert props == {"file": d.path, "line": str(d.line), "col": str(d.col), "endLine": str(d.end_line),
                         "endColumn": str(d.end_col), "title": f"{d.code} {d.name}"}
        assert message == d.message


# --- Markdown ----------------------------------------------------------------------------------


def _tables(markdown: str) -> list[list[list[str]]]:
    """Each table's body rows as the list of their cells' rendered HTML."""
    md = MarkdownIt("commonmark").enable("table")
    html = md.render(markdown)
    tables = re.findall(r"<tbody>(.*?)</tbody>", html, re.S)
    return [[re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in re.findall(r"<tr>(.*?)</tr>", t, re.S)] for t in tables]


def test_markdown_tables_keep_their_shape_and_show_text_literally():
    text = report("markdown")
    by_severity, by_rule, findings, balance, coverage = _tables(text)
    assert by_severity == [["error", "3"], ["warning", "1"], ["info", "2"]]
    assert [r[0] for r in by_rule] == ["<code>S001</code>", "<code>K001</code>", "<code>K002</code>",
                                        "<code>K005</code>", "<code>Y001</code>"]
    assert all(len(row) == 4 for row in findings) and len(findings) == len(DIAGNOSTICS)
    tricky = findings[[d.message for d in DIAGNOSTICS].index(TRICKY)][3]
    # Every character shows as itself: no code span, emphasis, HTML or link from the message.
    assert tricky == ("50% of readers: a, b<br>next | `code` *bold* &lt;b&gt;x&lt;/b&gt; &amp;amp; [link](u) "
                      "— café ✓ 😀<br>end")
    assert findings[0][1] == f'<a href="{DIAGNOSTICS[0].path.replace(" ", "%20")}#L{DIAGNOSTICS[0].line}">{DIAGNOSTICS[0].path}:{DIAGNOSTICS[0].line}</a>'
    assert balance[0] == ["4", "16", "A 4 · B 5 · C 4 · D 3", "0.50", "0.919"]
    assert coverage[0] == ["MLA-C01", "Data Preparation | ML (data-preparation)", "28%", "5", "25.0%", "-3.0 pts"]


def test_markdown_links_use_the_link_base_and_encode_paths():
    ctx = dataclasses.replace(CONTEXT, link_base="https://example.test/o/r/blob/abc/")
    odd = next(d for d in DIAGNOSTICS if d.path == ODD)
    findings = _tables(report("markdown", [odd], ctx))[2]
    assert findings[0][1] == ('<a href="https://example.test/o/r/blob/abc/bank/odd%2C%20name%3A%2050%25.yaml#L1">'
                              "bank/odd, name: 50%.yaml:1</a>")


def test_markdown_clean_run_and_long_lists():
    clean = report("markdown", [])
    assert "All checks passed (3 files checked)." in clean and "### Findings" not in clean
    many = [dataclasses.replace(DIAGNOSTICS[1], line=n) for n in range(1, 206)]
    text = report("markdown", many)
    assert len(_tables(text)[2]) == 200 and "… and 5 more" in text
    assert "**205 problems** in 1 file of 3 checked." in text


def test_text_keeps_one_line_per_finding():
    lines = report("text").splitlines()
    assert len(lines) == len(DIAGNOSTICS) + 1
    assert all(re.match(r"^[^\n]+:\d+:\d+: [A-Z]\d{3} .+ \([a-z0-9-]+\)$", line) for line in lines[:-1]), lines
