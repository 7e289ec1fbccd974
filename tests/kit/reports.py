"""Fixed inputs for the report tests: diagnostics and figures that exercise every escaping case,
plus the schemas the reports must satisfy."""

from __future__ import annotations

import json
from functools import lru_cache

from jsonschema import Draft4Validator, Draft202012Validator
from rfc3986_validator import validate_rfc3986

from qlint.bank.statistics import Balance, Coverage
from qlint.diagnostic import Diagnostic, Edit, Fix, Severity
from qlint.reports import ReportContext

from conftest import REPO, require_shared

Q = "bank/mla-c01/model-development/layer-split.yaml"
ODD = "bank/odd, name: 50%.yaml"  # ',' ':' '%' in a path: GitHub property escaping
TRICKY = "50% of readers: a, b\nnext | `code` *bold* <b>x</b> &amp; [link](u) — café ✓ 😀\r\nend"

DIAGNOSTICS = sorted([
    Diagnostic(Q, 3, 1, "K002", "key-count", Severity.ERROR, 'the stem never says "(Choose TWO.)"', 5, 20, "/stem",
               Fix("add the missing sentence", (Edit("/stem", "Which two? (Choose TWO.)"),))),
    Diagnostic(Q, 12, 5, "K001", "option-rationale", Severity.ERROR,
               "option 'data-parallel' has no rationale: say why it is wrong here", 12, 30, "/options/0"),
    Diagnostic(Q, 20, 7, "K005", "distractor-right-when", Severity.WARNING, TRICKY, 21, 10, "/options/1/right_when"),
    Diagnostic(ODD, 1, 1, "S001", "schema", Severity.INFO, "'format' is a required property", 1, 1, ""),
    Diagnostic(ODD, 1, 1, "S001", "schema", Severity.INFO, "'id' is a required property", 1, 1, ""),
    Diagnostic("bank/broken.yaml", 2, 1, "Y001", "yaml-syntax", Severity.ERROR,
               "expected ',' or ']', but got '<stream end>'", 2, 1, ""),
])

FIGURES = {
    "key_balance": [Balance(4, (4, 5, 4, 3), 0.5, 0.918891, 0.5625), Balance(5, (1, 0, 0, 0, 3), 6.5, 0.164949, 0.0)],
    "coverage": [
        Coverage("MLA-C01", "data-preparation", "Data Preparation | ML", 28.0, 5, 25.0),
        Coverage("MLA-C01", "model-development", "ML Model Development", 26.0, 6, 30.0),
    ],
}

CONTEXT = ReportContext(
    files_checked=3, version="0.0.0-golden", exit_code=2, extra=FIGURES,
    rules=("K001", "K002", "K003", "K005", "S001", "Y001"),
)


@lru_cache(maxsize=None)
def sarif_validator() -> Draft4Validator:
    schema = json.loads(require_shared("schemas", "sarif", "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    return Draft4Validator(schema, format_checker=Draft4Validator.FORMAT_CHECKER)


@lru_cache(maxsize=None)
def report_validator() -> Draft202012Validator:
    schema = json.loads((REPO / "schema" / "report.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def schema_errors(validator, document) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


def assert_valid_sarif(document: dict) -> None:
    """The SARIF schema, plus what GitHub code scanning needs beyond it."""
    assert not schema_errors(sarif_validator(), document)
    (run,) = document["runs"]
    rules = run["tool"]["driver"]["rules"]
    for rule in rules:
        assert rule["shortDescription"]["text"] and rule["help"]["text"] and rule["helpUri"]
        assert 0 < len(rule["fullDescription"]["text"]) <= 1024
    fingerprints = set()
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        uri = location["artifactLocation"]["uri"]
        assert validate_rfc3986(uri, rule="URI_reference"), uri
        assert not uri.startswith("/") and ":" not in uri.split("/")[0], f"{uri} is not repository-relative"
        region = location["region"]
        assert {"startLine", "startColumn", "endLine", "endColumn"} <= set(region)
        assert (region["endLine"], region["endColumn"]) > (region["startLine"], region["startColumn"])
        fingerprints.add((result["ruleId"], result["partialFingerprints"]["qlint/v1"]))
    assert len(fingerprints) == len(run["results"]), "fingerprints must tell results apart"
