"""Deterministic synthetic question banks for benchmarks and scale tests.

`python benchmarks/synthbank.py OUT N [--seed S]` writes N questions across two exams and their
domains, with text lengths like the sample bank's (~2.2 KB a file), a few planted flaws
(missing rationale, two keys) and planted near-duplicates (`*-dup` ids). Same seed, same bytes.
"""

from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

EXAMS = {
    "MLA-C01": ["data-preparation", "model-development", "deployment-orchestration", "monitoring-security"],
    "BENCH-X1": ["storage", "networking", "identity"],
}
BENCH_EXAM = """format: 1
code: BENCH-X1
name: Benchmark exam
domains:
  - {id: storage, name: Storage, weight: 40}
  - {id: networking, name: Networking, weight: 35}
  - {id: identity, name: Identity, weight: 25}
"""
NOUNS = ("pipeline endpoint dataset feature cluster bucket table stream notebook registry metric alarm role policy "
         "subnet gateway volume snapshot container image schedule workflow checkpoint artifact partition index "
         "replica shard queue topic function trigger label annotation baseline drift threshold latency throughput "
         "budget quota tenant account region zone catalog crawler job instance fleet batch shadow canary variant").split()
VERBS = ("stores streams scales encrypts monitors labels trains deploys tunes audits replicates partitions caches "
         "routes filters validates compresses shards schedules retries throttles aggregates profiles").split()
# Option names use their own vocabulary, so keys don't repeat stem words (a real bank's cue rules
# would flag that) and the benchmark bank lints mostly clean, like a real one.
OPTION_WORDS = ("Kinesis Firehose Glue Athena Redshift Lambda Fargate Aurora DynamoDB Neptune Timestream "
                "Inspector Macie Comprehend Textract Rekognition Polly Lex Kendra Forecast Personalize Braket "
                "Lightsail Outposts Snowball Transfer DataSync Backup Config Shield").split()
ADJ = ("managed durable private regional encrypted serverless batch real-time incremental distributed isolated "
       "versioned cost-effective low-latency high-throughput fault-tolerant auditable").split()


# A vocabulary the size of a real bank's (thousands of words), so shingles repeat across
# questions about as often as in real text: a tiny vocabulary makes every question look alike.
_SYLLABLES = "ka lo mi te ru sa ve no di pa fi go hu ze bo ly ci ra mu ne".split()
VOCAB = sorted({a + b + c for a in _SYLLABLES for b in _SYLLABLES for c in ("", "n", "s", "r", "l")})


def _sentence(rng: random.Random, words: int) -> str:
    out = []
    while len(out) < words:
        out += [rng.choice(ADJ), rng.choice(NOUNS), rng.choice(VERBS), "the", rng.choice(VOCAB), rng.choice(VOCAB)]
    text = " ".join(out[:words])
    return text[0].upper() + text[1:] + "."


def _para(rng: random.Random, words: int) -> str:
    parts, left = [], words
    while left > 0:
        n = min(left, rng.randint(9, 16))
        parts.append(_sentence(rng, n))
        left -= n
    return " ".join(parts)


def _block(text: str, indent: int) -> str:
    pad = " " * indent
    words, lines, line = text.split(), [], ""
    for w in words:
        if len(line) + len(w) + 1 > 76 - indent and line:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    lines.append(line)
    return "|\n" + "\n".join(pad + l for l in lines) + "\n"


def question(i: int, rng: random.Random, exam: str, domain: str, flaw: str = "") -> str:
    qid = f"bench-{i:06d}"
    key = rng.randrange(4)
    names = [" ".join(rng.sample(OPTION_WORDS, 3)) for _ in range(4)]
    while len(set(names)) < 4:
        names = [" ".join(rng.sample(OPTION_WORDS, 3)) for _ in range(4)]
    opts = []
    for j, name in enumerate(names):
        correct = j == key or (flaw == "two-keys" and j == (key + 1) % 4)
        lines = [f"  - id: opt-{j}", f"    text: {name}", f"    correct: {'true' if correct else 'false'}"]
        if not (flaw == "no-rationale" and j == 0):
            verdict = "Correct because it meets the requirement: " if j == key else "It falls short here: "
            lines.append("    rationale: " + _block(verdict + _para(rng, 18), 6).rstrip("\n"))
        if j != key:
            lines.append("    right_when: " + _block("It would be the better choice when " + _para(rng, 9), 6).rstrip("\n"))
        opts.append("\n".join(lines))
    trap = f"Candidates pick {names[(key + 1) % 4]} because " + _para(rng, 20)
    expl = f"{names[key]} is the answer. " + _para(rng, 30)
    return (
        "# yaml-language-server: $schema=../../../schema/question.schema.json\n"
        f"format: 1\nid: {qid}\nexam: {exam}\ndomain: {domain}\ntype: single\nstatus: published\n"
        f"difficulty: {rng.choice(['easy', 'medium', 'hard'])}\ntags: [{rng.choice(NOUNS)}, {rng.choice(NOUNS)}-ops]\n\n"
        f"stem: {_block(_para(rng, 42) + ' Which option should the team choose?', 2)}\n"
        f"trap: {_block(trap, 2)}\n"
        "options:\n" + "\n\n".join(opts) + "\n\n"
        f"explanation: {_block(expl, 2)}\n"
        "references:\n  - title: Service documentation\n    url: https://docs.example.com/guide.html\n"
    )


def generate(out: Path, n: int, seed: int = 7, dup_every: int = 500, flaw_every: int = 997) -> list[tuple[str, str]]:
    """Write the bank; return the planted near-duplicate pairs (original id, copy id)."""
    rng = random.Random(seed)
    if out.exists():
        shutil.rmtree(out)
    (out / "exams").mkdir(parents=True)
    shutil.copy(REPO / "bank" / "exams" / "mla-c01.yaml", out / "exams" / "mla-c01.yaml")
    (out / "exams" / "bench-x1.yaml").write_text(BENCH_EXAM, encoding="utf-8")
    plan = [(e, d) for e, ds in EXAMS.items() for d in ds]
    pairs = []
    for i in range(n):
        exam, domain = plan[i % len(plan)]
        flaw = ("no-rationale", "two-keys")[i % 2] if i % flaw_every == flaw_every - 1 else ""
        text = question(i, rng, exam, domain, flaw)
        folder = out / exam.lower() / domain
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"q{i:06d}.yaml").write_text(text, encoding="utf-8")
        if dup_every and i % dup_every == dup_every - 1 and i + 1 < n:
            # a near-duplicate: same question, one sentence of the stem reworded, new id
            dup = text.replace(f"id: bench-{i:06d}", f"id: bench-{i:06d}-dup", 1).replace("Which option", "Which choice", 1)
            (folder / f"q{i:06d}-dup.yaml").write_text(dup, encoding="utf-8")
            pairs.append((f"bench-{i:06d}", f"bench-{i:06d}-dup"))
    return pairs


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path)
    p.add_argument("n", type=int)
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args()
    pairs = generate(args.out, args.n, args.seed)
    print(f"wrote {args.n} questions (+{len(pairs)} near-duplicates) to {args.out}")


if __name__ == "__main__":
    main()
