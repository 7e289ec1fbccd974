"""Names in teaching text: the keys a text shares with a question, abbreviations included.

An explanation names "Amazon Simple Queue Service" as often by "SQS" as by its words, and a
question may define its own short forms ("Key Management Service (KMS)"). A text's *keys* are
its content words (`qlint.prose.stance.option_words`) plus, for each run of capitalised words, the
initials of the run ("=sqs"), and each all-capital word ("=kms"). The vendor prefix ("Amazon",
"AWS") is left out: it is in nearly every option and names none of them.

Every function here is pure and memoised per string or per question (`qlint.prose.views`).
"""

from __future__ import annotations

import re

from qlint.prose.views import per_question, per_text, view
from qlint.model import Question
from qlint.prose.stance import VENDOR, VENDOR_STEMS, option_words

VENDOR_KEYS = VENDOR_STEMS | {"=aws"}
_CONNECT = frozenset({"of", "and", "for", "to", "&"})
_ARTICLES = frozenset({"a", "an", "the"})
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-]*|[^\sA-Za-z0-9]")
# "Long Name (LN)" or "Long Name (the Short Name)": either side names the other
_ALIAS = re.compile(r"((?:[A-Z][\w\-]*\s+){1,6})\((?:the\s+)?([A-Z][\w\-]*(?:\s+[A-Z0-9][\w\-]*){0,2})\)")


# A capitalised word token ("Amazon", "S3", "X-Ray") and a connector token inside a run.
_CAP = r"[A-Z][A-Za-z0-9'’\-]*+"
_CONNECTOR = r"(?:(?i:of|and|for|to)(?![A-Za-z0-9'’\-])|&)"
# A lower-case or numeric word is consumed whole, so a run starts only where a token starts (the
# "Ray" of "x-Ray" does not); a run is capitalised words and connectors, as `_TOKEN` splits them.
_BEYOND_ASCII = re.compile(r"[^\x00-\x7f]")
_RUN = re.compile(rf"[a-z0-9][A-Za-z0-9'’\-]*+|({_CAP}(?:\s*+(?:{_CAP}|{_CONNECTOR}))*+)")


def _runs(text: str) -> list[list[str]]:
    """Runs of capitalised words; connectors ("of", "and") inside a run are kept, none at its end.
    (Found by one regex in C: a loop over every token in Python was a tenth of the item rules.)"""
    if not text.isascii() and any(c.isupper() for c in _BEYOND_ASCII.findall(text)):
        return _runs_by_token(text)  # "Índice": a capital the regex's classes do not hold
    runs: list[list[str]] = []
    for found in _RUN.findall(text):
        if found:
            run = _TOKEN.findall(found)
            while run and run[-1].lower() in _CONNECT:
                run.pop()
            if run:
                runs.append(run)
    return runs


def _runs_by_token(text: str) -> list[list[str]]:
    """`_runs` token by token: the definition the regex follows (tests compare the two)."""
    runs: list[list[str]] = []
    cur: list[str] = []
    for t in _TOKEN.findall(text) + ["."]:
        if t[:1].isupper() or (cur and t.lower() in _CONNECT):
            cur.append(t)
            continue
        while cur and cur[-1].lower() in _CONNECT:
            cur.pop()
        if cur:
            runs.append(cur)
        cur = []
    return runs


@per_text
def abbreviations(text: str) -> frozenset[str]:
    """"=sqs" for "Simple Queue Service" (a run of two capitalised words or more, vendor prefix
    dropped) and for "SQS" itself."""
    out: set[str] = set()
    for run in _runs(view(text).plain):
        words = [w for w in run if w.lower() not in _CONNECT]
        while words and words[0].lower() in _ARTICLES:
            words = words[1:]  # "An Amazon Machine Image" opening a sentence
        if len(words) >= 3 and words[0].lower() in VENDOR:
            out.add("=" + "".join(w[0] for w in words).lower())  # the vendor's own initials: "ACM", "AMI"
        while words and words[0].lower() in VENDOR:
            words = words[1:]
        if len(words) >= 2:
            initials = "".join(w[0] for w in words).lower()
            out |= {"=" + initials, "=" + _counted(initials)}
        for w in words:  # "KMS", "EC2"; the cheap tests first, most words are neither
            if len(w) >= 2 and (w.isupper() and w.isalpha() or w[-1] in "23456789" and _COUNTED.fullmatch(w)):
                out.add("=" + w.lower())
    return frozenset(out - VENDOR_KEYS)


_COUNTED = re.compile(r"[A-Z]+[2-9]")


def _counted(initials: str) -> str:
    """Repeated initials written as a count, the way "S3" abbreviates "Simple Storage Service"
    and "EC2" "Elastic Compute Cloud"."""
    return re.sub(r"(.)\1+", lambda m: m.group(1) + str(len(m.group(0))), initials)


@per_text
def text_keys(text: str) -> frozenset[str]:
    """Content words and abbreviations of a text, vendor prefix left out."""
    return (option_words(text) | abbreviations(text)) - VENDOR_KEYS


@per_question
def aliases(q: Question) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """"X (Y)" pairs anywhere in the question: the keys of each side."""
    texts = [q.stem, q.explanation, *(o.text for o in q.options), *(o.rationale or "" for o in q.options)]
    pairs = []
    for t in texts:
        if "(" not in t and "&" not in t:  # most texts hold no "X (Y)" (nor an entity for one): skip the search
            continue
        for m in _ALIAS.finditer(view(t).plain):
            a, b = text_keys(m.group(1)), text_keys(m.group(2))
            if a and b:
                pairs.append((a, b))
    return tuple(pairs)


def expand(q: Question, keys: frozenset[str]) -> frozenset[str]:
    """`keys` with the other side of every alias whose one side they contain."""
    out = set(keys)
    for a, b in aliases(q):
        if a <= keys:
            out |= b
        if b <= keys:
            out |= a
    return frozenset(out)


@per_question
def question_keys(q: Question) -> frozenset[str]:
    """Keys of the stem and the option texts (step, prompt and response texts), aliases expanded."""
    keys: frozenset[str] = text_keys(q.stem)
    for o in (*q.options, *q.steps, *q.prompts, *q.responses):
        keys |= text_keys(o.text)
    return expand(q, keys)
