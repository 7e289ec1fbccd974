"""`qlint shuffle`: reproducible, balanced, keyed options stay keyed, pins and letter references respected."""

from __future__ import annotations


import yaml

from qlint.bank.entry import BankEntry
from qlint.bank.statistics import key_balance

from kit.authoring import make_project, question_yaml, run


def bank_of(tmp_path, monkeypatch, count=12, key=1, **kw):
    bank = make_project(tmp_path)
    folder = bank / "mla-c01" / "model-development"
    folder.mkdir(parents=True)
    for i in range(count):
        (folder / f"q{i:02d}.yaml").write_text(question_yaml(f"mla-c01-dev-q{i:02d}", key=key, **kw), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return folder


def loaded(folder):
    return {p.name: yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.yaml"))}


def test_hand_placed_keys_become_balanced_and_stay_keyed(capsys, tmp_path, monkeypatch):
    folder = bank_of(tmp_path, monkeypatch)  # every key at B: the writer's bias rules.md describes
    before = loaded(folder)
    code, _out, err = run(capsys, "shuffle", "--seed", "42")
    assert code == 0, err
    after = loaded(folder)
    (balance,) = key_balance([BankEntry.of(n, d) for n, d in after.items()])
    assert balance.counts == (3, 3, 3, 3)
    assert "key positions before: 4 options: A:0 B:12 C:0 D:0" in err
    assert "key positions after:  4 options: A:3 B:3 C:3 D:3 (chi-square p=1.00)" in err
    for name in before:
        keyed = lambda d: {o["id"] for o in d["options"] if o["correct"]}  # noqa: E731
        assert keyed(after[name]) == keyed(before[name])
        assert sorted(o["id"] for o in after[name]["options"]) == sorted(o["id"] for o in before[name]["options"])
        text = (folder / name).read_text(encoding="utf-8")
        for o in after[name]["options"]:  # each option's comment travelled with it
            assert f"  # about {o['id']}\n  - id: {o['id']}\n" in text


def test_same_seed_same_bytes_and_a_second_run_changes_nothing(capsys, tmp_path, monkeypatch):
    a = bank_of(tmp_path / "a", monkeypatch)
    assert run(capsys, "shuffle", "--seed", "7")[0] == 0
    b = bank_of(tmp_path / "b", monkeypatch)
    assert run(capsys, "shuffle", "--seed", "7")[0] == 0
    assert [p.read_bytes() for p in sorted(a.glob("*.yaml"))] == [p.read_bytes() for p in sorted(b.glob("*.yaml"))]
    code, out, err = run(capsys, "shuffle", "--seed", "7", "--check")
    assert code == 0 and "0 files would be shuffled" in err
    c = bank_of(tmp_path / "c", monkeypatch)
    assert run(capsys, "shuffle", "--seed", "8")[0] == 0
    assert [p.read_bytes() for p in sorted(a.glob("*.yaml"))] != [p.read_bytes() for p in sorted(c.glob("*.yaml"))]


def test_pinned_options_and_no_shuffle_questions_stay(capsys, tmp_path, monkeypatch):
    folder = bank_of(tmp_path, monkeypatch, count=6, pinned_last=True)
    frozen = folder / "frozen.yaml"
    frozen.write_text(question_yaml("mla-c01-dev-frozen", key=1, extra="shuffle: false"), encoding="utf-8")
    frozen_bytes = frozen.read_bytes()
    for seed in ("1", "2", "3"):
        assert run(capsys, "shuffle", "--seed", seed)[0] == 0
        for name, d in loaded(folder).items():
            if name != "frozen.yaml":
                assert d["options"][-1]["id"] == "gradient-checkpointing" and d["options"][-1]["pinned"] is True
        assert frozen.read_bytes() == frozen_bytes


def test_letter_references_are_reported_and_the_question_kept(capsys, tmp_path, monkeypatch):
    folder = bank_of(tmp_path, monkeypatch, count=2, rationale_extra=" Unlike option A, it copies weights.")
    before = {p: p.read_bytes() for p in folder.glob("*.yaml")}
    code, _out, err = run(capsys, "shuffle", "--seed", "5")
    assert code == 1
    assert "bank/mla-c01/model-development/q00.yaml:24:" in err and "'option A'" in err
    line, col = err.split("q00.yaml:", 1)[1].split(":")[:2]
    source = (folder / "q00.yaml").read_text(encoding="utf-8").splitlines()[int(line) - 1]
    assert source[int(col) - 1:].startswith("option A")
    assert {p: p.read_bytes() for p in folder.glob("*.yaml")} == before


def test_shuffle_sees_every_letter_reference_k006_reports(capsys, tmp_path, monkeypatch):
    """Issue 15: K006 flagged "Response B is the one to pick here." while shuffle reordered that
    question's options, so "B" then named another option. One detector serves both now."""
    folder = bank_of(tmp_path, monkeypatch, count=2, rationale_extra=" Response B is the one to pick here.")
    before = {p: p.read_bytes() for p in folder.glob("*.yaml")}
    code, out, _err = run(capsys, "check", "--select", "K006", "--no-cache", str(folder))
    assert code == 1 and out.count("K006") == 2, out
    code, _out, err = run(capsys, "shuffle", "--seed", "5")
    assert code == 1 and err.count("'Response B'") == 2, err
    line, col = err.split("q00.yaml:", 1)[1].split(":")[:2]
    source = (folder / "q00.yaml").read_text(encoding="utf-8").splitlines()[int(line) - 1]
    assert source[int(col) - 1:].startswith("Response B is the one")
    assert {p: p.read_bytes() for p in folder.glob("*.yaml")} == before


def test_diff_mode_writes_nothing(capsys, tmp_path, monkeypatch):
    folder = bank_of(tmp_path, monkeypatch, count=4)
    before = {p: p.read_bytes() for p in folder.glob("*.yaml")}
    code, out, _err = run(capsys, "shuffle", "--seed", "3", "--diff")
    assert code == 1 and out.startswith("--- a/bank/")
    assert {p: p.read_bytes() for p in folder.glob("*.yaml")} == before


def _bank_with_keys(tmp_path, monkeypatch, keys):
    bank = make_project(tmp_path)
    folder = bank / "mla-c01" / "model-development"
    folder.mkdir(parents=True)
    for i, key in enumerate(keys):
        (folder / f"q{i:02d}.yaml").write_text(question_yaml(f"mla-c01-dev-q{i:02d}", key=key), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return folder


def test_a_balanced_bank_is_left_as_it_is_whatever_the_seed(capsys, tmp_path, monkeypatch):
    folder = _bank_with_keys(tmp_path, monkeypatch, [0, 1, 2, 3, 3, 2, 1, 0, 2])  # A:2 B:2 C:3 D:2
    before = {p: p.read_bytes() for p in folder.glob("*.yaml")}
    for seed in ("1", "7", "2024"):
        code, _out, err = run(capsys, "shuffle", "--seed", seed)
        assert code == 0 and "0 files shuffled" in err, err
        assert {p: p.read_bytes() for p in folder.glob("*.yaml")} == before


def test_the_sample_bank_is_balanced_already(capsys, in_repo):
    code, out, err = run(capsys, "shuffle", "--seed", "2024", "--check")
    assert code == 0 and out == "" and "0 files would be shuffled" in err, out + err


def test_only_as_many_questions_move_as_the_balance_needs(capsys, tmp_path, monkeypatch):
    folder = _bank_with_keys(tmp_path, monkeypatch, [0] * 6 + [1, 1, 2, 2, 3, 3])  # A:6 B:2 C:2 D:2
    before = loaded(folder)
    code, _out, err = run(capsys, "shuffle", "--seed", "11")
    assert code == 0, err
    after = loaded(folder)
    moved = [n for n in before if before[n] != after[n]]
    assert len(moved) == 3 and "3 files shuffled" in err, err  # three keys leave A, one to each of B, C, D
    (balance,) = key_balance([BankEntry.of(n, d) for n, d in after.items()])
    assert balance.counts == (3, 3, 3, 3)
    for name in moved:  # the key swapped places with one option; the rest stayed
        old, new = [o["id"] for o in before[name]["options"]], [o["id"] for o in after[name]["options"]]
        target = new.index(old[0])  # the key was at A
        assert target != 0 and new[0] == old[target]
        assert [a for i, a in enumerate(old) if i not in (0, target)] == [b for i, b in enumerate(new) if i not in (0, target)]
