"""What the translation rules (L codes) compare between a question and its source, small enough
to keep in every bank entry: the answer structure (ids, keys, choose, match pairs, step order,
case), the content hash, and per text field a digest of its words (spacing and wrapping aside), its word count without
product names, and the product names it holds.

Kept as one JSON string per entry (`BankEntry.parity`), decoded only for the pairs compared.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from hashlib import blake2b
from typing import Any, Iterable

from qlint.model import Question, text_fields
from qlint.project.contenthash import content_hash

# A vendor's product name as written: "Amazon" or "AWS" and the capitalised words after it
# ("Amazon S3", "AWS Glue DataBrew"); a name ends before a lower-case word or a full stop.
_VENDOR = r"(?:Amazon|AWS)(?: [A-Z0-9][\w-]*(?:\.[\w-]+)*)+"
_PARTS = ("options", "steps", "prompts", "responses")


_VENDOR_NAME = re.compile(rf"(?<![\w-]){_VENDOR}(?![\w-])")
_WORDISH = re.compile(r"[\w-]")


@dataclass(frozen=True)
class Names:
    """The names that stay as written in every language: any vendor product name, and the
    listed names (whole words, case-sensitive, longest first); `in_text` lists those a text holds."""

    listed: tuple[str, ...]

    def in_text(self, text: str) -> list[str]:
        spans: list[tuple[int, int]] = []
        if "Amazon" in text or "AWS" in text:
            spans = [m.span() for m in _VENDOR_NAME.finditer(text)]
        # each listed name by str.find (C speed), where no longer name already stands
        for name in self.listed:
            at = text.find(name)
            while at >= 0:
                end = at + len(name)
                whole = (at == 0 or not _WORDISH.match(text[at - 1])) and (end == len(text) or not _WORDISH.match(text[end]))
                if whole and not any(s <= at and end <= e for s, e in spans):
                    spans.append((at, end))
                at = text.find(name, end)
        return [text[s:e] for s, e in sorted(spans)]


@lru_cache(maxsize=8)
def names_of(names: tuple[str, ...]) -> Names:
    # a vendor name the vendor pattern reads whole needs no search of its own
    listed = {n for n in names if n.strip() and not (_VENDOR_NAME.fullmatch(n))}
    return Names(tuple(sorted(listed, key=lambda n: (-len(n), n))))


def _digest(text: str) -> str:
    # spacing and wrapping aside (a translation left as it was is equal however it is wrapped)
    return blake2b(" ".join(text.split()).encode("utf-8"), digest_size=8).hexdigest()


_CODE_OR_URL = re.compile(r"`[^`]*`|https?://\S+")


def _field(pointer: str, text: str, names: Names) -> list[Any]:
    found = names.in_text(text)
    counted = _CODE_OR_URL.sub(" ", text) if "`" in text or "://" in text else text  # code and addresses stay too
    words = len(counted.split()) - sum(len(name.split()) for name in found)
    return [pointer, _digest(text), max(words, 0), sorted(set(found))]


def record(data: dict[str, Any], names: tuple[str, ...] = ()) -> str:
    """The JSON text kept in the bank entry (see `Parity`)."""
    known = names_of(names)
    q = Question("", data)
    shape = {
        "type": q.type, "choose": data.get("choose"), "case": data.get("case") or "",
        "options": [[o.id, o.correct] for o in q.options],
        "steps": [[s.id, s.correct] for s in q.steps],
        "prompts": [[p.id, p.match] for p in q.prompts],
        "responses": [r.id for r in q.responses],
    }
    texts = [_field(pointer, text, known) for pointer, text in text_fields(q)]
    return json.dumps([data.get("source_hash") or "", content_hash(data), shape, texts],
                      ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Text:
    pointer: str
    digest: str
    words: int  # words besides product names, code and addresses
    names: tuple[str, ...]


@dataclass(frozen=True)
class Parity:
    source_hash: str
    content_hash: str
    shape: dict[str, Any]
    texts: dict[str, Text]  # by field key: "stem", "options[grid].text", "prompts[drift].rationale"

    @classmethod
    def of(cls, blob: str) -> "Parity":
        source_hash, chash, shape, texts = json.loads(blob)
        ids = {part: [p[0] if isinstance(p, list) else p for p in shape.get(part, [])] for part in _PARTS}
        by_key = {}
        for pointer, digest, words, names in texts:
            by_key[field_key(pointer, ids)] = Text(pointer, digest, words, tuple(names))
        return cls(source_hash, chash, shape, by_key)

    def part_ids(self, part: str) -> list[str]:
        return [p[0] if isinstance(p, list) else p for p in self.shape.get(part, [])]


def field_key(pointer: str, ids: dict[str, list[str]]) -> str:
    """"/options/2/text" -> "options[grid].text": the same field in a translation that lists the
    parts in another order."""
    bits = pointer.strip("/").split("/")
    if len(bits) == 3 and bits[0] in ids and bits[1].isdigit() and int(bits[1]) < len(ids[bits[0]]):
        return f"{bits[0]}[{ids[bits[0]][int(bits[1])]}].{bits[2]}"
    return ".".join(bits)


def catalogue_names(services: Iterable[Any]) -> tuple[str, ...]:
    """Every name of the lifecycle catalogue's services, current and former."""
    return tuple(n for s in services for n in (*s.names, *s.former))
