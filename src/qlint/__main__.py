"""The `qlint` program (console script and `python -m qlint`): `qlint.cli.main` plus what only
a whole process needs. Ctrl-C or SIGTERM at any moment, even while the modules load or once the
command is done (Python's own shutdown would print a `threading` traceback and keep exit 0, or
die of the signal without a word), ends with one line and exit 130 or 143."""

import atexit
import os
import signal
import sys
import threading


def entry() -> None:
    caught: list[int] = []
    code, started = 2, False
    while True:  # one try around everything until the handlers below are set: no gap a signal can hit
        try:
            if not started:
                started = True
                from qlint.cli import main  # a Ctrl-C while the modules load is an interrupt too

                code = main()
            for sig in (signal.SIGINT, signal.SIGTERM):  # from now on a signal is only noted
                signal.signal(sig, lambda signum, _frame: caught.append(signum))
            break
        except KeyboardInterrupt as exc:  # outside the command's own handling
            caught.append(signal.SIGTERM if type(exc).__name__ == "Terminated" else signal.SIGINT)
    # Shut down here, where a signal is only noted, rather than in Python's finalization, which
    # raises it in `threading` and restores the default handlers before the end.
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    _flush()
    # A signal from here on reaches a process that has decided to end, as if it had already ended.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    if caught and code not in (130, 143):  # (a signal that ended the command was announced already)
        code = 143 if caught[0] == signal.SIGTERM else 130
        print(f"qlint: {'terminated' if code == 143 else 'interrupted'}", file=sys.stderr)
        _flush()
    os._exit(code)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass


if __name__ == "__main__":
    entry()
