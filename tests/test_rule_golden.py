"""Every rule's findings on fixed corpora, against a stored golden file: speed work on the rules
(shared views, prefilters, bank indexes) must not change a single result.

The corpora: the sample bank and a small generated bank with planted flaws and near-duplicates,
both linted end to end (positions, bank rules); the labelled rule-quality set; and questions
mutated from those (phrases spliced in, options swapped, keys flipped) to reach the rules' odd
branches: letter references, numbers, negations, combinations. Regenerate the golden file only
for an intended change of results, and review its diff:

    QLINT_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_rule_golden.py
"""

from __future__ import annotations

import copy
import json
import os
import random
import sys
from pathlib import Path

import pytest

from qlint.bank import Bank
from qlint.rules.context import RuleContext
from qlint.lint.engine import lint, load_exams, make_settings
from qlint.loading.schema import validate
from qlint.bank.entry import CaseEntry
from qlint.model import Case, Question
from qlint.project.config import Config
from qlint.cli.config import load_config
from qlint.rules import RULES

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
from synthbank import generate  # noqa: E402

GOLDEN = REPO / "tests" / "golden" / "rules.json"
UPDATE = os.environ.get("QLINT_UPDATE_GOLDEN") == "1"

# Phrases the rules look for, spliced into texts at random word boundaries.
SNIPPETS = (
    "option B", "Option E is correct.", "(C)", "A and D are correct.", "B. ", "answers A, C and D", "not", "NOT",
    "**NOT**", "EXCEPT", "LEAST likely", "LEAST operational overhead", "MOST cost-effective", "at least", "___",
    "[blank]", "(Choose TWO.)", "Select all that apply", "Which two", "Choose one", "always", "never", "only",
    "read-only", "usually", "may", "when", "an", "a", "is", "are", "15 minutes", "$0.05", "10-20 ms",
    "at least 4 GB", "None of the above", "All of the above", "A and C only", "1 and 3", "I and III",
    "Both A and B", "not uncommon", "don't", "cannot", "is the correct answer", "would be better when",
    "\x0b", "  \n", "every 90 days", "Incorrect.", "TBD", "designed for", "Which statement is true?",
    "1. first\n2. second\n", "*emphasis*", "__strong__", "`code span`", "<b>bold</b>", "an S3 bucket", "an hour",
    "Increase the batch size", "Decrease the batch size", "Which service", "so that data does not leave", "\n\n",
    "512 MB", "1 GB", "(A)", "Neither A nor B", "both", "DynamoDB",
)


def _line(q: Question, code: str, f) -> str:
    severity = "" if f.severity is None else f" [{f.severity.name.lower()}]"
    return f"{q.id} {code} {f.pointer}{severity}: {f.message}"


def item_findings(questions: list[Question], exams, skip: set[str] = frozenset()) -> list[str]:
    """Every item rule (all of them but `skip`, default options) on every question, in memory."""
    config = Config(root=REPO)
    rules = [r for code, r in sorted(RULES.items()) if r.scope == "item" and code not in skip]
    out = []
    for q in questions:
        for r in rules:
            if q.type in r.types:  # as the engine runs them
                out += [_line(q, r.code, f) for f in r.check(q, RuleContext(r, config, exams))]
    return out


def bank_findings(questions: list[Question], exams, cases: list[Case] = ()) -> list[str]:
    config = Config(root=REPO)
    bank = Bank.of_questions(questions, exams, {os.path.realpath(q.path) for q in (*questions, *cases)})
    bank.cases = [CaseEntry.of(c.path, c.data) for c in cases]
    by_path = {q.path: q for q in (*questions, *cases)}
    out = []
    for code, r in sorted(RULES.items()):
        if r.scope == "bank":
            out += [_line(by_path[f.path], code, f) for f in r.check(bank, RuleContext(r, config, exams, bank))]
    return out


def linted(root: Path, paths: list[str]) -> list[str]:
    """`qlint check --select ALL` from `root`: diagnostics as the text report shows them."""
    cwd = os.getcwd()
    os.chdir(root)
    try:
        settings = make_settings(load_config(root), select=["ALL"])
        result = lint(paths, settings)
    finally:
        os.chdir(cwd)
    return [f"{d.path}:{d.line}:{d.col}: {d.code} [{d.severity.name.lower()}] {d.message}" for d in result.diagnostics]


def _splice(rng: random.Random, text: str) -> str:
    if rng.random() < 0.15:
        return rng.choice(SNIPPETS)
    words = text.split(" ")
    for _ in range(rng.randint(1, 3)):
        words.insert(rng.randrange(len(words) + 1), rng.choice(SNIPPETS))
    return " ".join(words)


def mutants(pool: list[dict], n: int, seed: int = 11) -> list[dict]:
    """`n` schema-valid questions built from `pool` by splicing phrases and swapping parts."""
    rng = random.Random(seed)
    texts = {k: [q[k] for q in pool if isinstance(q.get(k), str)] for k in ("stem", "trap", "explanation")}
    options = [o for q in pool for o in q["options"]]
    out: list[dict] = []
    while len(out) < n:
        q = copy.deepcopy(rng.choice(pool))
        q["id"] = f"mutant-{len(out) - (len(out) % 37 == 36):03d}"  # a few ids used twice (B001)
        for k in ("stem", "trap", "explanation"):
            if rng.random() < 0.3:
                q[k] = rng.choice(texts[k])
            if rng.random() < 0.5 and isinstance(q.get(k), str):
                q[k] = _splice(rng, q[k])
        if rng.random() < 0.3:
            q["options"] = [dict(copy.deepcopy(rng.choice(options)), id=f"o{i}") for i in range(rng.randint(2, 7))]
        for o in q["options"]:
            for field in ("text", "rationale", "right_when"):
                if rng.random() < 0.25:
                    o[field] = _splice(rng, o[field] if isinstance(o.get(field), str) else "")
            if rng.random() < 0.1:
                o["correct"] = not o.get("correct")
        rng.shuffle(q["options"])
        if rng.random() < 0.2:
            q["type"], q["choose"] = "multiple", rng.randint(2, 4)
        if rng.random() < 0.1:
            q["shuffle"] = False
        if not validate("question", q):
            out.append(q)
    return out


def unicode_variants(base: dict) -> list[dict]:
    """A question disguised with invisible and look-alike characters, and with option data no
    export may carry (F002, F003, O006, O013, S005, S006): the mutants' phrases hold none."""
    out = []
    for change in (
        lambda q: q.update(stem="Which\u202e strategy? TO\u200bDO"),
        lambda q: q["options"][1].update(text=q["options"][0]["text"].replace("a", "\u0430", 1)),
        lambda q: q["options"][1].update(id=q["options"][0]["id"]),
        lambda q: q["options"][1].update(text="  \u00ad "),
        lambda q: q.update(explanation="\u0422ODO " + q["explanation"]),
        lambda q: q["options"][1].update(text="**" + q["options"][0]["text"] + "!**"),
    ):
        q = copy.deepcopy(base)
        change(q)
        out.append(q)
    return out


def leftover_variants(base: dict) -> list[dict]:
    """A question with one flaw of the reason and leftover rules each (K004, K016-K019, F004, F005): the
    mutants' phrases hold few of them, and adding phrases would reshuffle every mutant."""
    key = next(i for i, o in enumerate(base["options"]) if o.get("correct"))
    wrong = next(i for i, o in enumerate(base["options"]) if not o.get("correct"))
    out = []
    for change in (
        lambda q: q["options"][wrong].update(rationale=q["options"][wrong]["text"] + " is not the correct answer here."),
        lambda q: q.update(explanation="I think so, but some sources say otherwise. " + q["explanation"]),
        lambda q: q["options"][wrong].update(rationale="This option is also a correct answer."),
        lambda q: q.update(explanation=q["explanation"] + " [Note to editor: check the figures.]"),
        lambda q: q["options"][key].update(text=q["options"][key]["text"] + " (correct)"),
        lambda q: q.update(stem=q["stem"].rstrip() + " (Answer: B)"),
        # K004: an explanation that opens by arguing for a distractor and never names the key
        lambda q: q.update(explanation="Use " + q["options"][wrong]["text"] + " here, which fits this scenario well."),
        # K019: a distractor's kind of reason on the key (the lead-in's last words, negated)
        lambda q: q["options"][key].update(
            rationale="It is close, but it does not " + " ".join(q["stem"].rstrip(" ?").split()[-4:]) + "."),
    ):
        q = copy.deepcopy(base)
        q["type"] = "single"
        change(q)
        out.append(q)
    return out


TYPES = REPO / "tests" / "fixtures" / "types"


def type_variants(ordering: dict, matching: dict) -> list[dict]:
    """Ordering and matching questions with one planted flaw each, for the P rules' branches."""
    out = []
    for base, change in (
        (ordering, lambda q: q["steps"][1].pop("rationale")),
        (ordering, lambda q: q["steps"][0].update(rationale="TBD")),
        (ordering, lambda q: q["steps"][2].update(correct=False, right_when="Never.")),
        (ordering, lambda q: q["steps"][2].update(id=q["steps"][0]["id"])),
        (ordering, lambda q: q["steps"][1].update(text=q["steps"][0]["text"].upper())),
        (ordering, lambda q: [s.update(text=f"{n}. {s['text']}") for n, s in enumerate(q["steps"], 1)]),
        (ordering, lambda q: q["steps"][0].update(text="Finally, " + q["steps"][0]["text"])),
        (ordering, lambda q: q.update(trap="Candidates rush through the scenario under time pressure.")),
        (ordering, lambda q: q["steps"][0].update(rationale="Third: " + q["steps"][0]["rationale"])),
        (ordering, lambda q: q["steps"].reverse()),
        (ordering, lambda q: q["steps"][3].pop("right_when")),
        (matching, lambda q: q["responses"].pop()),
        (matching, lambda q: q["prompts"][0].update(match="no-such-response")),
        (matching, lambda q: q["prompts"][1].update(match=q["prompts"][0]["match"])),
        (matching, lambda q: q["prompts"][2].pop("rationale")),
        (matching, lambda q: q["responses"][4].pop("rationale")),
        (matching, lambda q: q["prompts"][0].update(rationale=q["prompts"][2]["rationale"] + " It audits.")),
        (matching, lambda q: q["responses"][1].update(id=q["prompts"][0]["id"])),
        (matching, lambda q: q["responses"][4].update(text=q["responses"][0]["text"])),
        (matching, lambda q: q.update(prompts=q["prompts"][:2])),
        (matching, lambda q: q.update(trap="Candidates confuse the tools under time pressure.")),
        (matching, lambda q: [p.update(text=p["text"] + " is a") for p in q["prompts"]]
         + [q["prompts"][0].update(text="A monitor for drift is an"),
            q["responses"][0].update(text="Amazon SageMaker Model Monitor")]),
    ):
        q = copy.deepcopy(base)
        change(q)
        q["id"] = f"{base['id']}-v{len(out):02d}"
        out.append(q)
    return out


def type_corpus() -> list[str]:
    """The P rules on planted flaws, and the case study rules on the fixtures' case with a
    question renamed, one left out and a case of one item."""
    import yaml

    def load(name: str) -> dict:
        return yaml.safe_load((TYPES / name).read_text(encoding="utf-8"))

    variants = [Question(f"types/{d['id']}.yaml", d) for d in type_variants(load("ordering.yaml"), load("matching.yaml"))]
    exams = _labelled()[2]
    members = [Question(f"types/{n}", load(n)) for n in ("case-single.yaml", "case-ordering.yaml")]
    members[0].data["id"] += "-renamed"
    case = load("cases/fraud-scoring.yaml")
    lonely = dict(case, id="types-case-lonely", items=[members[1].id])
    cases = [Case("types/cases/fraud-scoring.yaml", case), Case("types/cases/lonely.yaml", lonely)]
    return item_findings(variants, exams) + bank_findings(variants + members, exams, cases)


def _labelled():
    spec = REPO / "scripts" / "rule_quality.py"
    sys.path.insert(0, str(spec.parent))
    import rule_quality  # the labelled set's loader, shared with the scoring script

    items, unlabelled = rule_quality.load_set()
    return [it.question for it in items], unlabelled, rule_quality.load_exams()


def compute(tmp: Path) -> dict[str, list[str]]:
    # the labelled items have no rationales or traps by design: the rules on those (the set's
    # `unlabelled` codes) would only repeat one finding per item; the mutants cover them
    labelled, unlabelled, exams = _labelled()
    root = tmp / "generated"
    generate(root / "bank", 240, seed=7, dup_every=40, flaw_every=23)
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    settings = make_settings(load_config(REPO), select=["ALL"])
    load_exams(settings)
    sample = [Question(str(p), r.data) for p, r in sorted(lint([str(REPO / "bank")], settings).results.items())
              if r.valid and r.kind == "question"]
    pool = [q.data for q in labelled + sample if q.is_choice]  # the mutants swap options
    mutated = [Question(f"mutants/{i:03d}.yaml", d) for i, d in enumerate(mutants(pool, 100))]
    hidden = [Question(f"unicode/{i:02d}.yaml", d) for i, d in enumerate(unicode_variants(sample[0].data))]
    leftovers = [Question(f"leftovers/{i:02d}.yaml", d) for i, d in enumerate(leftover_variants(sample[0].data))]
    return {
        "sample": linted(REPO, ["bank"]),
        "unicode": item_findings(hidden, exams),
        "leftovers": item_findings(leftovers, exams),
        "generated": linted(root, ["bank"]),
        "labelled": item_findings(labelled, exams, unlabelled) + bank_findings(labelled, exams),
        "mutants": item_findings(mutated, exams) + bank_findings(mutated, exams),
        "types": type_corpus(),
    }


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return compute(tmp_path_factory.mktemp("golden"))


def test_rules_give_the_golden_results(results):
    if UPDATE:
        GOLDEN.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        pytest.skip(f"rewrote {GOLDEN.relative_to(REPO)}")
    assert GOLDEN.exists(), "no golden file: run with QLINT_UPDATE_GOLDEN=1 and review it"
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for corpus, lines in golden.items():
        assert results[corpus] == lines, f"{corpus}: rule results changed"


def test_golden_corpora_exercise_the_rules():
    """The golden file is only as strong as its corpora: most rules must have findings in it."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    codes = {line.split(" ")[1] for corpus in ("labelled", "mutants", "unicode", "types", "leftovers") for line in golden[corpus]}
    codes |= {line.split(": ")[1].split(" ")[0] for line in golden["generated"]}
    checking = {code for code, r in RULES.items() if r.scope in ("item", "bank")}
    # today B005, B012, K014 and S007: bank-wide rates, template siblings, a rationale-checked
    # argument and image files, which the generated mutants reach only by chance
    # The guide, lifecycle and retirement rules read what the golden corpora do not carry (task ids,
    # the lifecycle catalogue's services, retired questions): their rule cases and the planted set
    # of tests/test_lifecycle.py exercise them.
    catalogue_rules = {"G001", "V001", "V002", "V003", "V004", "V005", "B014", "B015"}
    # nor do they carry sign-offs or a frozen hash: tests/test_review.py plants the review rules' set
    catalogue_rules |= {"W001", "W002", "W003", "W004", "W005"}
    # The translation rules read translations, which no golden corpus holds: their rule cases and
    # the two-language sample bank of tests/test_translations.py exercise them.
    catalogue_rules |= {code for code, _ in RULES.items() if code.startswith("L")}
    assert len(checking - codes - catalogue_rules) <= 4, sorted(checking - codes)
