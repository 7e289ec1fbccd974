"""scripts/plant_flaws.py: the reason and leftover rules (K016-K018, F004, F005) find the flaws planted
in copies of clean items and flag none of the clean ones (issue 23 point 3)."""

from __future__ import annotations

from conftest import script


# K017 reads the writer's voice only in a sentence about the answer, so a bare "I'm not 100% sure
# about this one." passes (docs/rules-design.md): 15 of its 20 sample-bank plants are caught.
FLOORS = {"K017": 0.75}


def _run(held: bool = False):
    pf = script("plant_flaws")
    pf.HELD = held
    try:
        return pf, pf.run(pf.bank_items(), seed=23)
    finally:
        pf.HELD = False


def test_planted_flaws_are_caught_and_clean_items_are_not_flagged():
    pf, result = _run()
    row = result["corpora"]["sample-bank"]
    assert row["items"] >= 20
    for code in pf.RULES_MEASURED:
        assert row["planted"][code] >= 10, code
        assert row["caught"][code] >= FLOORS.get(code, 0.9) * row["planted"][code], (code, row["caught"][code], row["planted"][code])
        assert row["clean"][code] == 0, code


def test_held_out_phrasings_are_the_only_ones_planted_with_the_flag():
    pf, result = _run(held=True)
    used = {(code, phr) for code, phr in result["phrasings"]}
    assert used and all(phr in pf.HELD_OUT[code] for code, phr in used)
    assert {code for code, _ in used} == set(pf.RULES_MEASURED)


def test_a_plant_counts_only_where_it_was_planted():
    pf = script("plant_flaws")
    item = pf.bank_items()[0]
    import random

    data, pointer, _ = pf.plant_f005(item.data, random.Random(1), True)
    checker = pf.Checker(("F005",))
    found = checker.findings(item, data) - checker.findings(item)
    assert found == {("F005", pointer)}
