"""Translations: `lang` on each question (default from the configuration), `translation_of` and
`source_hash` on a translation, the bank's `languages`."""

from __future__ import annotations

from pathlib import Path

import pytest

from qlint.cli.config import load_config
from qlint.loading.schema import validate
from qlint.project.config import ConfigError

from conftest import REPO

SAMPLE = REPO / "bank" / "mla-c01" / "model-development" / "bayesian-tuning.yaml"
HASH = "sha256:" + "ab" * 32


def _sample() -> dict:
    import yaml

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
    from qlint.cli import main

    text = SAMPLE.read_text(encoding="utf-8").replace(
        "status: published\n", "status: published\ntranslation_of: mla-c01-dev-other-question\n")
    (tmp_path / "q.yaml").write_text(text, encoding="utf-8")
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["check", "--no-cache", "--select", "S", str(tmp_path / "q.yaml")])
    assert code == 1
    assert "missing required field 'source_hash' in the document (translation_of needs it" in out.getvalue()
