"""`qlint import`: page and gift sources into canonical, schema-valid files; nothing dropped silently."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from qlint.importers import IMPORTERS

from kit.authoring import make_project, run, schema_errors

FIXTURES = Path(__file__).parent / "fixtures" / "import"


@pytest.fixture
def project(tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_registry_lists_the_importers():
    assert {"page", "gift", "moodle", "qti21", "qti30"} <= set(IMPORTERS.names())


def test_page_with_choices_references_and_related(capsys, project):
    code, out, err = run(capsys, "import", "--from", "page", str(FIXTURES / "feature-store.txt"), "--output", "bank")
    assert code == 0, err
    # named from the stem, never from the key ("Online store of a SageMaker Feature Store feature group")
    path = project / "bank/mla-c01/data-preparation/fraud-model-served-real-time.yaml"
    assert path.is_file(), out
    assert out.strip() == str(path.relative_to(project))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["exam"] == "MLA-C01" and data["domain"] == "data-preparation" and data["type"] == "single"
    assert data["stem"].endswith("within 10 milliseconds of each request.\n\nWhich storage should the endpoint read the features from?")
    assert data["trap"].startswith("Candidates pick the offline store")
    assert [o["id"] for o in data["options"]] == [  # the order of "Answer choices"; ids from the text
        "online-store-of-a-sagemaker-feature",
        "offline-store-of-the-feature-group-in",
        "an-amazon-athena-query-over-the-offline",
    ]
    assert [o["correct"] for o in data["options"]] == [True, False, False]
    assert data["options"][1]["right_when"] == "Building a training dataset or scoring a batch overnight."
    assert data["options"][2]["why_chosen"] == "Athena is the usual way to query the offline store."
    assert data["explanation"].endswith("\n\nThe offline store and Athena serve training and batch work.")
    assert data["references"] == [
        {"title": "Feature Store concepts", "url": "https://docs.aws.amazon.com/sagemaker/latest/dg/feature-store-concepts.html"},
        {"title": "Storage configurations", "url": "https://docs.aws.amazon.com/sagemaker/latest/dg/feature-store-storage-configurations.html"},
    ]
    assert data["related"] == ["mla-c01-prep-athena-ctas-join"]
    assert schema_errors(project, path) == []
    assert run(capsys, "format", "--check", str(path))[0] == 0


def test_page_multiple_response(capsys, project):
    code, _out, err = run(capsys, "import", "--from", "page", str(FIXTURES / "two-answers.txt"))
    assert code == 0, err
    (path,) = (project / "bank/mla-c01/model-development").glob("*.yaml")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["type"] == "multiple" and data["choose"] == 2
    assert [o["text"] for o in data["options"] if o["correct"]] == ["Add dropout layers", "Apply L2 regularisation"]
    assert schema_errors(project, path) == []


def test_page_problems_are_reported_with_lines_and_kept_in_comments(capsys, project):
    code, _out, err = run(capsys, "import", "--from", "page", str(FIXTURES / "problems.txt"))
    assert code == 1
    src = str(FIXTURES / "problems.txt")
    for expected in (
        f"{src}:1:1: I001 could not map: domain 'Quantum Basket Weaving' is not a domain of MLA-C01",
        f"{src}:15:1: I001 could not map: text under an interface heading: 'A stray note under an interface heading.'",
        f"{src}:9:1: I001 could not map: the correct answer 'Recall' is not an option marked ✓ in the breakdown",
        f"{src}:30:1: I001 could not map: reference without a URL: 'A book without a link'",
        f"{src}:34:1: I001 could not map: related question 'The question about precision' is not a question id",
    ):
        assert expected in err, err
    (path,) = (project / "bank/mla-c01").rglob("*.yaml")
    text = path.read_text(encoding="utf-8")
    assert "# qlint import: could not map (line 30): reference without a URL: 'A book without a link'" in text
    assert "# qlint import: could not map (line 15): text under an interface heading" in text


def test_page_import_can_take_the_domain_from_the_command_line(capsys, project):
    code, _out, err = run(capsys, "import", "--from", "page", str(FIXTURES / "problems.txt"), "--domain", "model-development")
    assert "is not a domain" not in err
    assert list((project / "bank/mla-c01/model-development").glob("*.yaml"))


def test_gift_multichoice_with_feedback(capsys, project):
    code, out, err = run(capsys, "import", "--from", "gift", str(FIXTURES / "sample.gift"))
    assert code == 1  # the true/false and the unclosed question are reported
    src = str(FIXTURES / "sample.gift")
    assert f"{src}:20:1: I001 could not map: true/false question, not multiple choice; not imported" in err
    assert f"{src}:22:1: I001 could not map: answer block '{{' is never closed; question skipped" in err
    folder = project / "bank/mla-c01/model-development"
    single = yaml.safe_load((folder / "layer-split.yaml").read_text(encoding="utf-8"))
    assert single["stem"] == "A 70B model does not fit on one GPU: which strategy splits its layers across GPUs?"
    assert [(o["id"], o["correct"]) for o in single["options"]] == [
        ("model-parallelism", True), ("data-parallelism", False), ("hyperparameter-search", False)]
    assert single["options"][0]["rationale"] == "Correct: it places different layers on different GPUs, which meets the memory limit."
    assert single["explanation"].endswith("holds part of the weights {not all}.")
    text = (folder / "layer-split.yaml").read_text(encoding="utf-8")
    assert "# source comment: Imported from the team's old quiz bank" in text
    multi = yaml.safe_load((folder / "overfitting-fixes.yaml").read_text(encoding="utf-8"))
    assert multi["type"] == "multiple" and multi["choose"] == 2
    assert [o["correct"] for o in multi["options"]] == [True, True, False, False]
    for f in (folder / "layer-split.yaml", folder / "overfitting-fixes.yaml"):
        assert schema_errors(project, f) == []


def test_gift_html_texts_become_markdown_and_moodle_marks_give_id_and_tags(capsys, project):
    """An `[html]` GIFT question from anywhere (not only qlint's export) is read as HTML, not kept as
    markup with a "review it" note; `// [id:…] [tag:…]` are Moodle's idnumber and tags (issue 28 point 9)."""
    (project / "html.gift").write_text(
        "$CATEGORY: $course$/MLA-C01/ML Model Development\n\n"
        "// [id:mla-c01-dev-html-question] [tag:gpu] [tag:Model Parallel]\n"
        "::Layers::[html]<p>Which strategy splits <b>layers</b> across GPUs?</p>{\n"
        "  =<code>model</code> parallelism#<p>It places layers on different GPUs.</p>\n"
        "  ~Data parallelism#<p>Every GPU holds <em>all</em> weights.</p>\n"
        "  ####<p>Only model parallelism lowers the memory per GPU.</p>\n}\n", encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", "gift", "html.gift")
    assert "the stem is HTML" not in err and "tag 'Model Parallel' became 'model-parallel'" in err, err
    path = project / "bank/mla-c01/model-development/dev-html-question.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["id"] == "mla-c01-dev-html-question" and data["tags"] == ["gpu", "model-parallel"]
    assert data["stem"] == "Which strategy splits **layers** across GPUs?"
    assert [(o["text"], o.get("rationale")) for o in data["options"]] == [
        ("`model` parallelism", "It places layers on different GPUs."), ("Data parallelism", "Every GPU holds *all* weights.")]
    assert data["explanation"] == "Only model parallelism lowers the memory per GPU."
    assert "source comment: [id:" not in path.read_text(encoding="utf-8")  # the marks became fields
    assert schema_errors(project, path) == []


def test_gift_plain_feedback_gives_right_when_and_why_chosen_as_a_page_does(capsys, project):
    (project / "plain.gift").write_text(
        "::Split layers::Which strategy splits a model's layers across GPUs? {\n"
        "  =Model parallelism #Correct\\: each GPU holds some layers.\n"
        "  ~Data parallelism #Every GPU holds all weights. It is tempting because it is the usual way to scale, "
        "and would be the right choice for a model that fits on one GPU.\n"
        "  ####Only model parallelism lowers the memory per GPU.\n}\n", encoding="utf-8")
    run(capsys, "import", "--from", "gift", "plain.gift", "--exam", "MLA-C01", "--domain", "model-development")
    (path,) = (project / "bank/mla-c01/model-development").glob("*.yaml")
    wrong = yaml.safe_load(path.read_text(encoding="utf-8"))["options"][1]
    assert wrong == {"id": "data-parallelism", "text": "Data parallelism", "correct": False,
                     "rationale": "Every GPU holds all weights.",
                     "right_when": "It would be the right choice for a model that fits on one GPU.",
                     "why_chosen": "It is tempting because it is the usual way to scale."}


def test_existing_files_are_not_overwritten_without_force(capsys, project):
    args = ["import", "--from", "gift", str(FIXTURES / "sample.gift")]
    run(capsys, *args)
    target = project / "bank/mla-c01/model-development/layer-split.yaml"
    target.write_text("# my edits\n" + target.read_text(encoding="utf-8"), encoding="utf-8")
    code, _out, err = run(capsys, *args)
    assert "layer-split.yaml exists (use --force to overwrite)" in err
    assert target.read_text(encoding="utf-8").startswith("# my edits")
    run(capsys, *args, "--force")
    assert not target.read_text(encoding="utf-8").startswith("# my edits")


def test_unreadable_source_exits_2(capsys, project):
    assert run(capsys, "import", "--from", "gift", "missing.gift")[0] == 2
    (project / "latin1.gift").write_bytes(b"::Q::caf\xe9 {=a ~b}\n")
    code, _out, err = run(capsys, "import", "--from", "gift", "latin1.gift")
    assert code == 2 and "cannot read" in err
    code, _out, err = run(capsys, "import", "--from", "nope", "latin1.gift")
    assert code == 2 and f"choose from: {', '.join(sorted(IMPORTERS.names()))}" in err  # a new importer is listed too
