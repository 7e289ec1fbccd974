"""yaml-language-server (tests/yaml_ls, `npm ci` by `make test`) run as a real LSP over stdio, as an
editor runs it: a file is opened, and the server's diagnostics and completion are read back."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

from conftest import REPO

YAML_LS = REPO / "tests" / "yaml_ls" / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
MISSING = None if YAML_LS.exists() and shutil.which("node") else "yaml-language-server is not installed (cd tests/yaml_ls && npm ci)"
SETTINGS = {"yaml": {"validate": True, "completion": True, "hover": True, "schemaStore": {"enable": False}}}


class Lsp:
    """A minimal LSP client: JSON-RPC with Content-Length framing over the server's stdin/stdout."""

    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen(["node", str(YAML_LS), "--stdio"], cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.timer = threading.Timer(60, self.proc.kill)  # a server that stops answering fails the test, not hangs it
        self.timer.start()

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self) -> dict:
        length = 0
        while (line := self.proc.stdout.readline().strip()):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        body = self.proc.stdout.read(length)
        assert body, "yaml-language-server stopped answering"
        return json.loads(body)

    def request(self, method: str, params: dict) -> int:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.next_id

    def until(self, wanted, settings: dict) -> dict:
        """Read messages until `wanted(message)`; answer the server's own requests on the way."""
        while True:
            msg = self.read()
            if "id" in msg and "method" in msg:  # a request from the server (configuration, ...)
                items = msg.get("params", {}).get("items", [])
                result = [settings.get(i.get("section"), None) for i in items] if msg["method"] == "workspace/configuration" else None
                self.send({"id": msg["id"], "result": result})
            elif wanted(msg):
                return msg

    def close(self) -> None:
        self.timer.cancel()
        self.proc.kill()
        self.proc.wait(timeout=10)



def open_in_editor(root: Path, path: Path, text: str, complete_at: int) -> tuple[list[dict], set[str]]:
    """Open `path` holding `text` in a workspace at `root`: the diagnostics the server publishes
    first (it validates against the schema the file names) and the completion labels offered at
    the start of line `complete_at` (0-based)."""
    uri = path.as_uri()
    lsp = Lsp(root)
    try:
        init = lsp.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                                          "capabilities": {"workspace": {"configuration": True}}})
        lsp.until(lambda m: m.get("id") == init and "result" in m, SETTINGS)
        lsp.send({"method": "initialized", "params": {}})
        lsp.send({"method": "workspace/didChangeConfiguration", "params": {"settings": SETTINGS}})
        lsp.send({"method": "textDocument/didOpen",
                  "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
        diags = lsp.until(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri and m["params"]["diagnostics"], SETTINGS)
        ask = lsp.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                      "position": {"line": complete_at, "character": 0}})
        reply = lsp.until(lambda m: m.get("id") == ask and "result" in m, SETTINGS)
        items = reply["result"]["items"] if isinstance(reply["result"], dict) else reply["result"]
        return diags["params"]["diagnostics"], {i["label"] for i in items}
    finally:
        lsp.close()


def check_scaffold_in_editor(root: Path, path: Path) -> None:
    """The scaffold's `$schema` line resolves to root/schema/question.schema.json: a wrong status
    gets the schema's own enum message, on its line, naming that schema, and completion on an
    empty top-level line offers fields the scaffold leaves out."""
    text = path.read_text(encoding="utf-8").replace("status: draft", "status: drafty")
    lines = text.splitlines()
    diagnostics, labels = open_in_editor(root, path, text, lines.index("", lines.index("tags: []")))
    messages = [d["message"] for d in diagnostics]
    assert any(d["range"]["start"]["line"] == lines.index("status: drafty") for d in diagnostics), messages
    assert any("draft" in m and "review" in m and "published" in m for m in messages), messages  # the schema's enum
    used = {u for d in diagnostics for u in d.get("data", {}).get("schemaUri", [])}
    assert used == {(root / "schema" / "question.schema.json").as_uri()}, used
    assert {"related", "shuffle"} <= labels, sorted(labels)
