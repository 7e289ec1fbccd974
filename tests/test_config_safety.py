"""A repository's configuration is as untrusted as its questions (it comes with a pull request):
every configured path stays inside the project, links resolved, and every number is range-checked.
A mistake is a configuration error naming the file, line:col and key, exit 2; nothing is read or
written on the strength of a bad setting. Paths given on the command line stay the user's choice."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from qlint.cli import main

COMPOSE = "services:\n  web:   # the web\n    image:    nginx\n    environment:\n      TOKEN: ghp_0123456789abcdefSECRET\n"


def _project(tmp_path: Path, toml: str) -> tuple[Path, Path]:
    """A project with `toml` as its qlint.toml and, beside it, a folder of someone's files."""
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    (home / "docker-compose.yaml").write_text(COMPOSE, encoding="utf-8")
    (project / "bank").mkdir(parents=True)
    (project / "qlint.toml").write_text(toml, encoding="utf-8")
    return project, home


@pytest.mark.parametrize("toml, key", [
    ('bank = "../home"\n', "bank"),
    ('select = ["K001"]\nbank = "BANK"\n', "bank"),  # absolute
    ('exams = "../home"\n', "exams"),
    ('bank = "bank"\nexams = "bank/../../home"\n', "exams"),
])
@pytest.mark.parametrize("command", [["format"], ["check"], ["check", "--fix"], ["shuffle", "--seed", "1"],
                                     ["export", "-f", "json", "-o", "OUT"]])
def test_a_configured_path_out_of_the_project_stops_the_run(tmp_path, monkeypatch, capsys, toml, key, command):
    project, home = _project(tmp_path, toml.replace("BANK", str(tmp_path / "home")))
    monkeypatch.chdir(project)
    code = main([str(tmp_path / "out.json") if a == "OUT" else a for a in command])
    captured = capsys.readouterr()
    assert code == 2, captured
    line = 2 if toml.startswith(("select", "bank = \"bank\"")) else 1
    assert f"qlint.toml:{line}:1: {key}: " in captured.err and "outside the project" in captured.err
    assert (home / "docker-compose.yaml").read_text(encoding="utf-8") == COMPOSE  # not reformatted
    assert "SECRET" not in captured.out + captured.err and "docker-compose" not in captured.out + captured.err
    assert not (tmp_path / "out.json").exists()


def test_a_symlinked_folder_in_the_project_that_leads_out_counts_as_outside(tmp_path, monkeypatch, capsys):
    project, home = _project(tmp_path, 'bank = "questions"\n')
    (project / "questions").symlink_to(home, target_is_directory=True)
    monkeypatch.chdir(project)
    assert main(["check", "--output-format", "sarif", "--output-file", str(tmp_path / "r.sarif")]) == 2
    captured = capsys.readouterr()
    assert "qlint.toml:1:1: bank: 'questions' leads outside the project" in captured.err
    assert "SECRET" not in captured.out + captured.err and not (tmp_path / "r.sarif").exists()
    assert main(["format"]) == 2 and (home / "docker-compose.yaml").read_text(encoding="utf-8") == COMPOSE


def test_the_pyproject_table_is_named_with_its_position(tmp_path, monkeypatch, capsys):
    project, _home = _project(tmp_path, "")
    (project / "qlint.toml").unlink()
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.qlint]\n  exams = "../home"\n', encoding="utf-8")
    monkeypatch.chdir(project)
    assert main(["check"]) == 2
    assert "pyproject.toml:5:3: tool.qlint.exams: '../home' leads outside the project" in capsys.readouterr().err


def test_paths_inside_the_project_and_paths_given_on_the_command_line_are_allowed(tmp_path, monkeypatch, capsys):
    project, home = _project(tmp_path, 'bank = "./bank/../bank"\nexams = "bank/exams"\n')
    (project / "bank" / "exams").mkdir()
    monkeypatch.chdir(project)
    assert main(["format", "--check"]) == 0
    capsys.readouterr()
    # the user names the outside file themselves: their choice, checked like any file
    assert main(["check", str(home / "docker-compose.yaml")]) == 1
    assert "docker-compose.yaml:1:1: S001" in capsys.readouterr().out


def test_another_projects_configuration_cannot_place_its_bank_outside_it(tmp_path, monkeypatch, capsys):
    """`qlint check ../other/bank/q.yaml`: the other project's qlint.toml names its bank; a bank
    placed outside that project is no bank (the bank rules would read that folder)."""
    project, home = _project(tmp_path, 'bank = "bank"\n')
    other = tmp_path / "other"
    (other / "bank").mkdir(parents=True)
    (other / "qlint.toml").write_text(f'bank = "{tmp_path}"\n', encoding="utf-8")
    from qlint.cli.config import load_config
    from qlint.project.banks import bank_of

    monkeypatch.chdir(project)
    config = load_config()
    assert bank_of(config, str(other / "bank" / "q.yaml")) is None
    assert os.path.isdir(home)


# --- numbers: every rule option and every numeric setting is range-checked ---------------------

def _config_errors(tmp_path: Path, toml: str) -> list[str]:
    (tmp_path / "qlint.toml").write_text(toml, encoding="utf-8")
    from qlint.cli.config import load_config
    from qlint.project.config import ConfigError

    with pytest.raises(ConfigError) as exc:
        load_config(tmp_path)
    return str(exc.value).splitlines()


def test_a_huge_ngram_and_nan_are_configuration_errors_naming_file_key_and_range(tmp_path, monkeypatch, capsys):
    """`[rules.B007] ngram = 10000000` ran for minutes past 1 GB; `warn-at = nan` was an internal error."""
    (tmp_path / "bank").mkdir()
    (tmp_path / "qlint.toml").write_text("[rules.B007]\nngram = 10000000\n[rules.near-duplicate]\nwarn-at = nan\n"
                                         "error-at = inf\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["qlint: error: qlint.toml:2:1: rules.B007.ngram: 10000000 is out of range: allowed 3 to 50 (default 8)",
                   "qlint: error: qlint.toml:4:1: rules.near-duplicate.warn-at: nan is out of range: allowed 0.2 to 1 (default 0.5)",
                   "qlint: error: qlint.toml:5:1: rules.near-duplicate.error-at: inf is out of range: allowed 0.2 to 1 (default 0.8)"]


def _numeric_options():
    from qlint.rules import RULES

    return [(code, name, option) for code, r in RULES.items() for name, option in r.options.items()
            if isinstance(option.default, (int, float)) and not isinstance(option.default, bool)]


def test_every_numeric_rule_option_declares_bounds_around_its_default():
    from qlint.rules import Option, rule

    options = _numeric_options()
    assert len(options) >= 30
    assert all(o.min is not None and o.max is not None and o.min <= o.default <= o.max for _c, _n, o in options)
    with pytest.raises(ValueError, match="needs bounds"):
        rule("Z999", "unbounded", "warning", options={"n": Option(3, "no bounds")})(lambda q, ctx: iter(()))


@pytest.mark.parametrize("code, name, option", _numeric_options(), ids=lambda v: v if isinstance(v, str) else "")
def test_each_numeric_rule_option_refuses_values_outside_its_bounds(tmp_path, monkeypatch, code, name, option):
    monkeypatch.chdir(tmp_path)
    step = 1 if isinstance(option.default, int) else 0.001
    for value in (option.max + step, option.min - step) + (() if isinstance(option.default, int) else ("nan", "-inf")):
        lines = _config_errors(tmp_path, f"[rules.{code}]\n{name} = {value}\n")
        assert lines[0].startswith(f"qlint.toml:2:1: rules.{code}.{name}: "), lines
        assert f"allowed {option.min:g} to {option.max:g}" in lines[0] or "expected" in lines[0], lines
    # the bounds themselves are allowed
    for value in (option.min, option.max):
        (tmp_path / "qlint.toml").write_text(f"[rules.{code}]\n{name} = {value!r}\n", encoding="utf-8")
        from qlint.cli.config import load_config

        assert load_config(tmp_path).rules[code][name] == value


@pytest.mark.parametrize("toml, message", [
    ('[rules.O009]\nterms = ["always", 3]\n', "qlint.toml:2:1: rules.O009.terms: each entry must be a word or phrase"),
    ('[rules.O009]\nterms = [""]\n', "qlint.toml:2:1: rules.O009.terms: each entry must be a word or phrase"),
    ('[rules.T001]\nwords = ["' + "x" * 101 + '"]\n', "qlint.toml:2:1: rules.T001.words: each entry must be"),
    ('[rules.O010]\nterms = ' + str(["w"] * 1001).replace("'", '"') + "\n", "rules.O010.terms: at most 1000 entries, got 1001"),
    ('[rules.O012]\ntypes = { service = "s3" }\n', "qlint.toml:2:1: rules.O012.types: 'service': expected a list of words"),
    ('[rules.O012]\ntypes = { service = [1] }\n', "rules.O012.types: 'service': each entry must be a word or phrase"),
    ("[limits]\nmax-nodes = 100000000000\n", "qlint.toml:2:1: limits.max-nodes: 'max-nodes': 100000000000 is out of range"),
    ("[limits]\nmax-file-bytes = 1000000000000\n", "qlint.toml:2:1: limits.max-file-bytes:"),
    ("[limits]\nmax-depth = 100000\n", "qlint.toml:2:1: limits.max-depth:"),
    ("[format]\nwidth = nan\n", "qlint.toml:2:1: format.width:"),
])
def test_word_lists_tables_and_limits_are_bounded(tmp_path, monkeypatch, toml, message):
    monkeypatch.chdir(tmp_path)
    lines = _config_errors(tmp_path, toml)
    assert any(message in line for line in lines), lines
