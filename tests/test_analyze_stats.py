"""Item-analysis statistics: a published worked example reproduced to 1e-4, an independent
implementation on random data, and the readers' mapping of LMS exports to bank ids."""

from __future__ import annotations

import numpy as np
import pytest

from qlint.itemanalysis.data import NOT_SEEN, ItemKey, Responses, ResponsesError
from qlint.itemanalysis.readers import read_responses
from qlint.itemanalysis.stats import analyse, groups, score


def _key(qid, options, keys, texts=None, multiple=False, stem=""):
    mask = sum(1 << options.index(k) for k in keys)
    return ItemKey(qid, f"{qid}.yaml", tuple(options), tuple(texts or options), mask, multiple, stem or f"Stem of {qid}")


# Canvas LMS's item-analysis specification (instructure/canvas-lms,
# spec/models/quizzes/quiz_statistics/item_analysis_spec.rb): a quiz keyed T D F A (true/false,
# A-D, true/false, A-D) taken by six students; the sixth answered only the first two questions.
CANVAS_KEYS = {"q1": _key("q1", ["T", "F"], ["T"]), "q2": _key("q2", ["A", "B", "C", "D"], ["D"]),
               "q3": _key("q3", ["T", "F"], ["F"]), "q4": _key("q4", ["A", "B", "C", "D"], ["A"])}
CANVAS_SUBMISSIONS = ["TBTA", "TDFA", "FATC", "TDFB", "TDFA", "FD"]
# Its stated values: answered count, difficulty index, item variance (population), correct
# counts in the top / middle / bottom 27 %, point-biserials of the key then each distractor
# (answer order, None: nobody chose it) against the total score.
CANVAS_EXPECTED = {
    "q1": (6, 0.6666666666666666, 0.22222222222222224, (2, 2, 0), [0.8696263565463043, -0.8696263565463043]),
    "q2": (6, 0.6666666666666666, 0.22222222222222224, (2, 1, 1), [0.6324555320336759, -0.7, -0.09999999999999999, None]),
    "q3": (5, 0.6, 0.24000000000000005, (2, 1, 0), [0.8728715609439694, -0.8728715609439694]),
    "q4": (5, 0.6, 0.24000000000000005, (2, 1, 0), [0.6000991981489792, 0.13363062095621223, -0.8685990362153794, None]),
}


def _write_long(path, keys, submissions):
    lines = ["respondent,question,selected"]
    for s, answers in enumerate(submissions):
        for j, choice in enumerate(answers):
            lines.append(f"student-{s + 1},q{j + 1},{choice}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_canvas_worked_example_to_1e4(tmp_path):
    f = tmp_path / "canvas.csv"
    _write_long(f, CANVAS_KEYS, CANVAS_SUBMISSIONS)
    a = analyse(read_responses([str(f)], CANVAS_KEYS), CANVAS_KEYS)
    assert [k.id for k in a.items] == ["q1", "q2", "q3", "q4"]
    assert a.group.tolist().count(0) == 2 and a.group.tolist().count(2) == 2  # top/bottom 2 of 6
    for j, (qid, (n, p, var, by_group, pbs)) in enumerate(CANVAS_EXPECTED.items()):
        key = CANVAS_KEYS[qid]
        assert a.n[j] == n
        assert a.p[j] == pytest.approx(p, abs=1e-4)
        assert a.variance[j] == pytest.approx(var, abs=1e-4)
        correct = np.round(a.group_p[j] * a.group_n[j]).astype(int)
        assert (correct[2], correct[1], correct[0]) == by_group
        key_at = key.option_ids.index(next(o for i, o in enumerate(key.option_ids) if key.keymask >> i & 1))
        order = [key_at] + [i for i in range(key.n_options) if i != key_at]
        got = [None if np.isnan(a.option_rpb_total[j, i]) else a.option_rpb_total[j, i] for i in order]
        assert len(got) == len(pbs)
        for g, e in zip(got, pbs):
            assert (g is None) == (e is None) and (e is None or g == pytest.approx(e, abs=1e-4)), (qid, got, pbs)
        assert a.rpb_total[j] == pytest.approx(pbs[0], abs=1e-4)  # the item's own: the key's


def _random_form(n=300, k=12, seed=7):
    rng = np.random.default_rng(seed)
    theta = rng.standard_normal(n)
    keys = {f"i{j:02d}": _key(f"i{j:02d}", ["a", "b", "c", "d"], ["a"]) for j in range(k)}
    b = rng.uniform(-1, 1, k)
    knows = rng.random((n, k)) < 1 / (1 + np.exp(-(theta[:, None] - b)))
    guess = 1 << rng.integers(0, 4, (n, k))
    choices = np.where(knows, 1, guess).astype(np.int64)
    return keys, Responses(sorted(keys), [f"r{i}" for i in range(n)], choices)


def test_point_biserials_match_scipy():
    stats = pytest.importorskip("scipy.stats")
    keys, r = _random_form()
    a = analyse(r, keys)
    x = score(r.choices, a.items)
    total = x.sum(axis=1)
    for j in range(x.shape[1]):
        assert a.rpb_total[j] == pytest.approx(stats.pointbiserialr(x[:, j], total)[0], abs=1e-10)
        assert a.rpb[j] == pytest.approx(stats.pointbiserialr(x[:, j], total - x[:, j])[0], abs=1e-10)
        for o in range(4):
            chose = (r.choices[:, j] >> o) & 1
            assert a.option_rpb[j, o] == pytest.approx(stats.pointbiserialr(chose, total - x[:, j])[0], abs=1e-10)
            assert a.option_share[j, o] == pytest.approx(chose.mean())


def test_point_biserials_skip_respondents_not_given_the_item():
    stats = pytest.importorskip("scipy.stats")
    keys, r = _random_form(seed=8)
    rng = np.random.default_rng(9)
    r.choices[rng.random(r.choices.shape) < 0.2] = NOT_SEEN  # forms drawn from a pool
    a = analyse(r, keys)
    x = score(r.choices, a.items)
    total = np.nansum(x, axis=1)
    for j in range(x.shape[1]):
        seen = ~np.isnan(x[:, j])
        assert a.n[j] == seen.sum()
        assert a.p[j] == pytest.approx(x[seen, j].mean())
        assert a.rpb[j] == pytest.approx(stats.pointbiserialr(x[seen, j], total[seen] - x[seen, j])[0], abs=1e-10)
    assert a.alpha_n == int((~np.isnan(x)).all(axis=1).sum())


def test_alpha_and_alpha_if_deleted_match_pingouin():
    pg = pytest.importorskip("pingouin")
    pd = pytest.importorskip("pandas")
    keys, r = _random_form(seed=11)
    a = analyse(r, keys)
    frame = pd.DataFrame(score(r.choices, a.items))
    assert a.alpha == pytest.approx(pg.cronbach_alpha(frame)[0], abs=1e-10)
    for j in range(frame.shape[1]):
        assert a.alpha_if_deleted[j] == pytest.approx(pg.cronbach_alpha(frame.drop(columns=j))[0], abs=1e-10)
    total = frame.sum(axis=1)
    assert a.sem == pytest.approx(total.std(ddof=1) * np.sqrt(1 - a.alpha))


def test_upper_lower_index_on_27_percent_groups():
    keys, r = _random_form(n=100, seed=12)
    a = analyse(r, keys)
    x = score(r.choices, a.items)
    order = np.argsort(x.sum(axis=1), kind="stable")
    low, high = order[:27], order[-27:]
    assert np.allclose(a.d, x[high].mean(axis=0) - x[low].mean(axis=0))
    assert groups(np.arange(10.0)).tolist() == [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]


def test_multiple_response_scoring():
    k = _key("m", ["a", "b", "c", "d", "e"], ["a", "b"], multiple=True)
    choices = np.array([[0b00011], [0b00001], [0b00101], [0b10011], [0], [NOT_SEEN]])
    aon = score(choices, [k])[:, 0]
    assert aon[:5].tolist() == [1, 0, 0, 0, 0] and np.isnan(aon[5])
    partial = score(choices, [k], "partial")[:, 0]
    assert partial[:5] == pytest.approx([1, 0.5, 0.5 - 1 / 3, 1 - 1 / 3, 0])


def test_generic_csv_first_attempt_and_all_attempts(tmp_path):
    keys = {"q1": _key("q1", ["a", "b"], ["a"]), "q2": _key("q2", ["a", "b"], ["b"])}
    f = tmp_path / "r.csv"
    f.write_text("respondent,question,selected,attempt\n"
                 "ann,q1,b,2\nann,q1,a,1\nann,q2,b,1\nbob,q1,a,1\nbob,q2,,1\n", encoding="utf-8")
    first = read_responses([str(f)], keys)
    assert first.respondents == ["ann", "bob"]
    assert first.choices.tolist() == [[1, 2], [1, 0]]  # ann's attempt 1; bob skipped q2
    every = read_responses([str(f)], keys, all_attempts=True)
    assert sorted(every.respondents) == ["ann#1", "ann#2", "bob#1"]


def test_generic_csv_notes_unknown_ids_and_rejects_bad_input(tmp_path):
    keys = {"q1": _key("q1", ["a", "b"], ["a"])}
    f = tmp_path / "r.csv"
    f.write_text("respondent,question,selected\nann,q1,a\nann,nope,a\nbob,q1,zz\n", encoding="utf-8")
    r = read_responses([str(f)], keys)
    assert [n.where for n in r.notes] == [f"{f}:3:5", f"{f}:4:8"]
    assert "not in the bank" in r.notes[0].message and "no option 'zz'" in r.notes[1].message
    f.write_text("who,what\nann,q1\n", encoding="utf-8")
    with pytest.raises(ResponsesError, match=r"r\.csv:1:1: not a responses file"):
        read_responses([str(f)], keys)
    f.write_bytes(b"respondent,question,selected\nann,q1,\xff\n")
    with pytest.raises(ResponsesError, match=r"r\.csv:2:8: not UTF-8"):
        read_responses([str(f)], keys)
    f.write_text("respondent,question,selected,attempt\nann,q1,a,first\n", encoding="utf-8")
    with pytest.raises(ResponsesError, match=r"r\.csv:2:10: attempt 'first'"):
        read_responses([str(f)], keys)


def test_canvas_student_analysis_maps_text_to_ids(tmp_path):
    keys = {"net-q": _key("net-q", ["vpc", "nat", "igw"], ["vpc"], ["Use a VPC endpoint", "A NAT gateway, in a public subnet", "An internet gateway"],
                          stem="Which **option** keeps S3 traffic off the internet?"),
            "multi-q": _key("multi-q", ["x", "y", "z"], ["x", "y"], ["Alpha", "Beta", "Gamma"], multiple=True,
                            stem="Which two letters are Greek?")}
    f = tmp_path / "student_analysis.csv"
    f.write_text(
        "name,id,sis_id,section,section_id,section_sis_id,submitted,attempt,"
        "\"101: Which option keeps S3 traffic off the internet?\",1.0,\"102: Which two letters are Greek?\",1.0,"
        "\"103: A question not in the bank\",1.0,n correct,n incorrect,score\n"
        "Ann,1,,S,1,,2024-01-01,1,Use a VPC endpoint,1,\"Alpha,Beta\",1,x,0,2,0,2\n"
        "Ann,1,,S,1,,2024-01-02,2,An internet gateway,0,Alpha,0,x,0,0,2,0\n"
        "Bob,2,,S,1,,2024-01-01,1,\"A NAT gateway, in a public subnet\",0,Delta,0,x,0,0,2,0\n", encoding="utf-8")
    r = read_responses([str(f)], keys)
    assert r.items == ["multi-q", "net-q"] and r.respondents == ["1", "2"]
    assert r.choices.tolist() == [[0b011, 0b001], [NOT_SEEN, 0b010]]
    assert any("Canvas question 103" in n.message for n in r.notes)
    assert any("'Delta' matches no option" in n.message and ":4:" in n.where for n in r.notes)


def test_moodle_responses_report_maps_name_or_text(tmp_path):
    keys = {"q-a": _key("q-a", ["o1", "o2", "o3"], ["o2"], ["Red", "Green", "Blue"], stem="Which colour is the go light?"),
            "q-b": _key("q-b", ["o1", "o2", "o3"], ["o1", "o3"], ["One", "Two", "Three"], multiple=True, stem="Odd numbers?")}
    f = tmp_path / "responses.csv"
    f.write_text(
        "Surname,First name,Email address,State,Started on,Completed,Time taken,Grade/2.00,"
        "Question 1,Response 1,Right answer 1,Question 2,Response 2,Right answer 2\n"
        "Lee,Ann,ann@example.org,Finished,2 March 2024  10:00 AM,x,1 min,2.00,q-a,Green,Green,Odd numbers?,One; Three,One; Three\n"
        "Lee,Ann,ann@example.org,Finished,1 March 2024  9:00 AM,x,1 min,0.00,q-a,Red,Green,Odd numbers?,Two,One; Three\n"
        "Ray,Bob,bob@example.org,In progress,1 March 2024  9:00 AM,-,-,-,q-a,-,Green,Odd numbers?,-,One; Three\n"
        "Ray,Bob,bob@example.org,Finished,1 March 2024  8:00 AM,x,1 min,0.00,q-a,-,Green,Odd numbers?,One,One; Three\n",
        encoding="utf-8")
    r = read_responses([str(f)], keys)
    assert r.respondents == ["ann@example.org", "bob@example.org"]
    assert r.choices.tolist() == [[0b001, 0b010], [0, 0b001]]  # Ann's first attempt (1 March) counts
    f.write_text("Surname,First name,State,Response 1\nLee,Ann,Finished,Green\n", encoding="utf-8")
    with pytest.raises(ResponsesError, match="no 'Question 1' column"):
        read_responses([str(f)], keys)


def test_fast_and_general_readers_agree_on_the_sample(tmp_path):
    """The plain long CSV is read without per-row objects; a file the general reader must take
    (CRLF line ends) gives the same matrix."""
    from qlint.itemanalysis import read_long
    from qlint.itemanalysis.bankkeys import load_keys
    from qlint.cli.config import load_config
    from conftest import REPO

    keys, _ = load_keys(load_config(REPO), [str(REPO / "bank")])
    sample = REPO / "examples" / "synthetic-responses.csv"
    text = sample.read_text(encoding="utf-8")
    assert read_long.fast_answers(str(sample), text, keys, []) is not None
    crlf = tmp_path / "crlf.csv"
    crlf.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    assert read_long.fast_answers(str(crlf), crlf.read_bytes().decode("utf-8"), keys, []) is None
    fast, general = read_responses([str(sample)], keys), read_responses([str(crlf)], keys)
    assert fast.items == general.items and fast.respondents == general.respondents
    assert np.array_equal(fast.choices, general.choices) and fast.choices.shape == (300, len(keys))
    # a repeated answer: the first counts on both paths
    dup = tmp_path / "dup.csv"
    dup.write_text(text + "synthetic-00001,mla-c01-deploy-async-inference,\n", encoding="utf-8")
    assert np.array_equal(read_responses([str(dup)], keys).choices, fast.choices)
