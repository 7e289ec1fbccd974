"""Where an indentation slip really is, for a YAML syntax error the parser noticed later.

A line of a block scalar indented one space too little ends the block there, and the parser
complains only where the text after it stops making sense, often lines later ("could not find
expected ':'"). A key indented one space too far is reported with jargon ("mapping values are not
allowed here"). This module reads the lines up to the parser's error the way a person would, finds
the first line whose indentation breaks the pattern around it, and says so in plain words:
"this key is indented 5 spaces; its siblings use 4".

Only files that already failed to parse come here, so a wrong guess costs a hint, never a finding:
lines it cannot follow (multi-line quoted or flow values) make it give up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A block scalar header's indicator: `|`, `>-`, `|2+`, maybe a comment after it. Applied only to
# the short value after a key, and no pattern here can backtrack over a long line.
_HEADER = re.compile(r"[|>][-+0-9]{0,3}(?: +#.*)?")
_ITEMS = re.compile(r"(?:- +)*")  # the `- ` markers starting a line


@dataclass(frozen=True)
class Slip:
    line: int  # 1-based
    col: int
    hint: str


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _split(stripped: str) -> tuple[str | None, str]:
    """(key or None, value) of a line without its indentation and `- ` markers; linear time."""
    stripped = stripped[_ITEMS.match(stripped).end():]  # type: ignore[union-attr]
    if not stripped or stripped[0] in "#{[|>":
        return None, stripped
    if stripped[0] in "'\"":
        end = stripped.find(stripped[0], 1)
        if end < 0:
            return None, stripped
        rest = stripped[end + 1:].lstrip(" ")
        if rest == ":" or rest.startswith(": "):
            return stripped[:end + 1], rest[1:].strip()
        return None, stripped
    colon = stripped.find(": ")
    if colon < 0 and stripped.endswith(":"):
        colon = len(stripped) - 1
    hash_at = stripped.find(" #")
    if colon <= 0 or 0 <= hash_at < colon:
        return None, stripped
    return stripped[:colon].rstrip(" "), stripped[colon + 1:].strip()


def _is_key(stripped: str) -> bool:
    return _split(stripped)[0] is not None


def _opens(stripped: str) -> bool:
    """`key:` with its value on the next lines (nothing, or only a comment, after the colon)."""
    key, value = _split(stripped)
    return key is not None and (not value or value.startswith("#"))


def _header(stripped: str) -> str | None:
    """The name of the block scalar this line starts (`key: |`, `- key: >-`, `- |`), or None."""
    key, value = _split(stripped)
    if not _HEADER.fullmatch(value):
        return None
    return f"'{key.strip(chr(39) + chr(34))}'" if key else "the block"


def _spaces(n: int) -> str:
    return f"{n} space{'s' if n != 1 else ''}"


def find_slip(text: str, error_line: int) -> Slip | None:
    """The first line at or before `error_line` (1-based) whose indentation breaks the pattern of
    the lines around it, with a hint; None when every line up to there looks right."""
    lines = text.splitlines()[:error_line]
    levels: list[int] = []  # indentation of the open mappings and sequences, outermost first
    opened = False  # the last structural line ended in `key:`: the next may go deeper
    block: tuple[int, str] | None = None  # (indentation its text must exceed, name) right after a header
    content: tuple[int, int, str] | None = None  # inside a block scalar: (key indentation, text indentation, name)
    for n, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped:
            continue
        ind = _indent(line)
        if block is not None:  # the first text line of a block scalar sets its indentation
            key_ind, name = block
            block = None
            if ind > key_ind:
                content = (key_ind, ind, name)
                continue
            if not _structural(stripped):
                return Slip(n, ind + 1, f"the text of {name} must be indented more than its key "
                                        f"({_spaces(key_ind)}); this line has {_spaces(ind)}")
        if content is not None:
            key_ind, text_ind, name = content
            if ind >= text_ind:
                continue
            if ind > key_ind:
                return Slip(n, ind + 1, f"this line is indented {_spaces(ind)}; the text of {name} above it "
                                        f"uses {text_ind}")
            if not _structural(stripped):
                return Slip(n, ind + 1, f"this line is indented {_spaces(ind)}, less than the text of {name} "
                                        f"above it ({text_ind}), so it ends the block: indent it {text_ind} spaces")
            content = None
        if stripped.startswith("#") or stripped in ("---", "..."):
            continue
        if stripped.count('"') % 2 or stripped.count("[") != stripped.count("]") \
                or stripped.count("{") != stripped.count("}"):
            return None  # a value running over several lines: beyond this reader
        slip = _place(levels, ind, opened, stripped)
        if slip is not None:
            return Slip(n, ind + 1, slip)
        if stripped.startswith("- "):  # a sequence item: a mapping inside it starts after the dashes
            levels.append(ind + _ITEMS.match(stripped).end())  # type: ignore[union-attr]
        name = _header(stripped)
        if name is not None:
            block = (levels[-1] if stripped.startswith("- ") else ind, name)
            opened = False
            continue
        opened = _opens(stripped)
    return None


def _structural(stripped: str) -> bool:
    """A line that can follow a block scalar at a shallower indentation."""
    return stripped.startswith(("#", "- ")) or stripped in ("-", "---", "...") or _is_key(stripped)


def _place(levels: list[int], ind: int, opened: bool, stripped: str) -> str | None:
    """Fit a structural line's indentation into `levels` (updated); a hint when it does not fit."""
    if not levels:
        levels.append(ind)
        return None
    if ind > levels[-1]:
        if opened:
            levels.append(ind)
            return None
        if not _is_key(stripped) and not stripped.startswith("- "):
            return None  # a plain value continued on a deeper line
        return f"this {'item' if stripped.startswith('- ') else 'key'} is indented {_spaces(ind)}; its siblings use {levels[-1]}"
    if ind == levels[-1] and opened and stripped.startswith("- "):
        return None  # `key:` then `- item` at the key's indentation: a sequence YAML allows there
    while levels and levels[-1] > ind:
        inner = levels.pop()
    if levels and levels[-1] == ind:
        return None
    outer = levels[-1] if levels else None
    levels.append(ind)
    around = f"{outer} or {inner}" if outer is not None else str(inner)
    return f"this {'item' if stripped.startswith('- ') else 'key'} is indented {_spaces(ind)}; the keys around it use {around}"
