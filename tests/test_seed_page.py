"""The seed page (../shared/seeds/) imported with `qlint import --from page`, and its reworded
fixture, lint with no false errors (issue 12 point 6): no key-agreement finding, no error."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
import yaml

from qlint.lint.engine import check_file, load_exams, make_settings
from qlint.cli.config import load_config

from kit.authoring import make_project, run
from conftest import REPO, require_shared

SEED = ("seeds", "000_29ab6b21403c29f5.txt")
KEY_AGREEMENT = {"K003", "K004", "K010", "K011", "K012"}


def _diagnostics(root: Path, path: Path):
    settings = make_settings(load_config(root), select=["ALL"])
    load_exams(settings)
    return check_file(str(path), settings).diagnostics


def test_imported_seed_page_has_no_false_errors(tmp_path, monkeypatch, capsys):
    path = _import_seed(tmp_path, monkeypatch, capsys)
    found = _diagnostics(tmp_path, path)
    # the trap names data parallelism and the key equally (a contrast), and a distractor's
    # "would be the correct choice when ..." describes another scenario: neither is a flaw
    assert not [d for d in found if d.code in KEY_AGREEMENT], [d.message for d in found]
    assert not [d for d in found if str(d.severity) == "error"], [f"{d.code} {d.message}" for d in found]


def test_seed_like_fixture_has_no_false_errors():
    found = _diagnostics(REPO, REPO / "tests" / "fixtures" / "seed_like.yaml")
    assert not [d for d in found if d.code in KEY_AGREEMENT], [d.message for d in found]
    assert not [d for d in found if str(d.severity) == "error"], [f"{d.code} {d.message}" for d in found]


# --- issue 17 point 6: the imported seed gives nothing away, and every format uses its labels ------

def _import_seed(tmp_path, monkeypatch, capsys) -> Path:
    page = require_shared(*SEED)
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, _out, err = run(capsys, "import", "--from", "page", str(page), "--domain", "model-development")
    assert code == 0, err
    (path,) = [p for p in (tmp_path / "bank").rglob("*.yaml") if "exams" not in p.parts]
    return path


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def test_imported_seed_id_and_file_name_do_not_give_the_answer_away(tmp_path, monkeypatch, capsys):
    path = _import_seed(tmp_path, monkeypatch, capsys)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    (key,) = [o["text"] for o in data["options"] if o["correct"]]
    assert key == "Model parallelism"
    prefix = f"{data['exam'].lower()}-{data['domain']}-"
    assert data["id"].startswith(prefix)
    named = _words(data["id"].removeprefix(prefix)) | _words(path.stem)
    assert not named & _words(key), (data["id"], path.name)  # today: ...-model-parallelism
    assert not named & {w for o in data["options"] for w in _words(o["text"])}  # no option's words either
    assert _words(path.stem) <= _words(data["stem"])  # the name comes from the stem


def test_imported_seed_puts_when_it_would_be_right_and_why_it_tempts_in_their_fields(tmp_path, monkeypatch, capsys):
    """The seed's distractors say both inside the rationale, without the labels (issue 28 point 9):
    each such sentence moves to right_when or why_chosen, and the rest of the rationale stays."""
    path = _import_seed(tmp_path, monkeypatch, capsys)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    wrong = [o for o in data["options"] if not o["correct"]]
    assert len(wrong) == 3 and all(o.get("right_when") and o.get("rationale") for o in wrong), wrong
    assert sum(1 for o in wrong if o.get("why_chosen", "").startswith("It is tempting because ")) == 1, wrong
    assert any(o["right_when"].startswith("It would be the correct choice when ") for o in wrong), wrong
    for o in data["options"]:
        for phrase in ("would be the correct choice", "would be the right choice", "is tempting because", "suits scenarios"):
            assert phrase not in o.get("rationale", ""), (o["id"], o["rationale"])
    assert "right_when" not in next(o for o in data["options"] if o["correct"])
    assert not [d for d in _diagnostics(tmp_path, path) if str(d.severity) == "error"]


def test_gift_question_without_a_title_is_named_from_its_stem(tmp_path, monkeypatch, capsys):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "q.gift").write_text("Which service keeps features for low-latency reads during inference? "
                                     "{=Online feature store ~Offline feature store ~Amazon Athena}\n", encoding="utf-8")
    run(capsys, "import", "--from", "gift", "q.gift", "--exam", "MLA-C01", "--domain", "data-preparation")
    (path,) = [p for p in (tmp_path / "bank").rglob("*.yaml") if "exams" not in p.parts]
    assert "online" not in path.stem and "latency" in path.stem, path.name


def _export(fmt: str, tmp_path: Path, capsys, *paths: str) -> str:
    """Every text the export wrote, joined (zip entries included)."""
    out = tmp_path / f"out-{fmt}"
    code, _o, err = run(capsys, "export", "--format", fmt, "--output", str(out), "--status", "draft,review,published",
                        "--no-zip", *paths)
    assert code == 0, err
    files = [out] if out.is_file() else sorted(p for p in out.rglob("*") if p.is_file() and p.suffix in (".md", ".html", ".xml", ".gift", ".json"))
    return "\n".join(p.read_text(encoding="utf-8") for p in files)


def test_seed_markdown_folds_the_answer_below_the_choices(tmp_path, monkeypatch, capsys):
    path = _import_seed(tmp_path, monkeypatch, capsys)
    page = _export("markdown", tmp_path, capsys, str(path)).split("# MLA-C01", 1)[1]
    choices, rest = page.split("## Answer choices", 1)
    assert "Model parallelism" not in choices.split("\n", 1)[1]  # (the stem does not name it)
    folded = rest[rest.index("<details>"):rest.index("</details>")]
    assert rest.index("- **D.** Model parallelism") < rest.index("<details>")
    for part in ("## Correct answer & explanation", "## Option-by-option breakdown", "Why this is correct"):
        assert part in folded and part not in rest.replace(folded, "")
    # the seed says why one distractor tempts ("It is tempting because ..."): the intro promises it
    assert "For each option: why learners choose it and why it is or isn't the right answer here." in folded


@pytest.mark.parametrize("fmt", ["markdown", "html", "moodle", "gift", "canvas", "qti21", "qti30"])
def test_labels_are_the_seeds_in_every_format(fmt, tmp_path, monkeypatch, capsys, in_repo):
    sample = "bank/mla-c01/model-development/layer-split-across-gpus.yaml"  # has why_chosen and related
    text = html.unescape(_export(fmt, tmp_path, capsys, sample))
    assert "Why learners choose it" in text and "tempting" not in text.replace("It is tempting", "")
    if fmt in ("markdown", "html"):
        assert "Related to this question" in text and "Related questions" not in text
        assert "For each option: why learners choose it and why it is or isn't the right answer here." in text
        # the key's rationale opens with "Correct:": its card does not say "Why this is correct" over it
        assert "Correct: this strategy" in text and "Why this is correct" not in text


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_step_breakdown_promises_why_learners_choose_only_when_a_step_says(fmt, tmp_path, monkeypatch, capsys, in_repo):
    """As the option breakdown: the intro names "why learners choose it" when some step has it."""
    plain = REPO / "tests" / "fixtures" / "types" / "ordering.yaml"
    text = html.unescape(_export(fmt, tmp_path / "plain", capsys, str(plain)))
    assert "For each step: why it sits at its place in the order" in text and "why learners choose it" not in text
    chosen = tmp_path / "chosen.yaml"
    body = plain.read_text(encoding="utf-8")
    at = body.index("    right_when: |\n      Predictions are needed")
    chosen.write_text(body[:at] + "    why_chosen: It is the SageMaker feature learners meet first.\n" + body[at:], encoding="utf-8")
    text = html.unescape(_export(fmt, tmp_path / "chosen", capsys, str(chosen)))
    assert "For each step: why learners choose it, why it sits at its place in the order" in text
    assert "It is the SageMaker feature learners meet first." in text
