#!/usr/bin/env python3
"""Measure K020 (reason-relevance) on moved keys and clean items, with a fixed tune / held-out split.

    .venv/bin/python scripts/relevance_eval.py                      # held-out half of snts42, seed 59
    .venv/bin/python scripts/relevance_eval.py --half tune --seed tune1
    .venv/bin/python scripts/relevance_eval.py --corpus sample-bank --corpus carpentries-lessons

The split is decided by a stable hash of each question's id, fixed before the rule was written:
`half(id)` is "tune" or "held-out". The rule was developed looking only at tune-half questions
(their moved-key copies and their clean form); figures to quote come from the held-out half, at a
corruption seed no change was judged on. Moved-key copies are scripts/corruption.py's `key_moved`
(its detectability criterion too). A moved key is *caught* by K020 when K020 reports on the copy
a finding the clean question lacks; *caught (default set)* counts any default key-agreement rule,
K020 included, to show what it adds. Clean: questions K020 flags as they are. Wilson 95%.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO / "src"))

import corruption  # noqa: E402  (scripts/corruption.py)
import corpora  # noqa: E402

RULE = "K020"
HALVES = ("tune", "held-out", "all")


def half(qid: str) -> str:
    """The half a question belongs to: a stable hash of its id (salted, so it is no other split)."""
    return "tune" if hashlib.sha256(f"relevance-split:{qid}".encode()).digest()[0] % 2 == 0 else "held-out"
