"""Derived views of question text, computed once and shared by every rule.

Thirty-odd item rules ask the same questions of the same strings: the stem's lead-in, an
option's tokens and content words, the explanation's sentences, letter references in every
rationale. Computed per rule, that work was most of a lint's time. Here each distinct string
gets one `TextView` whose parts are computed on first use, and each question one memo for
what depends on several of its fields (`per_question`). Every view is a pure function of its
input, so sharing changes no result; views hand out immutable values (tuples, frozensets) so
one rule cannot change what the next one sees.

Text views live in a bounded table (strings of the questions being checked now; a question's
texts stay while its rules run), question views on the `Question` itself.
"""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable, TypeVar

from qlint.model import Question, lazy
from qlint.text import STOPWORDS, plain, sentences, stem, tokenise

T = TypeVar("T")

_LIMIT = 8192  # distinct strings kept: a few hundred questions' worth


class TextView:
    """One string and what the rules derive from it."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self._memo: dict[Any, Any] = {}

    @lazy
    def plain(self) -> str:
        return plain(self.raw)

    @lazy
    def tokens(self) -> tuple[str, ...]:
        """Lower-case word tokens of the plain text (`qlint.text.tokens`)."""
        raw = self.raw
        twin = _views.get(raw.rstrip()) if raw[-1:].isspace() else None  # see _stripped_twin
        return twin.tokens if twin is not None else tokenise(raw)

    @lazy
    def normal(self) -> str:
        """Tokens joined by single spaces: case, markup and punctuation folded away."""
        return " ".join(self.tokens)

    @lazy
    def stems(self) -> tuple[str, ...]:
        twin = self._stripped_twin()
        return twin.stems if twin is not None else tuple(map(stem, self.tokens))

    def _stripped_twin(self) -> TextView | None:
        """The view of this text without its trailing whitespace, if one exists: the two have the
        same tokens (no token or markup pattern ends in whitespace), and YAML block scalars end
        in a newline that parsers such as `stem_body` strip, so both views are common."""
        raw = self.raw
        return _views.get(raw.rstrip()) if raw[-1:].isspace() else None

    @lazy
    def sentences(self) -> tuple[str, ...]:
        return tuple(sentences(self.raw))

    @lazy
    def lower(self) -> str:
        return self.raw.lower()

    def content(self, min_len: int = 3) -> frozenset[str]:
        """Stemmed content words of at least `min_len` characters (`qlint.text.content_words`)."""
        found = self._memo.get(min_len)
        if found is None:
            # stem only the words kept (stopwords and short words are most tokens)
            found = self._memo[min_len] = frozenset(
                map(stem, [t for t in self.tokens if len(t) >= min_len and t not in STOPWORDS]))
        return found

    def may_contain(self, *words: str) -> bool:
        """False only if no case-insensitive regex could find any of `words` (lower-case ASCII):
        a cheap test before an expensive pattern. Non-ASCII text always passes, since Unicode
        case folding can turn other characters into ASCII letters."""
        if not self.raw.isascii():
            return True
        low = self.lower
        return any(w in low for w in words)

    def may_find(self, pattern: Any) -> bool:
        """False only if `pattern` (lower-case, no flags: a superset of a case-insensitive
        pattern's matches) finds nothing in the lower-cased text; non-ASCII text always passes."""
        return not self.raw.isascii() or pattern.search(self.lower) is not None

_views: dict[str, TextView] = {}


def view(text: str | None) -> TextView:
    """The shared view of `text` (None reads as the empty string)."""
    text = text or ""
    found = _views.get(text)
    if found is None:
        if len(_views) >= _LIMIT:
            _views.clear()  # cheaper than LRU bookkeeping; the next lookups rebuild what is in use
        found = _views[text] = TextView(text)
    return found


def per_text(fn: Callable[..., T]) -> Callable[..., T]:
    """Decorator: a pure function of a string (and hashable arguments), computed once per string."""

    @wraps(fn)
    def shared(text: str, *args: Any) -> T:
        memo = (_views.get(text) or view(text))._memo  # `view` inlined: these run ~100 times a question
        key = (fn, args) if args else fn
        try:
            return memo[key]
        except KeyError:
            value = memo[key] = fn(text or "", *args)
            return value

    shared.uncached = fn  # type: ignore[attr-defined]
    return shared


def per_question(fn: Callable[..., T]) -> Callable[..., T]:
    """Decorator: a pure function of a question (and hashable arguments), computed once per question."""

    @wraps(fn)
    def shared(q: Any, *args: Any) -> T:
        memo = q.derived
        key = (fn, args) if args else fn
        try:
            return memo[key]
        except KeyError:
            value = memo[key] = fn(q, *args)
            return value

    return shared


@per_question
def all_text(q: Question) -> str:
    """Every string value of the question joined by newlines: one scan tells whether any holds
    a character, or a line ending, that a rule looks for."""
    out: list[str] = []
    _texts(q.data, out)
    return "\n".join(out)


def _texts(value: Any, out: list[str]) -> None:
    for v in value.values() if isinstance(value, dict) else value:
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, (dict, list)):
            _texts(v, out)


@per_question
def strings(q: Question) -> tuple[tuple[tuple[Any, ...], str], ...]:
    """Every string value of the question with its path (keys and indexes), depth first, as
    `qlint.model.iter_strings` walks them; one recursion per container instead of a generator
    per value."""
    out: list[tuple[tuple[Any, ...], str]] = []
    _walk(q.data, (), out)
    return tuple(out)


def _walk(value: Any, path: tuple[Any, ...], out: list[tuple[tuple[Any, ...], str]]) -> None:
    if isinstance(value, str):
        out.append((path, value))
        return
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        if isinstance(v, str):
            out.append((path + (k,), v))
        elif isinstance(v, (dict, list)):
            _walk(v, path + (k,), out)
