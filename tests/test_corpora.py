"""The converters of ../shared/corpora (scripts/corpora): each yields the questions its source holds
(exact counts: the conversion is deterministic), and every file it writes passes qlint's schema."""

from __future__ import annotations

import os
import re
from collections import Counter
import sys
from pathlib import Path

import pytest

from conftest import REPO, require_shared

sys.path.insert(0, str(REPO / "scripts"))
import corpora  # noqa: E402

# corpus -> (questions, of them multiple-answer, with at least one mapped rationale)
COUNTS = {
    "snts42-cloudcertprep": (1070, 221, 1028),
    "kananinirav-clf-c02": (1142, 267, 0),
    "lydiahallie-javascript-questions": (155, 0, 0),
    "msahihi-kcna": (120, 0, 0),
    "se-edu-se-book": (102, 37, 6),
    "carpentries-lessons": (18, 4, 7),
    "casimedicos-arg": (1106, 0, 0),
    "opentriviaqa": (6742, 0, 0),
    "deepmind-aqua-rat": (508, 0, 0),
}


def test_every_shared_corpus_has_a_converter():
    assert set(COUNTS) == set(corpora.NAMES)
    shared = require_shared("corpora")
    assert {p.name for p in shared.iterdir() if p.is_dir()} == set(corpora.NAMES)


@pytest.mark.parametrize("name", list(COUNTS))
def test_converter_yields_the_sources_questions(name):
    require_shared("corpora", name)
    items = corpora.convert(corpora.CORPORA, [name])
    questions, multiple, with_rationale = COUNTS[name]
    assert len(items) == questions
    assert sum(i.data["type"] == "multiple" for i in items) == multiple
    if with_rationale is not None:
        assert sum(any("rationale" in o for o in i.data["options"]) for i in items) == with_rationale
    assert {i.corpus for i in items} == {name}
    # the ids a judgment names a question by, and the files written, are unique
    assert len({i.key for i in items}) == questions
    assert len({i.relpath for i in items}) == questions
    for i in items:
        keys = [o for o in i.data["options"] if o["correct"]]
        assert keys and (i.data["type"] == "multiple") == (len(keys) > 1), i.key
        # an absent explanation is recorded, never invented
        assert ("explanation" in i.missing) == (i.data["explanation"] == corpora.NO_EXPLANATION), i.key


def test_rationales_only_where_the_source_keys_them():
    """se-edu maps a `~~(c)~~ Reason:` paragraph to option c, which the answer strikes out: a distractor.
    The keyed options of those items carry no rationale (the source gives none by letter)."""
    require_shared("corpora", "se-edu-se-book")
    items = corpora.convert(corpora.CORPORA, ["se-edu-se-book"])
    source = corpora.CORPORA / "se-edu-se-book"
    struck = [i for i in items if re.search(r"~~\(\w\)~~\s*Reason:", (source / i.source).read_text(encoding="utf-8"))]
    assert struck
    for i in struck:
        opts = i.data["options"]
        assert any("rationale" in o for o in opts), i.key
        assert all(not o["correct"] for o in opts if "rationale" in o), i.key


def test_true_false_items_keep_their_two_options():
    require_shared("corpora", "opentriviaqa")
    items = corpora.convert(corpora.CORPORA, ["opentriviaqa"])
    tf = [i for i in items if sorted(o["text"] for o in i.data["options"]) == ["False", "True"]]
    assert len(tf) == 749
    assert Counter(len(i.data["options"]) for i in items) == {4: 5850, 2: 892}


@pytest.mark.parametrize("name", list(COUNTS))
def test_converted_files_pass_the_schema(name, tmp_path):
    require_shared("corpora", name)
    from qlint.cli.config import load_config
    from qlint.lint.engine import lint, make_settings
    from qlint.lint.runner import RunOptions

    items = corpora.convert(corpora.CORPORA, [name])
    bank = corpora.write_bank(items, tmp_path)[name]
    here = os.getcwd()
    os.chdir(bank)
    try:
        result = lint(["."], make_settings(load_config(bank), select=("S001", "S002", "S003", "Y")), RunOptions())
    finally:
        os.chdir(here)
    bad = [f"{d.path}:{d.line}:{d.col}: {d.code} {d.message}" for d in result.diagnostics]
    assert not bad, "\n".join(bad[:10])
    assert len(list(Path(bank).rglob("*.yaml"))) == len(items) + len({i.data["exam"] for i in items})


def test_an_absent_option_is_left_out():
    """CasiMedicos writes the fifth option of a four-option exam as `nan` (a missing value)."""
    require_shared("corpora", "casimedicos-arg")
    items = corpora.convert(corpora.CORPORA, ["casimedicos-arg"])
    assert not [i.key for i in items for o in i.data["options"] if o["text"].strip().lower() == "nan"]
    assert Counter(len(i.data["options"]) for i in items) == {4: 596, 5: 510}


def test_mixed_encodings_decode_line_by_line():
    """OpenTriviaQA's cp1252 files hold UTF-8 lines too: decoding the file as cp1252 made mojibake."""
    require_shared("corpora", "opentriviaqa")
    items = corpora.convert(corpora.CORPORA, ["opentriviaqa"])
    texts = [t for i in items for t in (i.data["stem"], *(o["text"] for o in i.data["options"]))]
    assert not [t for t in texts if "\u00e2\u20ac" in t or "\u00c2\u00b5" in t]


def test_snts42_sentences_go_to_the_distractor_they_name():
    from corpora.aws import _by_name
    texts = ["Amazon S3", "Amazon EBS", "AWS Lambda", "Amazon RDS"]
    said = ["Lambda runs functions.", "EBS gives block volumes."]  # listed out of option order
    assert _by_name(said, [1, 2], texts) == [2, 1]
    # names that do not decide (no shared word, a tie, two sentences on one option) keep option order
    assert _by_name(["It runs functions.", "Block volumes."], [1, 2], texts) == [1, 2]
    assert _by_name(["Lambda runs.", "Lambda again."], [1, 2], texts) == [1, 2]
    # a sentence about an option the question lacks leaves the named one where it belongs
    assert _by_name(["Lambda runs functions.", "CloudWatch keeps metrics."], [1, 2], texts) == [2, 1]
    assert _by_name(["CloudWatch keeps metrics.", "EBS gives volumes.", "Lambda runs."], [2, 1, 3], texts) == [3, 1, 2]
    # the subject names the option: a name late in the sentence does not
    assert _by_name(["Block volumes are not functions, as in Lambda.", "RDS runs databases."], [2, 3], texts) == [2, 3]


def test_snts42_keys_get_a_sentence_each_only_when_each_names_its_key():
    """The usual second sentence of a multiple-answer item, "Both are ...", is no one key's reason."""
    from corpora.aws import _by_name
    texts = ["Amazon S3", "Amazon EBS", "AWS Lambda", "Amazon RDS"]
    assert _by_name(["Lambda runs code.", "EBS stores blocks."], [1, 2], texts, strict=True) == [2, 1]
    assert _by_name(["Lambda and EBS need no servers.", "Both are managed."], [1, 2], texts, strict=True) is None


def test_snts42_reasons_of_several_sentences_are_grouped_by_the_option_each_opens_on():
    from corpora.aws import _distractor_reasons
    texts = ["Amazon S3", "Amazon EBS", "AWS Lambda", "Amazon RDS"]
    key = "S3 stores objects."
    grouped = _distractor_reasons([key, "EBS gives block volumes. They attach to one instance. Lambda runs functions. "
                                        "RDS hosts databases."], [1, 2, 3], texts)
    assert grouped == ["EBS gives block volumes. They attach to one instance.", "Lambda runs functions.", "RDS hosts databases."]
    # a paragraph per distractor
    assert _distractor_reasons([key, "EBS gives volumes.", "Lambda runs.", "RDS hosts."], [1, 2, 3], texts) == \
        ["EBS gives volumes.", "Lambda runs.", "RDS hosts."]
    # a sentence naming the option again, less strongly than the first, continues its reason
    texts = ["Amazon S3", "Amazon EBS volumes", "AWS Lambda", "Amazon RDS"]
    assert _distractor_reasons([key, "EBS volumes attach. EBS serves one instance. Lambda runs. RDS hosts."],
                               [1, 2, 3], texts) == ["EBS volumes attach. EBS serves one instance.", "Lambda runs.", "RDS hosts."]
    # no safe cut: a tie, a stronger naming of the current option (its reason starts there), an
    # option that starts two reasons, a first sentence that names none
    assert _distractor_reasons([key, "EBS gives volumes. EBS or RDS may help. Lambda runs. RDS hosts."],
                               [1, 2, 3], texts) is None
    assert _distractor_reasons([key, "EBS attach. EBS volumes attach. Lambda runs. RDS hosts."], [1, 2, 3], texts) is None
    assert _distractor_reasons([key, "EBS gives volumes. Lambda runs. EBS again. RDS hosts."], [1, 2, 3], texts) is None
    assert _distractor_reasons([key, "Volumes attach. EBS gives volumes. Lambda runs. RDS hosts."], [1, 2, 3], texts) is None
