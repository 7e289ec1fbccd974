"""The test session's end (issue 28, point 10): `make test` ended a green run with a KeyboardInterrupt
traceback from Hypothesis's gc callback. execnet SIGINTs a pytest-xdist worker that is still busy
5 s after it was asked to stop, and the worker's last work was pytest's clean-up gc.collect()
over everything the session left. conftest.pytest_unconfigure freezes that heap first."""

from __future__ import annotations

import gc
import time

import conftest


def test_the_last_collection_does_not_walk_what_the_session_left():
    held = [[i] for i in range(300_000)]  # what a session leaves: cached banks, exports, fixtures
    for a, b in zip(held, held[1:]):
        a.append(b)  # container links, as parsed documents have
    try:
        start = time.perf_counter()
        gc.collect()
        walking = time.perf_counter() - start
        conftest.pytest_unconfigure(None)
        assert gc.get_freeze_count() >= len(held)
        start = time.perf_counter()
        gc.collect()
        frozen = time.perf_counter() - start
        assert frozen < walking / 3, (walking, frozen)
    finally:
        gc.unfreeze()
