"""The language server test kit: `qlint server` started as a subprocess and driven over stdio by
pytest-lsp's real LSP client, and the server's diagnostics in `qlint check`'s terms."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator

from lsprotocol import types as lsp
from pygls.uris import from_fs_path
from pytest_lsp import client_capabilities, make_test_lsp_client

SERVER = [sys.executable, "-m", "qlint", "server"]


def uri(path: Path | str) -> str:
    return from_fs_path(str(path))


@asynccontextmanager
async def server(root: Path, capabilities: str = "visual-studio-code", encodings: list[str] | None = None,
                 command: list[str] | None = None, **env: str) -> AsyncIterator:
    """A started and initialized `qlint server` with `root` as its workspace folder (`encodings`:
    the position encodings the client offers, else the editor's own; `command`: how an editor's
    set-up starts it, else `python -m qlint server`)."""
    client = make_test_lsp_client()

    @client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def register(params: lsp.RegistrationParams) -> None:  # the file watchers: changes are sent by hand
        return None

    environ = {**os.environ, "QLINT_SERVER_DEBOUNCE": str(DEBOUNCE), **env}
    await client.start_io(*(command or SERVER), env=environ, cwd=str(root))
    caps = client_capabilities(capabilities)
    if encodings is not None:
        caps.general = lsp.GeneralClientCapabilities(position_encodings=encodings)
    await client.initialize_session(lsp.InitializeParams(
        capabilities=caps, root_uri=uri(root), workspace_folders=[lsp.WorkspaceFolder(uri(root), root.name)]))
    try:
        yield client
    finally:
        await client.shutdown_session()
        await client.stop()


async def barrier(client, path: Path) -> None:
    """Wait until the server has handled every notification sent before (it answers requests in
    order): a hover request on the file."""
    await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri(path)), lsp.Position(0, 0)))


def open_file(client, path: Path, text: str | None = None, version: int = 1) -> str:
    text = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri(path), "yaml", version, text)))
    return text


def change(client, path: Path, text: str, version: int) -> None:
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=version, uri=uri(path)), [lsp.TextDocumentContentChangeWholeDocument(text)]))


DEBOUNCE = 0.05  # the server's wait for a pause in typing here (QLINT_SERVER_DEBOUNCE)


async def published(client, path: Path, timeout: float = 30) -> list[lsp.Diagnostic]:
    """The diagnostics last published for `path` once the server is idle (the debounced check
    of the last change included)."""
    await asyncio.sleep(DEBOUNCE * 3)
    await asyncio.wait_for(barrier(client, path), timeout)
    return list(client.diagnostics.get(uri(path), []))


def as_check(diagnostics: list[lsp.Diagnostic]) -> list[tuple[str, int, int, int, int]]:
    """(code, line, col, end_line, end_col) as `qlint check --output-format json` counts them
    (1-based, the end the last character); the files here hold no character beyond the BMP."""
    return sorted((str(d.code), d.range.start.line + 1, d.range.start.character + 1, d.range.end.line + 1,
                   d.range.end.character) for d in diagnostics)


def check_json(root: Path, *args: str) -> dict[str, list[tuple[str, int, int, int, int]]]:
    """`qlint check --output-format json` run in `root`: path -> its diagnostics."""
    run = subprocess.run([sys.executable, "-m", "qlint", "check", "--no-cache", "--output-format", "json", *args],
                         cwd=root, capture_output=True, text=True, timeout=300)
    assert run.returncode in (0, 1, 2) and run.stdout.startswith("{"), run.stderr  # 2: a file that does not load
    out: dict[str, list] = {}
    for d in json.loads(run.stdout)["diagnostics"]:
        out.setdefault(d["path"], []).append((d["code"], d["line"], d["col"], d["end_line"], d["end_col"]))
    return {p: sorted(v) for p, v in out.items()}


def offset(text: str, pos: lsp.Position) -> int:
    """The string index of an LSP position (UTF-16 columns) in `text`."""
    lines = text.splitlines(keepends=True) or [""]
    at = sum(len(line) for line in lines[: pos.line])
    line = lines[pos.line] if pos.line < len(lines) else ""
    units = 0
    for i, c in enumerate(line):
        if units >= pos.character:
            return at + i
        units += 2 if ord(c) > 0xFFFF else 1
    return at + len(line)


def apply_edits(text: str, action: lsp.CodeAction) -> str:
    """`text` after the action's edits, applied from the last to the first as an editor does."""
    edits = [e for change in action.edit.document_changes for e in change.edits]
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(text, e.range.start)] + e.new_text + text[offset(text, e.range.end):]
    return text


async def actions(client, path: Path, text: str) -> list[lsp.CodeAction]:
    """Every code action the server offers over the whole file."""
    end = lsp.Position(len(text.splitlines()) + 1, 0)
    found = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri(path)), lsp.Range(lsp.Position(0, 0), end),
        lsp.CodeActionContext(diagnostics=[])))
    return list(found or [])
