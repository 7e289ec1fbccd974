"""What the bank rules read of one question, small enough to cache and to hold for 100k files.

A `BankEntry` is computed once per file version (in the worker that checks it) and stored in
the results cache, so a run over a few staged files reads the rest of the bank from the cache
without parsing a single YAML file. Texts are kept as their tokens joined by spaces (tokens
never contain one), so "phrase occurs in this stem" is a substring test at C speed. Hashes of
word n-grams are *stable* (the same in every process), unlike Python's str hash, which is
salted per process and so could not be cached.
"""

from __future__ import annotations

from array import array
from hashlib import blake2b
from operator import itemgetter
from typing import Any, Iterable, Sequence

from qlint.bank.parity import record as parity_record
from qlint.project.contenthash import case_hash
from qlint.project.guide import task_id
from qlint.text import holds_placeholder, mostly_unread, tokenise, tokens

SHINGLE = 3  # word n-gram size of the near-duplicate shingles (B006)


class _TokenIds(dict):
    """token -> a stable 64-bit id; a tuple of ints hashes the same in every process (only str
    and bytes hashes are salted), so n-grams of ids give stable n-gram hashes."""

    def __missing__(self, token: str) -> int:
        if len(self) >= 500_000:  # a bank's vocabulary is far smaller; bound the memo anyway
            self.clear()
        value = self[token] = int.from_bytes(blake2b(token.encode("utf-8"), digest_size=8).digest(), "little", signed=True)
        return value


_IDS = _TokenIds()


def ngrams(toks: Sequence[Any], n: int) -> Iterable[tuple[Any, ...]]:
    return zip(*(toks[i:] for i in range(n)))


def gram_hashes(toks: Sequence[str], n: int) -> list[int]:
    """Stable hashes of the word n-grams of `toks`, in order."""
    return list(map(hash, ngrams(list(map(_IDS.__getitem__, toks)), n)))


def shingle_set(segments: Iterable[Sequence[str]], n: int = SHINGLE) -> set[int]:
    """Stable hashes of the word n-grams of each segment; a shorter segment is one shingle."""
    out: set[int] = set()
    ids = _IDS.__getitem__
    for seg in segments:
        if len(seg) >= n:
            out.update(map(hash, ngrams(list(map(ids, seg)), n)))
        elif seg:
            out.add(hash(tuple(map(ids, seg))))
    return out


def packed(values: Iterable[int]) -> bytes:
    return array("q", values).tobytes()


def unpacked(blob: bytes) -> memoryview:
    """The int64 values of a packed blob, without copying."""
    return memoryview(blob).cast("q")


FIELDS = (
    ("path", "the file's path as the run was given it"),
    ("id", ""), ("exam", ""), ("domain", ""), ("type", ""),
    ("option_count", ""),
    ("key_positions", "0-based indexes of the keyed options"),
    ("key_longest", "one key, strictly longer than every distractor (stripped text)"),
    ("related", ""),
    ("stem", "stem tokens joined by ' '"),
    ("keys", "(option index, key tokens joined by ' ') per key"),
    ("explanation", "explanation tokens joined by ' '"),
    ("shingles", "packed stable hashes: word 3-grams of the stem and of each option, step, prompt and "
                 "response text (B006)"),
    ("stem_grams", "packed stable hashes of the stem's word n-grams (B007)"),
    ("explanation_grams", "packed stable hashes of the explanation's word n-grams (B007)"),
    ("gram", "the n of stem_grams and explanation_grams"),
    ("case", "the id of the case study the question belongs to, or ''"),
    ("status", "the workflow status (draft, review, published, retired), or ''"),
    ("replaced_by", "the id of the question that replaces a retired one, or ''"),
    ("tasks", "the ids of the exam guide's task statements the question names (`tasks:`)"),
    ("single_key", "the key's position in a single-answer question with one key, else None"),
    ("lang", "the question's own `lang`, or '' (the configured default)"),
    ("translation_of", "the id of the question this one translates, or ''"),
    ("parity", "what the translation rules compare, as JSON (bank/parity.py)"),
)


def _comparable(text: str) -> bool:
    """A text whose words the near-duplicate shingles can read: no TODO placeholder, and not
    mostly in a script the tokens skip (held-out audit, second round: two Chinese questions
    sharing the number 19 were "near-duplicates" at Jaccard 1.00)."""
    return not holds_placeholder(text) and not mostly_unread(text)


class BankEntry(tuple):
    """One schema-valid question as the bank rules and bank figures see it.

    A plain tuple subclass with read-only fields (see FIELDS), not a NamedTuple: making one
    from a cached plain tuple runs no Python code.
    """

    __slots__ = ()

    @classmethod
    def of(cls, path: str, data: dict[str, Any], ngram: int = 8, names: tuple[str, ...] = ()) -> "BankEntry":
        """`names`: the product names translations keep as written (L006), besides vendor names."""
        options = data.get("options", [])
        keyed = tuple(i for i, o in enumerate(options) if o.get("correct") is True)
        stem = tokens(data.get("stem", ""))
        explanation = tokens(data.get("explanation", ""))
        texts = [o.get("text", "") for o in options]
        parts = [p.get("text", "") for key in ("steps", "prompts", "responses") for p in data.get(key, ())]
        longest = False
        if len(keyed) == 1 and len(options) >= 2:
            key_len = len(texts[keyed[0]].strip())
            longest = all(key_len > len(t.strip()) for i, t in enumerate(texts) if i != keyed[0])
        return cls((
            path,
            data.get("id", ""),
            data.get("exam", ""),
            data.get("domain", ""),
            data.get("type", "single"),
            len(options),
            keyed,
            longest,
            tuple(data.get("related") or ()),
            " ".join(stem),
            tuple((i, " ".join(tokens(texts[i]))) for i in keyed),
            " ".join(explanation),
            # options through `tokenise`, the stem through `tokens`: the same tokens either way.
            # A text still holding a TODO placeholder is not compared: two fresh `qlint new`
            # scaffolds share all their placeholder words, and F002 already reports each one.
            # Nor is one mostly in a script the tokens do not read: its numbers alone are left.
            packed(shingle_set([stem if _comparable(data.get("stem", "")) else (),
                                *(tokenise(t) for t in (*texts, *parts) if _comparable(t))])),
            packed(gram_hashes(stem, ngram)),
            packed(gram_hashes(explanation, ngram)),
            ngram,
            data.get("case") or "",
            str(data.get("status") or ""),
            str(data.get("replaced_by") or ""),
            tuple(task_id(t) for t in data.get("tasks") or ()),
            keyed[0] if data.get("type", "single") == "single" and len(keyed) == 1 else None,
            str(data.get("lang") or ""),
            str(data.get("translation_of") or ""),
            parity_record(data, names),
        ))

    @staticmethod
    def plain(entry: "BankEntry | None") -> tuple[Any, ...] | None:
        """As the cache stores it: a plain tuple (see `cache_codec.dump_entry`)."""
        return None if entry is None else tuple(entry)

    @staticmethod
    def from_plain(value: tuple[Any, ...] | None) -> "BankEntry | None":
        return None if value is None else BankEntry(value)

    def key_pointer(self) -> str:
        return f"/options/{self.key_positions[0]}"

    def stem_tokens(self) -> list[str]:
        return self.stem.split(" ") if self.stem else []

    def explanation_tokens(self) -> list[str]:
        return self.explanation.split(" ") if self.explanation else []


CASE = "case"  # first field of a case entry: tells it from a question's entry in the cache


class CaseEntry(tuple):
    """One schema-valid case study file as the bank rules see it: ("case", path, id, exam,
    domain, items, content), items being the ids of its questions in order and content the
    `case_hash` of its title and scenario (its questions' content hash covers it)."""

    __slots__ = ()

    @classmethod
    def of(cls, path: str, data: dict[str, Any]) -> "CaseEntry":
        return cls((CASE, path, data.get("id", ""), data.get("exam", ""), data.get("domain", ""),
                    tuple(data.get("items") or ()), case_hash(data)))

    path = property(itemgetter(1))
    id = property(itemgetter(2))
    exam = property(itemgetter(3))
    domain = property(itemgetter(4))
    items = property(itemgetter(5))
    content = property(itemgetter(6))


def plain_entry(entry: "BankEntry | CaseEntry | None") -> tuple[Any, ...] | None:
    """An entry as the cache stores it: a plain tuple (see `cache_codec.dump_entry`)."""
    return None if entry is None else tuple(entry)


def entry_from_plain(value: tuple[Any, ...] | None) -> "BankEntry | CaseEntry | None":
    if value is None:
        return None
    return CaseEntry(value) if value[0] == CASE else BankEntry(value)


def contains(haystack: str, phrase: str) -> bool:
    """`phrase` (tokens joined by " ") occurs as whole tokens in `haystack` (the same)."""
    if not phrase or not haystack:
        return False
    at = haystack.find(phrase)
    while at >= 0:
        end = at + len(phrase)
        if (at == 0 or haystack[at - 1] == " ") and (end == len(haystack) or haystack[end] == " "):
            return True
        at = haystack.find(phrase, at + 1)
    return False


for _i, (_name, _doc) in enumerate(FIELDS):
    setattr(BankEntry, _name, property(itemgetter(_i), doc=_doc or None))
del _i, _name, _doc
