"""`qlint server` through a real LSP client over stdio (pytest-lsp): the diagnostics equal
`qlint check --output-format json` file by file, and bad buffers never stop the server."""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

from conftest import BANK, REPO
from lspkit import as_check, check_json, open_file, published, server

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
