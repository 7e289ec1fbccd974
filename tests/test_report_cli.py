"""`qlint check --output-format/--output-file` as a user runs it: exit codes, files, CI detection."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest

from qlint.cli import main
from qlint.cli.commands.check import choose_formats
from qlint.reports import REPORTERS

from conftest import BANK, REPO, standalone_sample
from kit.reports import assert_valid_sarif, report_validator, schema_errors

GOOD = BANK / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml"
LINE = re.compile(r"^[^:]+:\d+:\d+: [A-Z]\d{3} .+ \([a-z0-9-]+\)$")
WITH_KEY_COUNT = ("text: Data parallelism\n    correct: false", "text: Data parallelism\n    correct: true")
WITHOUT_RIGHT_WHEN = ("    right_when: |\n      The network fits on one GPU and the goal is higher throughput on a large\n      dataset.\n", "")
CI_VARIABLES = ("GITHUB_ACTIONS", "GITHUB_REPOSITORY", "GITHUB_SHA", "GITHUB_SERVER_URL", "CI_PROJECT_URL", "CI_COMMIT_SHA")


@pytest.fixture(autouse=True)
def no_ci(monkeypatch):
    """Tests run under GitHub Actions too: start each one from a plain terminal's environment."""
    for name in CI_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def make_project(root, *edits, broken=False):
    """A project in `root` with the sample exam, one clean question and one edited copy."""
    folder = root / "bank" / "mla-c01" / "model-development"
    folder.mkdir(parents=True)
    (root / "bank" / "exams").mkdir()
    shutil.copy(BANK / "exams" / "mla-c01.yaml", root / "bank" / "exams")
    (folder / "good.yaml").write_text(standalone_sample(), encoding="utf-8")
    text = standalone_sample().replace("id: mla-c01-dev-layer-split-gpus", "id: mla-c01-dev-edited")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    if edits:
        (folder / "edited.yaml").write_text(text, encoding="utf-8")
    if broken:
        (folder / "broken.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    # the edited file is a deliberate near-copy of good.yaml; near-duplicates are not under test here
    (root / "qlint.toml").write_text('ignore = ["near-duplicate"]\n', encoding="utf-8")
    return folder


SCENARIOS = {  # name -> (edits, broken, exit code with the default --fail-on warning)
    "clean": ((), False, 0),
    "warnings": ((WITHOUT_RIGHT_WHEN,), False, 1),
    "findings": ((WITH_KEY_COUNT,), False, 1),
    "syntax-error": ((), True, 2),
}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(params=sorted(SCENARIOS))
def scenario(request, tmp_path, monkeypatch):
    edits, broken, expected = SCENARIOS[request.param]
    make_project(tmp_path, *edits, broken=broken)
    monkeypatch.chdir(tmp_path)
    return request.param, expected


def test_exit_codes_are_the_same_for_every_format(capsys, scenario, tmp_path):
    name, expected = scenario
    for fmt in REPORTERS.names():
        assert run(capsys, "check", "--output-format", fmt)[0] == expected, (name, fmt)
        out_file = tmp_path / f"report.{fmt}"
        assert run(capsys, "check", "--output-format", fmt, "--output-file", str(out_file))[0] == expected, (name, fmt)
        assert out_file.stat().st_size > 0
        fail_on_error = 0 if name == "warnings" else expected
        assert run(capsys, "check", "--output-format", fmt, "--fail-on", "error")[0] == fail_on_error, (name, fmt)


def test_every_sarif_report_validates(capsys, scenario, tmp_path):
    name, expected = scenario
    out_file = tmp_path / "qlint.sarif"
    run(capsys, "check", "--output-format", "sarif", "--output-file", str(out_file))
    doc = json.loads(out_file.read_text(encoding="utf-8"))
    assert_valid_sarif(doc)
    (run_,) = doc["runs"]
    assert run_["invocations"][0] == {"executionSuccessful": expected != 2, "exitCode": expected}
    codes = {r["ruleId"] for r in run_["results"]}
    assert {"clean": set(), "warnings": {"K005"}, "findings": {"K002", "K003"}, "syntax-error": {"Y001"}}[name] <= codes
    assert bool(codes) == (name != "clean")
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run_["results"]}
    assert all(u.startswith("bank/mla-c01/model-development/") for u in uris), uris


def test_json_report_validates(capsys, scenario, tmp_path):
    name, expected = scenario
    code, out, _ = run(capsys, "check", "--output-format", "json")
    doc = json.loads(out)
    assert not schema_errors(report_validator(), doc)
    assert doc["summary"]["exit_code"] == code == expected
    assert doc["summary"]["files_checked"] == (2 if name == "clean" else 3)  # exam, good, edited or broken


def test_sample_bank_sarif_is_valid_and_clean(capsys, in_repo, tmp_path):
    out_file = tmp_path / "bank.sarif"
    code, out, _ = run(capsys, "check", "--output-format", "sarif", "--output-file", str(out_file))
    assert code == 0 and out.startswith("All checks passed")
    doc = json.loads(out_file.read_text(encoding="utf-8"))
    assert_valid_sarif(doc)
    assert doc["runs"][0]["results"] == [] and doc["runs"][0]["invocations"][0]["executionSuccessful"] is True


def test_output_file_keeps_the_text_report_on_the_terminal(capsys, tmp_path, monkeypatch):
    make_project(tmp_path, WITH_KEY_COUNT)
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "reports" / "deep" / "qlint.sarif"  # missing folders are created
    code, out, err = run(capsys, "check", "--output-format", "sarif", "--output-file", str(target))
    assert code == 1 and not err
    lines = out.splitlines()
    assert all(LINE.match(line) for line in lines[:-1]) and lines[-1].startswith("Found ")
    assert len(json.loads(target.read_text(encoding="utf-8"))["runs"][0]["results"]) == len(lines) - 1


def test_output_file_replaces_an_existing_report(capsys, tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "report.json"
    target.write_text("old report, much longer than the new one " * 100, encoding="utf-8")
    os.chmod(target, 0o640)
    assert run(capsys, "check", "--output-format", "json", "--output-file", str(target))[0] == 0
    assert json.loads(target.read_text(encoding="utf-8"))["summary"]["problems"] == 0
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir() if "qlint-tmp" in p.name] == []


def test_unwritable_output_file_exits_2_with_a_message(capsys, tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "check", "--output-format", "json", "--output-file", str(tmp_path / "bank"))
    assert code == 2 and "cannot write the report to" in err and "Traceback" not in err
    assert out.startswith("All checks passed")  # the terminal report is not lost


@pytest.mark.parametrize("where", ["flag", "config"])
def test_unknown_format_exits_2(capsys, tmp_path, monkeypatch, where):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    if where == "config":
        (tmp_path / "qlint.toml").write_text('output-format = "sariff"\n', encoding="utf-8")
    code, out, err = run(capsys, "check", *(["--output-format", "sariff"] if where == "flag" else []))
    assert code == 2 and not out and "unknown output format 'sariff'" in err and "sarif" in err


def test_output_format_from_the_config(capsys, tmp_path, monkeypatch):
    make_project(tmp_path, WITH_KEY_COUNT)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "qlint.toml").write_text('output-format = "gitlab"\n', encoding="utf-8")
    code, out, _ = run(capsys, "check")
    assert code == 1 and json.loads(out)[0]["check_name"]
    code, out, _ = run(capsys, "check", "--output-format", "text")  # the command line wins
    assert code == 1 and LINE.match(out.splitlines()[0])


def test_github_actions_gets_annotations_unless_a_format_is_named(capsys, tmp_path, monkeypatch):
    make_project(tmp_path, WITH_KEY_COUNT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    code, out, _ = run(capsys, "check")
    assert code == 1 and out.startswith("::error file=bank/mla-c01/model-development/edited.yaml,line=")
    code, out, _ = run(capsys, "check", "--output-format", "text")
    assert code == 1 and LINE.match(out.splitlines()[0])
    (tmp_path / "qlint.toml").write_text('output-format = "json"\n', encoding="utf-8")
    code, out, _ = run(capsys, "check")
    assert code == 1 and json.loads(out)["format"] == 1


def test_choose_formats():
    actions = {"GITHUB_ACTIONS": "true"}
    assert choose_formats("", None, {}) == ("text", None)
    assert choose_formats("", None, actions) == ("github", None)
    assert choose_formats("sarif", None, actions) == ("sarif", None)
    assert choose_formats("sarif", "x.sarif", actions) == ("text", "sarif")
    assert choose_formats("", "x.txt", actions) == ("github", "text")
    assert choose_formats("", None, {"GITHUB_ACTIONS": "false"}) == ("text", None)
    with pytest.raises(ValueError, match="unknown output format"):
        choose_formats("xml", None, {})


def test_fingerprints_survive_inserted_lines(capsys, tmp_path, monkeypatch):
    folder = make_project(tmp_path, WITH_KEY_COUNT)
    monkeypatch.chdir(tmp_path)

    def results():
        run(capsys, "check", "--output-format", "sarif", "--output-file", "out.sarif")
        doc = json.loads((tmp_path / "out.sarif").read_text(encoding="utf-8"))
        return [(r["partialFingerprints"]["qlint/v1"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
                for r in doc["runs"][0]["results"]]

    before = results()
    edited = folder / "edited.yaml"
    edited.write_text("# a new comment\n# and another\n" + edited.read_text(encoding="utf-8"), encoding="utf-8")
    after = results()
    assert before and [fp for fp, _ in after] == [fp for fp, _ in before]
    assert [line for _, line in after] == [line + 2 for _, line in before]


def test_sarif_paths_are_relative_to_the_repository_root(capsys, tmp_path, monkeypatch):
    make_project(tmp_path, WITH_KEY_COUNT)
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path / "bank" / "mla-c01")
    run(capsys, "check", "--output-format", "sarif", "--output-file", "out.sarif", "model-development")
    (run_,) = json.loads((tmp_path / "bank" / "mla-c01" / "out.sarif").read_text(encoding="utf-8"))["runs"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run_["results"]}
    assert uris == {"bank/mla-c01/model-development/edited.yaml"}
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.resolve().as_uri() + "/"


def test_format_and_check_name_one_file_alike_in_sarif_from_a_subfolder(capsys, tmp_path, monkeypatch):
    """Every command builds its report context one way: `qlint format`'s SARIF named
    `mla-c01/x/bad.yaml` (relative to the working folder) where `qlint check` named
    `bank/mla-c01/x/bad.yaml` (relative to the repository root)."""
    make_project(tmp_path)
    (tmp_path / ".git").mkdir()
    bad = tmp_path / "bank" / "mla-c01" / "x" / "bad.yaml"
    bad.parent.mkdir()
    bad.write_text("id: [unclosed\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "bank")
    uris = {}
    for command in (["format", "--check"], ["check"]):
        code, out, _ = run(capsys, *command, "--output-format", "sarif", "mla-c01/x/bad.yaml")
        assert code in (1, 2), command
        (run_,) = json.loads(out)["runs"]
        uris[command[0]] = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run_["results"]}
        assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.resolve().as_uri() + "/"
    assert uris["format"] == uris["check"] == {"bank/mla-c01/x/bad.yaml"}


def test_markdown_shows_whole_bank_figures_for_one_file(capsys, in_repo, monkeypatch):
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.example")
    monkeypatch.setenv("GITHUB_REPOSITORY", "org/bank")
    monkeypatch.setenv("GITHUB_SHA", "abc123")
    code, out, _ = run(capsys, "check", "--output-format", "markdown", str(GOOD.relative_to(REPO)))
    assert code == 0 and "All checks passed (1 file checked)." in out
    assert "| 4 | 16 | A 4 · B 4 · C 4 · D 4 |" in out  # 16 single-answer questions: the whole bank
    assert re.search(r"\| MLA-C01 \| Data Preparation .*\(data-preparation\) \| 28% \| 6 \| 21\.4% \|", out), out  # every item type counts


def test_markdown_links_point_at_the_checked_commit(capsys, tmp_path, monkeypatch):
    make_project(tmp_path, WITH_KEY_COUNT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CI_PROJECT_URL", "https://gitlab.example/group/bank")
    monkeypatch.setenv("CI_COMMIT_SHA", "f00d")
    _, out, _ = run(capsys, "check", "--output-format", "markdown")
    assert "](https://gitlab.example/group/bank/-/blob/f00d/bank/mla-c01/model-development/edited.yaml#L" in out


def test_bank_figures_are_computed_only_for_formats_that_show_them(capsys, tmp_path, monkeypatch):
    import qlint.cli.commands.check as check

    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)

    def refuse(*_):
        raise AssertionError("bank figures computed for a format that does not show them")

    monkeypatch.setattr(check, "bank_figures", refuse)
    for fmt in REPORTERS.names():
        if fmt != "markdown":
            assert run(capsys, "check", "--output-format", fmt)[0] == 0, fmt
    assert run(capsys, "check", "--output-format", "markdown")[0] == 2  # the refusal, reported as internal error
