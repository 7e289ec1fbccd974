"""Configuration: found by searching upward, validated against schema/config.schema.json and
against the rules qlint knows; every mistake names the file and the key; exit 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from qlint.cli import main
from qlint.rules.context import RuleContext
from qlint.lint.engine import make_settings
from qlint.project.config import ConfigError
from qlint.cli.config import load_config
from qlint.rules import RULES

from conftest import REPO

SAMPLE = REPO / "bank" / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml"


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder / name


def errors(tmp_path: Path, toml: str, name: str = "qlint.toml") -> list[str]:
    write(tmp_path, name, toml)
    with pytest.raises(ConfigError) as exc:
        load_config(tmp_path)
    return str(exc.value).splitlines()


def test_schema_is_valid_draft_2020_12():
    schema = json.loads((REPO / "schema" / "config.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)


def test_found_by_searching_upward(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.qlint]\nignore = ["K005"]\n')
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    config = load_config(deep)
    assert config.source == tmp_path / "pyproject.toml" and config.ignore == ("K005",) and config.root == tmp_path


def test_pyproject_without_a_qlint_table_is_skipped_and_qlint_toml_wins(tmp_path):
    write(tmp_path, "qlint.toml", 'ignore = ["K003"]\n')
    write(tmp_path / "sub", "pyproject.toml", "[project]\nname = 'x'\n")
    assert load_config(tmp_path / "sub").ignore == ("K003",)
    write(tmp_path, "pyproject.toml", '[tool.qlint]\nignore = ["K005"]\n')
    assert load_config(tmp_path).ignore == ("K003",)  # qlint.toml is looked for first in a folder


def test_a_sound_configuration_loads(tmp_path):
    write(tmp_path, "qlint.toml", """
bank = "questions"
exams = "questions/exams"
select = ["K", "B"]
extend-select = ["S"]
ignore = ["key-count"]
per-file-ignores = { "questions/drafts/*" = ["K005", "near-duplicate"] }
severity = { K005 = "error", B = "info" }
output-format = "text"
[rules.K001]
min-words = 6
[rules.near-duplicate]
warn-at = 0.6
[limits]
max-file-bytes = 200000
""")
    config = load_config(tmp_path)
    assert config.rules == {"K001": {"min-words": 6}, "B006": {"warn-at": 0.6}}
    assert config.limits.max_file_bytes == 200000 and config.bank_dir == tmp_path / "questions"
    settings = make_settings(config)
    assert "K002" not in settings.selection.enabled and "S001" in settings.selection.enabled
    assert str(settings.selection.severity_of(RULES.get("B001"))) == "info"
    assert RuleContext(RULES.get("B006"), config, {}).option("warn-at") == 0.6


@pytest.mark.parametrize("toml, expected", [
    ('selct = ["K001"]', "qlint.toml:1:1: selct: unknown field 'selct'; did you mean 'select'?"),
    ('select = "K001"', "qlint.toml:1:1: select: 'select': expected a list, got string 'K001'"),
    ('select = ["K0001"]', "qlint.toml:1:1: select[0]: unknown rule 'K0001'; did you mean 'K001'?"),
    ('ignore = ["key-cont"]', "qlint.toml:1:1: ignore[0]: unknown rule 'key-cont'; did you mean 'key-count'?"),
    ('per-file-ignores = { "drafts/*" = ["K9"] }', 'qlint.toml:1:1: per-file-ignores."drafts/*"[0]: unknown rule'),
    ('severity = { K005 = "fatal" }', "qlint.toml:1:1: severity.K005: 'K005': expected one of error, warning, info"),
    ('severity = { B10 = "info" }', "qlint.toml:1:1: severity.B10: unknown rule 'B10'"),
    ("[rules.K0001]\nmin-words = 3", "qlint.toml:1:1: rules.K0001: unknown rule 'K0001'; did you mean 'K001'?"),  # K01 now suggests K011
    ("[rules.K001]\nmin-word = 3", "qlint.toml:2:1: rules.K001.min-word: K001 has no option 'min-word'; did you mean "
                                   "'min-words'? its options: min-words"),
    ("[rules.K002]\nx = 3", "qlint.toml:2:1: rules.K002.x: K002 (key-count) has no options"),
    ('[rules.K001]\nmin-words = "six"', "qlint.toml:2:1: rules.K001.min-words: expected an integer (default 4), got 'six'"),
    ("[rules.B006]\nwarn-at = true", "qlint.toml:2:1: rules.B006.warn-at: expected a number (default 0.5), got True"),
    ('output-format = "jsn"', "qlint.toml:1:1: output-format: unknown output format 'jsn'"),
    ("[limits]\nmax-depth = 0", "qlint.toml:2:1: limits.max-depth: 'max-depth': 0 is out of range"),
    ("[limits]\nmax-dept = 3", "qlint.toml:2:1: limits.max-dept: unknown field 'max-dept'; did you mean 'max-depth'?"),
])
def test_each_mistake_names_file_and_key(tmp_path, monkeypatch, toml, expected):
    monkeypatch.chdir(tmp_path)
    lines = errors(tmp_path, toml + "\n")
    assert any(line.startswith(expected) for line in lines), lines


def test_every_mistake_is_reported_at_once_with_the_pyproject_table_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = errors(tmp_path, '[tool.qlint]\nselect = ["K0001"]\nignore = ["Z"]\n', "pyproject.toml")
    assert [ln.split(": ")[1] for ln in lines] == ["tool.qlint.select[0]", "tool.qlint.ignore[0]"]


def test_unreadable_toml_is_a_config_error(tmp_path):
    assert "cannot read configuration" in errors(tmp_path, "select = [\n")[0]


def test_cli_exits_2_with_one_line_per_mistake(tmp_path, monkeypatch, capsys):
    write(tmp_path, "qlint.toml", 'select = ["K0001"]\n[rules.K001]\nmin-word = 1\n')
    monkeypatch.chdir(tmp_path)
    code = main(["check", str(SAMPLE)])
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and len(err) == 2 and all(ln.startswith("qlint: error: qlint.toml:") for ln in err), err


def test_rule_options_severity_and_per_file_ignores_apply(tmp_path, monkeypatch, capsys):
    text = SAMPLE.read_text(encoding="utf-8").replace("id: mla-c01-dev-layer-split-gpus", "id: copy-of-layer-split")
    write(tmp_path / "bank", "q.yaml", text)
    write(tmp_path / "bank" / "drafts", "q.yaml", text.replace("copy-of-layer-split", "draft-layer-split"))
    monkeypatch.chdir(tmp_path)
    shutil.copytree(REPO / "bank" / "exams", tmp_path / "exams")  # configured paths stay in the project
    exams = 'exams = "exams"\nselect = ["K001"]\n'
    write(tmp_path, "qlint.toml", exams)
    assert main(["check", "bank/q.yaml"]) == 0
    capsys.readouterr()
    # 40 words is more than the shortest rationale in the sample, so K001 now fires
    write(tmp_path, "qlint.toml", exams + 'severity = { K001 = "info" }\n'
          'per-file-ignores = { "bank/drafts/*" = ["option-rationale"] }\n[rules.option-rationale]\nmin-words = 40\n')
    assert main(["check", "bank"]) == 0  # info does not fail the default --fail-on warning
    out = capsys.readouterr().out
    assert "bank/q.yaml:" in out and "K001" in out and "drafts" not in out
    assert main(["check", "bank", "--fail-on", "info"]) == 1


def test_the_documented_example_is_valid(tmp_path):
    doc = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    write(tmp_path, "pyproject.toml", example)
    config = load_config(tmp_path)
    assert config.rules["B006"] == {"warn-at": 0.6, "error-at": 0.85} and config.severity
