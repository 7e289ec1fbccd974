"""`qlint analyze` reads what an export says or refuses it at its cell (issue 24 point 1): times
are compared as instants, a question no export may carry is skipped with a note, and every
number or time cell that is not one is an error at `file:line:col`, never a guess or a crash."""

from __future__ import annotations

import re
import shutil

import pytest

from conftest import REPO
from qlint.cli import main
from qlint.itemanalysis.cells import attempt_number, instant
from qlint.itemanalysis.data import ItemKey, ResponsesError
from qlint.itemanalysis.readers import read_responses

KEYS = {"q1": ItemKey("q1", "q1.yaml", ("a", "b"), ("Alpha", "Beta"), 0b01, False, "Stem one?"),
        "q2": ItemKey("q2", "q2.yaml", ("a", "b"), ("Gamma", "Delta"), 0b10, False, "Stem two?")}
ASYNC = "bank/mla-c01/deployment-orchestration/async-large-payloads.yaml"  # id mla-c01-deploy-async-inference


def _read(tmp_path, text: str, **kw):
    f = tmp_path / "r.csv"
    f.write_text(text, encoding="utf-8")
    return read_responses([str(f)], KEYS, **kw)


def test_times_with_offsets_are_compared_as_instants(tmp_path):
    # 10:00+05:00 is 05:00Z: the first attempt, though its text sorts after "06:00:00Z"
    r = _read(tmp_path, "respondent,question,selected,timestamp\n"
                        "ann,q1,a,2024-03-01T10:00:00+05:00\nann,q1,b,2024-03-01T06:00:00Z\n"
                        "bob,q1,b,2024-03-01 06:00:00 UTC\nbob,q1,a,2024-03-01T05:00:00.5Z\n")
    assert r.respondents == ["ann", "bob"] and r.choices.tolist() == [[0b01], [0b01]]
    every = _read(tmp_path, "respondent,question,selected,timestamp\n"
                            "ann,q1,b,2024-03-01T06:00:00Z\nann,q1,a,2024-03-01T10:00:00+05:00\n", all_attempts=True)
    assert every.respondents == ["ann", "ann#2"] and every.choices.tolist() == [[0b01, ], [0b10]]


def test_instants_of_every_format_the_readers_see():
    utc = instant("2024-03-01T05:00:00Z")
    assert utc == instant("2024-03-01T10:00:00+05:00") == instant("2024-03-01 05:00:00 UTC") == instant("2024-03-01T05:00")
    assert instant("2024-03-01 05:00:00") == utc  # no offset: read as UTC
    assert instant("1 March 2024, 5:00 AM") == instant("1 March 2024  5:00 AM") == instant("Friday, 1 March 2024, 5:00 AM") == utc
    assert instant("1 March 2024, 05:00") == utc and instant("01 Mar 2024 5:00 AM") == utc
    assert instant("0001-01-01T00:00:00+05:00") < instant("9999-12-31T23:59:59-05:00")
    assert instant("") is None and instant("  - ") is None
    for bad in ("yesterday", "2024-13-01", "２０２４-03-01T05:00:00", "2024-03-01T25:00", "1 Märze 2024, 5:00 AM", "9" * 5000):
        with pytest.raises(ValueError, match="is not a time qlint reads"):
            instant(bad)


def test_attempt_numbers_are_whole_ascii_numbers_from_one():
    assert attempt_number("1") == 1 and attempt_number("12") == 12
    for bad in ("²", "١", "1.5", "-1", "+1", "one", "1e3", "9" * 5000):
        with pytest.raises(ValueError, match="is not a whole number"):
            attempt_number(bad)
    with pytest.raises(ValueError, match="numbered from 1"):
        attempt_number("0")


@pytest.mark.parametrize("cell", ["²", "0", "١", "9" * 5000])
def test_a_bad_attempt_cell_is_an_error_at_its_cell(tmp_path, cell):
    with pytest.raises(ResponsesError, match=r"r\.csv:3:10: attempt "):
        _read(tmp_path, f"respondent,question,selected,attempt\nann,q1,a,1\nbob,q1,a,{cell}\n")
    canvas = ("name,id,sis_id,section,section_id,section_sis_id,submitted,attempt,\"101: Stem one?\",1.0\n"
              f"Ann,1,,S,1,,2024-01-01,{cell},Alpha,1\n")
    with pytest.raises(ResponsesError, match=r"r\.csv:2:24: attempt "):
        _read(tmp_path, canvas)


def test_a_bad_time_cell_is_an_error_at_its_cell(tmp_path):
    with pytest.raises(ResponsesError, match=r"r\.csv:3:10: time 'soon' is not a time"):
        _read(tmp_path, "respondent,question,selected,timestamp\nann,q1,a,2024-03-01T05:00Z\nbob,q1,a,soon\n")
    moodle = ("Surname,First name,Email address,State,Started on,Question 1,Response 1\n"
              "Lee,Ann,ann@x.org,Finished,1 March 2024  9:00 AM,q1,Alpha\n"
              "Ray,Bob,bob@x.org,Finished,le 1 mars 2024,q1,Beta\n")
    with pytest.raises(ResponsesError, match=r"r\.csv:3:28: time 'le 1 mars 2024' is not a time"):
        _read(tmp_path, moodle)


def test_moodle_attempts_are_ordered_by_instant_and_slots_by_ascii_numbers(tmp_path):
    # as text "10 March" sorts before "9 March": the instants decide
    r = _read(tmp_path, "Surname,First name,Email address,State,Started on,Question 1,Response 1,Question \u0661,Response \u0661\n"
                        "Lee,Ann,ann@x.org,Finished,10 March 2024  9:00 AM,q1,Beta,q2,Gamma\n"
                        "Lee,Ann,ann@x.org,Finished,9 March 2024  9:00 AM,q1,Alpha,q2,Gamma\n")
    assert r.items == ["q1"] and r.choices.tolist() == [[0b01]]  # "Response ١" is no slot: int() would read it as 1
    header = "Surname,First name,State,Question " + "9" * 5000 + ",Response " + "9" * 5000 + "\n"
    with pytest.raises(ResponsesError, match="not a responses file"):
        _read(tmp_path, header + "Lee,Ann,Finished,q1,Alpha\n")


@pytest.fixture
def project(tmp_path, monkeypatch):
    shutil.copytree(REPO / "bank", tmp_path / "bank")
    for f in REPO.glob("qlint.toml"):
        shutil.copy(f, tmp_path / f.name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_cli_scores_the_first_attempt_by_instant(project, capsys):
    (project / "r.csv").write_text(
        "respondent,question,selected,timestamp\n"
        + "".join(f"l{i},mla-c01-deploy-async-inference,asynchronous,2024-03-01T10:00:00+05:00\n"
                  f"l{i},mla-c01-deploy-async-inference,serverless,2024-03-01T06:00:00Z\n" for i in range(3)),
        encoding="utf-8")
    main(["analyze", "r.csv"])
    out = capsys.readouterr().out
    assert "mean score 1.00 of 1" in out, out  # 0.00 when the retake counted as the first attempt


@pytest.mark.parametrize("code, edit", [
    ("S005", ("  - id: serverless", "  - id: asynchronous")),  # two options under one id
    ("S006", ("    text: Serverless inference endpoint with 6 GB of memory", "    text: \"\\u200b\"")),
    ("O006", ("    text: Serverless inference endpoint with 6 GB of memory",
              "    text: Asynchronous inference endpoint with an SNS topic")),
])
def test_a_question_no_export_may_carry_is_skipped_with_a_note(project, capsys, code, edit):
    path = project / ASYNC
    text = path.read_text(encoding="utf-8")
    assert edit[0] in text
    path.write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    (project / "r.csv").write_text("respondent,question,selected\nann,mla-c01-deploy-async-inference,asynchronous\n"
                                   "ann,mla-c01-deploy-async-large-payloads,x\n", encoding="utf-8")
    assert main(["check", "--no-cache", ASYNC]) != 0 and code in capsys.readouterr().out
    assert main(["analyze", "r.csv"]) == 2  # its answers are skipped, so nothing is left to score
    err = capsys.readouterr().err
    assert re.search(rf"^{re.escape(ASYNC)}:\d+:\d+: note: .*\({code}\): no export carries this question", err, re.M), err


def _options_in_by_joining(cell, key, separators):
    """The reader's former matcher (cubic): every run of pieces joined back and normalised."""
    import re as _re

    from qlint.itemanalysis.match import normal

    if not cell.strip() or cell.strip() == "-":
        return 0
    texts = {normal(t): i for i, t in enumerate(key.option_texts)}
    if normal(cell) in texts:
        return 1 << texts[normal(cell)]
    pieces = _re.split("[" + _re.escape(separators) + "]", cell)
    mask, start = 0, 0
    while start < len(pieces):
        for end in range(len(pieces), start, -1):
            t = normal(",".join(pieces[start:end]))
            if t in texts:
                mask |= 1 << texts[t]
                start = end
                break
        else:
            if not normal(pieces[start]):
                start += 1
                continue
            return None
    return mask


def test_linear_option_matching_agrees_with_joining_runs_back():
    """options_in hashes each piece's words once; on 3,000 random cells of option texts that hold
    separators (and of noise) it gives the masks the cubic join-every-run matcher gave."""
    import random

    from qlint.itemanalysis.match import options_in

    rng = random.Random(24)
    words = ["alpha", "beta", "gamma", "<b>delta</b>", "a", "A", "&amp;", "x_y", ""]
    for _ in range(3000):
        sep = rng.choice([",", ";"])
        texts = tuple(dict.fromkeys(" ".join(rng.choice(words) for _ in range(rng.randint(1, 4))).replace(" a ", sep + " a ")
                                    for _ in range(rng.randint(2, 6))))
        key = ItemKey("q", "q.yaml", tuple(f"o{i}" for i in range(len(texts))), texts, 1, True, "Stem?")
        parts = [rng.choice(texts + ("", " ", "noise", sep)) for _ in range(rng.randint(0, 5))]
        cell = rng.choice([sep, sep + " "]).join(parts)
        got = options_in(cell, key, sep)[0]
        assert got == _options_in_by_joining(cell, key, sep), (cell, texts)
