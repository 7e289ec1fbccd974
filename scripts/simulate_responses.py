"""Simulated learners' answers, for the item-analysis tests, the benchmark and the shipped sample.

Each respondent has an ability theta ~ N(0, 1); each item a discrimination a and difficulty b.
A respondent knows the answer with the 2PL probability 1 / (1 + exp(-1.7 a (theta - b))) and
then picks the right option(s); otherwise they guess among all options by each option's pull.
Planted faults: a *miskeyed* item's bank key is not what knowers pick (they pick one of the
bank's distractors, the real answer); a *dead* distractor has almost no pull; a *misordered*
ordering or matching item's key has two parts swapped (knowers put those two steps the other
way round, or give those two prompts each other's match). Guessers at an ordering item put
steps at random places; at a matching item they pair each prompt with a random response.

    python scripts/simulate_responses.py --bank bank --respondents 300 --out examples/synthetic-responses.csv
"""

from __future__ import annotations

import argparse
import csv
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from qlint.itemanalysis.data import ANSWERED, ItemKey  # noqa: E402

DEAD_PULL = 0.01


@dataclass
class Plan:
    miskeyed: dict[str, int] = field(default_factory=dict)  # item -> the option knowers really pick
    dead: dict[str, set[int]] = field(default_factory=dict)  # item -> options with no pull
    swapped: dict[str, tuple[int, int]] = field(default_factory=dict)  # ordering/matching item -> parts swapped


def synthetic_keys(k: int = 65, seed: int = 1, multiple_every: int = 9) -> list[ItemKey]:
    """k four-option single-answer items, every `multiple_every`-th a five-option choose-two item."""
    rng = np.random.default_rng(seed)
    keys = []
    for j in range(k):
        multiple = multiple_every and j % multiple_every == multiple_every - 1
        m = 5 if multiple else 4
        picks = rng.choice(m, size=2 if multiple else 1, replace=False)
        mask = sum(1 << int(i) for i in picks)
        ids = tuple(f"o{i + 1}" for i in range(m))
        keys.append(ItemKey(f"sim-{j + 1:03d}", f"sim-{j + 1:03d}.yaml", ids, tuple(f"Option {i + 1} of item {j + 1}" for i in range(m)),
                            mask, bool(multiple), f"Simulated item {j + 1}"))
    return keys


def plant(keys: list[ItemKey], miskeys: int, dead: int, seed: int = 2, swaps: int = 0) -> Plan:
    """Miskey `miskeys` single-answer items, kill one distractor of `dead` other items and swap
    two adjacent parts of `swaps` ordering or matching items."""
    rng = np.random.default_rng(seed)
    plan = Plan()
    parts = [k for k in keys if not k.is_choice]
    part_rng = np.random.default_rng(seed + 1)  # its own stream: the other plants stay as they were
    for idx in part_rng.choice(len(parts), size=min(swaps, len(parts)), replace=False):
        k = parts[int(idx)]
        i = int(part_rng.integers(k.n_options - 1))
        plan.swapped[k.id] = (i, i + 1)
    single = [k for k in keys if not k.multiple]
    chosen = rng.choice(len(single), size=miskeys + dead, replace=False)
    for n, idx in enumerate(chosen):
        k = single[int(idx)]
        wrong = [i for i in range(k.n_options) if not k.keymask >> i & 1]
        if n < miskeys:
            plan.miskeyed[k.id] = int(rng.choice(wrong))
        else:
            plan.dead[k.id] = {int(rng.choice(wrong))}
    return plan


def simulate(keys: list[ItemKey], n: int, seed: int = 3, plan: Plan | None = None) -> np.ndarray:
    """(n, k) bit masks of the options each respondent chose."""
    plan = plan or Plan()
    rng = np.random.default_rng(seed)
    theta = rng.standard_normal(n)
    out = np.zeros((n, len(keys)), dtype=np.int64)
    for j, key in enumerate(keys):
        # multiple-response items, scored all-or-nothing, get little from guessing: drawn easier
        a, b = rng.uniform(1.0, 2.0), rng.uniform(-1.0, 0.3) if key.multiple else rng.uniform(-0.5, 0.9)
        knows = rng.random(n) < 1 / (1 + np.exp(-1.7 * a * (theta - b)))
        if not key.is_choice:  # guessers put steps at random places or pair prompts at random
            i, i2 = plan.swapped.get(key.id, (0, 0))
            right = ANSWERED | (key.keymask & ~(1 << i) & ~(1 << i2) if key.id in plan.swapped else key.keymask)
            out[:, j] = np.where(knows, right, [_guess_parts(key, rng) for _ in range(n)])
            continue
        right = key.keymask
        if key.id in plan.miskeyed:
            right = 1 << plan.miskeyed[key.id]
        pull = rng.uniform(0.8, 1.2, key.n_options)
        for i in plan.dead.get(key.id, ()):
            pull[i] = DEAD_PULL
        how_many = bin(right).count("1")
        guess = np.zeros(n, dtype=np.int64)
        if how_many == 1:  # one draw per guesser, all at once
            guess = (1 << rng.choice(key.n_options, size=n, p=pull / pull.sum())).astype(np.int64)
        else:
            for r in np.flatnonzero(~knows):
                picks = rng.choice(key.n_options, size=how_many, replace=False, p=pull / pull.sum())
                guess[r] = sum(1 << int(i) for i in picks)
        out[:, j] = np.where(knows, right, guess)
    return out


def _guess_parts(key: ItemKey, rng: np.random.Generator) -> int:
    if key.kind == "ordering":
        steps = sorted(key.accepts)
        order = [steps[int(i)] for i in rng.permutation(len(steps))[:key.n_options]]
        return key.read("|".join(order))[0]
    responses = sorted(key.accepts)
    return key.read("|".join(f"{p}={responses[int(rng.integers(len(responses)))]}" for p in key.option_ids))[0]


def cell_of(key: ItemKey, mask: int) -> str:
    """An answer cell whose mask is `mask`: options chosen; or steps and pairs right where the
    mask says, wrong elsewhere (the wrong steps placed so none lands in its own place)."""
    right = [i for i in range(key.n_options) if mask >> i & 1]
    if key.is_choice:
        return "|".join(key.option_ids[i] for i in right)
    if not mask & ANSWERED:
        return ""
    if key.kind == "matching":
        wrong = lambda i: min(r for r in key.accepts if r != key.matches[i])  # noqa: E731
        return "|".join(f"{p}={key.matches[i] if i in right else wrong(i)}" for i, p in enumerate(key.option_ids))
    order = list(key.option_ids)
    off = [i for i in range(key.n_options) if i not in right]
    if len(off) == 1:  # one step out of place: only a distractor step can stand there
        order[off[0]] = min(key.accepts - set(key.option_ids))
    for n, i in enumerate(off if len(off) > 1 else ()):
        order[i] = key.option_ids[off[(n + 1) % len(off)]]
    return "|".join(order)


def write_csv(path: Path, keys: list[ItemKey], choices: np.ndarray) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["respondent", "question", "selected"])
        for r in range(choices.shape[0]):
            for j, key in enumerate(keys):
                w.writerow([f"synthetic-{r + 1:05d}", key.id, cell_of(key, int(choices[r, j]))])


def bank_keys(bank: Path) -> list[ItemKey]:
    from qlint.itemanalysis.bankkeys import load_keys
    from qlint.cli.config import load_config

    keys, _ = load_keys(load_config(bank.resolve().parent), [str(bank)])
    return [keys[i] for i in sorted(keys)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bank", type=Path, default=None, help="simulate the questions of this bank (default: 65 synthetic items)")
    p.add_argument("--respondents", type=int, default=500)
    p.add_argument("--miskeys", type=int, default=1)
    p.add_argument("--dead", type=int, default=1)
    p.add_argument("--swaps", type=int, default=1, help="ordering or matching items whose key has two parts swapped")
    p.add_argument("--seed", type=int, default=14)
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    keys = bank_keys(args.bank) if args.bank else synthetic_keys()
    plan = plant(keys, args.miskeys, args.dead, args.seed, args.swaps)
    write_csv(args.out, keys, simulate(keys, args.respondents, args.seed, plan))
    print(f"{args.out}: {args.respondents} synthetic respondents x {len(keys)} items; "
          f"miskeyed: {sorted(plan.miskeyed)}; dead distractors: {sorted(plan.dead)}; "
          f"parts swapped: {sorted(plan.swapped.items())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
