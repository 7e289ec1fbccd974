"""qlint analyze on ordering and matching questions: answers read from the generic CSV, scored as
the exports score them (exactly the key, or 1/k a step in place / a right pair), and a key with
two parts swapped found at the YAML line of the step or prompt."""

from __future__ import annotations

import itertools
import json
import shutil

import numpy as np
import pytest
import yaml

from conftest import REPO, script
from qlint.cli import main
from qlint.cli.config import load_config
from qlint.itemanalysis.bankkeys import load_keys
from qlint.itemanalysis.data import ANSWERED, Responses
from qlint.itemanalysis.stats import analyse, score

ORDERING = "bank/mla-c01/data-preparation/feature-store-ingest-order.yaml"
MATCHING = "bank/mla-c01/model-development/builtin-algorithm-match.yaml"


@pytest.fixture(scope="module")
def keys():
    keys, notes = load_keys(load_config(REPO), [str(REPO / "bank")])
    assert not notes, notes  # every sample question can be scored, ordering and matching included
    return keys


def _key_of(keys, path):
    return next(k for k in keys.values() if k.path.endswith(path))


def _raw(path):
    return yaml.safe_load((REPO / path).read_text(encoding="utf-8"))


def test_ordering_answers_score_as_the_exports_do(keys):
    """Every arrangement of the steps, scored against the YAML read independently: all-or-nothing
    is the keyed steps in key order; partial 1/k for each keyed step in its own place."""
    key = _key_of(keys, ORDERING)
    raw = _raw(ORDERING)
    keyed = [s["id"] for s in raw["steps"] if s.get("correct", True) is not False]
    every = [s["id"] for s in raw["steps"]]
    answers = [list(p) for n in range(len(keyed) + 1) for p in itertools.permutations(every, n)]
    masks = np.array([[key.read("|".join(a))[0] for a in answers]], dtype=np.int64).T
    for scoring in ("all-or-nothing", "partial"):
        got = score(masks, [key], scoring)[:, 0]
        want = [float(a == keyed) if scoring == "all-or-nothing" else
                sum(x == y for x, y in zip(a, keyed)) / len(keyed) for a in answers]
        assert got.tolist() == pytest.approx(want), scoring


def test_matching_answers_score_as_the_exports_do(keys):
    key = _key_of(keys, MATCHING)
    raw = _raw(MATCHING)
    match = {p["id"]: p["match"] for p in raw["prompts"]}
    responses = [r["id"] for r in raw["responses"]]
    rng = np.random.default_rng(5)
    answers = [{p: responses[int(rng.integers(len(responses)))] for p in match if rng.random() < 0.9} for _ in range(300)]
    answers.append(dict(match))
    cells = ["|".join(f"{p}={r}" for p, r in a.items()) for a in answers]
    masks = np.array([[key.read(c)[0] for c in cells]], dtype=np.int64).T
    for scoring in ("all-or-nothing", "partial"):
        got = score(masks, [key], scoring)[:, 0]
        want = [float(a == match) if scoring == "all-or-nothing" else
                sum(a.get(p) == r for p, r in match.items()) / len(match) for a in answers]
        assert got.tolist() == pytest.approx(want), scoring


def test_bad_ordering_and_matching_cells_are_named(keys):
    order, pairs = _key_of(keys, ORDERING), _key_of(keys, MATCHING)
    first, second = order.option_ids[:2]
    assert order.read("")[0] == 0  # seen and skipped
    assert order.read("nope")[1] == f"{order.id} has no step 'nope'"
    assert "with repeats" in order.read(f"{first}|{first}")[1]
    assert "orders" in order.read("|".join(sorted(order.accepts)))[1]  # more steps than the key has
    p, r = pairs.option_ids[0], pairs.matches[0]
    assert order.read(f"{second}|{first}")[0] == ANSWERED  # answered, every place wrong: not skipped
    assert pairs.read(f"{p}")[1].endswith("is not prompt=response")
    assert pairs.read(f"x={r}")[1].endswith(f"names no prompt of {pairs.id}")
    assert pairs.read(f"{p}=x")[1].endswith(f"names no response of {pairs.id}")
    assert pairs.read(f"{p}={r}|{p}={r}")[1].endswith("repeats its prompt")
    assert pairs.read(f"{p}={r}")[0] == ANSWERED | 1


def test_all_wrong_is_answered_not_skipped(keys):
    key = _key_of(keys, ORDERING)
    a, b, *rest = key.option_ids
    cells = [f"{b}|{a}|" + "|".join(rest), "", "|".join(key.option_ids)]
    r = Responses([key.id], ["x", "y", "z"], np.array([[key.read(c)[0]] for c in cells], dtype=np.int64))
    result = analyse(r, {key.id: key}, "partial")
    assert result.skipped[0] == pytest.approx(1 / 3)  # only the empty cell
    assert result.p[0] == pytest.approx((len(rest) / len(key.option_ids) + 0 + 1) / 3)


def test_simulated_cells_read_back_to_their_masks(keys):
    sim = script("simulate_responses")
    items = [keys[i] for i in sorted(keys)]
    plan = sim.plant(items, 1, 1, 14, swaps=2)
    choices = sim.simulate(items, 400, 14, plan)
    for j, key in enumerate(items):
        for mask in np.unique(choices[:, j]):
            assert key.read(sim.cell_of(key, int(mask)))[0] == mask, (key.id, int(mask))


@pytest.mark.parametrize("seed", [14, 15, 16])
def test_a_swapped_key_is_found_at_its_step_or_prompt(keys, seed):
    """Simulated learners who know the material put two adjacent parts the other way round: R002
    names one of the two, and no other ordering or matching item gets an R002."""
    from kit.analyze import findings

    sim = script("simulate_responses")
    items = [keys[i] for i in sorted(keys)]
    plan = sim.plant(items, 0, 0, seed, swaps=2)
    assert len(plan.swapped) == 2
    a = analyse(Responses([k.id for k in items], [str(i) for i in range(500)], sim.simulate(items, 500, seed, plan)),
                keys, "partial")
    found = {(item, pointer) for code, item, pointer in findings(a) if code == "R002"}
    for item, (i, i2) in plan.swapped.items():
        key = keys[item]
        assert {(item, key.pointer(i)), (item, key.pointer(i2))} & found, (item, found)
    assert {item for item, _ in found} <= set(plan.swapped), found


def test_analyze_cli_puts_part_findings_on_the_step_line(tmp_path, monkeypatch, capsys):
    for name in ("bank", "examples"):
        shutil.copytree(REPO / name, tmp_path / name)
    for f in REPO.glob("qlint.toml"):
        shutil.copy(f, tmp_path / f.name)
    monkeypatch.chdir(tmp_path)
    assert main(["analyze", "examples/synthetic-responses.csv", "--output-format", "json"]) == 1
    out = capsys.readouterr()
    assert "cannot be scored" not in out.err and "no option is marked correct" not in out.err
    found = [d for d in json.loads(out.out)["diagnostics"] if d["code"] == "R002" and d["path"].endswith(ORDERING)]
    assert found, out.out
    lines = (tmp_path / ORDERING).read_text(encoding="utf-8").splitlines()
    step = found[0]["pointer"].rsplit("/", 1)[1]
    step_id = _raw(ORDERING)["steps"][int(step)]["id"]
    assert lines[found[0]["line"] - 1].strip().startswith("- id:") and step_id in lines[found[0]["line"] - 1]


def test_lms_reports_say_ordering_and_matching_are_read_from_the_generic_csv(keys, tmp_path):
    """Canvas and Moodle summarise pair and order answers in their own words, which qlint does not
    map: the question is skipped with a note naming the generic CSV, not read as wrong answers."""
    from qlint.itemanalysis.readers import read_responses

    match, single = _key_of(keys, MATCHING), keys["mla-c01-deploy-async-inference"]
    f = tmp_path / "student_analysis.csv"
    f.write_text("name,id,sis_id,section,section_id,section_sis_id,submitted,attempt,"
                 f"\"101: {match.stem.strip()}\",1.0,\"102: {single.stem.strip()}\",1.0,n correct,n incorrect,score\n"
                 f"Ann,1,,S,1,,2024-01-01,1,whatever,1,\"{single.option_texts[0]}\",1,1,0,1\n", encoding="utf-8")
    r = read_responses([str(f)], keys)
    assert r.items == [single.id]
    assert [n.message for n in r.notes] == [f"Canvas question 101: {match.id} is a matching question; "
                                            "qlint reads its answers from the generic CSV only; skipped"]
