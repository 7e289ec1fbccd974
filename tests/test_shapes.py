"""Item shapes (qlint.prose.shapes) and the rule declarations the engine applies to them.

Every example is written here for the test (several languages), none is taken from a corpus."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from qlint.cli import main
from qlint.cli.config import load_config
from qlint.lint.engine import check_file, load_exams, make_settings
from qlint.model import Question
from qlint.prose import shapes as S
from qlint.rules import RULES, Finding, Rule, rule

from conftest import REPO


def _q(stem: str, *options: str, keys: tuple[int, ...] = (0,), type_: str = "single") -> Question:
    data = {"type": type_, "stem": stem,
            "options": [{"id": f"o{i}", "text": t, "correct": i in keys} for i, t in enumerate(options)]}
    return Question("q.yaml", data)


# --- true-false ---------------------------------------------------------------------------------

@pytest.mark.parametrize("pair", [
    ("True", "False"), ("false", "TRUE"), ("Yes", "No"), ("**True.**", "False."), ("Verdadero", "Falso"),
    ("Vrai", "Faux"), ("Vero", "Falso"), ("Richtig", "Falsch"), ("Wahr", "Falsch"), ("Sim", "Não"),
    ("正确", "错误"), ("Верно", "Неверно"), ("Doğru", "Yanlış"), ("صحيح", "خطأ"), ("はい", "いいえ"),
])
def test_true_false_pairs_in_many_languages(pair):
    assert S.is_true_false(pair)
    assert S.TRUE_FALSE in S.shapes(_q("Whales are fish.", *pair))


@pytest.mark.parametrize("pair", [
    ("True", "Maybe"), ("Vrai", "Falsch"),  # two languages mixed: no pair
    ("True", "False", "Unknown"), ("It is true", "It is false"), ("Yes", "Yes"), ("Increase", "Decrease"),
])
def test_not_true_false(pair):
    assert not S.is_true_false(pair)


# --- code ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "`undefined`", "`[1, 2, 3]`", '`"abc"`', "undefined", "[1, 2]", "{a: 1}", '"abc"', "x => x * 2",
    "a === b", "kubectl get pods -n kube-system", "git rebase -i HEAD~3", "ls -la /tmp", "Math.max(1, 2)",
    "console.log", "`NaN` and `undefined`", "```\nprint(1)\n```", "count = 0", '"1" + 2',
])
def test_code_options(text):
    assert S.is_code_option(text)


@pytest.mark.parametrize("text", [
    "True", "False", "None", "Amazon S3", "Use a smaller batch size", "12", "3/4", "Multi-AZ deployment",
    '"The Long Night"', "(a) and (c)", "Use `kubectl` to scale the deployment by hand before the sale",
    "cat", "Data parallelism",
])
def test_prose_options_are_not_code(text):
    assert not S.is_code_option(text)


def test_code_options_shape_needs_half_the_options():
    assert S.CODE_OPTIONS in S.shapes(_q("What is logged?", "`1`", "`NaN`", "An error", "Nothing"))
    assert S.CODE_OPTIONS not in S.shapes(_q("What is logged?", "`1`", "An error is thrown", "Nothing", "A warning"))


@pytest.mark.parametrize("stem,expected", [
    ("What does this print?\n\n```js\nconsole.log(1)\n```", True),
    ("What does `typeof null` return?", True),
    ("Given:\n\n    x = [1, 2]\n\nwhat is len(x)?", True),
    ("Which service stores objects?", False),
])
def test_code_stem(stem, expected):
    assert (S.CODE_STEM in S.shapes(_q(stem, "a", "b"))) is expected


# --- numeric ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["12", "12 km/h", "$4.50", "25%", "3/4", "Rs. 500", "Less than 24 hours", "2√3",
                                  "x = 4", "1,200 metres", "-3.5"])
def test_numeric_options(text):
    assert S.is_numeric_option(text)


@pytest.mark.parametrize("text", ["Amazon S3", "Use 3 replicas across availability zones for safety", "Level one",
                                  "EC2 instance store volumes"])
def test_not_numeric_options(text):
    assert not S.is_numeric_option(text)


def test_numeric_shape_needs_most_options():
    assert S.NUMERIC in S.shapes(_q("How far did she walk?", "12 km", "15 km", "18 km", "Cannot be determined"))
    assert S.NUMERIC not in S.shapes(_q("Which is cheapest?", "S3 Glacier", "S3 Standard", "$4", "EBS"))


# --- statement, clue ----------------------------------------------------------------------------

@pytest.mark.parametrize("stem", [
    "Whales are fish.", "This gas makes up most of the air we breathe.", "La ballena es un pez.",
    "Cette planète est la plus proche du Soleil.", "Dieser Fluss fließt durch Wien.",
])
def test_statements(stem):
    assert S.STATEMENT in S.shapes(_q(stem, "a", "b"))


@pytest.mark.parametrize("stem", [
    "Which gas makes up most of the air?", "The gas that makes up most of the air is", "Complete: ___ is a gas.",
    "Select the gas that makes up most of the air.", "¿Cuál es el río más largo?", "Choose the best answer:",
    "Identify the noble gas.",
])
def test_not_statements(stem):
    assert S.STATEMENT not in S.shapes(_q(stem, "a", "b"))


@pytest.mark.parametrize("stem,clue", [
    ("This gas makes up most of the air we breathe.", True),
    ("Cette planète est la plus proche du Soleil.", True),
    ("Questo pittore ha dipinto la Gioconda.", True),
    ("Whales are fish.", False),
    ("Which planet is this?", False),  # a question, not a statement
])
def test_clues(stem, clue):
    assert (S.CLUE in S.shapes(_q(stem, "a", "b"))) is clue


# --- select-n -----------------------------------------------------------------------------------

@pytest.mark.parametrize("q,expected", [
    (_q("Which services store objects? (Choose TWO.)", "a", "b", "c"), True),
    (_q("Which three of these are gases?", "a", "b", "c", "d"), True),
    (_q("¿Qué servicios almacenan objetos? Elige dos.", "a", "b", "c"), True),
    (_q("Which service stores objects?", "a", "b", "c", keys=(0, 2), type_="multiple"), True),
    (_q("Which service stores objects?", "a", "b", "c"), False),
    (_q("Two teams share a bucket. Which policy fits?", "a", "b", "c"), False),
])
def test_select_n(q, expected):
    assert (S.SELECT_N in S.shapes(q)) is expected


def test_shapes_are_computed_once_per_question():
    q = _q("Whales are fish.", "True", "False")
    assert S.shapes(q) is S.shapes(q)


# --- declarations -------------------------------------------------------------------------------

def test_unknown_shape_in_a_declaration_is_refused():
    with pytest.raises(ValueError, match="unknown item shape 'true-flase'"):
        rule("T099", "made-up", "warning", abstains=("true-flase",))(lambda q, ctx: ())
    assert "T099" not in RULES


def test_bank_rules_declare_no_shapes():
    with pytest.raises(ValueError, match="only item rules"):
        rule("B099", "made-up", "warning", scope="bank", abstains=("numeric",))(lambda b, ctx: ())


def _fake(**shapes) -> Rule:
    def check(q, ctx):
        yield Finding("/stem", "seen")
    return Rule("C006", "opposite-pair", RULES.get("C006").severity, "item", "x", "x", check, **shapes)


def test_on_shapes():
    tf = frozenset({S.TRUE_FALSE, S.STATEMENT})
    assert _fake(abstains=(S.TRUE_FALSE,)).on_shapes(tf) == "abstains"
    assert _fake(judges=(S.NUMERIC,)).on_shapes(tf) == "abstains"
    assert _fake(judges=(S.TRUE_FALSE,)).on_shapes(tf) == "judges"
    assert _fake(preview_on=(S.STATEMENT,)).on_shapes(tf) == "preview"
    assert _fake(preview_on=(S.NUMERIC,)).on_shapes(tf) == "judges"


TF_ITEM = {"format": 1, "id": "tf-item", "exam": "MLA-C01", "domain": "model-development", "type": "single",
           "status": "published", "stem": "Gradient descent always finds the global minimum.",
           "options": [{"id": "t", "text": "True", "correct": False}, {"id": "f", "text": "False", "correct": True}],
           "explanation": "Non-convex losses have local minima."}


def _codes(tmp_path: Path, monkeypatch, fake: Rule, **settings) -> list[str]:
    monkeypatch.setitem(RULES._items, "C006", fake)
    path = tmp_path / "tf.yaml"
    path.write_text(yaml.safe_dump(TF_ITEM), encoding="utf-8")
    s = make_settings(load_config(REPO), **settings)
    load_exams(s)
    return [d.code for d in check_file(str(path), s).diagnostics]


def test_engine_skips_a_rule_on_a_shape_it_abstains_on(tmp_path, monkeypatch):
    assert "C006" in _codes(tmp_path, monkeypatch, _fake())
    assert "C006" not in _codes(tmp_path, monkeypatch, _fake(abstains=(S.TRUE_FALSE,)))
    assert "C006" not in _codes(tmp_path, monkeypatch, _fake(abstains=(S.TRUE_FALSE,)), preview=True)
    assert "C006" in _codes(tmp_path, monkeypatch, _fake(abstains=(S.NUMERIC,)))


def test_engine_runs_a_preview_shape_only_in_preview_or_when_named(tmp_path, monkeypatch):
    fake = _fake(preview_on=(S.TRUE_FALSE,))
    assert "C006" not in _codes(tmp_path, monkeypatch, fake)
    assert "C006" in _codes(tmp_path, monkeypatch, fake, preview=True)
    assert "C006" in _codes(tmp_path, monkeypatch, fake, select=["C006"])
    assert "C006" in _codes(tmp_path, monkeypatch, fake, extend_select=["opposite-pair"])
    assert "C006" not in _codes(tmp_path, monkeypatch, fake, select=["C"])  # a prefix is not the code


def test_rule_docs_and_qlint_rule_show_the_shapes(monkeypatch, capsys):
    from qlint.rules.docs import render

    fake = replace(RULES.get("C006"), abstains=(S.TRUE_FALSE,), preview_on=(S.NUMERIC,))
    text = render(fake)
    assert "abstains on `true-false` items" in text and "preview on `numeric` items" in text
    monkeypatch.setitem(RULES._items, "C006", fake)
    assert main(["rule", "--shapes"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "true-false" in out
    assert any(line.strip().startswith("abstaining:") and "C006" in line for line in lines), out
    assert any(line.strip().startswith("preview on it:") and "C006" in line for line in lines), out
    assert main(["rule", "C006"]) == 0
    assert "abstains on `true-false`" in capsys.readouterr().out


def test_the_cache_fingerprint_covers_the_rules_source():
    # before: only qlint/lint/*.py was hashed, so a rule (or shape declaration) edited without a
    # version bump was served its old results from the cache
    from qlint.lint.runner import code_files

    names = {"/".join(f.parts[-2:]) for f in code_files()}
    assert {"rules/stem.py", "prose/shapes.py", "lint/engine.py"} <= names


def test_t001_is_preview_on_clue_stems(tmp_path):
    # a clue's negation is often the identifying fact ("This actor did not ..."): T001 runs there
    # only in preview mode or when selected by code
    item = dict(TF_ITEM, stem="One of these actors did not appear in the first film.",
                options=[{"id": f"o{i}", "text": t, "correct": i == 0} for i, t in enumerate(["Ann Lee", "Bo Diaz", "Cy Roe"])])
    path = tmp_path / "clue.yaml"
    path.write_text(yaml.safe_dump(item), encoding="utf-8")

    def codes(**kw):
        s = make_settings(load_config(REPO), **kw)
        load_exams(s)
        return [d.code for d in check_file(str(path), s).diagnostics]

    assert S.CLUE in S.shapes(Question(str(path), item))
    assert "T001" not in codes()
    assert "T001" in codes(preview=True) and "T001" in codes(select=["T001"])


# --- no-reasons ---------------------------------------------------------------------------------

def _reasoned(*reasons: str | None) -> Question:
    data = {"type": "single", "stem": "Which service stores objects?",
            "options": [{"id": f"o{i}", "text": f"Service {i}", "correct": i == 0,
                         **({"rationale": r} if r is not None else {})} for i, r in enumerate(reasons)]}
    return Question("q.yaml", data)


@pytest.mark.parametrize("reasons, expected", [
    ((None, None, None, None), True),
    (("It stores objects.", None, None, None), True),
    (("It stores objects.", "  ", None, "It queues messages."), False),
    (("It stores objects.", "It queues messages.", "It sends mail."), False),
])
def test_no_reasons(reasons, expected):
    assert (S.NO_REASONS in S.shapes(_reasoned(*reasons))) is expected


def test_k012_reads_a_short_paste_only_where_options_carry_reasons(tmp_path):
    # an explanation pasted from another question: reported when the options carry reasons (their
    # words tell a paste from a synonym); where they do not, only a paragraph that shares almost
    # nothing with the question is
    pasted = "Lifecycle policies move infrequently read objects to a cheaper storage class after thirty days of no access."
    base = {"format": 1, "id": "k012-shape", "exam": "MLA-C01", "domain": "model-development", "type": "single",
            "status": "published", "stem": "A transformer exceeds one GPU's memory. Which strategy splits its layers?",
            "trap": "Candidates pick data parallelism by habit.", "explanation": pasted,
            "options": [{"id": "data", "text": "Data parallelism", "correct": False,
                         "rationale": "Every GPU holds a full replica of the weights.", "right_when": "It fits on one GPU."},
                        {"id": "model", "text": "Model parallelism", "correct": True,
                         "rationale": "It places the layers on different GPUs."},
                        {"id": "tuning", "text": "Hyperparameter search", "correct": False,
                         "rationale": "Each tuning job trains a full copy.", "right_when": "The learning rate is unknown."}]}

    def codes(item, **kw):
        path = tmp_path / "q.yaml"
        path.write_text(yaml.safe_dump(item), encoding="utf-8")
        s = make_settings(load_config(REPO), **kw)
        load_exams(s)
        return [d.code for d in check_file(str(path), s).diagnostics]

    assert "K012" in codes(base)
    bare = dict(base, options=[{k: v for k, v in o.items() if k != "rationale"} for o in base["options"]])
    assert S.NO_REASONS in S.shapes(Question("q.yaml", bare))
    assert "K012" not in codes(bare) and "K012" not in codes(bare, preview=True)
    long = dict(bare, explanation=pasted + " Noncurrent versions expire automatically, and audit logs are archived in a "
                                           "second region, where compliance officers review retention settings every "
                                           "quarter before old backups are deleted.")
    assert "K012" in codes(long)
    # the writer's own words: an explanation that shares the reasons' words is this question's
    own = dict(base, explanation="Each GPU then holds only part of the weights, because the layers sit on different GPUs "
                                 "rather than a full replica on every one.")
    assert "K012" not in codes(own)
