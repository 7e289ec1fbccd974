"""`qlint review`: write a sign-off (`reviews:` entry) or the live marker (`live:`) into question
files, touching only the lines added or the two values replaced (docs/review.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from qlint.authoring.changes import Change
from qlint.authoring.formatter import kind_of, load
from qlint.authoring.yamledit import EditError, add_key, append_item, set_scalar
from qlint.loading.reader import decode, read_source
from qlint.paths import display_path
from qlint.project.config import Config
from qlint.project.casestudy import case_of
from qlint.project.contenthash import content_hash
from qlint.project.review import author_of, person, review_problems, FROZEN


class SignError(Exception):
    """A sign-off or freeze the command refuses: the message says why and what to do."""


class NotApplicable(SignError):
    """A file the command does not apply to (not a question, retired, not published for `live`):
    refused when named, skipped when found in a folder."""


@dataclass(frozen=True)
class Signature:
    reviewer: str
    role: str
    date: str


def _question(text: str, config: Config) -> dict[str, Any]:
    data = load(text, config)
    if not isinstance(data, dict) or "id" not in data:
        raise NotApplicable("not a question file")
    if data.get("status") == "retired":
        raise NotApplicable("the question is retired: it is never exported, there is nothing to sign")
    return data


def sign_text(text: str, config: Config, sig: Signature, path: str | None = None) -> str:
    """`text` with `sig`'s sign-off of its current content: the reviewer's entry for the role
    updated (date and hash) when there is one, otherwise a new entry at the end of `reviews:`.
    `path`: the file, so a case question's hash covers its case study (found from there)."""
    data = _question(text, config)
    author = author_of(data, config.review)
    if author and person(author) == person(sig.reviewer):
        raise SignError(f"{sig.reviewer} is the question's author; a sign-off needs another reviewer")
    entry = {"reviewer": sig.reviewer, "role": sig.role, "date": sig.date,
             "hash": content_hash(data, _case_data(path, data, config))}
    reviews = data.get("reviews")
    if reviews is None:
        return add_key(text, "reviews", [entry], "question", config)
    if not isinstance(reviews, list):
        raise SignError("reviews: is not a list")
    for i, r in enumerate(reviews):
        if isinstance(r, dict) and person(r.get("reviewer")) == person(sig.reviewer) and r.get("role") == sig.role:
            for key in ("date", "hash"):
                if r.get(key) != entry[key]:
                    text = set_scalar(text, f"/reviews/{i}/{key}", entry[key], config)
            return text
    return append_item(text, "/reviews", entry, config)


def live_text(text: str, config: Config, date: str, answered: dict[str, int] | None = None,
              path: str | None = None) -> str:
    """`text` marked live (`live: {date, hash}`) with its current content hash. Refused for a
    question that is not published, for a live one whose meaning changed (that would hide the
    change under the old id), and, given `answered` (id -> respondents in the responses read),
    for one learners have not answered yet. `path`: as for `sign_text`."""
    data = _question(text, config)
    case = case_of(path, data, config)
    if data.get("status") != "published":
        raise NotApplicable(f"only a published question goes live; this one is {data.get('status') or 'without a status'}")
    if answered is not None and data.get("id") not in answered:
        raise NotApplicable("too few learners answered it in the responses given (--responses, --min-respondents)")
    if "live" in data:
        frozen = [p for p in review_problems(data, config.review, history=False, case=case) if p.code == FROZEN]
        if frozen:
            raise SignError(frozen[0].message)
        return text  # live already, and unchanged
    return add_key(text, "live", {"date": date, "hash": content_hash(data, case.data if case else None)}, "question",
                   config)


def _case_data(path: str | None, data: dict[str, Any], config: Config) -> dict[str, Any] | None:
    case = case_of(path, data, config)
    return case.data if case is not None else None


def change(path: str, config: Config, edit) -> Change:
    """The file's edited text as a pending change (`edit(text, path=path)`); LoadError, EditError
    or SignError leave it."""
    if kind_of(path, config) != "question":
        raise NotApplicable("not a question file (exam definitions and case studies are not signed)")
    raw = read_source(path, config.root, config.limits)
    return Change(display_path(path), raw, edit(decode(raw), path=path))


__all__ = ["EditError", "NotApplicable", "SignError", "Signature", "change", "live_text", "sign_text"]
