"""The one exception the loading path raises: it carries a ready diagnostic's parts."""

from __future__ import annotations


class LoadError(Exception):
    """A file that cannot be read as one question: `code` is a Y rule code, positions 1-based."""

    def __init__(self, code: str, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = max(1, line)
        self.col = max(1, col)
