"""qti21 and qti30 exports: official-schema validation with two engines (plus negative controls),
package integrity, the documented field mapping, feedback wiring, shuffle, determinism, markup
injection, refused characters and images."""

from __future__ import annotations

import re
import shutil

import pytest
from lxml import etree

from conftest import BANK, REPO
from kit.export import (INJECTION, formats, refused, png, load_bank, load_cases, manifest_hrefs, missing_from_package, read_package, resolve,
                       export, sample_question, unlisted_in_manifest, write_question, xml)
from qlint.cli import main
from qlint.model import Question
from kit.qti_readback import comparable, expected, read_item
from kit.qti_readback import read_package as read_back
from kit.xsd import cp21_xsd, cp30_xsd, qti21_xsd, qti30_xsd  # noqa: F401  (session fixtures)

PNG = png()  # a real PNG: exports refuse a file whose bytes are not what its name says

FORMATS = ("qti21", "qti30")
EVERY_STATUS = ("--status", "draft,review,published")
@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """The whole sample bank (drafts too: the ordering, matching and case-study samples are drafts)
    exported by the CLI: {format: {path: bytes}}, zip and --no-zip."""
    out = tmp_path_factory.mktemp("qti")
    packages = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(REPO)
        for fmt in FORMATS:
            assert main(["export", "--format", fmt, "--output", str(out / f"{fmt}.zip"), *EVERY_STATUS]) == 0
            assert main(["export", "--format", fmt, "--output", str(out / fmt), "--no-zip", *EVERY_STATUS]) == 0
            packages[fmt] = read_package(out / f"{fmt}.zip")
            packages[fmt + "-dir"] = read_package(out / fmt)
    return packages


def schemas(fmt, request):
    """(item/test schema, manifest schema) for a format; compiled once per session."""
    names = ("qti21_xsd", "cp21_xsd") if fmt == "qti21" else ("qti30_xsd", "cp30_xsd")
    return tuple(request.getfixturevalue(n) for n in names)


def qti_files(files):
    return sorted(n for n in files if n.startswith(("items/", "tests/", "stimuli/")) and n.endswith(".xml"))


def exported_questions():
    """The sample bank's questions of every type and status, as the `sample` packages hold them."""
    return load_bank(BANK, every_type=True)[0]


@pytest.mark.parametrize("fmt", FORMATS)
def test_zip_and_folder_hold_the_same_files(sample, fmt):
    assert {k: v for k, v in sample[fmt + "-dir"].items() if not k.endswith("/")} == sample[fmt]


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_item_test_and_manifest_validates_with_both_engines(sample, fmt, request):
    files = sample[fmt]
    item_xsd, cp_xsd = schemas(fmt, request)
    names = qti_files(files)
    assert len([n for n in names if n.startswith("items/")]) == len(exported_questions()) >= 20
    assert "tests/MLA-C01.xml" in names
    problems = {n: item_xsd.errors(files[n]) for n in names}
    problems["imsmanifest.xml"] = cp_xsd.errors(files["imsmanifest.xml"])
    assert {n: e for n, e in problems.items() if e} == {}


@pytest.mark.parametrize("fmt", FORMATS)
def test_negative_controls_fail_validation_in_both_engines(sample, fmt, request):
    """Deliberately broken documents must fail, proving the validators really run."""
    files = sample[fmt]
    item_xsd, cp_xsd = schemas(fmt, request)
    item = files["items/mla-c01-dev-layer-split-gpus.xml"]
    v3 = fmt == "qti30"
    body = b"<qti-item-body>" if v3 else b"<itemBody>"
    broken = {
        "missing required attribute": re.sub(rb' time-?[dD]ependent="false"', b"", item, count=1),
        "unknown element": item.replace(body, body + b"<bogus/>", 1),
        "wrong cardinality value": item.replace(b'cardinality="single"', b'cardinality="one"', 1),
        "text where only elements may be": item.replace(b"</qti-correct-response>" if v3 else b"</correctResponse>",
                                                        b"stray text" + (b"</qti-correct-response>" if v3 else b"</correctResponse>"), 1),
    }
    if v3:
        broken["data-* attribute (SBAC profile)"] = item.replace(b"<qti-item-body>", b'<qti-item-body data-x="1">', 1)
    for what, doc in broken.items():
        assert doc != item, what
        errors = item_xsd.errors(doc)
        assert len(errors) == 2, (what, errors)  # one from lxml, one from xmlschema
    manifest = files["imsmanifest.xml"]
    bad_type = manifest.replace(b'type="imsqti_item_xmlv', b'type="imsqti_thing_xmlv', 1)
    assert len(cp_xsd.errors(bad_type)) == 2
    no_schema = re.sub(rb"<schema>[^<]*</schema>", b"", manifest, count=1)
    assert len(cp_xsd.errors(no_schema)) == 2


@pytest.mark.parametrize("fmt", FORMATS)
def test_manifest_lists_every_file_and_every_href_exists(sample, fmt):
    files = sample[fmt]
    assert missing_from_package(files) == []
    assert unlisted_in_manifest(files) == []
    manifest = xml(files["imsmanifest.xml"])
    ns = etree.QName(manifest).namespace
    resources = {r.get("identifier"): r for r in manifest.iter(f"{{{ns}}}resource")}
    tests = [r for r in resources.values() if "test" in r.get("type")]
    items = [r for r in resources.values() if "item" in r.get("type")]
    assert len(tests) == 1 and len(items) == len(exported_questions())
    depends = {d.get("identifierref") for d in tests[0].iter(f"{{{ns}}}dependency")}
    assert depends == {r.get("identifier") for r in items}
    test = xml(files[tests[0].get("href")])
    refs = [el.get("href") for el in test.iter() if isinstance(el.tag, str) and el.get("href")]
    assert sorted(resolve(tests[0].get("href"), h) for h in refs) == sorted(r.get("href") for r in items)


@pytest.mark.parametrize("fmt", FORMATS)
def test_test_has_one_part_and_a_section_per_domain_in_blueprint_order(sample, fmt):
    test = xml(sample[fmt]["tests/MLA-C01.xml"])
    tag = (lambda n: n) if fmt == "qti21" else (lambda n: "qti-" + re.sub(r"(?<!^)(?=[A-Z])", "-", n).lower())
    ns = etree.QName(test).namespace
    parts = test.findall(f"{{{ns}}}{tag('testPart')}")
    assert len(parts) == 1
    sections = parts[0].findall(f"{{{ns}}}{tag('assessmentSection')}")
    assert [s.get("identifier") for s in sections] == [
        "domain_data-preparation", "domain_model-development", "domain_deployment-orchestration", "domain_monitoring-security"]
    # every question sits in its domain's section, or in its case study's section inside the case's domain
    cases = load_cases(BANK)
    home = {q.id: cases[q.case].domain if q.case in cases else q.domain for q in exported_questions()}
    refs = {s.get("identifier"): sorted(r.get("identifier") for r in s.iter(f"{{{ns}}}{tag('assessmentItemRef')}"))
            for s in sections}
    assert refs == {f"domain_{d}": sorted(i for i, h in home.items() if h == d) for d in set(home.values())}
    assert min(len(r) for r in refs.values()) >= 5
    assert sections[1].get("title") == "ML Model Development"


@pytest.mark.parametrize("fmt", FORMATS)
def test_documented_mapping_reads_every_field_back(sample, fmt):
    """An importer following docs/exports-qti.md rebuilds every question field of the sample bank."""
    questions, cases = exported_questions(), load_cases(BANK)
    read = read_back(sample[fmt])
    assert sorted(read) == sorted(q.id for q in questions)
    for q in questions:
        assert comparable(read[q.id]) == expected(q, case=cases.get(q.case or "")), q.id


@pytest.mark.parametrize("fmt", FORMATS)
def test_option_text_is_the_first_text_node_of_each_choice(sample, fmt):
    """Canvas's QTI 2 importer takes a choice's first text node as the answer when it has inline feedback."""
    for name in qti_files(sample[fmt]):
        if name.startswith("items/"):
            for option in read_item(sample[fmt][name])["options"]:
                assert option["first_text_node"] == option["text"], (name, option["id"])


@pytest.mark.parametrize("fmt", FORMATS)
def test_feedback_is_driven_by_written_out_response_processing(sample, fmt):
    for name in qti_files(sample[fmt]):
        if not name.startswith("items/"):
            continue
        root = xml(sample[fmt][name])
        local = {el: etree.QName(el).localname for el in root.iter() if isinstance(el.tag, str)}
        find = lambda *names: [el for el, n in local.items() if n in names]  # noqa: E731
        rp = find("responseProcessing", "qti-response-processing")[0]
        assert rp.get("template") is None and len(rp) > 0
        declared = {el.get("identifier"): el for el in find("outcomeDeclaration", "qti-outcome-declaration")}
        choice = bool(find("choiceInteraction", "qti-choice-interaction"))  # ordering and matching set no CHOSEN
        assert {"SCORE", "MAXSCORE", "FEEDBACK"} | ({"CHOSEN"} if choice else set()) == set(declared)
        assert declared["FEEDBACK"].get("cardinality") == "multiple"
        response = find("responseDeclaration", "qti-response-declaration")[0]
        if choice:
            assert declared["CHOSEN"].get("cardinality") == response.get("cardinality")
        setters = [el for el in rp.iter() if isinstance(el.tag, str) and el.get("identifier") == "FEEDBACK"
                   and etree.QName(el).localname in ("setOutcomeValue", "qti-set-outcome-value")]
        set_by_rp = {el.text for setter in setters for el in setter.iter() if etree.QName(el).localname in ("baseValue", "qti-base-value")
                     and el.get("baseType", el.get("base-type")) == "identifier"}  # (an ordering's steps are base values too)
        # FEEDBACK is only ever set from base values (a QTI 3 player mishandles variables in a list)
        for setter in rp.iter():
            if isinstance(setter.tag, str) and setter.get("identifier") == "FEEDBACK" and "et" in etree.QName(setter).localname:
                assert all(etree.QName(v).localname in ("multiple", "baseValue", "qti-multiple", "qti-base-value")
                           for v in setter.iter() if v is not setter), name
        choices = {el.get("identifier") for el in find("simpleChoice", "qti-simple-choice")}
        modal = {el.get("identifier") for el in find("modalFeedback", "qti-modal-feedback")}
        blocks = {el.get("identifier") for el in find("feedbackBlock", "qti-feedback-block")}
        assert modal | blocks == set_by_rp, name  # every feedback can show, and nothing else is set
        assert modal == {"general_feedback"} and blocks == {"correct", "incorrect"}  # one dialog: the reveal
        assert not (modal | blocks) & choices  # a chosen option can never switch on a modal feedback
        for fb in find("feedbackInline", "qti-feedback-inline"):
            # shown when CHOSEN (a copy of RESPONSE) holds the enclosing choice
            assert fb.get("identifier") == fb.getparent().get("identifier")
            assert fb.get("outcomeIdentifier", fb.get("outcome-identifier")) == "CHOSEN"


@pytest.mark.parametrize("fmt", FORMATS)
def test_multiple_response_has_multiple_cardinality_max_choices_and_a_value_per_key(sample, fmt):
    item = read_item(sample[fmt]["items/mla-c01-ops-vpc-kms-training.xml"])
    assert item["type"] == "multiple" and item["choose"] == 2
    assert [o["id"] for o in item["options"] if o["correct"]] == ["gateway-endpoint", "kms-key-ids"]
    raw = sample[fmt]["items/mla-c01-ops-vpc-kms-training.xml"]
    assert raw.count(b"<value>" if fmt == "qti21" else b"<qti-value>opt_") >= 2
    single = read_item(sample[fmt]["items/mla-c01-dev-layer-split-gpus.xml"])
    assert single["type"] == "single" and single["choose"] is None


def _one(tmp_path, fmt, data, **options):
    folder = tmp_path / "bank" / "mla-c01" / "model-development"
    path = write_question(folder, data)
    shutil.copytree(BANK / "exams", tmp_path / "bank" / "exams", dirs_exist_ok=True)
    questions, exams = load_bank(tmp_path / "bank")
    out = tmp_path / f"{fmt}.zip"
    result = export(fmt, questions, exams, tmp_path / "bank", out, **options)
    return read_package(out), result, path


@pytest.mark.parametrize("fmt", FORMATS)
def test_shuffle_on_by_default_off_per_question_or_by_flag_and_pinned_options_fixed(tmp_path, fmt):
    options = sample_question()["options"]
    options[2]["pinned"] = True
    files, _, _ = _one(tmp_path, fmt, sample_question(options=options))
    item = read_item(files["items/mla-c01-dev-sample.xml"])
    assert item["shuffle"] is True
    assert [o["pinned"] for o in item["options"]] == [False, False, True]
    files, _, _ = _one(tmp_path, fmt, sample_question(shuffle=False))
    assert read_item(files["items/mla-c01-dev-sample.xml"])["shuffle"] is False
    files, _, _ = _one(tmp_path, fmt, sample_question(), shuffle=False)  # --no-shuffle
    assert read_item(files["items/mla-c01-dev-sample.xml"])["shuffle"] is False


@pytest.mark.parametrize("fmt", FORMATS)
def test_same_bank_same_bytes(tmp_path, fmt, in_repo):
    for name in ("a.zip", "b.zip"):
        assert main(["export", "-f", fmt, "-o", str(tmp_path / name)]) == 0
    assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()
    assert main(["export", "-f", fmt, "-o", str(tmp_path / "dir"), "--no-zip"]) == 0
    names = sorted(p.relative_to(tmp_path / "dir").as_posix() for p in (tmp_path / "dir").rglob("*") if p.is_file())
    assert names == sorted(read_package(tmp_path / "a.zip"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_markup_injection_stays_text_and_validates(tmp_path, fmt, request):
    options = sample_question()["options"]
    options[0]["text"] = INJECTION
    options[0]["rationale"] = INJECTION
    options[0]["right_when"] = INJECTION
    options[0]["why_chosen"] = INJECTION
    data = sample_question(stem=f"{INJECTION}\n\n    {INJECTION}\n\n`{INJECTION}`\n", trap=INJECTION,
                           explanation=INJECTION, options=options,
                           references=[{"title": INJECTION, "url": "https://example.com/a?b=1&c=<x>\"'"}])
    files, _, _ = _one(tmp_path, fmt, data)
    item_xsd, cp_xsd = schemas(fmt, request)
    item = files["items/mla-c01-dev-sample.xml"]
    assert item_xsd.errors(item) == [] and cp_xsd.errors(files["imsmanifest.xml"]) == []
    root = xml(item)
    assert not [el for el in root.iter() if isinstance(el.tag, str) and etree.QName(el).localname == "script"]
    read = read_back(files)["mla-c01-dev-sample"]
    assert comparable(read) == expected(Question("x.yaml", data))
    # the literal characters survive as text, wherever they went
    assert read["options"][0]["text"] == INJECTION
    assert read["options"][0]["why_chosen"] == read["trap"] == read["explanation"] == INJECTION
    assert read["references"] == [{"title": INJECTION, "url": "https://example.com/a?b=1&c=<x>\"'"}]
    assert read["stem"].count(INJECTION) == 3


def test_markup_injection_text_reads_back_exactly(tmp_path):
    """The option text, rendered as inline Markdown, reaches the XML as the same characters."""
    options = sample_question()["options"]
    options[0]["text"] = "a <b>not bold</b> & c ]]> \"q\""
    files, _, _ = _one(tmp_path, "qti21", sample_question(options=options))
    assert read_item(files["items/mla-c01-dev-sample.xml"])["options"][0]["text"] == "a <b>not bold</b> & c ]]> \"q\""
    assert b"&lt;b&gt;not bold&lt;/b&gt; &amp; c ]]&gt;" in files["items/mla-c01-dev-sample.xml"]


@pytest.mark.parametrize("fmt", formats(packaged=True))
def test_character_xml_forbids_is_refused_naming_file_and_line_even_with_force(tmp_path, fmt, monkeypatch, capsys):
    options = sample_question()["options"]
    options[1]["rationale"] = "Correct: it splits\x0bthe layers.\n"
    project = tmp_path / "proj"
    write_question(project / "bank" / "mla-c01" / "model-development", sample_question(options=options))
    shutil.copytree(BANK / "exams", project / "bank" / "exams")
    (project / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    monkeypatch.chdir(project)
    out = tmp_path / "out.zip"
    assert main(["export", "-f", fmt, "-o", str(out)]) == 2
    assert "S004" in capsys.readouterr().err  # the lint gate stops it first
    assert main(["export", "-f", fmt, "-o", str(out), "--force"]) == 2
    err = capsys.readouterr().err
    assert re.search(r"mla-c01-dev-sample\.yaml:\d+:\d+: E001 /options/1/rationale holds U\+000B", err), err
    line = int(re.search(r"\.yaml:(\d+):", err).group(1))
    text = (project / "bank" / "mla-c01" / "model-development" / "mla-c01-dev-sample.yaml").read_text()
    assert "rationale" in text.splitlines()[line - 1]
    assert not out.exists()


@pytest.mark.parametrize("fmt", FORMATS)
def test_images_are_packaged_listed_and_resolve_from_the_item(tmp_path, fmt, request):
    folder = tmp_path / "bank" / "mla-c01" / "model-development"
    (folder / "img").mkdir(parents=True)
    (folder / "img" / "layers diagram.png").write_bytes(PNG)
    files, _, _ = _one(tmp_path, fmt, sample_question(stem="Look:\n\n![The layers](<img/layers diagram.png>)\n\nWhich one?\n"))
    name = "images/mla-c01/model-development/img/layers diagram.png"
    assert files[name] == PNG
    assert name in manifest_hrefs(files) and missing_from_package(files) == [] and unlisted_in_manifest(files) == []
    root = xml(files["items/mla-c01-dev-sample.xml"])
    srcs = [el.get("src") for el in root.iter() if isinstance(el.tag, str) and etree.QName(el).localname == "img"]
    assert [resolve("items/mla-c01-dev-sample.xml", s) for s in srcs] == [name]
    item_xsd, cp_xsd = schemas(fmt, request)
    assert item_xsd.errors(files["items/mla-c01-dev-sample.xml"]) == [] and cp_xsd.errors(files["imsmanifest.xml"]) == []


@pytest.mark.parametrize("fmt", formats(packaged=True))
@pytest.mark.parametrize("ref", ["../../../outside.png", "/etc/hostname", "missing.png"])
def test_image_outside_the_bank_or_missing_is_refused(tmp_path, fmt, ref):
    (tmp_path / "outside.png").write_bytes(b"secret")
    with refused(r"mla-c01-dev-sample\.yaml:\d+:\d+: image .* (leaves the bank|not found)"):
        _one(tmp_path, fmt, sample_question(explanation=f"See ![x]({ref}).\n"))
    assert not (tmp_path / f"{fmt}.zip").exists()


def test_question_id_starting_with_a_digit_and_option_named_correct_stay_valid(tmp_path, request):
    options = sample_question()["options"]
    options[0]["id"] = "correct"
    options[2]["id"] = "1-gpu"
    data = sample_question(id="7b-model-split", options=options)
    for fmt in FORMATS:
        files, _, _ = _one(tmp_path, fmt, data)
        item_xsd, cp_xsd = schemas(fmt, request)
        assert item_xsd.errors(files["items/7b-model-split.xml"]) == []
        assert cp_xsd.errors(files["imsmanifest.xml"]) == []
        read = read_back(files)["7b-model-split"]
        assert [o["id"] for o in read["options"]] == ["correct", "model-parallel", "1-gpu"]
        assert xml(files["items/7b-model-split.xml"]).get("identifier") == "q_7b-model-split"


def test_folder_export_reports_files_it_did_not_write_and_unwritable_output_exits_2(tmp_path, in_repo, capsys):
    out = tmp_path / "pkg"
    assert main(["export", "-f", "qti21", "-o", str(out), "--no-zip"]) == 0
    (out / "items" / "deleted-question.xml").write_text("old")
    capsys.readouterr()
    assert main(["export", "-f", "qti21", "-o", str(out), "--no-zip"]) == 0
    err = capsys.readouterr().err
    assert "1 file this export did not write (e.g. items/deleted-question.xml)" in err
    assert (out / "items" / "deleted-question.xml").read_text() == "old"  # never deleted
    (tmp_path / "taken.zip").mkdir()
    assert main(["export", "-f", "qti21", "-o", str(tmp_path / "taken.zip")]) == 2
    assert "cannot write" in capsys.readouterr().err
