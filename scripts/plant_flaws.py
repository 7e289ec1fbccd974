#!/usr/bin/env python3
"""Recall of the reason and leftover rules (K016-K018, F004, F005) on flaws planted in real items.

    .venv/bin/python scripts/plant_flaws.py               # sample bank + the nine corpora of ../shared/corpora
    .venv/bin/python scripts/plant_flaws.py --limit 300   # at most 300 items per corpus (seeded)

For every choice question of the sample bank and the converted corpora (kept in memory), one copy
per rule gets one planted flaw, its phrasing drawn (seeded) from the rule's list below, written
here for this purpose: a distractor's rationale replaced by a verdict or by its own option's text
(K016), a doubt added to the explanation or the key's rationale (K017), a distractor's rationale or
the explanation calling another option correct too (K018, single-answer items), an editor's note
or placeholder marker added to the stem, the explanation, an option or a rationale (F004), an
answer mark added to the key's text or the stem (F005); nothing is planted in an explanation the
source lacks (those findings are left out, as on real text). A plant is *caught* when the rule reports
at the planted field a finding the unplanted item does not have; K016's plants are also counted
as caught by K001 or K016 together, since K001 owns the short verdicts. The clean rate is the
share of unplanted items the rule flags at all (those findings are judged on real text with
scripts/realtext.py, not here). Intervals are Wilson 95%.
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO / "src"))

import corpora  # noqa: E402
from corruption import Checker, Item, bank_items, wilson  # noqa: E402

RULES_MEASURED = ("K016", "K017", "K018", "F004", "F005")
LETTERS = "ABCDEFGHIJ"

VERDICTS = (
    "{t} is not the correct answer to this question.", "This option is incorrect for this scenario.",
    "Option {L} is wrong here.", "This is not the right answer in this case.", "{t}.",
    "The answer is not {t}.", "Esta opción es incorrecta.", "Diese Antwort ist falsch.",
    "{t} is incorrect.", "That choice is simply wrong.",
)
DOUBTS = (
    "I think this is the right answer.", "We are not sure whether this is still correct.",
    "Some sources say otherwise.", "The question is ambiguous.", "This answer may be outdated.",
    "In my opinion, this is the best answer.", "It is arguably the best answer.",
    "This may not be the correct answer.", "I'm not 100% sure about this one.", "Creo que esta es la respuesta.",
)
SECOND_KEYS = (
    "{t} is also a correct answer.", "This option would also be correct.", "{t} is equally valid.",
    "{t} is correct as well.", "Also a valid answer.",
)
SECOND_KEYS_EXPL = ("Option {L} could also be correct.", "Both options are correct.", "{t} would also be a correct answer.")
NOTES = (
    "[Note to editor: check this figure.]", "(ref needed)", "TBD", "[check figures]", "???",
    "[Reviewer: reword this]", "Lorem ipsum dolor sit amet.", "[citation needed]",
    "Editor's note: confirm the limit.", "(to be confirmed)",
)
MARKS = (" (correct)", " <-- answer", " **correct**", " \u2713", " [answer]", " (right answer)")
STEM_MARKS = (" Answer: {L}", " (Correct answer: {L})")
# Written after the rules, never used to change them: how the rules fare on wordings they were not
# written against (--held-out plants only these).
HELD_OUT = {
    "K016": ("Not correct for this question.", "This alternative is not valid.", "{t} does not apply here.",
             "Wrong choice, sorry.", "Sorry, {t} is not right."),
    "K017": ("I believe this is correct, though I'm not certain.", "The official answer is disputed.",
             "Experts disagree on this one.", "This key might be wrong.", "Not sure about this."),
    "K018": ("{t} would be correct too.", "Either option would be right.", "{t} can also be considered correct.",
             "There are two correct answers here."),
    "F004": ("(verify)", "[fix wording]", "NOTE TO SELF: update the figure.", "[insert diagram here]", "XXX: confirm"),
    "F005": (" (Correct)", " <= correct", " - correct answer", " (answer)"),
}


def _text(o: dict[str, Any]) -> str:
    return str(o.get("text") or "").strip().rstrip(".")


def _choice(rng: random.Random, code: str, own: tuple[str, ...]) -> str:
    return rng.choice(HELD_OUT[code] if HELD else own)


HELD = False  # --held-out


def _pick(rng: random.Random, items: list[int]) -> int:
    return items[rng.randrange(len(items))]


Plant = tuple[dict, str, str]  # (planted data, pointer, phrasing template)


def plant_k016(data: dict, rng: random.Random, expl: bool) -> Plant | None:
    wrong = [i for i, o in enumerate(data["options"]) if not o.get("correct")]
    if not wrong:
        return None
    i, phr = _pick(rng, wrong), _choice(rng, "K016", VERDICTS)
    q = copy.deepcopy(data)
    q["options"][i]["rationale"] = phr.format(t=_text(q["options"][i]), L=LETTERS[i])
    return q, f"/options/{i}/rationale", phr


def plant_k017(data: dict, rng: random.Random, expl: bool) -> Plant | None:
    keys = [i for i, o in enumerate(data["options"]) if o.get("correct")]
    phr = _choice(rng, "K017", DOUBTS)
    q = copy.deepcopy(data)
    if keys and (rng.random() < 0.5 or not expl):
        i = _pick(rng, keys)
        q["options"][i]["rationale"] = (str(q["options"][i].get("rationale") or "").rstrip() + " " + phr).strip()
        return q, f"/options/{i}/rationale", phr
    q["explanation"] = (str(q.get("explanation") or "").rstrip() + " " + phr).strip()
    return q, "/explanation", phr


def plant_k018(data: dict, rng: random.Random, expl: bool) -> Plant | None:
    wrong = [i for i, o in enumerate(data["options"]) if not o.get("correct")]
    if data.get("type", "single") != "single" or not wrong:
        return None
    i = _pick(rng, wrong)
    q = copy.deepcopy(data)
    fill = {"t": _text(q["options"][i]), "L": LETTERS[i]}
    if rng.random() < 0.5 or not expl:
        phr = _choice(rng, "K018", SECOND_KEYS)
        q["options"][i]["rationale"] = (str(q["options"][i].get("rationale") or "").rstrip() + " " + phr.format(**fill)).strip()
        return q, f"/options/{i}/rationale", phr
    phr = _choice(rng, "K018", SECOND_KEYS_EXPL)
    q["explanation"] = (str(q.get("explanation") or "").rstrip() + " " + phr.format(**fill)).strip()
    return q, "/explanation", phr


def plant_f004(data: dict, rng: random.Random, expl: bool) -> Plant | None:
    phr = _choice(rng, "F004", NOTES)
    q = copy.deepcopy(data)
    where = rng.choice(("stem", "explanation", "option", "rationale") if expl else ("stem", "option", "rationale"))
    if where in ("stem", "explanation"):
        q[where] = (str(q.get(where) or "").rstrip() + " " + phr).strip()
        return q, f"/{where}", phr
    field = "text" if where == "option" else "rationale"
    # an empty rationale that becomes "TBD" is a whole-text placeholder: K001's, not a note in text
    has = [i for i, o in enumerate(q["options"]) if field == "text" or str(o.get("rationale") or "").strip()]
    if not has:
        field, has = "text", list(range(len(q["options"])))
    i = _pick(rng, has)
    q["options"][i][field] = (str(q["options"][i].get(field) or "").rstrip() + " " + phr).strip()
    return q, f"/options/{i}/{field}", phr


def plant_f005(data: dict, rng: random.Random, expl: bool) -> Plant | None:
    keys = [i for i, o in enumerate(data["options"]) if o.get("correct")]
    if not keys:
        return None
    i = _pick(rng, keys)
    q = copy.deepcopy(data)
    if rng.random() < 0.25 and not HELD:
        phr = rng.choice(STEM_MARKS)
        q["stem"] = str(q["stem"]).rstrip() + phr.format(L=LETTERS[i])
        return q, "/stem", phr
    phr = _choice(rng, "F005", MARKS)
    q["options"][i]["text"] = str(q["options"][i]["text"]).rstrip() + phr
    return q, f"/options/{i}/text", phr


PLANTERS: dict[str, Callable[[dict, random.Random, bool], Plant | None]] = {
    "K016": plant_k016, "K017": plant_k017, "K018": plant_k018, "F004": plant_f004, "F005": plant_f005,
}


def run(items: list[Item], seed: int = 23, limit: int | None = None) -> dict[str, Any]:
    checker = Checker(("K001", *RULES_MEASURED))
    by_corpus: dict[str, list[Item]] = defaultdict(list)
    for it in items:
        if it.data.get("type", "single") in ("single", "multiple"):
            by_corpus[it.corpus].append(it)
    out: dict[str, Any] = {"corpora": {}, "phrasings": defaultdict(lambda: [0, 0])}
    for corpus, pool in by_corpus.items():
        rng = random.Random(f"{seed}-{corpus}")
        if limit and len(pool) > limit:
            pool = rng.sample(pool, limit)
        row = {"items": len(pool), "clean": defaultdict(int), "planted": defaultdict(int),
               "caught": defaultdict(int), "caught_k001": 0}
        for it in pool:
            before = checker.findings(it)
            for code in {c for c, _ in before}:
                row["clean"][code] += 1
            for code, planter in PLANTERS.items():
                planted = planter(it.data, random.Random(f"{seed}-{corpus}-{it.data['id']}-{code}"),
                                  bool(it.data.get("explanation")) and "explanation" not in it.missing)
                if planted is None:
                    continue
                data, pointer, phr = planted
                new = checker.findings(it, data) - before
                hit = (code, pointer) in new
                row["planted"][code] += 1
                row["caught"][code] += hit
                out["phrasings"][(code, phr)][0] += hit
                out["phrasings"][(code, phr)][1] += 1
                if code == "K016" and (hit or ("K001", pointer) in new):
                    row["caught_k001"] += 1
        out["corpora"][corpus] = row
    return out


def _rate(k: int, n: int) -> str:
    if not n:
        return "-"
    lo, hi = wilson(k, n)
    return f"{k}/{n} = {k / n:.2f} ({lo:.2f}-{hi:.2f})"


def table(result: dict[str, Any]) -> str:
    lines = ["| corpus | items | rule | caught / planted | clean items flagged |", "|---|---:|---|---|---|"]
    for corpus, row in result["corpora"].items():
        for code in RULES_MEASURED:
            caught = _rate(row["caught"][code], row["planted"][code])
            if code == "K016":
                caught += f"; with K001: {_rate(row['caught_k001'], row['planted'][code])}"
            clean = _rate(row["clean"][code], row["items"])
            lines.append(f"| {corpus} | {row['items']} | {code} | {caught} | {clean} |")
    lines += ["", "| rule | phrasing | caught / planted |", "|---|---|---|"]
    for (code, phr), (k, n) in sorted(result["phrasings"].items()):
        lines.append(f"| {code} | `{phr.strip()}` | {k}/{n} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--limit", type=int, default=None, help="at most this many items per corpus (seeded)")
    ap.add_argument("--held-out", action="store_true", help="plant only the held-out phrasings")
    args = ap.parse_args(argv)
    global HELD
    HELD = args.held_out
    items = bank_items()
    if corpora.available():
        items += [Item(c.corpus, c.data, set(c.missing)) for c in corpora.convert()]  # all nine
    print(table(run(items, args.seed, args.limit)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
