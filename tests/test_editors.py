"""The editor set-ups of docs/editors.md and editors/ start the real server: Helix's languages.toml
as documented, and the VS Code extension's activate() (run by node against stand-ins for the two
modules VS Code provides) both launch a `qlint server` that answers an LSP session over stdio and
publishes the planted finding. Neovim runs for real in tests/test_server_nvim.py."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import BANK, REPO
from kit.lsp import as_check, check_json, open_file, published, server

QLINT = str(Path(sys.executable).parent / "qlint")  # the `qlint` an editor finds on PATH
SAMPLE = "mla-c01/data-preparation/feature-store-ingest-order.yaml"


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(BANK, root / "bank")
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    f = root / "bank" / SAMPLE
    f.write_text(re.sub(r"(?m)^exam: MLA-C01$", "exam: MLA-C02", f.read_text(encoding="utf-8")), encoding="utf-8")
    return root


async def _session(root: Path, command: list[str]) -> list:
    async with server(root, command=command) as client:
        f = root / "bank" / SAMPLE
        open_file(client, f)
        return as_check(await published(client, f))


def _started_as_documented(root: Path, command: list[str]) -> None:
    found = asyncio.run(_session(root, command))
    assert found == check_json(root, "bank")[f"bank/{SAMPLE}"]
    assert any(code == "S002" for code, *_ in found), found  # the planted unknown exam


def _helix_config() -> dict:
    doc = (REPO / "docs" / "editors.md").read_text(encoding="utf-8")
    helix = doc[doc.index("## Helix"):]
    block = re.search(r"```toml\n(.*?)```", helix, re.S).group(1)
    return tomllib.loads(block)


def test_helix_languages_toml_starts_the_server(tmp_path):
    config = _helix_config()
    server_cfg = config["language-server"]["qlint"]
    yaml = next(lang for lang in config["language"] if lang["name"] == "yaml")
    assert "qlint" in yaml["language-servers"]
    assert server_cfg["command"] == "qlint"
    _started_as_documented(_project(tmp_path), [QLINT, *server_cfg["args"]])


STAND_INS = {
    "vscode/index.js": """
exports.workspace = {
  getConfiguration: () => ({ get: (key) => JSON.parse(process.env.QLINT_DEFAULT_COMMAND) }),
  createFileSystemWatcher: (glob) => ({ glob }),
};""",
    "vscode-languageclient/node.js": """
const fs = require("fs");
exports.LanguageClient = class {
  constructor(id, name, serverOptions, clientOptions) {
    fs.writeFileSync(process.env.QLINT_RECORD, JSON.stringify({ id, serverOptions, clientOptions }));
  }
  start() { return Promise.resolve(); }
  stop() { return Promise.resolve(); }
};""",
}


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (apt-get install nodejs)")
def test_vscode_extension_starts_the_server_with_its_default_command(tmp_path):
    manifest = json.loads((REPO / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    default = manifest["contributes"]["configuration"]["properties"]["qlint.command"]["default"]
    ext = tmp_path / "ext"
    shutil.copytree(REPO / "editors" / "vscode", ext)
    for name, text in STAND_INS.items():
        (ext / "node_modules" / name).parent.mkdir(parents=True, exist_ok=True)
        (ext / "node_modules" / name).write_text(text, encoding="utf-8")
    record = tmp_path / "client.json"
    run = subprocess.run(["node", "-e", f"require({json.dumps(str(ext / manifest['main']))}).activate({{subscriptions: []}})"],
                         env={"PATH": "/usr/bin:/bin", "QLINT_RECORD": str(record),
                              "QLINT_DEFAULT_COMMAND": json.dumps(default)},
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    made = json.loads(record.read_text(encoding="utf-8"))
    options = made["serverOptions"]
    assert [options["command"], *options["args"]] == default == ["qlint", "server"]
    assert made["clientOptions"]["documentSelector"] == [{"scheme": "file", "language": "yaml"}]
    _started_as_documented(_project(tmp_path), [QLINT, *options["args"]])
