"""How a run ends early: Ctrl-C (exit 130), SIGTERM (exit 143), or a failure that one line
explains (exit 2). SIGTERM raises like Ctrl-C, so every `finally` and rollback runs for both."""

from __future__ import annotations

import signal
import threading

EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived (a CI job cancelled, `kill`, a timeout)."""


class Failure(Exception):
    """The run cannot finish (a worker process died, say); the message is one line."""


def _terminated(signum, frame) -> None:
    raise Terminated()


def install() -> None:
    """Turn SIGTERM into `Terminated` (only the main thread may set handlers)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)


def exit_code(exc: KeyboardInterrupt) -> tuple[int, str]:
    return (EXIT_TERMINATED, "terminated") if isinstance(exc, Terminated) else (EXIT_INTERRUPTED, "interrupted")
