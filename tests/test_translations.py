"""Translations: `lang` on each question (default from the configuration), `translation_of` and
`source_hash` on a translation, the bank's `languages`."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
import yaml

from qlint.cli import main
from qlint.cli.config import load_config
from qlint.loading.schema import validate
from qlint.project.config import ConfigError

from conftest import REPO
from rulecases import qlint
from kit.translation import TRANSLATIONS, bilingual_bank, edit

SAMPLE = REPO / "bank" / "mla-c01" / "model-development" / "bayesian-tuning.yaml"
HASH = "sha256:" + "ab" * 32


def _sample() -> dict:
    return yaml.safe_load(SAMPLE.read_text(encoding="utf-8"))


def test_a_question_may_name_its_language_and_its_source():
    data = _sample() | {"lang": "es", "translation_of": "mla-c01-dev-other-question", "source_hash": HASH}
    assert validate("question", data) == []


@pytest.mark.parametrize("extra", [
    {"lang": "spanish language"},  # not a BCP 47 tag
    {"lang": "e"},
    {"translation_of": "mla-c01-dev-other-question"},  # no source_hash
    {"source_hash": HASH},  # no translation_of
    {"translation_of": "mla-c01-dev-other-question", "source_hash": "abc"},
])
def test_bad_language_fields_are_schema_errors(extra):
    assert validate("question", _sample() | extra)


def test_the_default_language_is_english_and_configurable(tmp_path: Path):
    assert load_config(tmp_path).lang == "en"
    (tmp_path / "qlint.toml").write_text('lang = "es"\nlanguages = ["es", "en"]\n', encoding="utf-8")
    config = load_config(tmp_path)
    assert (config.lang, config.languages) == ("es", ("es", "en"))


def test_languages_without_the_default_is_a_configuration_error(tmp_path: Path):
    (tmp_path / "qlint.toml").write_text('languages = ["es", "fr"]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"qlint.toml:1:1: languages: .*not the default lang 'en'"):
        load_config(tmp_path)


def test_a_bad_language_tag_is_a_configuration_error(tmp_path: Path):
    (tmp_path / "qlint.toml").write_text('lang = "English!"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="lang"):
        load_config(tmp_path)


def test_a_translation_without_its_source_hash_says_why(tmp_path: Path):
    text = SAMPLE.read_text(encoding="utf-8").replace(
        "status: published\n", "status: published\ntranslation_of: mla-c01-dev-other-question\n")
    (tmp_path / "q.yaml").write_text(text, encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["check", "--no-cache", "--select", "S", str(tmp_path / "q.yaml")])
    assert code == 1
    assert "missing required field 'source_hash' in the document (translation_of needs it" in out.getvalue()


# --- the two-language copy of the sample bank (tests/kit/translation.py) ------------------------

CONTAINER, GPUS, MATCH = (Path(n).name for n in TRANSLATIONS)


def _findings(root: Path, *select: str) -> list[tuple[str, str, str]]:
    """(file name, code, message) of `qlint check` on the copy, sorted."""
    code, out = qlint(root, "check", "--no-cache", "--output-format", "json",
                      *(("--select", ",".join(select)) if select else ()))
    found = sorted((Path(d["path"]).name, d["code"], d["message"]) for d in json.loads(out)["diagnostics"])
    assert code == (1 if found else 0), out
    return found


def test_the_clean_two_language_copy_has_no_finding(tmp_path):
    bilingual_bank(tmp_path)
    assert _findings(tmp_path) == []  # every rule, the English prose rules on the Spanish text too


def _plant(bank: Path, name: str) -> Path:
    return bank / "mla-c01" / "model-development" / name


# (what is planted, the edit: (file, old, new), the findings: (file name, code, words of the message))
PLANTS = [
    ("an unknown source id", (GPUS, "translation_of: mla-c01-dev-layer-split-gpus", "translation_of: mla-c01-dev-layer-split-gpu"),
     [(GPUS, "L001", "did you mean 'mla-c01-dev-layer-split-gpus'")]),
    ("a translation in the source's language", (GPUS, "lang: es", "lang: en"), [(GPUS, "L001", "same language")]),
    ("another key", (GPUS, "text: Paralelismo de datos\n    correct: false", "text: Paralelismo de datos\n    correct: true"),
     [(GPUS, "L002", "option 'data-parallel' is a key here")]),
    ("an option id renamed", (GPUS, "id: parameter-server", "id: param-server"),
     [(GPUS, "L002", "lacks the source's 'parameter-server'")]),
    ("steps swapped", (CONTAINER, "  - id: build-image", "  - id: build-image-tmp"), None),  # see below
    ("a prompt matched to another response", (MATCH, "match: deepar", "match: k-means"),
     [(MATCH, "L002", "prompt 'product-demand' matches 'k-means' here")]),
    ("the explanation left in English", (GPUS, None, None), [(GPUS, "L005", "the same text as the source's")]),
    ("Amazon S3 translated", (CONTAINER, "están en Amazon S3.", "están en el almacenamiento simple de Amazon."),
     [(CONTAINER, "L006", "'Amazon S3' in the source")]),
    ("a configured name translated", (MATCH, "text: Random Cut Forest (RCF)", "text: Bosque de cortes aleatorios (RCF)"),
     [(MATCH, "L006", "'Random Cut Forest' in the source")]),
]


def _swap_steps(path: Path) -> None:
    """The first two keyed steps in the other order (ids, texts and rationales move together)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["steps"][0], data["steps"][1] = data["steps"][1], data["steps"][0]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _english_explanation(path: Path, bank: Path) -> None:
    source = yaml.safe_load(_plant(bank, "layer-split-across-gpus.yaml").read_text(encoding="utf-8"))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["explanation"] = source["explanation"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


@pytest.mark.parametrize("what, change, expected", PLANTS, ids=[p[0] for p in PLANTS])
def test_every_planted_parity_break_is_reported(tmp_path, what, change, expected):
    bank = bilingual_bank(tmp_path)
    name, old, new = change
    if what == "steps swapped":
        _swap_steps(_plant(bank, name))
        expected = [(CONTAINER, "L002", "the steps are in another order than the source's")]
    elif what == "the explanation left in English":
        _english_explanation(_plant(bank, name), bank)
    else:
        edit(_plant(bank, name), old, new)
    found = _findings(tmp_path, "L")
    assert [(f, c) for f, c, _ in found] == [(f, c) for f, c, _ in expected], found
    for (_, _, message), (_, _, words) in zip(found, expected):
        assert words in message


def test_a_source_changed_since_its_translation_makes_it_stale(tmp_path):
    bank = bilingual_bank(tmp_path)
    edit(_plant(bank, "builtin-algorithm-match.yaml"), "XGBoost trains gradient-boosted trees", "XGBoost trains boosted trees")
    found = _findings(tmp_path, "L")
    assert [(f, c) for f, c, _ in found] == [(MATCH, "L003")]
    from qlint.project.contenthash import content_hash

    now = content_hash(yaml.safe_load(_plant(bank, "builtin-algorithm-match.yaml").read_text(encoding="utf-8")))
    assert now in found[0][2]  # the message gives the hash to record once the translation follows
    # re-wrapping the source changes no meaning: not stale
    bank2 = bilingual_bank(tmp_path / "again")
    edit(_plant(bank2, "builtin-algorithm-match.yaml"), "labels it learns from.", "labels it\n      learns from.")
    assert _findings(tmp_path / "again", "L") == []


def test_a_configured_language_reports_each_question_without_its_translation(tmp_path):
    bank = bilingual_bank(tmp_path, languages=True)
    found = _findings(tmp_path, "L")
    sources = sorted(p.name for p in bank.rglob("*.yaml")
                     if "exams" not in p.parts and "cases" not in p.parts and not p.name.endswith(".es.yaml")
                     and yaml.safe_load(p.read_text(encoding="utf-8")).get("status") != "retired")
    translated = {Path(s).name for s in TRANSLATIONS.values()}
    assert [(f, c) for f, c, _ in found] == [(s, "L004") for s in sources if s not in translated]
    assert len(found) == len(sources) - 3 and all("no translation into es" in m for _, _, m in found)


def test_a_cached_run_sees_a_translation_change(tmp_path):
    """The bank entry carries what L rules compare: an edit of the translation alone reaches them."""
    bank = bilingual_bank(tmp_path)
    args = ("check", "--select", "L", "--output-format", "json")
    assert qlint(tmp_path, *args)[0] == 0
    _english_explanation(_plant(bank, GPUS), bank)
    code, out = qlint(tmp_path, *args)
    assert code == 1 and [d["code"] for d in json.loads(out)["diagnostics"]] == ["L005"]


# --- exports: --lang chooses a language, every format with a place carries it ------------------

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
SPANISH = sorted(yaml.safe_load((REPO / "tests" / "fixtures" / "translations" / Path(n).name).read_text(
    encoding="utf-8"))["id"] for n in TRANSLATIONS)


def _export(root: Path, fmt: str, out: str, *extra: str) -> Path:
    code, shown = qlint(root, "export", "--format", fmt, "--output", out, "--no-zip", *extra)
    assert code == 0, shown
    return root / out


@pytest.fixture(scope="module")
def bilingual(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("bilingual")
    bilingual_bank(root)
    return root


@pytest.mark.parametrize("fmt, tag", [("qti21", "assessmentItem"), ("qti30", "qti-assessment-item")])
def test_qti_items_carry_xml_lang(bilingual, fmt, tag):
    from lxml import etree

    langs = {}
    for lang in ("es", "en"):
        out = _export(bilingual, fmt, f"{fmt}-{lang}", "--lang", lang)
        for item in (out / "items").glob("*.xml"):
            root = etree.parse(str(item)).getroot()
            assert etree.QName(root).localname == tag
            langs.setdefault(lang, []).append(root.get(XML_LANG))
    assert langs["es"] == ["es"] * 3 and set(langs["en"]) == {"en"} and len(langs["en"]) >= 25


def test_canvas_texts_carry_xml_lang(bilingual):
    """Canvas (QTI 1.2): every mattext of an item says its question's language; the case study's
    scenario, which has no `lang`, the configured default."""
    from lxml import etree

    out = _export(bilingual, "canvas", "canvas-all")  # both languages in one quiz
    quiz = etree.parse(str(out / "qlint-mla-c01" / "qlint-mla-c01.xml")).getroot()
    q = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
    langs = {}
    for item in quiz.iter(f"{q}item"):
        texts = list(item.iter(f"{q}mattext"))
        assert texts and all(t.get(XML_LANG) for t in texts), item.get("ident")
        langs[item.get("ident")] = {t.get(XML_LANG) for t in texts}
    assert sorted(i for i, found in langs.items() if found == {"es"}) == SPANISH
    assert all(found == {"en"} for i, found in langs.items() if i not in SPANISH) and len(langs) >= 25
    spanish = _export(bilingual, "canvas", "canvas-es", "--lang", "es")
    texts = etree.parse(str(spanish / "qlint-mla-c01" / "qlint-mla-c01.xml")).getroot().iter(f"{q}mattext")
    assert {t.get(XML_LANG) for t in texts} == {"es"}


def test_json_records_carry_lang_and_source(bilingual):
    from jsonschema import Draft202012Validator

    doc = json.loads(_export(bilingual, "json", "es.json", "--lang", "es").read_text(encoding="utf-8"))
    Draft202012Validator(json.loads((REPO / "schema" / "export.schema.json").read_text(encoding="utf-8"))).validate(doc)
    assert sorted(q["id"] for q in doc["questions"]) == SPANISH
    assert {q["lang"] for q in doc["questions"]} == {"es"}
    assert all(q["translation_of"] == q["id"].removesuffix("-es") for q in doc["questions"])
    every = json.loads(_export(bilingual, "json", "all.json").read_text(encoding="utf-8"))["questions"]
    assert {q["lang"] for q in every} == {"en", "es"} and sum(q["lang"] == "es" for q in every) == 3
    assert all(q["translation_of"] is None for q in every if q["lang"] == "en")


def test_html_pages_say_their_language(bilingual):
    import re

    lang_of = re.compile(r'<html lang="([^"]+)">')
    es = _export(bilingual, "html", "site-es", "--lang", "es")
    pages = {p.relative_to(es).as_posix(): lang_of.search(p.read_text(encoding="utf-8")).group(1) for p in es.rglob("*.html")}
    assert set(pages.values()) == {"es"} and len(pages) >= 3 + 1  # the questions and the indexes
    both = _export(bilingual, "html", "site-all")
    seen = {lang_of.search(p.read_text(encoding="utf-8")).group(1) for p in both.rglob("*.html")}
    assert seen == {"en", "es"}  # each question page its own language; the indexes the default


def test_moodle_tags_the_language_and_the_import_reads_it_back(bilingual, tmp_path):
    from lxml import etree

    out = _export(bilingual, "moodle", "es.xml", "--lang", "es")
    tags = [t.text for t in etree.parse(str(out)).iter("text") if t.getparent().tag == "tag"]
    assert tags.count("lang:es") == 3
    code, shown = qlint(bilingual, "import", "--from", "moodle", "--output", str(tmp_path / "back"), str(out))
    assert code in (0, 1), shown
    back = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in (tmp_path / "back").rglob("*.yaml")]
    assert len(back) == 3 and {q.get("lang") for q in back} == {"es"}
    assert not any("lang:es" in (q.get("tags") or []) for q in back)


def test_lang_filter_counts_what_it_skipped_and_refuses_a_bad_tag(bilingual):
    code, shown = qlint(bilingual, "export", "--format", "json", "--output", "x.json", "--lang", "es")
    assert code == 0 and "Exported 3 questions" in shown and "by --lang" in shown
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code, _ = qlint(bilingual, "export", "--format", "json", "--output", "y.json", "--lang", "Spanish!")
    assert code == 2 and "--lang 'Spanish!' is not a language tag" in err.getvalue()
    assert not (bilingual / "y.json").exists()


# --- qlint analyze: one form per language -------------------------------------------------------


def _responses(root: Path) -> tuple[Path, Path, Path]:
    """The synthetic responses (English), the first 100 respondents' answers to the three
    translated questions as Spanish learners' answers, and those English answers alone."""
    rows = (REPO / "examples" / "synthetic-responses.csv").read_text(encoding="utf-8").splitlines()
    sources = {i.removesuffix("-es") for i in SPANISH}
    first = sorted({r.split(",")[0] for r in rows[1:]})[:100]
    picked = [r for r in rows[1:] if r.split(",")[1] in sources and r.split(",")[0] in first]
    spanish = [",".join([f"es-{w}", f"{q}-es", sel]) for w, q, sel in (r.split(",", 2) for r in picked)]
    out = []
    for name, body in (("en.csv", rows[1:]), ("es.csv", spanish), ("same.csv", picked)):
        (root / name).write_text("\n".join([rows[0], *body]) + "\n", encoding="utf-8")
        out.append(root / name)
    return out[0], out[1], out[2]


def test_analyze_keeps_statistics_per_language(bilingual, tmp_path):
    en, es, same = _responses(tmp_path)
    code, alone = qlint(bilingual, "analyze", str(en), "--output-format", "text", "--no-color")
    code, both = qlint(bilingual, "analyze", str(en), str(es), "--output-format", "text", "--no-color", "--html", str(tmp_path / "report"))
    lines = [ln for ln in both.splitlines() if ln.startswith(("en: ", "es: "))]
    assert [ln[:3] for ln in lines] == ["en:", "es:"]
    assert lines[0][4:] == alone.splitlines()[0]  # the English form is analysed as without the Spanish one
    assert lines[1].startswith("es: 100 respondents, 3 items;")
    # the Spanish form gives the statistics of the same answers to the English questions alone
    _, reference = qlint(bilingual, "analyze", str(same), "--output-format", "text", "--no-color")
    assert lines[1][4:] == reference.splitlines()[0]
    assert (tmp_path / "report" / "en" / "index.html").is_file() and (tmp_path / "report" / "es" / "index.html").is_file()


def test_the_translations_are_formatted_with_the_language_fields_in_schema_order(bilingual):
    code, shown = qlint(bilingual, "format", "--check", *[str(bilingual / "bank" / n) for n in TRANSLATIONS])
    assert code == 0, shown
    text = (bilingual / "bank" / next(iter(TRANSLATIONS))).read_text(encoding="utf-8")
    assert text.index("status:") < text.index("lang:") < text.index("translation_of:") < text.index("source_hash:") \
        < text.index("difficulty:")


def test_analyze_notes_a_translation_whose_facility_differs_from_its_source(bilingual, tmp_path, capsys):
    en, es, _ = _responses(tmp_path)
    rows = es.read_text(encoding="utf-8").splitlines()
    # every Spanish learner picks data parallelism on the GPU question: facility 0 against the English one
    wrong = [",".join(r.split(",")[:2] + ["data-parallel"]) if ",mla-c01-dev-layer-split-gpus-es," in r else r
             for r in rows]
    es.write_text("\n".join(wrong) + "\n", encoding="utf-8")
    qlint(bilingual, "analyze", str(en), str(es), "--output-format", "text", "--no-color")
    notes = [ln for ln in capsys.readouterr().err.splitlines() if "facility" in ln]
    assert len(notes) == 1 and notes[0].startswith("bank/mla-c01/model-development/layer-split-across-gpus.es.yaml:1:1: note:")
    assert "facility 0.00 in es (n 100)" in notes[0] and "for mla-c01-dev-layer-split-gpus (n 300)" in notes[0]


def test_a_changed_case_scenario_makes_the_translations_of_its_questions_stale(tmp_path):
    """A case question's content hash covers its case study: the translation follows the scenario too."""
    from qlint.project.contenthash import content_hash

    bank = bilingual_bank(tmp_path)
    case = bank / "mla-c01" / "cases" / "demand-forecast.yaml"
    source = bank / "mla-c01" / "deployment-orchestration" / "case-demand-pipeline-order.yaml"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    digest = content_hash(data, yaml.safe_load(case.read_text(encoding="utf-8")))
    translation = dict(data, id=data["id"] + "-es", lang="es", translation_of=data["id"], source_hash=digest)
    source.with_name("case-demand-pipeline-order.es.yaml").write_text(
        yaml.safe_dump(translation, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert _findings(tmp_path, "L003") == []
    edit(case, "600 stores", "60 stores")
    found = _findings(tmp_path, "L003")
    now = content_hash(data, yaml.safe_load(case.read_text(encoding="utf-8")))
    assert [(f, c) for f, c, _ in found] == [("case-demand-pipeline-order.es.yaml", "L003")] and now in found[0][2]
