"""`qlint check --fix`: safe fixes applied in place, unsafe ones on request, --diff writes nothing."""

from __future__ import annotations

from kit.authoring import make_project, question_yaml, run

MULTI = question_yaml("mla-c01-dev-fix-me", key=0).replace("type: single", "type: multiple\nchoose: 2").replace(
    "    text: Data parallelism\n    correct: false", "    text: Data parallelism\n    correct: true")


def project(tmp_path, monkeypatch, text: str):
    bank = make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    f = bank / "q.yaml"
    f.write_text(text, encoding="utf-8")
    return f


def test_choose_n_sentence_option_ids_and_trailing_space_are_fixed(capsys, tmp_path, monkeypatch):
    text = MULTI.replace("  - id: model-parallelism", "  - id: Model Parallelism").replace(
        "    text: Hyperparameter search", '    text: "Hyperparameter search "  # note')
    f = project(tmp_path, monkeypatch, text)
    code, out, err = run(capsys, "check", "--select", "K002,S001,F001", "--fix", str(f))
    assert "Fixed 3 problems in 1 file." in err
    assert code == 0, out
    fixed = f.read_text(encoding="utf-8")
    assert "  train it? (Choose TWO.)\n" in fixed
    assert "  - id: model-parallelism\n" in fixed
    assert '    text: "Hyperparameter search"  # note\n' in fixed
    changed = [(a, b) for a, b in zip(text.splitlines(), fixed.splitlines()) if a != b]
    assert len(changed) == 3 and len(text.splitlines()) == len(fixed.splitlines())  # nothing else moved
    assert fixed.count("# about ") == 4


def test_diff_shows_fixes_without_writing(capsys, tmp_path, monkeypatch):
    f = project(tmp_path, monkeypatch, MULTI)
    code, out, err = run(capsys, "check", "--select", "K002", "--diff", str(f))
    assert code == 1
    assert "-  train it?\n+  train it? (Choose TWO.)\n" in out
    assert f.read_text(encoding="utf-8") == MULTI


def test_unsafe_fixes_need_the_flag(capsys, tmp_path, monkeypatch):
    hard_break = question_yaml("mla-c01-dev-fix-me").replace("  A transformer with 70 billion weights exceeds one GPU's memory. Which strategy lets the team\n",
                                                              "  A transformer with 70 billion weights  \n  exceeds one GPU's memory. Which strategy lets the team\n")
    f = project(tmp_path, monkeypatch, hard_break)
    code, out, err = run(capsys, "check", "--select", "F001", "--fix", str(f))
    assert code == 1 and "F001" in out and "1 more fixable with --unsafe-fixes" in err
    assert f.read_text(encoding="utf-8") == hard_break
    code, out, err = run(capsys, "check", "--select", "F001", "--fix", "--unsafe-fixes", str(f))
    assert code == 0, out
    assert "  A transformer with 70 billion weights\n" in f.read_text(encoding="utf-8")


def test_unfixable_findings_remain_reported(capsys, tmp_path, monkeypatch):
    text = MULTI.replace("  - id: model-parallelism", "  - id: Data Parallelism")  # slug collides with a sibling
    f = project(tmp_path, monkeypatch, text)
    code, out, err = run(capsys, "check", "--select", "K002,S001", "--fix", str(f))
    assert code == 1
    assert "S001" in out and "'Data Parallelism' is not in the expected form" in out
    assert f.read_text(encoding="utf-8") == text  # item rules (K002) wait for a schema-valid file


def test_fixable_rules_declare_it(in_repo):
    from qlint.rules import RULES

    assert {c for c, r in RULES.items() if r.fixable} >= {"K002", "F001", "S001"}
