"""Deterministic synthetic question banks for benchmarks and scale tests.

`python benchmarks/synthbank.py OUT N [--seed S]` writes N questions across two exams and their
domains, with text lengths like the sample bank's (~2.2 KB a file), a few planted flaws
(missing rationale, two keys) and planted near-duplicates (`*-dup` ids). Same seed, same bytes.
"""

from __future__ import annotations

import argparse
import random
import re
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
    return "|\n" + "\n".join(pad + ln for ln in lines) + "\n"


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


# A bank grown from the sample bank's questions, the way banks written by others differ from it:
# words substituted in the text fields (an option now repeats a stem word, a lead-in asks for a
# kind no option is, an explanation no longer names the key ...), and the fields such banks
# often lack left out (a trap, the distractors' right_when or rationales), so that like the real
# corpora most files have findings. Only text fields change, in place, so each file keeps the
# sample's layout (block scalars, comments, flow lists); ids get a round suffix, `related` too.
TEXT_KEYS = frozenset("stem trap text rationale right_when why_chosen explanation".split())
_KEY_LINE = re.compile(r"^( *)(- )?([A-Za-z_]+):(?: (.*))?$")
_WORD = re.compile(r"[A-Za-z]{3,}")
_SPECIAL = frozenset("true false yes no null off on".split())  # never start a plain scalar with these
# a field left out, with the share of grown questions that lack it
LEFT_OUT = {"trap": 0.5, "right_when": 0.5, "why_chosen": 0.5}


def _sample_questions() -> list[tuple[Path, str]]:
    return [(p, p.read_text(encoding="utf-8")) for p in sorted((REPO / "bank").rglob("*.yaml")) if "exams" not in p.parts]


def _text_words(texts: list[str]) -> list[str]:
    """Every word of the sample's text fields, repeats kept: substitutes come in their own frequencies."""
    words: list[str] = []
    for text in texts:
        _rewrite_text_fields(text, lambda s: (words.extend(_WORD.findall(s)), s)[1])
    return [w.lower() for w in words if w.lower() not in _SPECIAL]


def _rewrite_text_fields(text: str, change, drop: frozenset[str] = frozenset()) -> str:
    """`text` with `change` applied to the words of every text field, plain or block scalar, and
    the fields named in `drop` left out."""
    out, block, dropping = [], -1, False  # block: the indent a block scalar's lines must exceed, or -1
    for line in text.split("\n"):
        if block >= 0 and (not line.strip() or len(line) - len(line.lstrip(" ")) > block):
            if not dropping:
                out.append(change(line) if line.strip() else line)
            elif not line.strip():
                out.append(line)  # the blank line between options stays
            continue
        block, dropping = -1, False
        m = _KEY_LINE.match(line)
        if m and m[3] in TEXT_KEYS and m[4]:
            indent = len(m[1]) + (2 if m[2] else 0)
            dropping = m[3] in drop and not m[2]
            if m[4][0] in "|>":
                block = indent
            elif not dropping:
                line = line[: m.start(4)] + change(m[4])
            if dropping:
                continue
        out.append(line)
    return "\n".join(out)


def grow(out: Path, n: int, seed: int = 16, rate: float = 0.2) -> None:
    """Write `n` questions grown from the sample bank: question i is sample i mod 21 with each
    text word replaced, with probability `rate`, by a word drawn from the sample's own text, and
    each field of LEFT_OUT dropped with its probability. Same seed, same bytes."""
    rng = random.Random(seed)
    samples = _sample_questions()
    words = _text_words([t for _, t in samples])
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(REPO / "bank" / "exams", out / "exams")

    def change(s: str) -> str:
        def sub(m: re.Match) -> str:
            if rng.random() >= rate:
                return m[0]
            w = rng.choice(words)
            return w.capitalize() if m[0][0].isupper() else w
        return _WORD.sub(sub, s)

    for i in range(n):
        path, text = samples[i % len(samples)]
        suffix = f"-g{i // len(samples):05d}"
        grown = re.sub(r"^id: (\S+)$", lambda m: f"id: {m[1]}{suffix}", text, count=1, flags=re.M)
        grown = re.sub(r"^related: \[(.*)\]$", lambda m: "related: [" + ", ".join(
            f"{r.strip()}{suffix}" for r in m[1].split(",")) + "]", grown, count=1, flags=re.M)
        drop = frozenset(k for k, share in LEFT_OUT.items() if rng.random() < share)
        target = out / path.relative_to(REPO / "bank").parent / f"{path.stem}{suffix}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_rewrite_text_fields(grown, change, drop), encoding="utf-8")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path)
    p.add_argument("n", type=int)
    p.add_argument("--seed", type=int, default=None, help="default: 7, or 16 with --grown")
    p.add_argument("--grown", action="store_true", help="grow the questions from the sample bank (most files have findings)")
    args = p.parse_args()
    if args.grown:
        grow(args.out, args.n, 16 if args.seed is None else args.seed)
        print(f"wrote {args.n} questions grown from the sample bank to {args.out}")
        return
    pairs = generate(args.out, args.n, 7 if args.seed is None else args.seed)
    print(f"wrote {args.n} questions (+{len(pairs)} near-duplicates) to {args.out}")


if __name__ == "__main__":
    main()
