"""What printing the findings adds to a run: `qlint check --no-cache`'s steps in one process, the
lint timed apart from each report format (made and written to a file, as `--output-file` does).

    cd BANK_ROOT && python benchmarks/report_cost.py [PATH ...]   # prints one JSON line

Run from the folder holding qlint.toml. The lint is the same call the CLI makes (all cores, no
cache); a report is made in the parent after it, so its time adds to the run's wall time one for one.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from qlint.cli.commands.check import exit_code, write_report
from qlint.diagnostic import Severity
from qlint.lint.engine import lint, make_settings
from qlint.cli.config import load_config
from qlint.reports import REPORTERS, ReportContext, needs_figures
from qlint.cli.reporting import bank_figures, run_context
from qlint.lint.runner import RunOptions

FORMATS = ("text", "json", "sarif")


def main(paths: list[str]) -> dict[str, float]:
    config = load_config()
    settings = make_settings(config)
    start = time.perf_counter()
    result = lint(paths or [str(config.bank_dir)], settings, RunOptions(None, 0, lean=True))
    out: dict[str, float] = {"lint": time.perf_counter() - start, "findings": len(result.diagnostics)}
    shared = run_context(result, settings, exit_code(result, Severity.WARNING), os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in FORMATS:
            start = time.perf_counter()
            extra = bank_figures(result, settings) if needs_figures(fmt) else {}
            report = REPORTERS.get(fmt)(result.diagnostics, ReportContext(**shared, extra=extra))
            write_report(str(Path(tmp) / f"report.{fmt}"), report)
            out[fmt] = time.perf_counter() - start
    return out


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
