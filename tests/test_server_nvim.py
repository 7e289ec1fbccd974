"""A real editor, headless: Neovim's built-in LSP client starts `qlint server` on a sample file
with a planted flaw and reads the diagnostic back at the line and column `qlint check` gives."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import BANK, REPO
from kit.lsp import check_json

pytestmark = pytest.mark.slow
SCRIPT = REPO / "editors" / "neovim" / "diagnostics.lua"
SAMPLE = "bank/mla-c01/data-preparation/feature-store-ingest-order.yaml"


@pytest.fixture
def nvim() -> str:
    found = shutil.which("nvim")
    if found is None:
        if os.environ.get("CI") == "true":  # .ci/run installs Debian's neovim: missing there is a failure
            pytest.fail("nvim is missing under CI (.ci/run installs it)")
        pytest.skip("nvim (Neovim) is not installed: apt-get install neovim")
    return found


def test_neovim_shows_the_planted_flaw_at_its_line_and_column(nvim, tmp_path):
    root = tmp_path / "project"
    shutil.copytree(BANK, root / "bank")
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    f = root / SAMPLE
    f.write_text(f.read_text(encoding="utf-8").replace("exam: MLA-C01", "exam: MLA-C09"), encoding="utf-8")
    expected = check_json(root, SAMPLE)[SAMPLE]
    assert [d[0] for d in expected] == ["S002"]
    out = tmp_path / "diagnostics.json"
    env = {**os.environ, "QLINT_FILE": str(f), "QLINT_OUT": str(out), "QLINT_ROOT": str(root),
           "QLINT_CMD": json.dumps([sys.executable, "-m", "qlint", "server"]), "HOME": str(tmp_path)}
    run = subprocess.run([nvim, "--headless", "--clean", "-c", f"luafile {SCRIPT}"], cwd=root, env=env,
                         capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.exists(), run.stderr + run.stdout
    shown = json.loads(out.read_text(encoding="utf-8"))
    assert shown["ok"] is True, shown
    got = [(d["code"], d["lnum"] + 1, d["col"] + 1, d["end_lnum"] + 1, d["end_col"]) for d in shown["diagnostics"]]
    assert got == expected
    assert shown["diagnostics"][0]["source"] == "qlint" and "MLA-C09" in shown["diagnostics"][0]["message"]
