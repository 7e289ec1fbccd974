"""Input limits: far above any real question, low enough to keep memory and time bounded."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 1_000_000  # a rich question is ~3 KB
    max_depth: int = 32  # a question nests 4 levels deep
    max_nodes: int = 100_000  # counted after alias expansion: defeats "billion laughs"
