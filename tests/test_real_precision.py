"""The precision policy: every default heuristic rule that reads question text (`Rule.reads_text`:
not the response rules, which read learners' answers) and applies to single or multiple questions
(`Rule.new_types_only` rules read only ordering and matching questions, which the real corpora
hold none of) has judged precision on real text at or above
the bar (tests/real/precision.json, made by `scripts/realtext.py --write-summary`), and that file
matches what the rules and judgments give today."""

from __future__ import annotations

import json

import pytest

from conftest import REPO, require_shared, script
from qlint.diagnostic import Severity
from qlint.rules import RULES

SUMMARY = REPO / "tests" / "real" / "precision.json"
JUDGMENTS = REPO / "tests" / "real" / "judgments.jsonl"


def _realtext():
    return script("realtext")


@pytest.fixture(scope="module")
def realtext():
    return _realtext()


@pytest.fixture(scope="module")
def summary():
    return json.loads(SUMMARY.read_text(encoding="utf-8"))


def test_every_default_heuristic_rule_is_judged_and_above_the_bar(summary, realtext):
    problems = []
    for code, rule in RULES.items():
        # the corpora hold no ordering or matching question: a rule only for those cannot be judged on them
        if not rule.enabled_by_default or not rule.reads_text or rule.new_types_only or code in realtext.EXACT:
            continue
        row = summary["rules"].get(code)
        if row is None:
            problems.append(f"{code}: no judged precision entry")
            continue
        need = min(summary["n"], row["fires"])
        if row["judged"] < need:
            problems.append(f"{code}: {row['judged']} of {need} drawn findings judged")
        elif row["judged"]:
            bar = realtext.BAR_ERROR if rule.severity is Severity.ERROR else realtext.BAR_DEFAULT
            if row["precision"] < bar:
                problems.append(f"{code}: precision {row['precision']} below {bar} ({rule.severity})")
    assert not problems, "\n".join(problems)


def test_judgments_are_well_formed_and_quote_nothing():
    keys = {"corpus", "question", "rule", "pointer", "message", "verdict", "reason", "round"}
    for n, line in enumerate(JUDGMENTS.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        j = json.loads(line)
        assert keys <= set(j), f"line {n}: missing {keys - set(j)}"
        assert j["verdict"] in ("true", "false"), f"line {n}"
        assert j["round"] in ("before", "after"), f"line {n}"
        assert j["rule"] in RULES, f"line {n}: unknown rule {j['rule']}"
        assert len(j["reason"]) <= 300, f"line {n}: a reason says why in a line; it does not quote the question"


@pytest.mark.slow
def test_summary_is_what_the_rules_and_judgments_give_today(summary, realtext):
    """Re-measured on the corpora: a stale summary (rules or judgments changed since) fails."""
    require_shared("corpora", "snts42-cloudcertprep")
    import tempfile
    from pathlib import Path

    items = realtext.corpora.convert(names=realtext.corpora.AWS)
    with tempfile.TemporaryDirectory() as tmp:
        findings = realtext.run(items, Path(tmp))
    rows = realtext.summarise(findings, realtext.load_judgments(), len(items), summary["n"], summary["seed"])
    fields = ("status", "severity", "fires", "drawn", "judged", "true")
    stale = [f"{code}: {f} is {rows[code][f]!r}, the summary says {summary['rules'].get(code, {}).get(f)!r}"
             for code in rows for f in fields if summary["rules"].get(code, {}).get(f) != rows[code][f]]
    assert not stale, "run `scripts/realtext.py --write-summary`:\n" + "\n".join(stale[:20])


def test_the_docs_table_is_the_summary(summary, realtext):
    """docs/rules-design.md shows the table `scripts/realtext.py --update-doc` writes from the summary."""
    doc = (REPO / "docs" / "rules-design.md").read_text(encoding="utf-8")
    shown = doc.split(realtext.DOC_BEGIN, 1)[1].split(realtext.DOC_END, 1)[0].strip()
    assert shown == realtext.table(summary["rules"], summary["questions"]).strip(), \
        "run `scripts/realtext.py --write-summary --update-doc docs/rules-design.md`"
