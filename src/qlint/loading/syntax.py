"""A YAML syntax error as authors need it: at the line they got wrong, with a hint."""

from __future__ import annotations

from qlint.loading.errors import LoadError
from qlint.loading.fast import FastPathError
from qlint.loading.indentation import find_slip
from qlint.loading.positions import yaml_error


def syntax_error(text: str, exc: FastPathError) -> LoadError:
    """Y001 for text the fast loader refused: ruamel.yaml's account of the error, moved to the
    slipped line when an indentation slip explains it (the parser often gives up lines later)."""
    found = yaml_error(text)
    message, line, col = found if found else (exc.message, exc.line, exc.col)
    slip = find_slip(text, line) if found else None
    if slip is not None:
        where = "here" if slip.line == line else f"at {line}:{col}"
        message, line, col = f"bad indentation: {slip.hint} (the parser stopped {where}: {message})", slip.line, slip.col
    return LoadError("Y001", message, line, col)
