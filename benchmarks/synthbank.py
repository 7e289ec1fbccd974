"""Deterministic synthetic question banks: the one generator for benchmarks and tests.

- `generate(OUT, N)`: N questions across two exams and their domains, with text lengths like the
  sample bank's (~2.2 KB a file), a few planted flaws (missing rationale, two keys) and planted
  near-duplicates (`*-dup` ids); `python benchmarks/synthbank.py OUT N [--seed S]`.
- `grow(OUT, N)`: questions grown from the sample bank, most with findings like real banks
  (`--grown`).
- `practice(OUT, N)`: a schema-valid, Markdown-rich project for export and scale tests (`--practice`).
- `planted(N)`: questions in memory with recorded near-duplicate and key-leak pairs.

Same arguments, same bytes.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
    """Write `n` files grown from the sample bank: file i is sample file i mod (their number) with
    each text word replaced, with probability `rate`, by a word drawn from the sample's own text,
    and each field of LEFT_OUT dropped with its probability. Ids get the copy's suffix, and so do
    the ids a copy refers to (related questions, its case study, a case's items), so each copy of
    the sample is a consistent bank of its own. Same seed, same bytes."""
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
        grown = re.sub(r"^case: (\S+)$", lambda m: f"case: {m[1]}{suffix}", grown, count=1, flags=re.M)
        if path.parent.name == "cases":  # its items, one id per line
            grown = re.sub(r"^(  - )([a-z0-9][a-z0-9-]*)$", lambda m: f"{m[1]}{m[2]}{suffix}", grown, flags=re.M)
        drop = frozenset(k for k, share in LEFT_OUT.items() if rng.random() < share)
        target = out / path.relative_to(REPO / "bank").parent / f"{path.stem}{suffix}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_rewrite_text_fields(grown, change, drop), encoding="utf-8")


# --- practice banks: schema-valid, Markdown-rich questions for export and scale tests ------------------
# `practice(OUT, N)` writes a project (qlint.toml, bank/exams, bank/<exam>/<domain>/<id>.yaml) of N
# questions mixing single and multiple response, Markdown (code spans and blocks, lists, tables),
# Unicode, characters that XML, HTML, Markdown and GIFT treat specially, `shuffle: false`, pinned
# options, references and related questions. With `exams=2` the questions alternate between two
# exams, each getting the whole variety.

PRACTICE_EXAMS = {
    "GEN-01": ("Generated Practice Exam", [("ingest", "Data Ingestion & Storage", 30), ("train", "Model Training <Core>", 30),
                                           ("serve", "Serving: Endpoints/Batch", 25), ("guard", "Security \"and\" Governance", 15)]),
    "GEN-02": ("Generated Practice Exam Two", [("secure", "Security & Compliance", 50), ("operate", "Operations <Day 2>", 50)]),
}
# Distinct words so each option's text is recognisable in traps and explanations.
PRACTICE_WORDS = ("amber basalt cobalt dolomite ember feldspar garnet hematite indigo jasper kyanite lazuli "
                  "malachite nephrite obsidian peridot quartz rhodonite sapphire topaz umber vermilion "
                  "wolframite xenotime yttrium zircon agate beryl citrine diopside").split()
PRACTICE_NOUNS = ("pipeline cache queue index ledger shard replica buffer stream catalog registry gateway").split()
NEEDS = ("lowest latency", "strict audit trail", "offline replay", "encrypted transit",
         "elastic throughput", "exactly-once delivery")
FLAVOURS = ["plain", "code", "block", "list", "table", "unicode", "special"]


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (escapes backslash and quote; everything else is literal)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _practice_block(text: str, indent: int) -> str:
    pad = " " * indent
    return "|\n" + "\n".join(pad + line if line else "" for line in text.rstrip("\n").split("\n"))


def practice_question(i: int, nth: int, rng: random.Random, exam: str, domain: str, ids: list[str], k: int) -> tuple[str, str]:
    """Question i (its text follows i), the nth of its exam (its form follows nth: every exam gets
    multiple response, `shuffle: false`, pinned options), in a practice bank of k exams."""
    qid = ids[i]
    multiple = nth % 5 == 3
    keys_n = (3 if nth % 10 == 8 else 2) if multiple else 1
    n_opts = keys_n + (3 if multiple else 3)
    words = rng.sample(PRACTICE_WORDS, n_opts)
    noun = PRACTICE_NOUNS[i % len(PRACTICE_NOUNS)]
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
        f"exam: {exam}",
        f"domain: {domain}",
        f"type: {'multiple' if multiple else 'single'}",
    ]
    if multiple:
        lines.append(f"choose: {keys_n}")
    lines += [
        f"status: {('review' if nth % 9 == 4 else 'published') if nth % 50 != 49 else 'draft'}",
        f"difficulty: {('easy', 'medium', 'hard')[nth % 3]}",
        f"tags: [{noun}, gen-{nth % 4}]",
    ]
    if nth % 10 == 6:
        lines.append("shuffle: false")
    lines += ["", f"stem: {_practice_block(stem, 2)}", "", f"trap: {_practice_block(trap, 2)}", "", "options:"]
    for j, text in enumerate(texts):
        correct = j in key_idx
        lines += [f"  - id: opt-{words[j]}", f"    text: {_quoted(text)}", f"    correct: {'true' if correct else 'false'}"]
        if correct:
            rationale = f"Correct: {text} meets the {need} requirement because it keeps the {noun} within budget."
        else:
            rationale = f"{text} adds work on every request, so the {need} goal is missed in this scenario."
        lines.append(f"    rationale: {_practice_block(rationale, 6)}")
        if not correct:
            lines.append(f"    right_when: {_practice_block(f'It would be the better choice when the {noun} is idle most of the day.', 6)}")
            if j == trap_idx:
                lines.append(f"    why_chosen: {_quoted(f'It is the {noun} default.')}")
        lines.append("")
    if nth % 25 == 12:  # a pinned last option that shuffling must leave in place
        lines += ["  - id: none-of-these", "    text: None of the other modes", "    correct: false", "    pinned: true",
                  f"    rationale: {_practice_block(f'At least one listed {noun} mode fits this scenario, so this option fails.', 6)}",
                  f"    right_when: {_practice_block('It would be the better choice when every listed mode breaks a constraint.', 6)}", ""]
    key_names = " and ".join(texts[k] for k in key_idx)
    explanation = (f"{key_names} {'meet' if keys_n > 1 else 'meets'} the {need} requirement at minimum cost "
                   f"because {'they keep' if keys_n > 1 else 'it keeps'} the {noun} work bounded per request.")
    lines += [f"explanation: {_practice_block(explanation, 2)}", ""]
    lines += ["references:", f"  - title: {_quoted(f'Guide to the {noun} & its modes')}",
              f"    url: https://example.com/docs/{noun}?page={i}#modes"]
    related = ids[i + k] if i + k < len(ids) else ids[i % k]  # the next question of its exam
    lines.append(f"related: [{related}]")
    return qid, "\n".join(lines) + "\n"


def practice(out: Path, count: int = 1000, seed: int = 5, exams: int = 1) -> Path:
    """Write the practice project of `count` questions over the first `exams` exams; returns `out`.
    The same arguments always give the same bytes."""
    rng = random.Random(seed)
    bank = out / "bank"
    (bank / "exams").mkdir(parents=True, exist_ok=True)
    (out / "qlint.toml").write_text('bank = "bank"\nexams = "bank/exams"\n', encoding="utf-8")
    chosen = list(PRACTICE_EXAMS.items())[:exams]
    for code, (name, domains) in chosen:
        lines = ["format: 1", f"code: {code}", f"name: {name}", "domains:"]
        for d, title, weight in domains:
            lines += [f"  - id: {d}", f"    name: {_quoted(title)}", f"    weight: {weight}"]
        (bank / "exams" / f"{code.lower()}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    k = len(chosen)
    slots = [(code, domains[(i // k) % len(domains)][0]) for i, (code, (_, domains)) in
             ((i, chosen[i % k]) for i in range(count))]
    ids = [f"gen-{i:04d}-{domain}" for i, (_, domain) in enumerate(slots)]
    for i, (code, domain) in enumerate(slots):
        qid, text = practice_question(i, i // k, rng, code, domain, ids, k)
        path = bank / code.lower() / domain / f"{qid}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return out


# --- planted banks: near-duplicates and key leaks whose pairs are known ------------------------------
# `planted(N)` builds N questions in memory the way real certification banks repeat themselves
# (shared lead-ins, slot fillers, a common pool of option phrases, a Zipf tail of rare words), with
# planted near-duplicates (an earlier question with a few stem words changed, options shuffled) and
# planted key leaks (one question's key text in another's stem), each recorded as a pair; for the
# bank rules' recall and speed (benchmarks/bench_bank.py, tests/test_bank_scale.py).

PLANTED_DOMAINS = ("data-preparation", "model-development", "deployment-orchestration", "monitoring-security")
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
PLANTED_VERBS = ("trains", "deploys", "monitors", "stores", "labels", "transforms", "serves", "audits", "tunes", "retrains")
PLANTED_SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qui", "dro", "fen", "gal", "hob", "jex")


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(PLANTED_SYLLABLES) for _ in range(rng.randint(2, 4)))


@dataclass
class Planted:
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
        sentences = [f"{rng.choice(ORGS)} {rng.choice(PLANTED_VERBS)} {rng.choice(self.objects)} "
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
            "format": 1, "id": f"gen-{n:06d}", "exam": "MLA-C01", "domain": rng.choice(PLANTED_DOMAINS), "type": "single",
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


def planted(count: int, seed: int = 20240501, duplicate_rate: float = 0.02, leak_rate: float = 0.001) -> Planted:
    w = Writer(seed)
    out = Planted([])
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


def write_planted(gen: Planted, root: Path) -> list[Path]:
    """One YAML file per question under root/mla-c01/<domain>/ (JSON is valid YAML 1.2)."""
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
    p.add_argument("out", type=Path)
    p.add_argument("n", type=int)
    p.add_argument("--seed", type=int, default=None, help="default: 7, or 16 with --grown, 5 with --practice")
    p.add_argument("--grown", action="store_true", help="grow the questions from the sample bank (most files have findings)")
    p.add_argument("--practice", action="store_true", help="a schema-valid, Markdown-rich project (qlint.toml, bank/) for exports")
    p.add_argument("--exams", type=int, default=1, choices=(1, 2), help="with --practice: over one or two exams")
    args = p.parse_args()
    if args.grown:
        grow(args.out, args.n, 16 if args.seed is None else args.seed)
        print(f"wrote {args.n} questions grown from the sample bank to {args.out}")
        return
    if args.practice:
        practice(args.out, args.n, 5 if args.seed is None else args.seed, args.exams)
        print(f"wrote a practice project of {args.n} questions to {args.out}")
        return
    pairs = generate(args.out, args.n, 7 if args.seed is None else args.seed)
    print(f"wrote {args.n} questions (+{len(pairs)} near-duplicates) to {args.out}")


if __name__ == "__main__":
    main()
