"""Every registered exporter over every item type's fixture (and a case study's question): each
either writes the question, its words in the output, or leaves it out with a warning naming its
file. A new item type needs a fixture here; a new exporter is run over all of them
(CONTRIBUTING.md, "Adding an exporter" and "Adding an item type")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from conftest import BANK
from kit.export import SAMPLE_MULTIPLE, SAMPLE_SINGLE, TYPES, case, export, formats, read_package, type_exams
from qlint.exporters import EXPORTERS
from qlint.model import ITEM_TYPES, Question

# One fixture per item type (a file under tests/fixtures/types, else a sample-bank question),
# plus a question that belongs to a case study: the shape every exporter must also carry.
FIXTURES = {"single": SAMPLE_SINGLE, "multiple": SAMPLE_MULTIPLE, "ordering": TYPES / "ordering.yaml",
            "matching": TYPES / "matching.yaml", "case study": TYPES / "case-single.yaml"}


def test_every_item_type_has_a_fixture():
    """The schema's types and the model's are the same, and each has a fixture of its type."""
    schema = yaml.safe_load((BANK.parent / "schema" / "question.schema.json").read_text(encoding="utf-8"))
    assert set(schema["properties"]["type"]["enum"]) == set(ITEM_TYPES)
    for kind in ITEM_TYPES:
        assert yaml.safe_load(FIXTURES[kind].read_text(encoding="utf-8"))["type"] == kind, kind
    assert yaml.safe_load(FIXTURES["case study"].read_text(encoding="utf-8")).get("case") == case().id


def _distinctive(q: Question) -> str:
    """The stem's longest word: letters survive every target's escaping."""
    return max(re.findall(r"[A-Za-z]{4,}", q.stem), key=len)


@pytest.mark.parametrize("kind", sorted(FIXTURES))
@pytest.mark.parametrize("fmt", formats())
def test_every_exporter_writes_or_warns_for_every_item_type(tmp_path, fmt, kind):
    path = FIXTURES[kind]
    q = Question(str(path), yaml.safe_load(path.read_text(encoding="utf-8")))
    c = case()
    root = TYPES if path.is_relative_to(TYPES) else BANK
    out = tmp_path / f"out-{fmt}"
    result = export(fmt, [q], type_exams(), root, out, cases={c.id: c} if q.case else {})
    named = [w for w in result.warnings if w.path == q.path]
    if result.left_out:
        assert result.left_out == 1 and named, (fmt, kind, result.warnings)
        return
    assert result.written and all(Path(p).exists() for p in result.written), (fmt, kind)
    files = read_package(out) if EXPORTERS.get(fmt).packaged else _tree(out)
    word = _distinctive(q)
    assert any(word.encode("utf-8") in data for data in files.values()), (fmt, kind, word)


def _tree(out: Path) -> dict[str, bytes]:
    if out.is_file():
        return {out.name: out.read_bytes()}
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
