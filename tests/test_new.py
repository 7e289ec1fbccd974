"""`qlint new`: the scaffold lands in the right folder and passes the schema once filled in."""

from __future__ import annotations

import re
import subprocess
import sys

import yaml

from qlint.lint.engine import check_file, load_exams, make_settings
from qlint.cli.config import load_config

from kit.authoring import make_project, run


def fill(text: str) -> str:
    """Replace every placeholder the way an author would: real words, unique per field."""
    out, n = [], 0
    for line in text.splitlines():
        if "TODO" in line and not line.lstrip().startswith("#"):
            n += 1
            if "https://example.com/TODO" in line:
                line = line.replace("https://example.com/TODO", f"https://docs.example.org/page-{n}")
            else:
                line = line.replace("TODO", f"Filled-in text number {n} about sharding layers")
        out.append(line)
    return "\n".join(out) + "\n"


def test_scaffold_passes_the_schema_once_filled(capsys, tmp_path, monkeypatch):
    bank = make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "new", "--exam", "mla-c01", "--domain", "ML Model Development", "--type", "multiple",
                         "--choose", "2", "--id", "mla-c01-dev-sharding")
    assert code == 0, err
    path = bank / "mla-c01" / "model-development" / "dev-sharding.yaml"
    assert out.strip() == "created bank/mla-c01/model-development/dev-sharding.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=")
    data = yaml.safe_load(text)
    assert data["type"] == "multiple" and data["choose"] == 2 and sum(o["correct"] for o in data["options"]) == 2
    assert "(Choose TWO.)" in data["stem"]
    assert run(capsys, "format", "--check", str(path))[0] == 0  # scaffolds are canonical
    path.write_text(fill(text), encoding="utf-8")
    settings = make_settings(load_config(tmp_path), select=["S", "K002"])
    load_exams(settings)
    result = check_file(str(path), settings)
    assert [d for d in result.diagnostics] == [], [f"{d.line}:{d.col} {d.code} {d.message}" for d in result.diagnostics]


def test_refuses_to_overwrite_and_bad_exam_or_domain(capsys, tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    args = ["new", "--exam", "MLA-C01", "--domain", "model-development", "--id", "mla-c01-dev-one"]
    assert run(capsys, *args)[0] == 0
    code, _out, err = run(capsys, *args)
    assert code == 2 and "exists; not overwriting it" in err
    code, _out, err = run(capsys, "new", "--exam", "MLA-C02", "--domain", "model-development")
    assert code == 2 and "did you mean MLA-C01?" in err
    code, _out, err = run(capsys, "new", "--exam", "MLA-C01", "--domain", "model-dev")
    assert code == 2 and "did you mean 'model-development'?" in err
    code, _out, err = run(capsys, "new", "--exam", "MLA-C01", "--domain", "model-development", "--type", "multiple")
    assert code == 2 and "--choose N" in err


def test_interactive_reads_answers_from_stdin(tmp_path):
    make_project(tmp_path)
    answers = "\n".join([
        "MLA-C01", "2", "single", "mla-c01-dev-asked", "hard",
        "A 70B model exceeds one GPU. Which strategy splits its layers?",
        "Candidates pick data parallelism and miss the memory limit.",
        "Model parallelism", "Data parallelism", "Autopilot", "Hyperparameter tuning",
    ]) + "\n"
    proc = subprocess.run([sys.executable, "-m", "qlint", "new", "--interactive"], input=answers, text=True,
                          capture_output=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Domain (number or id)" in proc.stderr and "2. model-development" in proc.stderr
    data = yaml.safe_load((tmp_path / "bank" / "mla-c01" / "model-development" / "dev-asked.yaml").read_text())
    assert data["difficulty"] == "hard" and data["stem"].startswith("A 70B model")
    assert [o["id"] for o in data["options"]] == ["model-parallelism", "data-parallelism", "autopilot", "hyperparameter-tuning"]
    assert [o["correct"] for o in data["options"]] == [True, False, False, False]


def test_interactive_cancelled_writes_nothing(tmp_path):
    make_project(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "qlint", "new", "--interactive"], input="MLA-C01\n", text=True,
                          capture_output=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 2 and "nothing written" in proc.stderr
    assert not (tmp_path / "bank" / "mla-c01").exists()


def test_ordering_matching_and_case_study_scaffolds(capsys, tmp_path, monkeypatch):
    """`qlint new --type ordering|matching [--case ID]` and `--case-study`: canonical files that
    pass the schema and the data rules once filled in."""
    bank = make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    made = []
    for args in (["--type", "ordering", "--domain", "deployment-orchestration", "--id", "mla-c01-deploy-order",
                  "--case", "mla-c01-case-churn"],
                 ["--type", "matching", "--domain", "monitoring-security", "--id", "mla-c01-mon-match"],
                 ["--case-study", "--domain", "deployment-orchestration", "--id", "mla-c01-case-churn"]):
        code, out, err = run(capsys, "new", "--exam", "MLA-C01", *args)
        assert code == 0, err
        made.append(tmp_path / out.removeprefix("created ").strip())
    ordering, matching, case = made
    assert case == bank / "mla-c01" / "cases" / "case-churn.yaml"
    assert yaml.safe_load(ordering.read_text(encoding="utf-8"))["case"] == "mla-c01-case-churn"
    assert len(yaml.safe_load(matching.read_text(encoding="utf-8"))["responses"]) == 4  # one surplus
    assert run(capsys, "format", "--check", *map(str, made))[0] == 0  # scaffolds are canonical
    settings = make_settings(load_config(tmp_path), select=["S", "P002", "P003", "P004", "P005", "P006", "P007", "P008"])
    load_exams(settings)
    for path in made:
        path.write_text(fill(path.read_text(encoding="utf-8")), encoding="utf-8")
        result = check_file(str(path), settings)
        assert result.diagnostics == [], [f"{d.line}:{d.col} {d.code} {d.message}" for d in result.diagnostics]
    code, _out, err = run(capsys, "new", "--exam", "MLA-C01", "--domain", "deployment-orchestration", "--case-study",
                          "--type", "ordering")
    assert code == 2 and "--case-study takes --exam, --domain and --id only" in err


def test_fresh_scaffolds_get_only_the_placeholder_findings(capsys, tmp_path, monkeypatch):
    """Issue 28: two fresh scaffolds of each type (and a case study with its two questions) in one
    bank: `qlint check` reports their TODO placeholders (F002) and nothing else, no near-duplicate
    pairs of placeholder text, no trap findings about a trap still to be written."""
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    made = [["--type", t, "--id", f"mla-c01-dev-{t}-{n}", *(["--choose", "2"] if t == "multiple" else [])]
            for t in ("single", "multiple", "ordering", "matching") for n in (1, 2)]
    made += [["--case-study", "--id", "mla-c01-case-churn"],
             *(["--case", "mla-c01-case-churn", "--id", f"mla-c01-case-churn-question-{n}"] for n in (1, 2))]
    for args in made:
        code, _out, err = run(capsys, "new", "--exam", "MLA-C01", "--domain", "model-development", *args)
        assert code == 0, err
    code, out, err = run(capsys, "check", "--no-cache", "bank")
    assert code == 1, err
    findings = [ln for ln in out.splitlines() if re.match(r"\S+\.yaml:\d+:\d+: ", ln)]
    assert len(findings) > 100  # every placeholder of 11 files
    assert [ln for ln in findings if " F002 " not in ln] == []
