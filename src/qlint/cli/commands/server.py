"""`qlint server`: the language server over stdio, for editors (docs/editors.md)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from qlint.cli import EXIT_ERROR, command
from qlint.cli.config import load_config


@command("server", "Run the language server over stdio (findings while typing, fixes, hover).",
         "Run qlint's language server (LSP) over standard input and output, for editors: the findings\n"
         "of `qlint check` on the unsaved text as you type, bank rules on save, quick fixes, rule docs\n"
         "on hover, completion and go to definition of ids. Set up: docs/editors.md.")
def configure(p: argparse.ArgumentParser):
    p.add_argument("--stdio", action="store_true", help="talk over standard input and output (the default; editors pass it)")
    p.add_argument("--no-cache", action="store_true", help="build the bank index without the results cache")
    return run


def run(args: argparse.Namespace) -> int:
    try:
        from qlint.server.app import serve
    except ImportError as exc:  # pygls is an extra: `pip install 'qlint-exams[server]'`
        print(f"qlint: error: the language server needs pygls ({exc.name} is missing): "
              "pip install 'qlint-exams[server]'", file=sys.stderr)
        return EXIT_ERROR
    cache = None if args.no_cache else Path(os.environ["QLINT_CACHE_DIR"]) if os.environ.get("QLINT_CACHE_DIR") else None
    return serve(load_config, cache, per_project_cache=not args.no_cache and cache is None)
