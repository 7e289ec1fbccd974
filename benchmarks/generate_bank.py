"""A deterministic synthetic question bank with planted near-duplicates and key leaks.

Text is built the way real certification banks repeat themselves: shared lead-in sentences
("Which solution meets these requirements ...?"), scenario sentences from a few hundred slot
fillers, option phrases drawn from a common pool of services and techniques, and a long tail
of rarer words (Zipf-distributed pseudo-words) so that unrelated questions still differ.

Planted near-duplicates copy an earlier question and change a few stem words (and sometimes
one option), then shuffle the options; each plant records its pair. Planted leaks copy one
question's key text into another question's stem.

    python benchmarks/generate_bank.py --questions 20000 --out /tmp/bank20k   # writes YAML files
"""

from __future__ import annotations

import argparse
import itertools
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DOMAINS = ("data-preparation", "model-development", "deployment-orchestration", "monitoring-security")
LEAD_INS = (
    "Which solution will meet these requirements with the LEAST operational overhead?",
    "Which solution will meet these requirements MOST cost-effectively?",
    "What should the engineer do to meet these requirements?",
    "Which combination of steps will meet these requirements?",
    "Which approach should the team use?",
    "Which service should the company choose?",
)
ORGS = ("A retail company", "A bank", "A research team", "A media startup", "An insurance firm", "A hospital",
        "A logistics company", "A game studio", "A telecom operator", "An online marketplace")
VERBS = ("trains", "deploys", "monitors", "stores", "labels", "transforms", "serves", "audits", "tunes", "retrains")
SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qui", "dro", "fen", "gal", "hob", "jex")


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))


@dataclass
class Generated:
    questions: list[dict[str, Any]]
    duplicates: list[tuple[str, str]] = field(default_factory=list)  # (original id, copy id)
    leaks: list[tuple[str, str]] = field(default_factory=list)  # (question whose key leaks, stem holder)


class Writer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        rng = self.rng
        self.vocab = sorted({_word(rng) for _ in range(6000)})
        self.cum_weights = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(self.vocab))))  # Zipf
        self.objects = [f"{_word(rng)} {_word(rng)} records" for _ in range(300)]
        self.options = [" ".join(_word(rng).capitalize() if i == 0 else _word(rng) for i in range(rng.randint(2, 6)))
                        for _ in range(2500)]

    def words(self, n: int) -> list[str]:
        return self.rng.choices(self.vocab, cum_weights=self.cum_weights, k=n)

    def stem(self) -> str:
        rng = self.rng
        sentences = [f"{rng.choice(ORGS)} {rng.choice(VERBS)} {rng.choice(self.objects)} "
                     f"{' '.join(self.words(rng.randint(8, 16)))}."]
        for _ in range(rng.randint(1, 3)):
            sentences.append(f"The {' '.join(self.words(rng.randint(10, 20)))}.")
        sentences.append(rng.choice(LEAD_INS))
        return " ".join(sentences)

    def question(self, n: int) -> dict[str, Any]:
        rng = self.rng
        texts = rng.sample(self.options, 4)
        key = rng.randrange(4)
        return {
            "format": 1, "id": f"gen-{n:06d}", "exam": "MLA-C01", "domain": rng.choice(DOMAINS), "type": "single",
            "status": "published", "stem": self.stem(),
            "trap": f"Candidates pick {texts[(key + 1) % 4]} because {' '.join(self.words(8))}.",
            "options": [{"id": f"o{i}", "text": t, "correct": i == key,
                         "rationale": f"{'Correct' if i == key else 'Incorrect'}: {' '.join(self.words(12))}."}
                        for i, t in enumerate(texts)],
            "explanation": f"{texts[key]} {' '.join(self.words(25))}.",
        }

    def near_copy(self, original: dict[str, Any], n: int) -> dict[str, Any]:
        """Change 1-6 stem words and sometimes one option, then shuffle the options."""
        rng = self.rng
        copy = {**original, "id": f"gen-{n:06d}", "options": [dict(o) for o in original["options"]]}
        words = copy["stem"].split()
        for _ in range(rng.randint(1, 6)):
            words[rng.randrange(len(words) - 12)] = rng.choice(self.vocab)  # keep the lead-in
        copy["stem"] = " ".join(words)
        if rng.random() < 0.3:
            victim = next(o for o in copy["options"] if not o["correct"])
            victim["text"] = rng.choice(self.options)
        rng.shuffle(copy["options"])
        return copy


def generate(count: int, seed: int = 20240501, duplicate_rate: float = 0.02, leak_rate: float = 0.001) -> Generated:
    w = Writer(seed)
    out = Generated([])
    while len(out.questions) < count:
        n = len(out.questions)
        if n > 10 and w.rng.random() < duplicate_rate:
            original = w.rng.choice(out.questions)
            out.questions.append(w.near_copy(original, n))
            out.duplicates.append((original["id"], out.questions[-1]["id"]))
            continue
        q = w.question(n)
        if n > 10 and w.rng.random() < leak_rate:
            source = w.rng.choice(out.questions)
            key = next(o["text"] for o in source["options"] if o["correct"])
            if len(key.split()) >= 4:
                q["stem"] = f"The team already uses {key} for this workload. " + q["stem"]
                out.leaks.append((source["id"], q["id"]))
        out.questions.append(q)
    return out


def write(gen: Generated, root: Path) -> list[Path]:
    """One YAML file per question under root/mla-c01/<domain>/ (JSON is valid YAML 1.2)."""
    import json

    paths = []
    for q in gen.questions:
        folder = root / "mla-c01" / q["domain"]
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{q['id']}.yaml"
        path.write_text(json.dumps(q, indent=1) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--questions", type=int, default=20000)
    p.add_argument("--seed", type=int, default=20240501)
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args()
    gen = generate(args.questions, args.seed)
    write(gen, args.out)
    print(f"{len(gen.questions)} questions, {len(gen.duplicates)} planted near-duplicates, "
          f"{len(gen.leaks)} planted leaks -> {args.out}")


if __name__ == "__main__":
    main()
