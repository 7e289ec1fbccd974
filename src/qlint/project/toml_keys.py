"""Where a key sits in a TOML file, so a configuration error can name its line:col.

tomllib gives no positions; this reads table headers and `key =` lines, which is all a
configuration file holds. A key inside an inline table or a multi-line value is placed at the
nearest enclosing key that starts a line."""

from __future__ import annotations


def split_key(dotted: str) -> list[str]:
    """`rules."drafts/*".x` -> ["rules", "drafts/*", "x"]; `select[0]` -> ["select"]."""
    parts, word, quote, i = [], "", "", 0
    while i < len(dotted):
        c = dotted[i]
        if quote:
            if c == quote:
                quote = ""
            else:
                word += c
        elif c in "\"'":
            quote = c
        elif c == ".":
            parts.append(word.strip())
            word = ""
        elif c == "[":  # a list index ends the key
            end = dotted.find("]", i)
            i = len(dotted) if end < 0 else end
        else:
            word += c
        i += 1
    parts.append(word.strip())
    return [p for p in parts if p]


def _key_at(line: str) -> tuple[list[str], int, bool] | None:
    """The key a line starts (parts, column of its first character, is a table header)."""
    stripped = line.lstrip()
    col = len(line) - len(stripped) + 1
    if not stripped or stripped[0] == "#":
        return None
    if stripped.startswith("["):
        body = stripped.lstrip("[")
        end = _unquoted_index(body, "]")
        return (split_key(body[:end]), col, True) if end >= 0 else None
    eq = _unquoted_index(stripped, "=")
    return (split_key(stripped[:eq]), col, False) if eq > 0 else None


def _unquoted_index(text: str, char: str) -> int:
    quote = ""
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c == char:
            return i
    return -1


def key_position(text: str, key: list[str]) -> tuple[int, int] | None:
    """(line, col) of the line that sets the longest leading part of `key` (full dotted path
    from the document root), first occurrence; None when no line sets any of it."""
    table: list[str] = []
    best, best_len = None, 0
    for number, line in enumerate(text.splitlines(), 1):
        found = _key_at(line)
        if found is None:
            continue
        parts, col, header = found
        full = parts if header else table + parts
        if header:
            table = parts
        n = 0
        while n < min(len(full), len(key)) and full[n] == key[n]:
            n += 1
        if n == len(full) and n > best_len:  # this line sets a prefix of the key (or all of it)
            best, best_len = (number, col), n
            if n == len(key):
                break
    return best
