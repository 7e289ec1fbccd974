"""Unicode that cannot hide anything (issue 18 point 5) and option data no export may carry
(issue 12 point 5): look-alike letters, invisible characters and NFC/NFD variants are compared
as a reader sees them; a duplicate option id, an empty option or a repeated option is an error
and is refused by every exporter, even with the rule ignored."""

from __future__ import annotations

import re
import shutil
import unicodedata
from pathlib import Path

import pytest

from conftest import BANK
from kit.export import load_bank, export, refused, sample_question, write_question
from qlint.bank import Bank
from qlint.bank.entry import BankEntry
from qlint.cli import main
from qlint.rules.context import RuleContext
from qlint.lint.engine import check_file, load_exams, make_settings
from qlint.model import Question
from qlint.exporters import EXPORTERS
from qlint.cli.config import load_config
from qlint.rules import RULES
from qlint.text import HIDDEN, _LOOKALIKES, same_text, skeleton

from conftest import REPO


# --- the skeleton ------------------------------------------------------------------------------

def test_skeleton_folds_what_a_reader_cannot_tell_apart():
    assert skeleton("Amazon \u0405" + "3") == "Amazon S3"  # Cyrillic DZE
    assert skeleton("caf" + "e\u0301") == skeleton("caf\u00e9") == "caf\u00e9"  # NFD and NFC
    assert skeleton("q\u20101") == skeleton("\uff51\uff0d\uff11") == "q-1"  # U+2010, fullwidth
    assert skeleton("TO\u200bDO") == skeleton("\u0422ODO") == "TODO"
    assert skeleton("\u041e\u0440\u0435n") == "Open"


def test_ascii_is_its_own_skeleton_and_visible_text_stays():
    text = "Which 3 options? Use `S3` -- not EFS; l1 O0 rn."
    assert skeleton(text) is text
    assert skeleton("\u05e9\u05dc\u05d5\u05dd \u4f60\u597d \u00fcber") == "\u05e9\u05dc\u05d5\u05dd \u4f60\u597d \u00fcber"


def test_lookalike_table_has_no_dead_entries():
    # the table applies after NFKC: an entry NFKC changes would never be met
    for ch, latin in _LOOKALIKES.items():
        assert not ch.isascii() and latin.isascii()
        assert unicodedata.normalize("NFKC", ch) == ch, unicodedata.name(ch)


def test_every_invisible_format_character_is_hidden():
    visible_cf = {*range(0x600, 0x606), 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD}  # drawn number signs
    for cp in range(0x110000):
        if unicodedata.category(chr(cp)) == "Cf" and cp not in visible_cf:
            assert HIDDEN.match(chr(cp)), f"U+{cp:04X}"
    for cp in (0x115F, 0x1160, 0x3164, 0xFFA0, 0x00AD, 0x180E, 0xE0041):
        assert HIDDEN.match(chr(cp))


# --- rules on folded text -----------------------------------------------------------------------

def _check(tmp_path: Path, data: dict, *codes: str) -> list[str]:
    settings = make_settings(load_config(REPO), select=list(codes))
    load_exams(settings)
    path = write_question(tmp_path, data, "q.yaml")
    return [f"{d.line}:{d.col} {d.code}" for d in check_file(str(path), settings).diagnostics]


def _with_texts(*texts: str) -> dict:
    options = sample_question()["options"]
    for o, t in zip(options, texts):
        o["text"] = t
    return sample_question(options=options)


@pytest.mark.parametrize("a, b", [
    ("Amazon S3", "Amazon \u04053"),  # Cyrillic DZE
    ("Caf\u00e9 storage", "Cafe\u0301 storage"),  # NFC / NFD
    ("Amazon S3", "Amazon\u200b S3"),  # zero-width space
    ("Amazon S3", "\uff21mazon S3"),  # fullwidth A
])
def test_options_equal_on_screen_are_duplicates(tmp_path, a, b):
    found = _check(tmp_path, _with_texts("Data parallelism", a, b), "O006")
    assert [f.split()[1] for f in found] == ["O006"]


def test_different_options_are_not_duplicates(tmp_path):
    assert _check(tmp_path, _with_texts("-1", "1", "1.5"), "O006") == []
    assert same_text("Amazon S3") == same_text("amazon  s3.") != same_text("Amazon S3 Glacier")


def _entry(tmp_path: Path, qid: str, name: str) -> BankEntry:
    data = sample_question(id=qid, related=None)
    return BankEntry.of(str(write_question(tmp_path, data, name)), data, 8)


@pytest.mark.parametrize("other", ["q-01\u2010x", "\uff51-01-x", "q-01-\u0445"])  # U+2010, fullwidth q, Cyrillic x
def test_duplicate_id_compares_ids_as_a_reader_sees_them(tmp_path, other):
    entries = [_entry(tmp_path, "q-01-x", "a.yaml"), _entry(tmp_path, other, "b.yaml")]
    bank = Bank(entries, {}, set(), [True, True])
    settings = make_settings(load_config(REPO))
    found = list(RULES.get("B001").check(bank, RuleContext(RULES.get("B001"), settings.config, {}, bank)))
    assert len(found) == 2 and "b.yaml (as" in found[0].message


# --- data correctness: rules and the export gate ---------------------------------------------

def _duplicate_id() -> dict:
    options = sample_question()["options"]
    options[2]["id"] = "data-parallel"
    return sample_question(options=options)


def _empty_text() -> dict:
    return _with_texts("Data parallelism", "Model parallelism", " \u200b ")


def _same_text() -> dict:
    return _with_texts("Model parallelism", "Model \u0440arallelism", "Hyperparameter tuning")  # Cyrillic er


def _fixture(name: str, **changes) -> dict:
    """An ordering or matching question of tests/fixtures/types, as the sample question's file."""
    import yaml

    data = yaml.safe_load((REPO / "tests" / "fixtures" / "types" / name).read_text(encoding="utf-8"))
    data.update(id=sample_question()["id"], domain="model-development", **changes)
    return data


def _duplicate_step_id() -> dict:
    steps = _fixture("ordering.yaml")["steps"]
    steps[2]["id"] = steps[0]["id"]
    return _fixture("ordering.yaml", steps=steps)


def _same_response_text() -> dict:
    responses = _fixture("matching.yaml")["responses"]
    responses[4]["text"] = "SageMaker  clarify"
    return _fixture("matching.yaml", responses=responses)


def _unknown_match() -> dict:
    prompts = _fixture("matching.yaml")["prompts"]
    prompts[1]["match"] = "clarfy"
    return _fixture("matching.yaml", prompts=prompts)


BAD = {"S005": _duplicate_id, "S006": _empty_text, "O006": _same_text,
       "P004": _duplicate_step_id, "P005": _same_response_text, "P006": _unknown_match}
FIELD = {"S005": "id:", "P004": "id:", "P006": "match:"}  # the line each finding names (else text:)


@pytest.mark.parametrize("code", sorted(BAD))
def test_data_errors_are_lint_errors(tmp_path, code):
    found = _check(tmp_path, BAD[code](), code)
    assert len(found) == 1 and found[0].endswith(code)
    assert RULES.get(code).severity.name == "ERROR"


@pytest.mark.parametrize("text", ["", " ", "***", "[](https://x.example)", "---", "` `", "&#8203;", "\u00ad\u2060"])
def test_option_text_that_renders_to_nothing_is_empty(tmp_path, text):
    options = sample_question()["options"]
    options[0]["text"] = text or "\t"
    assert [f.split()[1] for f in _check(tmp_path, sample_question(options=options), "S006")] == ["S006"]


@pytest.mark.parametrize("text", ["?", "0", "![diagram](https://x.example/a.png)", "N/A", "\u4f60\u597d"])
def test_short_visible_option_text_is_not_empty(tmp_path, text):
    options = sample_question()["options"]
    options[0]["text"] = text
    assert _check(tmp_path, sample_question(options=options), "S006") == []


@pytest.mark.parametrize("fmt", sorted(EXPORTERS.names()))
@pytest.mark.parametrize("code", sorted(BAD))
def test_every_exporter_refuses_option_data_errors(tmp_path, fmt, code):
    folder = tmp_path / "bank" / "mla-c01" / "model-development"
    path = write_question(folder, BAD[code]())
    shutil.copytree(BANK / "exams", tmp_path / "bank" / "exams")
    _, exams = load_bank(tmp_path / "bank")
    questions = [Question(str(path), BAD[code]())]  # (load_bank leaves ordering and matching out)
    out = tmp_path / "out" / "export"
    with refused(rf"mla-c01-dev-sample\.yaml:\d+:\d+: .*\({code}\)"):
        export(fmt, questions, exams, tmp_path / "bank", out)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("code", sorted(BAD))
def test_export_refuses_even_with_the_rule_ignored(tmp_path, monkeypatch, capsys, code):
    project = tmp_path / "proj"
    path = write_question(project / "bank" / "mla-c01" / "model-development", BAD[code]())
    shutil.copytree(BANK / "exams", project / "bank" / "exams")
    (project / "qlint.toml").write_text(f'bank = "bank"\nignore = ["{code}"]\n', encoding="utf-8")
    monkeypatch.chdir(project)
    out = tmp_path / "site"
    assert main(["export", "-f", "html", "-o", str(out), "--force"]) == 2
    err = capsys.readouterr().err
    found = re.search(r"mla-c01-dev-sample\.yaml:(\d+):(\d+): .*\(" + code + r"\)", err)
    assert found, err
    line = path.read_text(encoding="utf-8").splitlines()[int(found.group(1)) - 1]
    assert FIELD.get(code, "text:") in line
    assert "Traceback" not in err and not out.exists()
