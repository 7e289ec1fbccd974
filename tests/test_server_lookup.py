"""`qlint server`'s hover (rule docs), completion (ids, exam codes, domains, task ids) and go to
definition (related: and case: ids), read from the sample bank."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from conftest import BANK
from lsprotocol import types as lsp
from kit.lsp import open_file, published, server, uri

from qlint.rules import RULES
from qlint.rules.docs import render

SAMPLE = "bank/mla-c01/data-preparation/feature-store-ingest-order.yaml"


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(BANK, root / "bank")
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    return root


def _at(text: str, needle: str, shift: int = 0) -> lsp.Position:
    i = text.index(needle) + shift
    line = text.count("\n", 0, i)
    return lsp.Position(line, i - (text.rfind("\n", 0, i) + 1))


def test_hover_completion_and_definition(tmp_path):
    root = _project(tmp_path)
    f = root / SAMPLE
    text = f.read_text(encoding="utf-8").replace("difficulty: medium", "difficulty: medium  # qlint: disable-line K003")
    text = text.replace("related: [mla-c01-prep-feature-store-online]", "related: [mla-c01-prep-feature-store-online, ]")
    f.write_text(text, encoding="utf-8")
    doc = lsp.TextDocumentIdentifier(uri(f))

    async def go():
        async with server(root) as client:
            open_file(client, f)
            found = await published(client, f)
            m001 = next(d for d in found if d.code == "M001")
            on_finding = await client.text_document_hover_async(lsp.HoverParams(doc, m001.range.start))
            on_code = await client.text_document_hover_async(lsp.HoverParams(doc, _at(text, "K003", 1)))
            nowhere = await client.text_document_hover_async(lsp.HoverParams(doc, _at(text, "format: 1")))
            related = await client.text_document_completion_async(lsp.CompletionParams(doc, _at(text, ", ]", 2)))
            exam = await client.text_document_completion_async(lsp.CompletionParams(doc, _at(text, "MLA-C01")))
            domain = await client.text_document_completion_async(lsp.CompletionParams(doc, _at(text, "data-preparation\n")))
            tasks = await client.text_document_completion_async(lsp.CompletionParams(doc, _at(text, '"1.1"')))
            stem = await client.text_document_completion_async(lsp.CompletionParams(doc, _at(text, "stem: |", 9)))
            target = await client.text_document_definition_async(lsp.DefinitionParams(
                doc, _at(text, "mla-c01-prep-feature-store-online", 5)))
            return on_finding, on_code, nowhere, related, exam, domain, tasks, stem, target

    on_finding, on_code, nowhere, related, exam, domain, tasks, stem, target = asyncio.run(go())
    assert on_finding.contents.value == render(RULES.get("M001"))
    assert on_code.contents.value == render(RULES.get("K003")) and "## Fix" in on_code.contents.value
    assert nowhere is None
    ids = {i.label for i in related.items}
    assert "mla-c01-prep-feature-store-online" in ids and "mla-c01-prep-feature-store-ingest-order" not in ids
    assert len(ids) == len(list((root / "bank" / "mla-c01").rglob("*.yaml"))) - 2  # all but itself and the case
    assert [i.label for i in exam.items] == ["MLA-C01"]
    assert {i.label for i in domain.items} == {"data-preparation", "model-development", "deployment-orchestration",
                                                "monitoring-security"}
    assert {"1.1", "4.3"} <= {i.label for i in tasks.items}
    assert stem is None
    online = root / "bank/mla-c01/data-preparation/feature-store-online.yaml"
    assert [t.uri for t in target] == [uri(online)]
    assert online.read_text(encoding="utf-8").splitlines()[target[0].range.start.line].startswith("id: ")


def test_case_ids_complete_and_lead_to_the_case_study(tmp_path):
    root = _project(tmp_path)
    f = root / "bank/mla-c01/deployment-orchestration/case-demand-pipeline-order.yaml"
    text = f.read_text(encoding="utf-8")
    doc = lsp.TextDocumentIdentifier(uri(f))

    async def go():
        async with server(root) as client:
            open_file(client, f)
            await published(client, f)
            where = _at(text, "case: ", 8)
            return (await client.text_document_completion_async(lsp.CompletionParams(doc, where)),
                    await client.text_document_definition_async(lsp.DefinitionParams(doc, where)))

    cases, target = asyncio.run(go())
    assert [i.label for i in cases.items] == ["mla-c01-case-demand-forecast"]
    assert [t.uri for t in target] == [uri(root / "bank/mla-c01/cases/demand-forecast.yaml")]


def test_ids_complete_with_every_bank_rule_ignored(tmp_path):
    root = _project(tmp_path)
    (root / "qlint.toml").write_text('bank = "bank"\nignore = ["B"]\n', encoding="utf-8")
    f = root / SAMPLE
    text = f.read_text(encoding="utf-8")
    doc = lsp.TextDocumentIdentifier(uri(f))

    async def go():
        async with server(root) as client:
            open_file(client, f)
            await published(client, f)
            return await client.text_document_completion_async(lsp.CompletionParams(
                doc, _at(text, "mla-c01-prep-feature-store-online]", 3)))

    assert "mla-c01-prep-feature-store-online" in {i.label for i in asyncio.run(go()).items}
