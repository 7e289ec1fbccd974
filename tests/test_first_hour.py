"""A new user's first hour (issue 17 points 4, 8 and 10): the README's commands in the README's
order on a copy of the sample bank, the Makefile's targets, the help texts and the git setup."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from qlint.cli import build_parser
from qlint.exporters import EXPORTERS
from qlint.importers import IMPORTERS

from kit.authoring import run
from conftest import BANK, REPO, SHARED_REASON

README = (REPO / "README.md").read_text(encoding="utf-8")


@pytest.fixture
def sample(tmp_path, monkeypatch):
    """A copy of the repository's sample bank and README, as a fresh clone has them, as working directory."""
    shutil.copytree(BANK, tmp_path / "bank")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- point 4: export refuses only what it exports -----------------------------------------------

def test_new_then_export_works_and_says_what_the_filters_skipped(sample, capsys):
    code, out, err = run(capsys, "new", "--exam", "MLA-C01", "--domain", "model-development", "--type", "single")
    assert code == 0, err
    code, out, err = run(capsys, "export", "--format", "qti21", "--output", "out/bank.zip")
    assert code == 0, err  # the draft's TODOs are errors, but the draft is not exported
    # the new draft; every sample question (ordering, matching and case items too) is exported
    assert out.strip() == "Exported 28 questions as qti21 to out/bank.zip; skipped 1 by --status (draft)", out
    names = zipfile.ZipFile(sample / "out" / "bank.zip").namelist()
    assert not [n for n in names if "new-question" in n]


def test_a_new_draft_case_study_does_not_block_the_export(sample, capsys):
    # the README's authoring order: a case study, then a question of it, both drafts with TODOs
    assert run(capsys, "new", "--exam", "MLA-C01", "--domain", "deployment-orchestration", "--case-study",
               "--id", "mla-c01-case-churn")[0] == 0
    assert run(capsys, "new", "--exam", "MLA-C01", "--domain", "data-preparation", "--type", "matching",
               "--case", "mla-c01-case-churn", "--id", "mla-c01-data-churn-match")[0] == 0
    code, out, err = run(capsys, "export", "--format", "qti30", "--output", "out/bank.zip")
    assert code == 0, err  # no exported question names the draft case: its TODOs do not block
    assert out.strip() == "Exported 28 questions as qti30 to out/bank.zip; skipped 1 by --status (draft)", out
    assert not [n for n in zipfile.ZipFile(sample / "out" / "bank.zip").namelist() if "churn" in n]
    # a case an exported question names is exported with it, so its errors still block
    case = sample / "bank" / "mla-c01" / "cases" / "demand-forecast.yaml"
    case.write_text(case.read_text(encoding="utf-8").replace("scenario: |\n", "scenario: |\n  TODO\n", 1), encoding="utf-8")
    code, out, err = run(capsys, "export", "--format", "qti30", "--output", "out/bank2.zip")
    assert code == 2 and "demand-forecast.yaml:" in err and "F002" in err, err


def test_each_filter_counts_what_it_skipped(sample, capsys):
    run(capsys, "new", "--exam", "MLA-C01", "--domain", "model-development")
    code, out, err = run(capsys, "export", "--format", "json", "--output", "out/bank.json", "--domain", "data-preparation")
    assert code == 0, err
    # the draft is in model-development: the first filter that leaves it out is --domain
    assert out.strip().endswith("; skipped 23 by --domain"), out


def test_exporting_the_draft_itself_is_still_refused(sample, capsys):
    run(capsys, "new", "--exam", "MLA-C01", "--domain", "model-development")
    code, out, err = run(capsys, "export", "--format", "json", "--output", "out/d.json", "--status", "draft")
    assert code == 2 and not (sample / "out" / "d.json").exists()
    assert "new-question.yaml:" in err and "F002" in err
    assert "not exporting: the questions it exports have lint errors" in err


def _make_dry_run(target: str, tmp_path: Path) -> list[str]:
    """The commands `make TARGET` would run on a fresh machine (no .venv yet), without running them."""
    shutil.copy(REPO / "Makefile", tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    for npm in ("qti_player", "yaml_ls"):  # the lock files of the QTI player's and yaml-language-server's packages
        (tmp_path / "tests" / npm).mkdir(parents=True, exist_ok=True)
        (tmp_path / "tests" / npm / "package-lock.json").write_text("{}", encoding="utf-8")
    proc = subprocess.run(["make", "-n", target], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_check_is_not_stopped_by_warnings(tmp_path, sample):
    (tmp_path / "mk").mkdir()
    (check,) = [c for c in _make_dry_run("check", tmp_path / "mk") if re.match(r"\S*qlint check", c)]
    argv = shlex.split(check)[1:]
    question = sample / "bank" / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml"
    text = question.read_text(encoding="utf-8")
    question.write_text(text.replace("on different GPUs.\n", "on different GPUs.   \n", 1), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "qlint", *argv, "--no-cache"], cwd=sample, capture_output=True, text=True,
                          timeout=120, env=_env())
    assert "F001" in proc.stdout and "(1 warning)" in proc.stdout, proc.stdout + proc.stderr
    assert proc.returncode == 0, proc.stdout + proc.stderr


# --- point 10: each make target installs what it needs --------------------------------------------

@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize("target, wanted, unwanted", [
    ("check", "-e .", "[test"),
    ("test", "-e '.[test]'", "bench"),
    ("bench", "-e '.[test,bench]'", None),
])
def test_make_targets_install_their_own_extras(tmp_path, target, wanted, unwanted):
    commands = _make_dry_run(target, tmp_path)
    installs = [c for c in commands if "pip install" in c and "--upgrade pip" not in c]
    assert any(c.endswith(wanted) for c in installs), installs
    assert any(c.endswith("-m venv .venv") for c in commands), commands  # self-sufficient on a fresh machine
    if unwanted:
        assert not [c for c in installs if unwanted in c], installs


def test_ci_runs_the_readmes_test_command():
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    quick = re.search(r"```sh\n(.*?)```", README, re.S).group(1)
    test_command = next(line.split("#")[0].strip() for line in quick.splitlines() if "test" in line)
    assert re.search(rf"^{re.escape(test_command)}$", ci, re.M), (test_command, ci)


# --- point 8: what the README and the help texts promise ------------------------------------------

def _subparsers():
    parser = build_parser()
    (action,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    return action.choices


def test_help_texts_name_only_options_that_exist():
    commands = _subparsers()
    for name, sub in commands.items():
        texts = [sub.description or "", sub.epilog or ""] + [a.help or "" for a in sub._actions]
        for text in texts:
            for m in re.finditer(r"(?:qlint (\w+) )?(--[a-z][a-z-]*)", text):
                owner = commands.get(m.group(1) or name)
                assert owner is not None, f"qlint {name}: help names 'qlint {m.group(1)}'"
                assert m.group(2) in owner._option_string_actions, f"qlint {name}: help names {m.group(0)!r}, which does not exist"


def test_help_lists_the_real_formats():
    commands = _subparsers()
    (imp,) = [a for a in commands["import"]._actions if a.dest == "fmt"]
    assert set(re.findall(r"\w+", imp.help.split(":", 1)[1])) == set(IMPORTERS.names())
    (exp,) = [a for a in commands["export"]._actions if a.dest == "format"]
    assert set(re.findall(r"\w+", exp.help.split(":", 1)[1])) == set(EXPORTERS.names())


def test_readme_rule_count_is_the_tools():
    from qlint.rules import RULES

    (said,) = re.findall(r"^(\d+) rules in families", README, re.M)
    assert int(said) == len(RULES.names())


def test_new_header_commands_run_from_the_project_root(sample, capsys):
    code, out, err = run(capsys, "new", "--exam", "MLA-C01", "--domain", "data-preparation", "--id", "mla-c01-prep-x")
    assert code == 0, err
    path = sample / out.removeprefix("created ").strip()
    header = re.search(r"^#\s+(qlint format .*)$", path.read_text(encoding="utf-8"), re.M).group(1)
    commands = [shlex.split(c) for c in header.split("&&")]
    assert [c[:2] for c in commands] == [["qlint", "format"], ["qlint", "check"]]
    for argv in commands:
        code, out, err = run(capsys, *argv[1:])
        assert "no such file" not in out + err and code in (0, 1), out + err  # the file is found (TODOs remain)


def test_check_with_no_bank_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "check")
    assert code == 2 and out == ""
    assert "no question bank here: bank/ does not exist" in err and "run qlint in the project's root folder" in err


@pytest.mark.skipif(not (REPO / ".git").exists(), reason="not a git checkout")
def test_generated_files_are_ignored_by_git():
    for name in ("qlint.sarif", "out/bank-qti21.zip", "out/site/index.html", ".qlint_cache/x"):
        proc = subprocess.run(["git", "check-ignore", "-q", "--no-index", name], cwd=REPO, capture_output=True)
        assert proc.returncode == 0, f"{name} is not ignored by git"


def test_readme_says_where_the_shared_test_data_comes_from():
    development = README[README.index("## Development"):]
    assert "../shared" in development and "QLINT_SHARED" in development
    for part in ("schemas/", "seeds/", "corpora/"):
        assert part in development
    assert "README: Development" in SHARED_REASON  # what each skipped test says


def _env():
    import os

    return {**os.environ, "PYTHONPATH": str(REPO / "src"), "NO_COLOR": "1"}
