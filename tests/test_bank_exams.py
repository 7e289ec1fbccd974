"""Each file is judged against the exam definitions of the bank it belongs to (issue 17 point 9):
`qlint check other-repo/bank` reads other-repo/bank/exams, not this repository's exams folder, in
every command that reads exams (check: S002, S003, O012, B008; export; shuffle's bank)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from kit.authoring import run
from conftest import BANK, REPO

FINDING = re.compile(r"^(.+?):\d+:\d+: ([A-Z]\d{3}) ", re.M)
LAYER_SPLIT = "bank/mla-c01/model-development/layer-split-across-gpus.yaml"  # asks for a "strategy" (O012)


def own_code(bank: Path) -> None:
    """Its own exam: MLA-C02, in its exam file and in every question and case."""
    _edit(bank / "exams" / "mla-c01.yaml", lambda exam: {**exam, "code": "MLA-C02"})
    _replace_lines(bank, "exam: MLA-C01", "exam: MLA-C02")


def redefined(bank: Path) -> None:
    """The same code as this repository's, defined otherwise: a domain renamed, and word lists
    under which a parameter server is a topology, not a strategy."""
    def change(exam):
        for d in exam["domains"]:
            d["id"] = "data-prep" if d["id"] == "data-preparation" else d["id"]
        return {**exam, "types": {"strategy": ["parallelism"], "topology": ["parameter-server"]}}
    _edit(bank / "exams" / "mla-c01.yaml", change)
    _replace_lines(bank, "domain: data-preparation", "domain: data-prep")


def _edit(path: Path, change) -> None:
    path.write_text(yaml.safe_dump(change(yaml.safe_load(path.read_text(encoding="utf-8"))), sort_keys=False),
                    encoding="utf-8")


def _replace_lines(bank: Path, old: str, new: str) -> None:
    for f in bank.rglob("*.yaml"):
        text = f.read_text(encoding="utf-8")
        f.write_text(re.sub(rf"(?m)^{re.escape(old)}$", new, text), encoding="utf-8")


def _bank(tmp_path: Path, name: str, edit) -> Path:
    bank = tmp_path / name / "bank"
    shutil.copytree(BANK, bank)
    edit(bank)
    return bank


def _findings(out: str, cwd: Path, tmp_path: Path) -> set[tuple[str, str]]:
    """(file relative to tmp_path, or "repo:" + file of this repository, code) of each finding."""
    found = set()
    for path, code in FINDING.findall(out):
        full = (cwd / path).resolve()
        where = full.relative_to(tmp_path) if full.is_relative_to(tmp_path) else f"repo:{full.relative_to(REPO)}"
        found.add((str(where), code))
    return found


def _loose(tmp_path: Path) -> str:
    """A copy of a question of the redefined bank outside any bank: judged against the configured exams."""
    (tmp_path / "drafts").mkdir()
    source = tmp_path / "b" / "bank" / "mla-c01" / "data-preparation" / "athena-ctas-join.yaml"
    shutil.copy(source, tmp_path / "drafts" / "draft.yaml")
    return "drafts/draft.yaml"


# name, where qlint runs ("repo" or the temporary folder), the banks made there, what is
# checked (paths under the temporary folder; "bank" from "repo": this repository's), and the
# findings (file under the temporary folder, code) among S002, S003, O012.
CASES = [
    ("a bank with its own exam, from this repository", "repo", {"other": own_code}, ["other/bank"], set()),
    ("a bank with its own exam, from outside any project", "tmp", {"other": own_code}, ["other/bank"], set()),
    ("an exam code this bank defines otherwise, both banks in one run", "repo", {"b": redefined},
     ["bank", "b/bank"], {(f"b/{LAYER_SPLIT}", "O012")}),
    ("two other banks in one run, from outside any project", "tmp", {"a": own_code, "b": redefined},
     ["a/bank", "b/bank"], {(f"b/{LAYER_SPLIT}", "O012")}),
    ("a loose file beside another bank: the configured exams", "repo", {"b": redefined},
     ["b/bank", _loose], {("drafts/draft.yaml", "S003"), (f"b/{LAYER_SPLIT}", "O012")}),
]


@pytest.mark.parametrize("name, where, banks, paths, expected", CASES, ids=[c[0] for c in CASES])
def test_each_file_is_judged_against_its_own_banks_exams(name, where, banks, paths, expected, tmp_path,
                                                         monkeypatch, capsys):
    tmp_path = tmp_path.resolve()
    for folder, edit in banks.items():
        _bank(tmp_path, folder, edit)
    args = [p(tmp_path) if callable(p) else p for p in paths]
    cwd = REPO if where == "repo" else tmp_path
    args = [a if where == "repo" and a == "bank" else str(tmp_path / a) for a in args]
    monkeypatch.chdir(cwd)
    code, out, err = run(capsys, "check", "--no-cache", "--select", "S,O012", *args)
    assert _findings(out, cwd, tmp_path) == expected, out + err
    assert code == (1 if expected else 0), out + err


def test_blueprint_coverage_judges_each_bank_on_its_own(tmp_path, monkeypatch, capsys):
    """B008 (reported on an exam file) counts that bank's questions against that bank's weights:
    two banks checked together get what each gets alone."""
    tmp_path = tmp_path.resolve()
    project = tmp_path / "project"
    project.mkdir()
    (project / "qlint.toml").write_text("[rules.B008]\nmin-questions = 10\n", encoding="utf-8")
    _bank(tmp_path, "a", own_code)
    b = _bank(tmp_path, "b", redefined)
    domains = [yaml.safe_load(f.read_text(encoding="utf-8")).get("domain") for f in b.rglob("*.yaml")]

    def matching(exam):  # b's weights are its own shares: nothing to report
        for d in exam["domains"]:
            d["weight"] = domains.count(d["id"])
        return exam
    _edit(b / "exams" / "mla-c01.yaml", matching)
    monkeypatch.chdir(project)

    def check(*banks):
        code, out, err = run(capsys, "check", "--no-cache", "--select", "B008", *(str(tmp_path / b) for b in banks))
        return {line.split(": B008 ")[1] + " @ " + line.split(":")[0] for line in out.splitlines() if " B008 " in line}
    alone_a, alone_b = check("a/bank"), check("b/bank")
    assert alone_a and not alone_b  # the sample bank is off its published weights; b matches its own
    assert all(str(tmp_path / "a" / "bank" / "exams") in f for f in alone_a)
    assert check("a/bank", "b/bank") == alone_a | alone_b


def _export(capsys, fmt: str, out: Path, *paths: str):
    return run(capsys, "export", "--format", fmt, "--output", str(out), *paths)


def test_export_of_another_bank_names_its_exams(tmp_path, in_repo, capsys):
    other = _bank(tmp_path, "other", own_code)
    code, out, err = _export(capsys, "json", tmp_path / "out.json", str(other))
    assert code == 0, out + err
    doc = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert [e["code"] for e in doc["exams"]] == ["MLA-C02"]
    assert {q["exam"] for q in doc["questions"]} == {"MLA-C02"} and all(q.get("domain_name") for q in doc["questions"])
    code, out, err = _export(capsys, "qti21", tmp_path / "out.zip", str(other))
    assert code == 0 and "Exported 28 questions" in out, out + err


def test_export_refuses_one_code_two_banks_define_differently(tmp_path, in_repo, capsys):
    other = _bank(tmp_path, "b", redefined)
    code, out, err = _export(capsys, "json", tmp_path / "out.json", "bank", str(other))
    assert code == 2 and not (tmp_path / "out.json").exists(), out + err
    assert "exam 'MLA-C01' is defined differently in bank/exams/mla-c01.yaml and " in err, err
    assert "export one bank at a time" in err


def test_the_cache_knows_another_banks_exams(tmp_path, in_repo, monkeypatch, capsys):
    """Results of another bank's files depend on its exam file: editing it must not serve old ones."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    other = _bank(tmp_path, "other", own_code)
    cache = ["--cache-dir", str(tmp_path / "cache"), "--select", "S"]
    code, out, err = run(capsys, "check", *cache, str(other))
    assert code == 0, out + err
    def rename(exam):  # in the exam file only: its questions keep data-preparation
        for d in exam["domains"]:
            d["id"] = "data-prep" if d["id"] == "data-preparation" else d["id"]
        return exam
    _edit(other / "exams" / "mla-c01.yaml", rename)
    users = sum(f.read_text(encoding="utf-8").count("\ndomain: data-preparation\n") for f in other.rglob("*.yaml"))
    code, out, err = run(capsys, "check", *cache, str(other))
    assert users and code == 1, out + err
    assert len(re.findall(r" S003 'data-preparation' is not a domain of MLA-C02", out)) == users, out + err


def test_shuffle_counts_the_bank_it_shuffles(tmp_path, monkeypatch, capsys):
    """The balance lines count the shuffled bank, from this repository as from its own folder."""
    other = _bank(tmp_path, "other", own_code)
    lines = []
    for cwd in (REPO, other.parent):
        monkeypatch.chdir(cwd)
        code, out, err = run(capsys, "shuffle", "--seed", "1", "--check", str(other))
        assert code == 0, out + err
        lines.append([ln for ln in err.splitlines() if ln.startswith("key positions")])
    assert lines[0] == lines[1] and len(lines[0]) == 2, lines


@pytest.mark.parametrize("where", ["repo", "tmp"])
def test_bank_rules_compare_each_bank_with_itself(where, tmp_path, monkeypatch, capsys):
    """Two banks in one run hold twin questions: neither is reported as a duplicate of the other
    (before: every question got B001 and B006 against its twin), while a duplicate planted inside
    one bank is still found, by each bank alone and by both together."""
    tmp_path = tmp_path.resolve()
    a, b = _bank(tmp_path, "a", own_code), _bank(tmp_path, "b", lambda bank: None)
    twin = b / "mla-c01" / "model-development" / "twin.yaml"
    shutil.copy(b / "mla-c01" / "model-development" / "bayesian-tuning.yaml", twin)
    cwd = REPO if where == "repo" else tmp_path
    monkeypatch.chdir(cwd)

    def bank_findings(*paths):
        code, out, err = run(capsys, "check", "--no-cache", "--select", "B", *map(str, paths))
        return {(f, c) for f, c in _findings(out, cwd, tmp_path)}
    planted = {("b/bank/mla-c01/model-development/twin.yaml", "B001"),
               ("b/bank/mla-c01/model-development/bayesian-tuning.yaml", "B001")}
    alone_b = bank_findings(b)
    assert planted <= alone_b and {f for f, _ in alone_b} <= {f for f, _ in planted}, alone_b
    assert bank_findings(a) == set()
    both = bank_findings(a, b) if where == "tmp" else bank_findings(REPO / "bank", a, b)
    assert both == alone_b, both


def test_another_projects_exams_setting_is_read(tmp_path, monkeypatch, capsys):
    """A bank of another project is read with that project's `bank` and `exams` settings (before:
    its exams were looked for where this project keeps them, bank/exams, and every question got
    S002)."""
    tmp_path = tmp_path.resolve()
    project = tmp_path / "other"
    bank = _bank(tmp_path, "other", own_code)
    (bank / "exams").rename(project / "definitions")
    bank.rename(project / "questions")
    (project / "qlint.toml").write_text('bank = "questions"\nexams = "definitions"\n', encoding="utf-8")
    for where in (REPO, tmp_path):
        monkeypatch.chdir(where)
        code, out, err = run(capsys, "check", "--no-cache", str(project / "questions"))
        assert code == 0 and "All checks passed" in out, out + err
        code, out, err = run(capsys, "export", "--format", "json", "--output", str(tmp_path / "o.json"),
                             str(project / "questions"))
        assert code == 0, out + err
        assert "MLA-C02" in {e["code"] for e in json.loads((tmp_path / "o.json").read_text(encoding="utf-8"))["exams"]}
