"""Response rules (R codes): a seeded simulation with planted faults, each rule's verdict and
silence, minimum n, and findings placed on the YAML lines through the usual reports."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from kit.analyze import findings
from conftest import REPO, script
from qlint.cli import main
from qlint.itemanalysis.data import ItemKey, Responses
from qlint.itemanalysis.stats import analyse
from qlint.cli.config import load_config
from qlint.rules import RULES

SAMPLE = REPO / "examples" / "synthetic-responses.csv"


@pytest.fixture(scope="module")
def simulated():
    sim = script("simulate_responses")
    keys = sim.synthetic_keys(65, seed=1)
    plan = sim.plant(keys, miskeys=4, dead=6, seed=2)
    choices = sim.simulate(keys, 500, seed=3, plan=plan)
    r = Responses([k.id for k in keys], [f"r{i}" for i in range(500)], choices)
    return analyse(r, {k.id: k for k in keys}), plan, keys


def test_simulation_finds_every_planted_fault_and_nothing_else(simulated):
    a, plan, keys = simulated
    found = findings(a)
    by_id = {k.id: k for k in keys}
    for qid in plan.miskeyed:  # the bank's key is avoided by strong learners
        assert any(code == "R002" and item == qid for code, item, _ in found), (qid, found)
    for qid, dead in plan.dead.items():
        for i in dead:
            assert ("R003", qid, f"/options/{i}") in found, (qid, found)
    planted = set(plan.miskeyed) | set(plan.dead)
    unplanted = sorted((c, i, p) for c, i, p in found if i not in planted)
    assert not unplanted, unplanted
    # and a dead distractor is only that: the item is otherwise fine
    assert {c for c, i, _ in found if i in plan.dead} == {"R003"}
    assert len(by_id) == 65 and a.n_respondents == 500


def test_every_response_rule_fires_and_stays_silent():
    """One hand-built form per rule: a failing item and, beside it, passing ones."""
    rng = np.random.default_rng(5)
    n, k = 400, 12
    theta = rng.standard_normal(n)
    keys = [ItemKey(f"i{j:02d}", f"i{j:02d}.yaml", ("a", "b", "c", "d"), ("A", "B", "C", "D"), 1, False, "s")
            for j in range(k)]
    b = np.linspace(-0.6, 0.6, k)
    knows = rng.random((n, k)) < 1 / (1 + np.exp(-2.5 * (theta[:, None] - b)))
    choices = np.where(knows, 1, 1 << rng.integers(0, 4, (n, k)))
    choices[:, 1] = np.where(theta > 0.3, 2, np.where(rng.random(n) < 0.3, 1, 4))  # i01 miskeyed: knowers pick b
    choices[:, 2] = np.where(rng.random(n) < 0.97, 1, 2)  # i02 too easy, and flat
    choices[:, 3] = np.where(knows[:, 3], 1, 1 << rng.integers(0, 3, n))  # i03: d is never chosen
    a = analyse(Responses([x.id for x in keys], [str(i) for i in range(n)], choices), {x.id: x for x in keys})
    found = findings(a)
    codes = {c: {i for cc, i, _ in found if cc == c} for c in ("R002", "R003", "R004", "R005", "R006", "R007")}
    assert "i01" in codes["R002"] and "i01" in codes["R005"] and "i01" in codes["R007"]
    assert codes["R004"] == {"i02"} and "i02" in codes["R006"]
    assert ("R003", "i03", "/options/3") in found
    clean = {f"i{j:02d}" for j in range(4, k)}
    assert not {i for _, i, _ in found} & clean, found
    assert not any(c == "R001" for c, _, _ in found)


def test_small_samples_give_no_verdicts(simulated, tmp_path):
    a, plan, keys = simulated
    sim = script("simulate_responses")
    few = sim.simulate(keys, 60, seed=4, plan=plan)
    small = analyse(Responses([k.id for k in keys], [str(i) for i in range(60)], few), {k.id: k for k in keys})
    found = findings(small)
    assert {c for c, _, _ in found} == {"R001"} and len(found) == 65
    (tmp_path / "qlint.toml").write_text("[rules]\nR001 = { min-respondents = 50 }\n", encoding="utf-8")
    lowered = findings(small, load_config(tmp_path))
    assert "R001" not in {c for c, _, _ in lowered} and lowered


def test_response_rules_are_exempt_from_the_text_precision_policy_by_their_scope():
    response = [r for _, r in RULES.items() if r.scope == "responses"]
    assert len(response) == 7 and not any(r.reads_text for r in response)
    # so are the codes the import, export and shuffle pipelines report (issue 15): they read no question text
    assert all(r.reads_text for _, r in RULES.items() if r.scope not in ("responses", "command"))
    assert not any(r.reads_text for _, r in RULES.items() if r.scope == "command")


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A copy of the sample project (bank, config) to run the CLI in."""
    for name in ("bank", "examples"):
        shutil.copytree(REPO / name, tmp_path / name)
    for f in REPO.glob("qlint.toml"):
        shutil.copy(f, tmp_path / f.name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


MISKEYED = "bank/mla-c01/deployment-orchestration/multi-model-endpoint.yaml"
DEAD = "bank/mla-c01/data-preparation/feature-store-online.yaml"


def test_analyze_reports_on_the_yaml_lines_in_every_format(project, capsys):
    assert main(["analyze", "examples/synthetic-responses.csv", "--output-format", "sarif"]) == 1
    sarif = json.loads(capsys.readouterr().out)
    results = sarif["runs"][0]["results"]
    where = {(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
              r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results}
    text = (project / MISKEYED).read_text(encoding="utf-8").splitlines()
    key_line = next(n for n, line in enumerate(text, 1) if "correct: true" in line) - 2  # the option's `- id:` line
    assert any(code == "R002" and uri == MISKEYED and line <= key_line + 2 for code, uri, line in where), where
    assert any(code == "R003" and uri == DEAD for code, uri, _ in where)
    assert {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]} == {f"R00{i}" for i in range(1, 8)}
    for fmt, marker in (("github", "::error file="), ("gitlab", '"check_name": "R002'), ("markdown", "R002")):
        assert main(["analyze", "examples/synthetic-responses.csv", "--output-format", fmt]) == 1
        assert marker in capsys.readouterr().out, fmt


def test_analyze_honours_suppression_comments(project, capsys):
    path = project / DEAD
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert main(["analyze", "examples/synthetic-responses.csv"]) == 1
    out = capsys.readouterr().out
    line = int(next(x for x in out.splitlines() if "R003" in x).split(":")[1])
    lines[line - 1] = lines[line - 1].rstrip("\n") + "  # qlint: disable-line R003 -- a planted synthetic fault\n"
    path.write_text("".join(lines), encoding="utf-8")
    main(["analyze", "examples/synthetic-responses.csv"])
    out = capsys.readouterr().out
    assert "R003" not in out and "M001" not in out
    assert main(["check", "--no-cache", DEAD]) == 0, capsys.readouterr().out  # not judged unused without responses


def test_check_with_responses_reports_both(project, capsys):
    code = main(["check", "--no-cache", "--responses", "examples/synthetic-responses.csv"])
    out = capsys.readouterr().out
    assert code == 1 and "R002" in out and MISKEYED in out
    assert main(["check", "--no-cache", DEAD, "--responses", "examples/synthetic-responses.csv"]) == 1
    out = capsys.readouterr().out
    assert "R003" in out and "R002" not in out  # only the files asked for


def test_bad_responses_exit_2_with_a_position(project, capsys):
    (project / "bad.csv").write_text("respondent,question,selected,attempt\nann,x,y,1\n", encoding="utf-8")
    (project / "bad-attempt.csv").write_text("respondent,question,selected,attempt\nann,x,y,one\n", encoding="utf-8")
    (project / "weird.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    assert main(["analyze", "missing.csv"]) == 2
    assert "missing.csv:1:1: cannot read" in capsys.readouterr().err
    assert main(["analyze", "weird.csv"]) == 2
    assert "weird.csv:1:1: not a responses file" in capsys.readouterr().err
    assert main(["analyze", "bad.csv"]) == 2  # the question is unknown (a note), so no answer at all
    err = capsys.readouterr().err
    assert "no answer to any bank question (first skipped: bad.csv:2:5: question 'x' is not in the bank" in err and "Traceback" not in err
    assert main(["analyze", "bad-attempt.csv"]) == 2  # a bad cell is an error even on a row that is skipped
    assert "bad-attempt.csv:2:9: attempt 'one' is not a whole number" in capsys.readouterr().err
    assert main(["check", "--responses", "weird.csv"]) == 2
