"""Schema constraints in words an author reads without knowing regular expressions or JSON Schema.

`pattern_words` says what a value of a schema pattern looks like ("1 to 48 lower-case letters,
digits and hyphens, not starting with a hyphen"); `misplaced_field` says which fields a question
type expects instead of one it does not use. tests/test_schema_words.py holds every pattern of
every schema to having words.
"""

from __future__ import annotations

import re
from typing import Any

# `^[first][rest]{m,n}$`: the shape of every id, code and tag pattern in the schemas
_SIZED = re.compile(r"\^\[(?P<first>[^\]]+)\]\[(?P<rest>[^\]]+)\]\{(?P<low>\d+),(?P<high>\d+)\}\$")
_CLASS_WORDS = (("a-z", "lower-case letters"), ("A-Z", "capital letters"), ("0-9", "digits"), ("-", "hyphens"))
_ONE = {"lower-case letters": "a lower-case letter", "capital letters": "a capital letter", "digits": "a digit",
        "hyphens": "a hyphen"}
_OTHER = {
    r"^https?://[^\s]+$": "a web address starting with http:// or https://, without spaces",
    r"^[A-Z][0-9]{3}$": "a capital letter and three digits, like S001",
    r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$": "lower-case words of letters and digits joined by single hyphens",
    r"^(/[^/]*)*$": "a JSON pointer such as /options/0/id",
    r"^[0-9a-f]{64}$": "64 lower-case hexadecimal digits",
    r"^sha256:[0-9a-f]{64}$": "a content hash: sha256: and 64 lower-case hexadecimal digits, as qlint review sign writes it",
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$": "a date written YYYY-MM-DD, like 2026-12-02",
    r"^[1-9][0-9]?\.[1-9][0-9]?$": "a task statement id: the domain's number, a dot and the task's number, like 1.2",
    r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$": "a BCP 47 language tag: 2 or 3 letters, then any subtags after hyphens as in pt-BR",
}


def _class_words(chars: str) -> list[str] | None:
    words = []
    for part, word in _CLASS_WORDS:
        if part in chars:
            words.append(word)
            chars = chars.replace(part, "", 1)
    return words if words and not chars else None


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def pattern_words(pattern: str) -> str | None:
    """What a value matching `pattern` (shown form, without the end guard) looks like, or None."""
    if pattern in _OTHER:
        return _OTHER[pattern]
    sized = _SIZED.fullmatch(pattern)
    if sized is None:
        return None
    first, rest = _class_words(sized["first"]), _class_words(sized["rest"])
    if first is None or rest is None:
        return None
    low, high = int(sized["low"]) + 1, int(sized["high"]) + 1
    text = f"{low} to {high} {_listed(rest)}"
    barred = [_ONE[w] for w in rest if w not in first]
    return text + (f", not starting with {' or '.join(barred)}" if barred else "")


def misplaced_field(key: str, data: dict[str, Any], expected: list[str], schema: dict[str, Any]) -> str:
    """The message for field `key`, which the question's type does not use, naming the fields the
    type expects (`expected`) with the schema's own description of each."""
    kind = data.get("type")
    wants = []
    for name in expected:
        described = schema.get("properties", {}).get(name, {}).get("description", "")
        # "For `ordering` questions: the steps, keyed ones ... order. A step ..." -> its first sentence
        sentence = re.sub(r"^For `[^`]+` questions: ", "", described).split(". ")[0].rstrip(".")
        sentence = sentence[:1].lower() + sentence[1:]
        wants.append(f"{name!r} ({sentence})" if sentence else repr(name))
    message = f"field {key!r} is not used by type: {kind}, which expects {' and '.join(wants)}"
    missing = [name for name in expected if name not in data]
    if len(missing) == 1:
        message += f"; rename {key!r} to {missing[0]!r}"
    return message
