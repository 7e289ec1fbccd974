"""A YAML syntax error as authors need it: at the line they got wrong, with a hint."""

from __future__ import annotations

from qlint.loading import advice
from qlint.loading.errors import LoadError
from qlint.loading.fast import FastPathError
from qlint.loading.indentation import find_slip
from qlint.loading.positions import yaml_error


def syntax_error(text: str, exc: FastPathError) -> LoadError:
    """Y001 for text the fast loader refused: ruamel.yaml's account of the error, moved to the
    slipped line when an indentation slip explains it (the parser often gives up lines later), to
    the opening of a quote never closed, or kept in place with advice for a tab or a colon."""
    found = yaml_error(text)
    message, line, col = found if found else (exc.message, exc.line, exc.col)
    if not found:
        return LoadError("Y001", message, line, col)
    hint = advice.tab(text, line, col) or advice.unclosed_quote(text, line)
    if hint is None:
        slip = find_slip(text, line)
        hint = (slip.line, slip.col, f"bad indentation: {slip.hint}") if slip else \
            advice.colon(text, line, col) or advice.after_quote(text, line, col)
    if hint is None:
        return LoadError("Y001", message, line, col)
    at, at_col, words = hint
    where = "here" if (at, at_col) == (line, col) else f"at {line}:{col}"
    return LoadError("Y001", f"{words} (the parser stopped {where}: {message})", at, at_col)
