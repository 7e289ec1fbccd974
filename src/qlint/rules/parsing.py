"""Small parsers the item rules share: the lead-in, emphasis, numeric options, letter references.

Everything here works on the raw Markdown of one field, so that emphasis (`**NOT**`) and
capitals survive; word-level work goes through `qlint.text`. Parsers several rules call on the
same string are `per_text` (computed once per string, see `qlint.prose.views`) and return tuples.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from qlint.prose.sentences import raw_sentences
from qlint.prose.views import per_text, view
from qlint.rules.lexicons import UNITS
from qlint.text import STOPWORDS, plain, stem, tokens

# "(Choose TWO.)", "Select three." at the end of a stem: a format note, not part of the lead-in.
# Possessive runs, and no start inside a white-space run: `\s*\.?\s*\)?\.?\s*$` backtracked in cubic time
# on a run of spaces. (Same matches: no element after a run can take white space back.)
CHOOSE_NOTE = re.compile(r"(?:\(|(?<!\s))\s*+(?:choose|select|pick)\s++\w++\s*+(?:answers?|options?)?\.?\s*+\)?\.?\s*+$", re.I)
BLANK = re.compile(r"_{3,}|\[\s*blank\s*\]|\(\s*blank\s*\)", re.I)
_RULE_LINE = re.compile(r"^\s*_{3,}\s*$", re.M)  # a Markdown thematic break, not a blank
_EMPHASIS = re.compile(r"\*\*[^*\n]+\*\*|__[^_\n]+__|(?<![\w*])\*[^*\n]+\*(?!\*)|(?<![\w_])_[^_\n]+_(?![\w_])|<(b|strong|em|i|u)>.*?</\1>", re.I)


_NOTE_END = re.compile(r"[\w.)]")  # a note ends in a word, "." or ")"; most stems end in "?"


@per_text
def stem_body(stem: str) -> str:
    """The stem without its trailing "(Choose N.)" note."""
    body = stem.rstrip()
    if not _NOTE_END.match(body[-1:]) or not view(stem).may_contain("choose", "select", "pick"):
        return body  # no note to remove: skip the pattern, tried at every position
    return CHOOSE_NOTE.sub("", body).rstrip()


@per_text
def lead_in(stem: str) -> str:
    """The question sentence: the last sentence ending in ? or :, else the last sentence."""
    parts = raw_sentences(stem_body(stem))
    for part in reversed(parts):
        if part.rstrip("*_ ").endswith(("?", ":")):
            return part
    return parts[-1] if parts else ""


@per_text
def blanks(text: str) -> tuple[re.Match[str], ...]:
    """Fill-in blanks (`___`, `[blank]`), ignoring Markdown horizontal rules."""
    if "___" not in text and not view(text).may_contain("blank"):
        return ()
    cleaned = _RULE_LINE.sub(lambda m: " " * len(m.group(0)), text)
    return tuple(BLANK.finditer(cleaned))


def emphasised(text: str, start: int, end: int) -> bool:
    """True if text[start:end] is in capitals (two letters or more) or inside bold/italic markup."""
    word = text[start:end]
    if len(re.sub(r"[^A-Za-z]", "", word)) > 1 and word.upper() == word:
        return True
    return any(m.start() <= start and end <= m.end() for m in _EMPHASIS.finditer(text))


@dataclass(frozen=True)
class Word:
    """A word of a raw text with its offsets, lower-cased for matching."""

    low: str
    start: int
    end: int


_RAW_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-]*")


@per_text
def words(text: str) -> tuple[Word, ...]:
    return tuple([Word(m.group(0).lower().replace("’", "'").strip("-'"), m.start(), m.end())
                  for m in _RAW_WORD.finditer(text)])


def _padded(phrase: str) -> str:
    return " " + view(phrase).normal + " "


@lru_cache(maxsize=64)  # lexicons are a few constant tuples (defaults or configuration)
def _padded_lexicon(phrases: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(_padded(p) for p in phrases)


@lru_cache(maxsize=64)
def _lexicon_words(phrases: tuple[str, ...]) -> frozenset[str] | None:
    """Every word of the lexicon; None if some phrase has no word (it matches a text without any)."""
    words = [view(p).tokens for p in phrases]
    return None if not all(words) else frozenset(t for w in words for t in w)


def term_hits(text: str, terms: tuple[str, ...] | list[str], idioms: tuple[str, ...] | list[str] = ()) -> list[str]:
    """Terms of a lexicon found as whole words in `text`, after removing idioms that contain them."""
    words = _lexicon_words(tuple(terms))
    if words is not None and words.isdisjoint(view(text).tokens):
        return []  # a term is found only where its words are (removing idioms adds none)
    low = _padded(text)
    for idiom in _padded_lexicon(tuple(idioms)):
        low = low.replace(idiom, " # ")
    return [t for t, padded in zip(terms, _padded_lexicon(tuple(terms))) if padded in low]


@per_text
def word_set(text: str) -> frozenset[str]:
    """Stemmed content words with hyphenated compounds split ("cost-effective" -> cost, effective)."""
    out = set()
    for t in view(text).tokens:
        for part in t.split("-"):
            if len(part) >= 3 and part not in STOPWORDS:
                out.add(stem(part))
    return frozenset(out)


# --- numeric options -------------------------------------------------------------------------

_DIGIT = re.compile(r"\d")
_NUM = r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-+]?\d+(?:\.\d+)?"
_UNIT = r"%|[A-Za-z$][A-Za-z/]*(?:\s+(?:per|a|an|of)?\s*[A-Za-z/]+){0,2}"
_APPROX = r"(?:about|approximately|around|roughly|~)?\s*"
_SINGLE = re.compile(rf"^{_APPROX}(\$)?\s*({_NUM})\s*({_UNIT})?$", re.I)
_RANGE = re.compile(rf"^(?:between\s+)?(\$)?\s*({_NUM})\s*({_UNIT})?\s*(?:-|–|to|and)\s*(\$)?\s*({_NUM})\s*({_UNIT})?$", re.I)
_BOUND_BEFORE = re.compile(rf"^(less than|fewer than|under|below|up to|at most|more than|over|above|greater than|at least)\s+(\$)?\s*({_NUM})\s*({_UNIT})?$", re.I)
_BOUND_AFTER = re.compile(rf"^(\$)?\s*({_NUM})\s*({_UNIT})?\s+or\s+(more|less|fewer|greater|higher|lower|above|below)$", re.I)
_UPPER = ("less than", "fewer than", "under", "below", "up to", "at most", "less", "fewer", "lower", "below")
INF = float("inf")


@dataclass(frozen=True)
class Numeric:
    """A numeric option: the interval it denotes, in base units of its dimension."""

    low: float
    high: float
    unit: str  # canonical unit text ("" when none)
    dimension: str  # "time", "data", ... or the unit itself when unknown, "" when none

    @property
    def key(self) -> float:
        return self.low if self.low != -INF else self.high


def _unit(dollar: str | None, text: str | None) -> tuple[str, str, float]:
    if dollar:
        return "$", "usd", 1.0
    if not text:
        return "", "", 1.0
    first = text.split()[0].lower()
    if first in UNITS:
        dim, factor = UNITS[first]
        return f"{dim}*{factor:g}", dim, factor
    canon = " ".join(stem(w) for w in tokens(text))
    return canon, canon, 1.0


def _value(num: str) -> float:
    return float(num.replace(",", ""))


_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
NUMBER_WORDS = frozenset(_NUMBER_WORDS)
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")(?=\s)", re.I)
_COMPOUND_SPLIT = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.I)


def parse_numeric(text: str) -> Numeric | None:
    """The interval an option like "15 minutes", "$0.05", "10-20 ms", "at least 4 GB", "One hour"
    or "3 hours, 5 minutes" denotes."""
    if _DIGIT.search(text):
        return _parse_numeric(text)
    if _NUMBER_WORD.search(text):  # "One hour": a number written as a word is still a number
        return _parse_numeric(_NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group(1).lower()], text))
    return None


@per_text
def _parse_numeric(text: str) -> Numeric | None:
    t = plain(text).strip().rstrip(".").strip()
    found = _parse_simple(t)
    if found is None and ("," in t or " and " in t):
        found = _parse_compound(t)
    return found


def _parse_compound(t: str) -> Numeric | None:
    """A sum of amounts in one dimension ("3 hours, 5 minutes, and 6 seconds"), in base units."""
    parts = [_parse_simple(p) for p in _COMPOUND_SPLIT.split(t) if p]
    if len(parts) < 2 or any(p is None or p.low != p.high or not p.dimension for p in parts):
        return None
    dims = {p.dimension for p in parts}
    if len(dims) != 1 or not all(p.unit.startswith(p.dimension + "*") for p in parts):
        return None  # only known units (time, data) add up
    total = sum(p.low for p in parts)
    return Numeric(total, total, parts[0].unit, parts[0].dimension)  # "3 hours, 5 minutes" reads in hours


def _parse_simple(t: str) -> Numeric | None:
    m = _SINGLE.match(t)
    if m:
        unit, dim, f = _unit(m.group(1), m.group(3))
        v = _value(m.group(2)) * f
        return Numeric(v, v, unit, dim)
    m = _RANGE.match(t)
    if m and (t.lower().startswith("between") or not re.search(r"\band\b", t, re.I)):
        unit, dim, f = _unit(m.group(1) or m.group(4), m.group(6) or m.group(3))
        a, b = sorted((_value(m.group(2)) * f, _value(m.group(5)) * f))
        return Numeric(a, b, unit, dim)
    m = _BOUND_BEFORE.match(t)
    if m:
        unit, dim, f = _unit(m.group(2), m.group(4))
        v = _value(m.group(3)) * f
        return Numeric(-INF, v, unit, dim) if m.group(1).lower() in _UPPER else Numeric(v, INF, unit, dim)
    m = _BOUND_AFTER.match(t)
    if m:
        unit, dim, f = _unit(m.group(1), m.group(3))
        v = _value(m.group(2)) * f
        return Numeric(-INF, v, unit, dim) if m.group(4).lower() in _UPPER else Numeric(v, INF, unit, dim)
    return None


# --- numbers as numbers and the true/false shape -------------------------------------------

# a sign only where no word or digit is glued before it ("-1", not the hyphen of "t3-2")
_SIGNED = re.compile(r"(?<![\w.])[-+\u2212]?\d+(?:,\d{3})*(?:\.\d+)?")


@per_text
def signed_numbers(text: str) -> tuple[float, ...]:
    """The numbers of a text with their signs and decimals ("-4.22" -> -4.22): word tokens drop
    both, so "-1" and "1", or "4.22" and "-4.22", would otherwise read as the same option."""
    return tuple(float(m.group(0).replace("\u2212", "-").replace(",", "")) for m in _SIGNED.finditer(plain(text)))


# --- letter references -----------------------------------------------------------------------


# --- names -----------------------------------------------------------------------------------

_NAME_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-]*")
_SENTENCE_START = re.compile(r"[.?!:;]\W*$|\n\s*(?:[-*+]|\d+[.)])?\s*$")  # the gap before a sentence's first word


def _name_shaped(word: str) -> bool:
    """An acronym or mixed-case word ("S3", "KMS", "CloudFront", "EC2"): a name whatever its place."""
    if word.isascii():  # the same test without a generator per letter (most words; C003 asks for each)
        rest = word[1:]
        return rest.lower() != rest or (word[0].isupper() and _DIGIT.search(word) is not None)
    return any(c.isupper() for c in word[1:]) or (word[0].isupper() and any(c.isdigit() for c in word))


_DIGIT = re.compile(r"[0-9]")


@per_text
def name_spans(text: str) -> tuple[tuple[str, bool], ...]:
    """Each word of `text` (plain, in order) and whether it belongs to a proper name, told by its
    shape alone (item rules cannot see the bank): acronyms and mixed-case words, capitalised
    words inside a sentence, and a capitalised sentence opener followed by another name word
    ("Amazon Kinesis Data Streams", "AWS Storage Gateway", "multiple Availability Zones").
    "Access keys." is no name: its capital only opens the sentence."""
    body = plain(text)
    found = list(_NAME_WORD.finditer(body))
    flags: list[bool | None] = []
    for i, m in enumerate(found):
        w = m.group(0)
        if _name_shaped(w):
            flags.append(True)
        elif w[0].isupper():
            gap = body[found[i - 1].end() : m.start()] if i else ""
            opener = not i or (gap != " " and bool(_SENTENCE_START.search(gap)))  # one space breaks no sentence
            flags.append(None if opener else True)  # an opener is a name only if a name word follows
        else:
            flags.append(False)
    out = []
    for i, (m, f) in enumerate(zip(found, flags)):
        low = m.group(0).lower().replace("’", "'").strip("-'")
        if f is None:
            f = i + 1 < len(flags) and flags[i + 1] is not False and low not in STOPWORDS
        out.append((low, bool(f)))
    return tuple(out)


@per_text
def name_words(text: str) -> frozenset[str]:
    """Stemmed words of `text` that belong to proper names (`name_spans`), hyphen parts too."""
    out: set[str] = set()
    for low, named in name_spans(text):
        if named:
            out.update(map(stem, [low, *low.split("-")]))
    return frozenset(out)


# Words that attach a qualification to a name ("AWS Backup with a backup policy"): what follows
# is the writer's, not the product's.
_QUALIFIERS = frozenset(("with", "using", "that", "which", "to", "by", "via", "through", "when", "after", "before"))


def name_like(text: str, allowance: int = 1) -> bool:
    """True if `text` is a name with at most `allowance` other content words and no qualifying
    clause ("AWS Storage Gateway", "IAM policies", "Amazon S3 Glacier"): its length is the
    name's, not a writer's."""
    spans = name_spans(text)
    if not any(named for _, named in spans) or any(low in _QUALIFIERS for low, _ in spans):
        return False
    others = [low for low, named in spans if not named and low not in STOPWORDS]
    return len(others) <= allowance
