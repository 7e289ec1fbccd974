"""`qlint format` as a user runs it: check, diff, rewrite, config, and files it must not touch."""

from __future__ import annotations

import os
import stat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qlint.authoring.formatter import key_order

from kit.authoring import make_project, run
from conftest import BANK, examples

MESSY = """\
# header comment

id: mla-c01-dev-messy   # the id
format: 1
# about the exam
exam: MLA-C01
domain: model-development
status: draft
type: single
stem: A very long single-line stem that goes on and on well beyond the configured width of the line, so it must fold.
trap: "Quoted: kept as written, even past the width of the line because the author quoted it on purpose"
options:
  # first option
  - text: Model parallelism
    id: model
    rationale: |  # header comment
      Correct: it splits the layers.
    correct: true
  - id: data
    correct: false
    text: 'Data parallelism'
    rationale: >
      Folded text
      that continues.
explanation: |-
  It splits the layers.
# trailer
"""


def test_sample_bank_is_already_canonical(capsys, in_repo):
    code, out, err = run(capsys, "format", "--check", "bank")
    assert code == 0, out + err
    assert "0 files would be reformatted, 30 unchanged" in err


def test_rewrites_to_schema_order_keeping_comments(capsys, tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "bank" / "q.yaml"
    f.write_text(MESSY, encoding="utf-8")
    code, _out, err = run(capsys, "format", str(f))
    assert code == 0, err
    text = f.read_text(encoding="utf-8")
    keys = [ln.split(":")[0] for ln in text.splitlines() if ln[:1].isalpha()]
    assert keys == sorted(keys, key=list(key_order("question", ())).index)
    for comment in ("# header comment", "# the id", "# about the exam", "# first option", "# header comment", "# trailer"):
        assert comment in text
    assert "exam: MLA-C01" in text.split("# about the exam\n", 1)[1].splitlines()[0]  # a comment stays above its key
    assert "  - id: model\n    text: Model parallelism\n    correct: true\n    rationale: |  # header comment" in text
    assert "\n\n  - id: data" in text  # a blank line between options
    assert 'trap: "Quoted: kept as written' in text
    assert "stem: >-\n  A very long" in text
    assert "    rationale: |\n      Folded text that continues.\n" in text
    code, _out, err = run(capsys, "format", "--check", str(f))
    assert code == 0 and "0 files would be reformatted" in err  # idempotent


def test_check_and_diff_write_nothing(capsys, tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "bank" / "q.yaml"
    f.write_text(MESSY, encoding="utf-8")
    code, out, _err = run(capsys, "format", "--check", str(f))
    assert code == 1 and "would be reformatted: bank/q.yaml" in out
    code, out, _err = run(capsys, "format", "--diff", str(f))
    assert code == 1 and out.startswith("--- a/bank/q.yaml\n+++ b/bank/q.yaml\n@@")
    assert "-id: mla-c01-dev-messy   # the id\n" in out and "+id: mla-c01-dev-messy  # the id\n" in out
    assert f.read_text(encoding="utf-8") == MESSY


def test_syntax_error_is_reported_and_bytes_unchanged(capsys, tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    broken = b"format: 1\nid: q-broken\nstem: \"never closed\noptions: [\n"
    f = tmp_path / "bank" / "broken.yaml"
    f.write_bytes(broken)
    good = tmp_path / "bank" / "good.yaml"
    good.write_text(MESSY, encoding="utf-8")
    code, _out, err = run(capsys, "format", "bank")
    assert code == 2
    assert "bank/broken.yaml:3:7: Y001 unclosed quote" in err  # where the quote opens (issue 28 point 8)
    assert f.read_bytes() == broken
    assert good.read_text(encoding="utf-8") != MESSY  # the readable file is still formatted


def test_a_write_that_fails_halfway_leaves_the_original(capsys, tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "bank" / "q.yaml"
    f.write_text(MESSY, encoding="utf-8")

    def fail(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    code, _out, err = run(capsys, "format", str(f))
    assert code == 2 and "No space left on device" in err
    assert f.read_text(encoding="utf-8") == MESSY
    assert not [p.name for p in f.parent.iterdir() if p.name.startswith(".")]  # no temporary file left behind


def test_permissions_and_symlinks_are_kept(capsys, tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    real = tmp_path / "bank" / "real.yaml"
    real.write_text(MESSY, encoding="utf-8")
    os.chmod(real, 0o640)
    link = tmp_path / "bank" / "link.yaml"
    link.symlink_to(real)
    code, _out, err = run(capsys, "format", str(link))
    assert code == 0, err
    assert link.is_symlink() and real.read_text(encoding="utf-8") != MESSY
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_indent_and_width_come_from_config(capsys, tmp_path, monkeypatch):
    make_project(tmp_path, "[format]\nindent = 4\nwidth = 60\n")
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "bank" / "q.yaml"
    f.write_text(MESSY, encoding="utf-8")
    assert run(capsys, "format", str(f))[0] == 0
    text = f.read_text(encoding="utf-8")
    assert "\n    - id: model\n      text: Model parallelism\n" in text
    after = text.split("stem: >-\n", 1)[1].splitlines()
    folded = after[: next(i for i, ln in enumerate(after) if not ln.startswith(" "))]
    assert len(folded) > 1 and all(len(ln) <= 60 for ln in folded)


@pytest.mark.parametrize("bad, message", [("indent = 1", "format.indent"), ("width = 'wide'", "format.width"),
                                          ("tabs = true", "format.tabs")])
def test_bad_format_config_exits_2(capsys, tmp_path, monkeypatch, bad, message):
    make_project(tmp_path, f"[format]\n{bad}\n")
    monkeypatch.chdir(tmp_path)
    code, _out, err = run(capsys, "format")
    assert code == 2 and message in err


def test_exam_files_use_the_exam_schema_order(capsys, tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    exam = tmp_path / "bank" / "exams" / "mla-c01.yaml"
    text = exam.read_text(encoding="utf-8")
    exam.write_text(text.replace("format: 1\ncode: MLA-C01\n", "code: MLA-C01\nformat: 1\n"), encoding="utf-8")
    assert run(capsys, "format", str(exam))[0] == 0
    assert exam.read_text(encoding="utf-8") == (BANK / "exams" / "mla-c01.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("word", ["no", "yes", "on", "Off", "NO", "1_000", "0o17", "2024-01-01", "null", "~"])
def test_new_text_that_a_yaml_11_reader_would_retype_is_quoted(word):
    """The Norway problem: qlint reads YAML 1.2, where plain `no` is text, but many tools read
    YAML 1.1, where it is false. Values qlint writes (imports, fixes) stay text for both."""
    import yaml

    from qlint.authoring.scalars import render_inline

    written = render_inline(word)
    assert yaml.safe_load(f"title: {written}\n") == {"title": word}, written
    assert render_inline("plain words") == "plain words"  # ordinary text stays plain


@settings(max_examples=examples(400), deadline=None)
@given(st.one_of(st.text(max_size=30),
                 st.sampled_from(["yes", "No", "on", "1_000", "0x1F", "1:20", "3.5e2", ".inf", "<<", "=", "~", "null",
                                  "2024-01-05", "2024-01-05 10:00:00", "- item", "a: b", "#c", "x #c", "'q'", "@at",
                                  "plain words", " lead", "tail ", "\u2028", "a\u0085b", "\ufeffx", "%p", "!t"])))
def test_the_fast_yaml_11_check_agrees_with_writing_and_reading(value):
    """`retyped_by_yaml11` skips writing and reading text no YAML 1.1 type claims: it must give the
    same answer as the full round trip through ruamel.yaml's writer and PyYAML's reader."""
    from qlint.authoring import scalars

    assert scalars.retyped_by_yaml11(value) == (scalars._yaml11(scalars._dump_inline(value)) != value)
