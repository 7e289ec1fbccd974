"""A deterministic generator of schema-valid question banks for scale tests: same n, same bank.

Questions vary the way real ones do: single and multiple response, 3-6 options, pinned options,
`shuffle: false`, Markdown (code spans and blocks, lists, tables, emphasis), characters markup
cares about (`<`, `&`, quotes) and non-ASCII text, optional trap / why_chosen / references.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import yaml

_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml when available: 1,000 files quickly

EXAMS = {
    "GEN-01": ("Generated Exam One", ["storage", "compute", "networking"]),
    "GEN-02": ("Generated Exam Two", ["security", "operations"]),
}
WORDS = ("bucket queue cache index shard replica stream batch token policy role key endpoint "
         "pipeline model feature metric alarm snapshot volume cluster").split()
NONE_OF_THESE = "None of these options"


def _phrase(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _stem(rng: random.Random, i: int, choose: int) -> str:
    parts = [f"Scenario {i}: a team runs `{_phrase(rng, 2)}` jobs where latency < 5 ms & cost matter; "
             f"the lead says \"keep it simple\" (naïve approach ≤ 2 steps, 日本 region)."]
    if i % 7 == 0:
        parts.append("```python\nif load > limit and not cached:\n    scale(out=True)\n```")
    if i % 11 == 0:
        parts.append("| tier | limit |\n|---|--:|\n| hot | 10 |\n| cold | 1 |")
    if i % 5 == 0:
        parts.append(f"- first: {_phrase(rng, 3)}\n- second: **{_phrase(rng, 2)}**")
    lead = "Which option meets the requirement?" if choose == 1 else f"Which options meet the requirement? (Choose {choose}.)"
    parts.append(lead)
    return "\n\n".join(parts) + "\n"


def question(i: int, exam: str, domain: str, rng: random.Random) -> dict[str, Any]:
    multiple = i % 4 == 0
    choose = 2 + (i % 3 == 0) if multiple else 1
    n_options = max(choose + 2, 3 + i % 4)
    keys = set(rng.sample(range(n_options), choose))
    options = []
    for k in range(n_options):
        pinned_last = i % 9 == 0 and k == n_options - 1
        text = NONE_OF_THESE if pinned_last else f"Use {_phrase(rng, 3)} with *{rng.choice(WORDS)}* & <{rng.choice(WORDS)}>"
        correct = k in keys
        opt: dict[str, Any] = {"id": f"opt-{k}-{rng.choice(WORDS)}", "text": text, "correct": correct,
                               "rationale": ("Correct: " if correct else "") + f"it {_phrase(rng, 6)}; see `{rng.choice(WORDS)}`.\n"}
        if not correct:
            opt["right_when"] = f"When the {_phrase(rng, 4)} matters more than cost.\n"
            if k % 2:
                opt["why_chosen"] = f"It sounds like the {rng.choice(WORDS)} default."
        if pinned_last:
            opt["pinned"] = True
        options.append(opt)
    q: dict[str, Any] = {
        "format": 1,
        "id": f"{exam.lower()}-{domain}-q{i:04d}",
        "exam": exam,
        "domain": domain,
        "type": "multiple" if multiple else "single",
    }
    if multiple:
        q["choose"] = choose
    q.update({
        "status": ("published", "review")[i % 2],
        "difficulty": ("easy", "medium", "hard")[i % 3],
        "tags": sorted({rng.choice(WORDS) for _ in range(1 + i % 3)}),
    })
    if i % 13 == 0:
        q["shuffle"] = False
    q["stem"] = _stem(rng, i, choose)
    if i % 6:
        q["trap"] = f"Candidates pick the {rng.choice(WORDS)} option and miss the word **{rng.choice(WORDS)}**.\n"
    q["options"] = options
    q["explanation"] = f"The key {_phrase(rng, 8)}.\n\n1. {_phrase(rng, 3)}\n2. {_phrase(rng, 3)}\n"
    if i % 3:
        q["references"] = [{"title": f"Guide to {_phrase(rng, 2)} & more", "url": f"https://docs.example.com/{i}?a=1&b=2"}]
    return q


def generate(n: int, seed: int = 5) -> list[dict[str, Any]]:
    """n questions spread over the EXAMS' domains; `related` links neighbours in the same exam."""
    rng = random.Random(seed)
    slots = [(code, dom) for code, (_, doms) in EXAMS.items() for dom in doms]
    out = [question(i, *slots[i % len(slots)], rng) for i in range(n)]
    for i, q in enumerate(out):
        j = i + len(slots)
        if i % 2 and j < n:
            q["related"] = [out[j]["id"]]
    return out


def exam_data(code: str) -> dict[str, Any]:
    name, domains = EXAMS[code]
    return {"format": 1, "code": code, "name": name,
            "domains": [{"id": d, "name": d.title(), "weight": round(100 / len(domains), 2)} for d in domains]}


def write_bank(root: Path, n: int, seed: int = 5) -> Path:
    """A project folder (qlint.toml, bank/exams, bank/<exam>/<domain>/<id>.yaml); returns its root."""
    (root / "bank" / "exams").mkdir(parents=True, exist_ok=True)
    (root / "qlint.toml").write_text('bank = "bank"\nexams = "bank/exams"\n', encoding="utf-8")
    for code in EXAMS:
        (root / "bank" / "exams" / f"{code.lower()}.yaml").write_text(
            yaml.dump(exam_data(code), Dumper=_DUMPER, sort_keys=False, allow_unicode=True), encoding="utf-8")
    for q in generate(n, seed):
        folder = root / "bank" / q["exam"].lower() / q["domain"]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{q['id']}.yaml").write_text(
            yaml.dump(q, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8")
    return root
