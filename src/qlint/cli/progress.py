"""A one-line progress bar on a terminal's stderr, for runs long enough to need one.

Only on a terminal: never in a pipe, a file or CI logs (`CI` set), where carriage returns would
pile up as noise. The line is erased when the work ends, so the report starts on a clean line.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from qlint.printable import raw_stream


class Bar:
    def __init__(self, stream: Any, what: str) -> None:
        self.stream, self.what = stream, what

    def __call__(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        if done >= total:
            self.stream.write("\r\x1b[K")  # erased: the findings follow on a clean line
        else:
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {self.what}")
        self.stream.flush()


def terminal_bar(what: str, stream: Any = None) -> Bar | None:
    """A Bar on stderr when it is a terminal and not a CI log; None otherwise."""
    stream = stream or sys.stderr
    if os.environ.get("CI") or not stream.isatty():
        return None
    return Bar(raw_stream(stream), what)
