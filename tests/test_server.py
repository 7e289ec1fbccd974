"""`qlint server` through a real LSP client over stdio (pytest-lsp): the diagnostics equal
`qlint check --output-format json` file by file, and bad buffers never stop the server."""

from __future__ import annotations

import asyncio
import re
import shutil
import sys
from pathlib import Path

import pytest

from conftest import BANK, REPO, require_shared
from lsprotocol import types as lsp
from kit.lsp import as_check, change, check_json, open_file, published, server, uri

# Flaws planted in a copy of the sample bank, one per file in turn (each where it applies): schema,
# exam and domain findings, YAML errors, fixable and unfixable rule findings, an unused comment,
# a related id that names no question.
FLAWS = [
    (r"(?m)^exam: MLA-C01$", "exam: MLA-C02"),
    (r"(?m)^domain: ([a-z-]+)$", r"domain: \1-x"),
    (r"(?m)^type: .*\n", ""),
    (r"(?m)^(    text: .*)$", r"\1   "),
    (r"(?m)^stem: \|\n", "stem: |\n  Which of the following is NOT correct? All of the above.\n"),
    (r"(?m)^difficulty: (\w+)$", r"difficulty: \1  # qlint: disable-line K003"),
    (r"(?m)^related: \[", "related: [no-such-question, "),
    (r"(?m)^tags: \[", "tags: [ ["),
    (r"(?m)^difficulty: .*$", "difficulty: medium\ndifficulty: hard"),
    (r"(?m)^explanation: \|\n", "explanation: |\n  \tA tab, then the text.\n"),
]


def bank_files(bank: Path) -> list[Path]:
    return sorted(p for p in bank.rglob("*.yaml"))


def planted_copy(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(BANK, root / "bank")
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    files = [f for f in bank_files(root / "bank") if "exams" not in f.parts]
    for n, f in enumerate(files):
        text = f.read_text(encoding="utf-8")
        for k in range(len(FLAWS)):
            pattern, repl = FLAWS[(n + k) % len(FLAWS)]
            new = re.sub(pattern, repl, text, count=1)
            if new != text:
                f.write_text(new, encoding="utf-8")
                break
    twin = files[0].read_text(encoding="utf-8")  # a near-twin question: the bank rules see it
    (files[0].parent / "twin.yaml").write_text(re.sub(r"(?m)^id: (.*)$", r"id: \1-twin", twin), encoding="utf-8")
    return root


async def _compare(root: Path, expected: dict[str, list]) -> dict[str, list]:
    got = {}
    async with server(root) as client:
        for f in bank_files(root / "bank"):
            open_file(client, f)
            got[str(f.relative_to(root))] = as_check(await published(client, f))
    return got


def test_diagnostics_equal_qlint_check_on_every_file_of_the_sample_bank():
    expected = check_json(REPO, "bank")
    got = asyncio.run(_compare(REPO, expected))
    assert len(got) == len(bank_files(BANK)) >= 30
    for path, found in got.items():
        assert found == expected.get(path, []), path


def test_diagnostics_equal_qlint_check_on_every_file_of_a_flawed_bank(tmp_path):
    root = planted_copy(tmp_path)
    expected = check_json(root, "bank")
    got = asyncio.run(_compare(root, expected))
    codes = {d[0] for found in expected.values() for d in found}
    assert {"S001", "S002", "S003", "Y001", "Y002", "M001"} <= codes and any(c.startswith("B") for c in codes), codes
    assert sum(map(len, expected.values())) >= 30
    for path in got:
        assert got[path] == expected.get(path, []), path


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(BANK, root / "bank")
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    return root


SAMPLE = "bank/mla-c01/data-preparation/feature-store-ingest-order.yaml"


def test_bad_buffers_get_a_clear_diagnostic_and_the_server_keeps_serving(tmp_path):
    root = _project(tmp_path)
    f = root / SAMPLE
    loose = tmp_path / "elsewhere" / "loose.yaml"  # in no bank, no project: as `qlint check` judges it
    loose.parent.mkdir()
    loose.write_text(f.read_text(encoding="utf-8"), encoding="utf-8")

    async def go():
        async with server(root) as client:
            text = open_file(client, f)
            assert await published(client, f) == []
            change(client, f, "stem: [unclosed\n  - {", 2)
            bad = await published(client, f)
            assert [d.code for d in bad] == ["Y001"] and bad[0].severity == lsp.DiagnosticSeverity.Error
            change(client, f, text + "explan", 3)  # a key half typed
            half = await published(client, f)
            assert half and {d.code for d in half} <= {"Y001", "S001"}
            change(client, f, text + "x: " + "word " * 400_000, 4)  # a 2 MB paste
            huge = await published(client, f)
            assert [d.code for d in huge] == ["Y009"] and "max-file-bytes" in huge[0].message
            change(client, f, "\x00\ufeff\udcff" + text, 5)  # bytes no YAML holds
            assert await published(client, f)
            change(client, f, text, 6)
            assert await published(client, f) == []  # and back: the server still serves

            open_file(client, loose)
            got = as_check(await published(client, loose))
            f.unlink()  # deleted under the editor: the buffer is still checked, nothing fails
            client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(
                [lsp.FileEvent(uri(f), lsp.FileChangeType.Deleted)]))
            assert await published(client, f) == []
            return got

    got = asyncio.run(go())
    assert got and got == check_json(tmp_path, "elsewhere/loose.yaml")["elsewhere/loose.yaml"]


def test_a_configuration_change_reloads_the_settings(tmp_path):
    root = _project(tmp_path)
    f = root / SAMPLE
    config = root / "qlint.toml"

    async def go():
        async with server(root) as client:
            text = open_file(client, f, f.read_text(encoding="utf-8").replace("difficulty: medium", "difficulty: medium  # qlint: disable-line K003"))
            assert [d.code for d in await published(client, f)] == ["M001"]
            config.write_text('bank = "bank"\nignore = ["M001"]\nselectt = 1\n', encoding="utf-8")
            client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(
                [lsp.FileEvent(uri(config), lsp.FileChangeType.Changed)]))
            broken = await published(client, f)
            assert [d.code for d in broken] == ["config"] and "selectt" in broken[0].message
            config.write_text('bank = "bank"\nignore = ["M001"]\n', encoding="utf-8")
            client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(
                [lsp.FileEvent(uri(config), lsp.FileChangeType.Changed)]))
            assert await published(client, f) == []
            return text

    asyncio.run(go())


def _saved(client, path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri(path)), text))


def test_bank_rules_run_on_save_and_on_changed_files_and_reach_every_file_they_concern(tmp_path):
    root = _project(tmp_path)
    a = root / SAMPLE
    twin = a.parent / "twin.yaml"
    original = a.read_text(encoding="utf-8")
    copy = re.sub(r"(?m)^id: (.*)$", r"id: \1-twin", original)

    async def go():
        async with server(root) as client:
            open_file(client, a)
            assert await published(client, a) == []
            twin.write_text(copy, encoding="utf-8")  # another process writes a near-twin
            client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(
                [lsp.FileEvent(uri(twin), lsp.FileChangeType.Created)]))
            both = as_check(await published(client, a)), as_check(await published(client, twin))
            expected = check_json(root, "bank")
            dangling = original.replace("related: [", "related: [no-such-question, ")
            change(client, a, dangling, 2)
            typing = as_check(await published(client, a))  # bank rules wait for the save
            _saved(client, a, dangling)
            after = as_check(await published(client, a))
            twin.unlink()
            client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(
                [lsp.FileEvent(uri(twin), lsp.FileChangeType.Deleted)]))
            gone = as_check(await published(client, a)), as_check(await published(client, twin))
            return both, expected, typing, after, gone

    (on_a, on_twin), expected, typing, after, (a_gone, twin_gone) = asyncio.run(go())
    assert on_a and on_twin and any(c.startswith("B") for c, *_ in on_a)
    assert on_a == expected[SAMPLE] and on_twin == expected[str(twin.relative_to(root))]
    assert typing == on_a  # the per-file rules on the buffer, the bank findings of the last run
    assert "B002" in {c for c, *_ in after} and "B002" not in {c for c, *_ in typing}
    assert twin_gone == [] and {c for c, *_ in a_gone} == {"B002"}


def test_columns_are_counted_in_the_encoding_the_client_negotiated(tmp_path):
    """UTF-16 code units by default (an emoji is two), code points when the client offers UTF-32."""
    root = _project(tmp_path)
    f = root / SAMPLE
    text = f.read_text(encoding="utf-8").replace("domain: data-preparation", "domain: \U0001F600x")
    f.write_text(text, encoding="utf-8")
    (expected,) = check_json(root, SAMPLE)[SAMPLE]  # S001: the value is not an id
    code, line, col, end_line, end_col = expected  # 1-based code points, the end the last character
    assert (line, col, end_line) == (5, 9, 5) and end_col >= 10

    async def go(encodings):
        async with server(root, encodings=encodings) as client:
            open_file(client, f)
            return [d for d in await published(client, f) if d.code == code]

    (utf16,) = asyncio.run(go(None))
    assert (utf16.range.start.character, utf16.range.end.character) == (8, end_col + 1)  # the emoji is two units
    (utf32,) = asyncio.run(go(["utf-32"]))
    assert (utf32.range.start.character, utf32.range.end.character) == (8, end_col)


def test_an_exam_definition_change_reloads_the_exams(tmp_path):
    root = _project(tmp_path)
    f = root / SAMPLE
    exam = root / "bank" / "exams" / "mla-c01.yaml"

    async def go():
        async with server(root) as client:
            open_file(client, f)
            before = await published(client, f)
            exam.write_text(exam.read_text(encoding="utf-8").replace("id: data-preparation", "id: data-prep"),
                            encoding="utf-8")
            client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(
                [lsp.FileEvent(uri(exam), lsp.FileChangeType.Changed)]))
            return before, as_check(await published(client, f))

    before, after = asyncio.run(go())
    assert before == [] and "S003" in {c for c, *_ in after}
    assert after == check_json(root, "bank")[SAMPLE]


# Three shared corpora of other shapes than the sample bank: Kubernetes (short reasons, commands),
# JavaScript code items (template siblings, code options), software engineering (True/False,
# unstated multiple answers).
CORPORA = ("msahihi-kcna", "lydiahallie-javascript-questions", "se-edu-se-book")


async def _compare_bank(bank: Path) -> dict[str, list]:
    got = {}
    # UTF-32 positions count code points, as `qlint check` does: these corpora hold emoji
    async with server(bank, encodings=[lsp.PositionEncodingKind.Utf32]) as client:
        for f in bank_files(bank):
            if "exams" in f.relative_to(bank).parts:
                continue
            open_file(client, f)
            got[str(f.relative_to(bank))] = as_check(await published(client, f))
    return got


@pytest.mark.slow
@pytest.mark.parametrize("corpus", CORPORA)
def test_diagnostics_equal_qlint_check_on_converted_shared_corpora(corpus, tmp_path):
    require_shared("corpora", corpus)
    sys.path.insert(0, str(REPO / "scripts"))
    import corpora

    (bank,) = corpora.write_bank(corpora.convert(names=(corpus,)), tmp_path).values()
    expected = check_json(bank, ".")
    got = asyncio.run(_compare_bank(bank))
    assert len(got) >= 100 and sum(map(len, expected.values())) >= 20
    for path, found in got.items():
        assert found == expected.get(path, []), path
