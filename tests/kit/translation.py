"""A two-language copy of the sample bank: the English bank and the Spanish translations of
tests/fixtures/translations/ (an ordering, a single-answer and a matching question) beside their
sources, each with `source_hash:` set to its source's content hash now."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from qlint.project.contenthash import content_hash

from conftest import REPO

FIXTURES = REPO / "tests" / "fixtures" / "translations"
# Names that stay as written in Spanish besides the vendor's "Amazon ..." and "AWS ..." (L006's
# `names`): the fixture's product and algorithm names.
NAMES = ["SageMaker AI", "Random Cut Forest", "XGBoost", "DeepAR", "K-Means", "BlazingText", "Docker"]
# translation file -> its source, relative to the bank
TRANSLATIONS = {
    "mla-c01/model-development/custom-container-training-order.es.yaml": "mla-c01/model-development/custom-container-training-order.yaml",
    "mla-c01/model-development/layer-split-across-gpus.es.yaml": "mla-c01/model-development/layer-split-across-gpus.yaml",
    "mla-c01/model-development/builtin-algorithm-match.es.yaml": "mla-c01/model-development/builtin-algorithm-match.yaml",
}


def config_text(languages: bool = False) -> str:
    lines = ['bank = "bank"', 'exams = "bank/exams"', 'lang = "en"']
    if languages:
        lines.append('languages = ["en", "es"]')
    names = ", ".join(f'"{n}"' for n in NAMES)
    return "\n".join(lines) + f"\n\n[rules.translated-name]\nnames = [{names}]\n"


def bilingual_bank(root: Path, languages: bool = False) -> Path:
    """The copy under `root` (qlint.toml and bank/); returns the bank folder."""
    bank = root / "bank"
    shutil.copytree(REPO / "bank", bank)
    (root / "qlint.toml").write_text(config_text(languages), encoding="utf-8")
    for name, source in TRANSLATIONS.items():
        stamp(bank, name, source)
    return bank


def stamp(bank: Path, name: str, source: str | None = None) -> None:
    """Write the translation `name` from its fixture with its source's current content hash."""
    source = source or TRANSLATIONS[name]
    digest = content_hash(yaml.safe_load((bank / source).read_text(encoding="utf-8")))
    text = (FIXTURES / Path(name).name).read_text(encoding="utf-8")
    (bank / name).write_text(text.replace("SOURCE_HASH", digest), encoding="utf-8")


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace `old` (which must occur `count` times) in the file."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == count, f"{path.name}: {old!r} occurs {text.count(old)} times"
    path.write_text(text.replace(old, new), encoding="utf-8")
