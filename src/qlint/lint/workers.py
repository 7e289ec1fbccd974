"""Forked worker processes for per-file work, each with a pipe of its own.

multiprocessing.Pool shares one task queue guarded by a lock between its workers: a worker
killed while holding it (Ctrl-C reached every process of the terminal's group) hung the run at
exit about one time in ten, and an exception in its result thread (a MemoryError) hung it for
good. Here workers share nothing: each asks for the next chunk on its own pipe, ignores SIGINT
(the parent decides), and on any interrupt or failure the parent kills and reaps every worker
before it re-raises, so no worker outlives the run and nothing waits on a lock.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any, Callable

from qlint.lint.interrupts import Failure, Terminated


def _serve(conn: Any, func: Callable[[Any, Any], Any], items: list[Any], settings: Any) -> None:
    while True:
        task = conn.recv()
        if task is None:
            return
        start, stop = task
        try:
            values = [func(items[i], settings) for i in range(start, stop)]
        except Exception as exc:  # a bug or MemoryError: the parent reports it in one line
            conn.send(("error", start, f"{type(exc).__name__}: {exc}"))
            return
        conn.send(("ok", start, values))


def _child(conn: Any, others: list[Any], func: Callable[[Any, Any], Any], items: list[Any], settings: Any,
           mask: Any) -> None:
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent handles it
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's kill (or a group's) ends us quietly
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for c in others:
            c.close()
        _serve(conn, func, items, settings)
        code = 0
    except BaseException:
        pass
    finally:
        os._exit(code)  # never run the parent's cleanup, atexit hooks or buffered output


def _ended(pid: int) -> str:
    """Reap a worker that closed its pipe; say how it ended (raises if a signal stopped the run)."""
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return "it ended"
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGTERM:
            raise Terminated()
        if sig == signal.SIGINT:
            raise KeyboardInterrupt()
        return f"signal {sig}{' (killed: out of memory?)' if sig == signal.SIGKILL else ''}"
    return f"exit status {os.WEXITSTATUS(status)}"


def run(func: Callable[[Any, Any], Any], items: list[Any], settings: Any, jobs: int, chunk: int,
        progress: Callable[[int, int], None] | None = None) -> list[Any]:
    """`func(item, settings)` for every item in `jobs` forked workers, results in order;
    `progress(done, total)` after each chunk that comes back."""
    from multiprocessing.connection import Pipe, wait

    sys.stdout.flush()
    sys.stderr.flush()
    chunks = [(i, min(i + chunk, len(items))) for i in range(0, len(items), chunk)]
    chunks.reverse()  # popped from the end: in order
    results: list[Any] = [None] * len(items)
    workers: dict[Any, int] = {}  # parent end of the pipe -> pid
    done = 0
    try:
        for _ in range(min(jobs, len(chunks))):
            here, there = Pipe()
            # signals wait until the child has its own handlers and the parent knows its pid
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
            try:
                pid = os.fork()
                if pid == 0:
                    _child(there, [here, *workers], func, items, settings, blocked)
                workers[here] = pid
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            there.close()
            here.send(chunks.pop())
        busy = set(workers)
        while busy:
            for conn in wait(list(busy)):
                # a killed worker shows as end of file or, on the socket pair, a reset connection
                try:
                    kind, start, values = conn.recv()
                except (EOFError, ConnectionResetError):
                    raise Failure(f"a worker process stopped ({_ended(workers.pop(conn))})") from None
                if kind == "error":
                    raise Failure(f"a worker process failed: {values}")
                results[start:start + len(values)] = values
                done += len(values)
                if progress is not None:
                    progress(done, len(items))
                chunk = chunks.pop() if chunks else None  # None: no more work, the worker exits
                try:
                    conn.send(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    raise Failure(f"a worker process stopped ({_ended(workers.pop(conn))})") from None
                if chunk is None:
                    busy.discard(conn)
    except (KeyboardInterrupt, Failure):
        _stop(workers)
        raise
    except Exception as exc:  # in the parent's own handling (a MemoryError reading results...)
        _stop(workers)
        raise Failure(f"parallel check failed: {type(exc).__name__}: {exc}") from None
    except BaseException:
        _stop(workers)
        raise
    _reap(workers)
    return results


def _stop(workers: dict[Any, int]) -> None:
    for pid in workers.values():
        try:
            os.kill(pid, signal.SIGKILL)  # workers only compute: nothing of theirs needs cleaning up
        except ProcessLookupError:
            pass
    _reap(workers)


def _reap(workers: dict[Any, int]) -> None:
    for conn, pid in list(workers.items()):
        conn.close()
        while True:
            try:
                os.waitpid(pid, 0)
                break
            except ChildProcessError:
                break
            except KeyboardInterrupt:  # a second Ctrl-C must not leave a zombie or an orphan
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        del workers[conn]
