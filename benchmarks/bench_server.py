"""`qlint server` latency and memory on a generated bank (not a timed test: figures depend on the machine).

    .venv/bin/python benchmarks/bench_server.py [--questions 10000] [--edits 100] [--saves 10]

Writes a bank grown from the sample bank (benchmarks/synthbank.py `grow`: most files have
findings, as real banks do) into a temporary project, starts `qlint server` over stdio with a
real LSP client (pytest-lsp's), opens one question and prints a Markdown table:
- the first diagnostics after opening (the file's own check), and the bank index built (every
  file checked, the bank rules run: a cold start without the results cache);
- from an edit to its published diagnostics, per-file rules, over --edits edits: p50, p95, max.
  The server runs with no debounce here, so the figure is the check itself; an editor adds the
  debounce (150 ms by default) on top, by design;
- from a save to the published diagnostics with the bank rules run again over the whole index,
  over --saves saves: p50, max;
- the server's resident memory (VmRSS, VmHWM) after all of it;
- a second server started on the same project: the index from the results cache.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import synthbank  # noqa: E402
from lsprotocol import types as lsp  # noqa: E402
from lspkit import server, uri  # noqa: E402


def _memory(pid: int) -> dict[str, float]:
    out = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024
    return out


async def _next_publish(client, target: str, before=None, timeout: float = 600) -> float:  # noqa: ASYNC109
    """Seconds until diagnostics for `target` other than `before` (the list held when the
    message was sent) are published. The client stores each published list under its uri (a new
    list each time): polled every millisecond, as waiting for the notification could miss one
    that comes while thousands of others (the bank index's) are read."""
    start = time.perf_counter()
    while client.diagnostics.get(target) is before:
        if time.perf_counter() - start > timeout:
            raise TimeoutError(f"no diagnostics for {target} in {timeout} s")
        await asyncio.sleep(0.001)
    return time.perf_counter() - start


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def run(root: Path, edits: int, saves: int) -> dict:
    f = sorted((root / "bank").rglob("*.yaml"))[len(list((root / "bank").rglob("*.yaml"))) // 2]
    while "exams" in f.parts or "cases" in f.parts:
        f = next(p for p in sorted((root / "bank").rglob("*.yaml")) if "exams" not in p.parts and "cases" not in p.parts)
    target = uri(f)
    text = f.read_text(encoding="utf-8")
    figures: dict = {"file": str(f.relative_to(root))}
    async with server(root, QLINT_SERVER_DEBOUNCE="0", QLINT_CACHE_DIR=str(root / ".bench-cache")) as client:
        pid = client._server.pid
        start = time.perf_counter()
        mark = client.diagnostics.get(target)
        first = asyncio.ensure_future(_next_publish(client, target, mark))
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(target, "yaml", 1, text)))
        figures["first"] = await first
        figures["index"] = await _next_publish(client, target, client.diagnostics.get(target)) + figures["first"]
        figures["open_total"] = time.perf_counter() - start
        figures["after_index"] = _memory(pid)
        lines = text.split("\n")
        row = next(i for i, line in enumerate(lines) if line.startswith("  ") and len(line) > 20)
        latencies = []
        for n in range(edits):
            lines[row] = lines[row].rstrip(" x") + (" x" if n % 2 == 0 else "")  # a word typed, then removed
            edited = "\n".join(lines)
            mark = client.diagnostics.get(target)
            waiting = asyncio.ensure_future(_next_publish(client, target, mark))
            client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=n + 2, uri=target),
                [lsp.TextDocumentContentChangeWholeDocument(edited)]))
            latencies.append(await waiting)
        figures["edit"] = latencies
        bank = []
        for n in range(saves):
            lines[row] = lines[row].rstrip(" y") + (" y" if n % 2 == 0 else "")
            saved = "\n".join(lines)
            f.write_text(saved, encoding="utf-8")
            mark = client.diagnostics.get(target)
            client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=edits + n + 2, uri=target),
                [lsp.TextDocumentContentChangeWholeDocument(saved)]))
            await _next_publish(client, target, mark)
            mark = client.diagnostics.get(target)
            waiting = asyncio.ensure_future(_next_publish(client, target, mark))
            client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(target), saved))
            bank.append(await waiting)
        figures["save"] = bank
        figures["memory"] = _memory(pid)
        figures["diagnostics"] = len(client.diagnostics.get(target, []))
    async with server(root, QLINT_SERVER_DEBOUNCE="0", QLINT_CACHE_DIR=str(root / ".bench-cache")) as client:
        start = time.perf_counter()  # a restart: the results cache the first server filled answers
        mark = client.diagnostics.get(target)
        first = asyncio.ensure_future(_next_publish(client, target, mark))
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(target, "yaml", 1, saved)))
        await first
        await _next_publish(client, target, client.diagnostics.get(target))
        figures["warm"] = time.perf_counter() - start
        figures["warm_memory"] = _memory(client._server.pid)
    return figures


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--questions", type=int, default=10_000)
    p.add_argument("--edits", type=int, default=100)
    p.add_argument("--saves", type=int, default=10)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        start = time.perf_counter()
        synthbank.grow(root / "bank", args.questions)
        (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
        written = time.perf_counter() - start
        files = sum(1 for _ in (root / "bank").rglob("*.yaml"))
        fig = asyncio.run(run(root, args.edits, args.saves))
    ms = lambda s: f"{s * 1000:.0f} ms"  # noqa: E731
    edit, save = fig["edit"], fig["save"]
    print(f"# qlint server on {files:,} files ({args.questions:,} questions grown from the sample bank, written in {written:.1f} s)")
    print(f"\n{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores; "
          f"edited file {fig['file']} ({fig['diagnostics']} diagnostics)\n")
    print("| what | figure |\n|---|---|")
    print(f"| open: first diagnostics (the file's own rules) | {ms(fig['first'])} |")
    print(f"| open: bank index built, bank findings published (cold: an empty results cache) | {fig['index']:.1f} s |")
    print(f"| restart: bank index built from the results cache the first server filled | {fig['warm']:.1f} s, "
          f"{fig['warm_memory']['VmRSS']:.0f} MiB |")
    print(f"| edit -> diagnostics, per-file rules, p50 / p95 / max of {len(edit)} | "
          f"{ms(statistics.median(edit))} / {ms(_pct(edit, 0.95))} / {ms(max(edit))} |")
    print(f"| save -> diagnostics with the bank rules over the index, p50 / max of {len(save)} | "
          f"{ms(statistics.median(save))} / {ms(max(save))} |")
    print(f"| resident memory after the index (VmRSS) | {fig['after_index']['VmRSS']:.0f} MiB |")
    print(f"| resident memory at the end (VmRSS / peak VmHWM) | {fig['memory']['VmRSS']:.0f} / {fig['memory']['VmHWM']:.0f} MiB |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
