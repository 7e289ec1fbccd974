"""`# qlint:` comments: disable-line (same line or the next), disable/enable ranges, disable-file,
codes or names, reasons after `--`, unused and invalid directives (M001, M002), and what can
never be suppressed."""

from __future__ import annotations


import pytest

from qlint.lint.engine import lint, make_settings
from qlint.cli.config import load_config
from qlint.lint.suppression import parse

from conftest import BANK, REPO

SAMPLE = BANK / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml"
TEXT = SAMPLE.read_text(encoding="utf-8").replace("id: mla-c01-dev-layer-split-gpus", "id: suppression-case")
# Two findings to suppress: K001 on the hyperparameter option's placeholder rationale (line 36)
# and K005 on the data-parallel distractor, which loses its right_when (line 25).
FLAWED = (TEXT.replace("    rationale: |\n      Parallel tuning jobs each train a complete copy of the network with different\n"
                       "      settings; no job splits layers, so none of them fits in memory either.\n",
                       "    rationale: Incorrect.\n")
          .replace("    right_when: |\n      The network fits on one GPU and the goal is higher throughput on a large\n"
                   "      dataset.\n", ""))


def check(tmp_path, text, select=("K", "M")):
    f = tmp_path / "q.yaml"
    f.write_text(text, encoding="utf-8")
    settings = make_settings(load_config(REPO), select=list(select))
    return sorted(f"{d.line} {d.code}" for d in lint([str(f)], settings).diagnostics)


def line_of(text, needle):
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


def test_the_flawed_copy_has_two_findings(tmp_path):
    assert check(tmp_path, FLAWED) == ["25 K005", "36 K001"]
    assert line_of(FLAWED, "rationale: Incorrect.") == 36


def test_disable_line_on_the_line_by_code_or_name_with_a_reason(tmp_path):
    text = FLAWED.replace("rationale: Incorrect.", "rationale: Incorrect.  # qlint: disable-line K001 -- kept terse on purpose")
    assert check(tmp_path, text) == ["25 K005"]
    text = FLAWED.replace("rationale: Incorrect.", "rationale: Incorrect.  # qlint: disable-line option-rationale")
    assert check(tmp_path, text) == ["25 K005"]


def test_disable_line_alone_applies_to_the_next_yaml_line(tmp_path):
    text = FLAWED.replace("    rationale: Incorrect.", "    # qlint: disable-line K001\n\n    rationale: Incorrect.")
    assert check(tmp_path, text) == ["25 K005"]


def test_disable_line_names_only_its_codes(tmp_path):
    text = FLAWED.replace("rationale: Incorrect.", "rationale: Incorrect.  # qlint: disable-line K005")
    assert check(tmp_path, text) == ["25 K005", "36 K001", "36 M001"]


def test_disable_enable_range(tmp_path):
    text = FLAWED.replace("options:\n", "options:\n# qlint: disable K001, K005\n").replace(
        "explanation: |", "# qlint: enable\nexplanation: |")
    assert check(tmp_path, text) == []
    text = FLAWED.replace("  - id: hyperparameter-search", "# qlint: disable\n  - id: hyperparameter-search")
    assert check(tmp_path, text) == ["25 K005"]  # the range starts after K005's line
    text = FLAWED.replace("options:\n", "options:\n# qlint: disable\n").replace(
        "  - id: hyperparameter-search", "# qlint: enable K001\n  - id: hyperparameter-search")
    assert check(tmp_path, text) == ["38 K001"]  # everything off, then K001 back on


def test_disable_file_with_codes_or_everything(tmp_path):
    assert check(tmp_path, "# qlint: disable-file K005\n" + FLAWED) == ["37 K001"]
    assert check(tmp_path, FLAWED + "# qlint: disable-file\n") == []
    assert check(tmp_path, "# qlint: disable-file K -- draft\n" + FLAWED) == []


def test_unused_suppressions_are_reported_only_for_rules_that_ran(tmp_path):
    text = "# qlint: disable-file K003, K001\n" + FLAWED.replace("stem: |", "stem: |  # qlint: disable-line K002")
    out = check(tmp_path, text)
    assert out == ["1 M001", "13 M001", "26 K005"], out  # K003 and K002 found nothing; K001 was used
    assert check(tmp_path, text, select=("K001", "M")) == []  # K002/K003 did not run: not judged
    assert check(tmp_path, TEXT + "# qlint: disable-file\n") == ["78 M001"]
    assert check(tmp_path, TEXT + "# qlint: disable-file\n", select=("M",)) == []  # no rule ran


def test_invalid_directives_and_codes(tmp_path):
    text = ("# qlint: disabel K001\n# qlint: disable-file K0001\n# qlint: disable-file Y001, S001\n" + FLAWED)
    assert check(tmp_path, text) == ["1 M002", "2 M002", "28 K005", "3 M002", "3 M002", "39 K001"]


def test_load_and_schema_errors_cannot_be_suppressed(tmp_path):
    text = FLAWED.replace("correct: true", "correct: yes") + "# qlint: disable-file\n"
    assert check(tmp_path, text, select=("S", "K", "M")) == ["43 S001"]  # no rule ran: nothing judged unused
    broken = "# qlint: disable-file\nid: [unclosed\n"
    assert check(tmp_path, broken) == ["3 Y001"]


def test_meta_findings_can_themselves_be_suppressed(tmp_path):
    text = "# qlint: disable-file M001\n" + FLAWED.replace("stem: |", "stem: |  # qlint: disable-line K002")
    assert check(tmp_path, text) == ["26 K005", "37 K001"]


def test_comment_lookalikes_inside_strings_are_not_directives():
    text = ('stem: "see # qlint: disable-file"\nexplanation: |\n  # qlint: disable-file\n'
            "trap: a#qlint:disable-file\nid: x  # qlint: disable-line K001 -- why\n")
    directives, errors = parse(text)
    assert [(d.verb, d.line, d.target, sorted(d.codes), d.reason) for d in directives] == [
        ("disable-line", 5, 5, ["K001"], "why")] and not errors


def test_bank_findings_are_suppressed_too(tmp_path):
    other = TEXT.replace("id: suppression-case", "id: suppression-copy")
    (tmp_path / "b.yaml").write_text(other, encoding="utf-8")
    out = check(tmp_path, TEXT, select=("B006",))
    assert out == ["12 B006"]  # the copy in b.yaml is a near-duplicate (b.yaml is context only)
    assert check(tmp_path, TEXT.replace("stem: |", "stem: |  # qlint: disable-line B006 -- translation pair"),
                 select=("B006", "M")) == []


def test_files_without_the_marker_are_not_scanned(monkeypatch, tmp_path):
    import qlint.lint.suppression as sup

    monkeypatch.setattr(sup, "parse", lambda text: pytest.fail("scanned a file without 'qlint:'"))
    assert check(tmp_path, FLAWED) == ["25 K005", "36 K001"]
