"""Write a deterministic, lint-clean practice bank of N questions for export tests and benchmarks.

    python tests/generate.py OUT [--count 1000] [--seed 5]

OUT gets `qlint.toml`, `bank/exams/gen-01.yaml` and `bank/gen-01/<domain>/<id>.yaml`. The same
count and seed always give the same bytes. Questions mix single and multiple response, Markdown
(code spans and blocks, lists, tables), Unicode, characters that XML, HTML, Markdown and GIFT
treat specially, `shuffle: false`, pinned options, references and related questions.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

EXAM = "GEN-01"
DOMAINS = [("ingest", "Data Ingestion & Storage", 30), ("train", "Model Training <Core>", 30),
           ("serve", "Serving: Endpoints/Batch", 25), ("guard", "Security \"and\" Governance", 15)]
# Distinct words so each option's text is recognisable in traps and explanations.
WORDS = ("amber basalt cobalt dolomite ember feldspar garnet hematite indigo jasper kyanite lazuli "
         "malachite nephrite obsidian peridot quartz rhodonite sapphire topaz umber vermilion "
         "wolframite xenotime yttrium zircon agate beryl citrine diopside").split()
NOUNS = ("pipeline cache queue index ledger shard replica buffer stream catalog registry gateway").split()
NEEDS = ("lowest latency", "strict audit trail", "offline replay", "encrypted transit",
         "elastic throughput", "exactly-once delivery")
FLAVOURS = ["plain", "code", "block", "list", "table", "unicode", "special"]


def _q(text: str) -> str:
    """A YAML double-quoted scalar (escapes backslash and quote; everything else is literal)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _block(text: str, indent: int) -> str:
    pad = " " * indent
    return "|\n" + "\n".join(pad + line if line else "" for line in text.rstrip("\n").split("\n"))


def question(i: int, rng: random.Random, domain: str, ids: list[str]) -> tuple[str, str]:
    qid = ids[i]
    multiple = i % 5 == 3
    keys_n = (3 if i % 10 == 8 else 2) if multiple else 1
    n_opts = keys_n + (3 if multiple else 3)
    words = rng.sample(WORDS, n_opts)
    noun = NOUNS[i % len(NOUNS)]
    need = NEEDS[i % len(NEEDS)]
    texts = [f"{w.capitalize()} {noun} mode" for w in words]
    key_idx = sorted(rng.sample(range(n_opts), keys_n))
    distractors = [j for j in range(n_opts) if j not in key_idx]
    trap_idx = distractors[0]
    flavour = FLAVOURS[i % len(FLAVOURS)]
    extra = {
        "plain": "",
        "code": f"\n\nThe current setting is `{noun}.size = {i % 7 + 2}`.",
        "block": f"\n\n```yaml\n{noun}:\n  size: {i % 7 + 2}\n  mode: legacy\n```",
        "list": "\n\nConstraints:\n\n- budget is fixed\n- traffic doubles at month end",
        "table": "\n\n| metric | today |\n|---|--:|\n| p99 latency | 180 ms |\n| errors | 0.4 % |",
        "unicode": "\n\nThe team works in Zürich and 東京; the goal is ≥ 99.9 % availability — café-grade.",
        "special": "\n\nLogs read `a ~ b = c # d {e} f: g` and tags like <b>bold</b> & \"quotes\" 'single' \\ back.",
    }[flavour]
    choose_word = {2: "TWO", 3: "THREE"}.get(keys_n, "")
    lead = (f"Which options meet the {need} requirement? (Choose {choose_word}.)" if multiple
            else f"Which {noun} mode meets the {need} requirement?")
    stem = (f"Scenario {i + 1}: a team runs a {noun} for workload {qid} and needs the {need} "
            f"at minimum cost.{extra}\n\n{lead}")
    trap = (f"Candidates pick {texts[trap_idx]} because it looks familiar, and miss that the stem asks "
            f"for the {need} at minimum cost.")
    lines = [
        "# yaml-language-server: $schema=../../../../schema/question.schema.json",
        "format: 1",
        f"id: {qid}",
        f"exam: {EXAM}",
        f"domain: {domain}",
        f"type: {'multiple' if multiple else 'single'}",
    ]
    if multiple:
        lines.append(f"choose: {keys_n}")
    lines += [
        f"status: {('review' if i % 9 == 4 else 'published') if i % 50 != 49 else 'draft'}",
        f"difficulty: {('easy', 'medium', 'hard')[i % 3]}",
        f"tags: [{noun}, gen-{i % 4}]",
    ]
    if i % 10 == 6:
        lines.append("shuffle: false")
    lines += ["", f"stem: {_block(stem, 2)}", "", f"trap: {_block(trap, 2)}", "", "options:"]
    for j, text in enumerate(texts):
        correct = j in key_idx
        lines += [f"  - id: opt-{words[j]}", f"    text: {_q(text)}", f"    correct: {'true' if correct else 'false'}"]
        if correct:
            rationale = f"Correct: {text} meets the {need} requirement because it keeps the {noun} within budget."
        else:
            rationale = f"{text} adds work on every request, so the {need} goal is missed in this scenario."
        lines.append(f"    rationale: {_block(rationale, 6)}")
        if not correct:
            lines.append(f"    right_when: {_block(f'It would be the better choice when the {noun} is idle most of the day.', 6)}")
            if j == trap_idx:
                lines.append(f"    why_chosen: {_q(f'It is the {noun} default.')}")
        lines.append("")
    if i % 25 == 12:  # a pinned last option that shuffling must leave in place
        lines += ["  - id: none-of-these", "    text: None of the other modes", "    correct: false", "    pinned: true",
                  f"    rationale: {_block(f'At least one listed {noun} mode fits this scenario, so this option fails.', 6)}",
                  f"    right_when: {_block('It would be the better choice when every listed mode breaks a constraint.', 6)}", ""]
    key_names = " and ".join(texts[k] for k in key_idx)
    explanation = (f"{key_names} {'meet' if keys_n > 1 else 'meets'} the {need} requirement at minimum cost "
                   f"because {'they keep' if keys_n > 1 else 'it keeps'} the {noun} work bounded per request.")
    lines += [f"explanation: {_block(explanation, 2)}", ""]
    lines += ["references:", f"  - title: {_q(f'Guide to the {noun} & its modes')}",
              f"    url: https://example.com/docs/{noun}?page={i}#modes"]
    related = ids[i + 1] if i + 1 < len(ids) else ids[0]
    lines.append(f"related: [{related}]")
    return qid, "\n".join(lines) + "\n"


def generate(out: Path, count: int = 1000, seed: int = 5) -> list[Path]:
    rng = random.Random(seed)
    bank = out / "bank"
    (bank / "exams").mkdir(parents=True, exist_ok=True)
    (out / "qlint.toml").write_text('bank = "bank"\nexams = "bank/exams"\n', encoding="utf-8")
    exam = ["format: 1", f"code: {EXAM}", "name: Generated Practice Exam", "domains:"]
    for d, name, weight in DOMAINS:
        exam += [f"  - id: {d}", f"    name: {_q(name)}", f"    weight: {weight}"]
    (bank / "exams" / "gen-01.yaml").write_text("\n".join(exam) + "\n", encoding="utf-8")
    ids = [f"gen-{i:04d}-{DOMAINS[i % len(DOMAINS)][0]}" for i in range(count)]
    paths = []
    for i in range(count):
        domain = DOMAINS[i % len(DOMAINS)][0]
        qid, text = question(i, rng, domain, ids)
        path = bank / EXAM.lower() / domain / f"{qid}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    print(f"wrote {len(generate(args.out, args.count, args.seed))} questions under {args.out}")


if __name__ == "__main__":
    main()
