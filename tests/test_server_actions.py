"""`qlint server`'s code actions: each fix and "fix all" give the bytes `qlint check --fix`
writes (compared with --fix run on a copy), unsafe fixes are labelled, suppression comments work."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from kit.authoring import make_project, question_yaml
from kit.lsp import actions, apply_edits, as_check, change, open_file, published, server

# Three safe fixes (the choose-n sentence K002, an option id S001, a trailing space F001 inside
# quotes) and an unsafe one (a hard line break F001), as tests/test_fix.py plants them.
MULTI = question_yaml("mla-c01-dev-fix-me", key=0).replace("type: single", "type: multiple\nchoose: 2").replace(
    "    text: Data parallelism\n    correct: false", "    text: Data parallelism\n    correct: true")
FLAWED = MULTI.replace("  - id: model-parallelism", "  - id: Model Parallelism").replace(
    "    text: Hyperparameter search", '    text: "Hyperparameter search "  # note').replace(
    "  A transformer with 70 billion weights exceeds one GPU's memory. Which strategy lets the team\n",
    "  A transformer with 70 billion weights  \n  exceeds one GPU's memory. Which strategy lets the team\n")


def project(tmp_path: Path, name: str, text: str = FLAWED) -> Path:
    bank = make_project(tmp_path / name)
    f = bank / "q.yaml"
    f.write_text(text, encoding="utf-8")
    return f


def fixed_by_check(tmp_path: Path, name: str, *args: str, text: str = FLAWED) -> str:
    """The bytes `qlint check --fix` writes on a fresh copy of the file."""
    f = project(tmp_path, name, text)
    subprocess.run([sys.executable, "-m", "qlint", "check", "--no-cache", "--fix", *args, str(f)],
                   cwd=f.parent.parent, capture_output=True, text=True, timeout=120)
    return f.read_bytes().decode("utf-8")


async def _offered(f: Path, text: str):
    async with server(f.parent.parent) as client:
        open_file(client, f)
        found = await published(client, f)
        return found, await actions(client, f, text)


def test_fix_all_gives_the_bytes_qlint_check_fix_writes(tmp_path):
    f = project(tmp_path, "served")
    _, offered = asyncio.run(_offered(f, FLAWED))
    fix_all = [a for a in offered if a.title == "Fix all safe qlint fixes in this file"]
    assert len(fix_all) == 1 and fix_all[0].kind == "source.fixAll.qlint"
    # the schema finding hides the item rules until fixed: --fix's rounds reach them, so does this
    assert apply_edits(FLAWED, fix_all[0]) == fixed_by_check(tmp_path, "all") != FLAWED


def test_each_fix_gives_the_bytes_qlint_check_fix_writes_for_it(tmp_path):
    text = FLAWED.replace("  - id: Model Parallelism", "  - id: model-parallelism")  # schema-valid: every rule runs
    f = project(tmp_path, "served", text)
    found, offered = asyncio.run(_offered(f, text))
    quick = [a for a in offered if a.title.startswith("Fix ") and a.kind == "quickfix"]
    unsafe = [a for a in quick if "(unsafe" in a.title]
    safe = [a for a in quick if a not in unsafe]
    assert len(unsafe) == 1 and unsafe[0].diagnostics[0].code == "F001" and not unsafe[0].is_preferred
    assert sorted(a.diagnostics[0].code for a in safe) == ["F001", "K002"] and all(a.is_preferred for a in safe)
    for a in safe:
        code = a.diagnostics[0].code
        assert [d.code for d in found].count(code) == (2 if code == "F001" else 1)
    k002 = next(a for a in safe if a.diagnostics[0].code == "K002")  # the one finding of its rule
    assert apply_edits(text, k002) == fixed_by_check(tmp_path, "one", "--select", "K002", text=text) != text


def test_the_unsafe_fix_is_what_unsafe_fixes_write(tmp_path):
    text = MULTI.replace("  A transformer with 70 billion weights exceeds one GPU's memory. Which strategy lets the team\n",
                         "  A transformer with 70 billion weights  \n  exceeds one GPU's memory. Which strategy lets the team\n")
    f = project(tmp_path, "served", text)

    async def go():
        async with server(f.parent.parent) as client:
            open_file(client, f)
            await published(client, f)
            return await actions(client, f, text)

    unsafe = [a for a in asyncio.run(go()) if "(unsafe" in a.title]
    assert len(unsafe) == 1
    copy = project(tmp_path, "copy", text)
    subprocess.run([sys.executable, "-m", "qlint", "check", "--no-cache", "--fix", "--unsafe-fixes", "--select", "F001", str(copy)],
                   cwd=copy.parent.parent, capture_output=True, timeout=120)
    assert apply_edits(text, unsafe[0]) == copy.read_text(encoding="utf-8") != text


def test_a_suppression_comment_turns_the_finding_off(tmp_path):
    f = project(tmp_path, "served", MULTI)

    async def go():
        async with server(f.parent.parent) as client:
            open_file(client, f)
            before = await published(client, f)
            offered = await actions(client, f, MULTI)
            out = []
            for n, a in enumerate(x for x in offered if x.title.startswith("Suppress ")):
                after = apply_edits(MULTI, a)
                change(client, f, after, 2 + n)
                out.append((a, after, await published(client, f)))
            return before, out

    before, out = asyncio.run(go())
    assert before and len(out) == len(before)  # every finding here can be suppressed
    for action, after, found in out:
        code = action.diagnostics[0].code
        assert f"# qlint: disable-line {code}" in after
        assert [d[0] for d in as_check(found)].count(code) == [d.code for d in before].count(code) - 1, code
        assert "M001" not in {d.code for d in found} and "M002" not in {d.code for d in found}
