"""Lifecycle rules (V): questions that name a service the vendor ended, closed to new customers
or renamed, judged by the date of the check against the catalogue in project/lifecycle.py."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from qlint.diagnostic import Edit, Fix
from qlint.model import ITEM_TYPES, Question
from qlint.prose.views import per_question, view
from qlint.project.lifecycle import Catalogue, Service, catalogue, check_date
from qlint.rules import Finding, Option, rule

_SOURCE = "AWS service lifecycle pages (end of support, closed to new customers, renames); qlint/project/lifecycle.json"


@dataclass(frozen=True)
class Mention:
    service: Service
    name: str  # the name as written
    former: bool  # a former name of the service, not a current one
    start: int


def _build_matcher(cat: Catalogue) -> tuple[re.Pattern[str] | None, dict[str, tuple[Service, bool]], dict[str, tuple[str, ...]]]:
    """Every verified name and former name, grouped by first word and longest first, so that
    "Amazon SageMaker Debugger" is read before "Amazon SageMaker", and a pattern for the first
    words. Case-sensitive and whole-word, so "forecast the demand" and "monitor the endpoint" are
    ordinary words, not products. (One alternation of every name was the V rules' main cost: the
    regex engine tries each name at each position.)"""
    names: dict[str, tuple[Service, bool]] = {}
    for s in cat.services:
        if s.verified:
            names.update({n: (s, False) for n in s.names})
            names.update({n: (s, True) for n in s.former if n not in names})
    if not names:
        return None, names, {}
    by_first: dict[str, list[str]] = {}
    for n in sorted(names, key=lambda n: (-len(n), n)):
        by_first.setdefault(n.split(" ", 1)[0], []).append(n)
    starts = "|".join(re.escape(w) for w in sorted(by_first, key=lambda w: (-len(w), w)))
    return (re.compile(rf"(?<![\w-])(?:{starts})(?![\w-])"), names,
            {w: tuple(ns) for w, ns in by_first.items()})


# Keyed on the catalogue object itself: hashing a frozen Catalogue walks every service (about 8 us),
# and the four V rules ask for the matcher for every text of every question.
_MATCHERS: list[tuple[Catalogue, tuple]] = []


def _matcher(cat: Catalogue) -> tuple[re.Pattern[str] | None, dict[str, tuple[Service, bool]], dict[str, tuple[str, ...]]]:
    for known, built in _MATCHERS:
        if known is cat:
            return built
    built = _build_matcher(cat)
    _MATCHERS[:] = [*_MATCHERS[-7:], (cat, built)]
    return built


def mentions(text: str, cat: Catalogue) -> tuple[Mention, ...]:
    """The catalogue's services named in `text`, each span read once (the longest name wins).
    Memoised per text and catalogue: V001-V004 read the same texts."""
    memo = view(text)._memo
    key = (mentions, id(cat))  # the catalogue is held alive by _MATCHERS, so its id is not reused
    found = memo.get(key)
    if found is None:
        found = memo[key] = _mentions(text, cat)
    return found


_WORD_CHAR = re.compile(r"[\w-]")


def _mentions(text: str, cat: Catalogue) -> tuple[Mention, ...]:
    pattern, names, by_first = _matcher(cat)
    if pattern is None:
        return ()
    out: list[Mention] = []
    end = 0
    for start in pattern.finditer(text):
        at = start.start()
        if at < end:
            continue  # inside the name just read
        for name in by_first[start.group(0)]:
            after = at + len(name)
            if text.startswith(name, at) and not _WORD_CHAR.match(text, after):
                service, former = names[name]
                end = after
                if not any(text.startswith(other, at) for other in service.excludes):
                    out.append(Mention(service, name, former, at))
                break
    return tuple(out)


def _context(ctx, q: Question):
    return _lifecycle(q, ctx.config.bank_dir, ctx.config.date)


@per_question
def _lifecycle(q: Question, bank_dir, date: str):
    """The catalogue and the date judged by, looked up once per question for the five V rules
    (the catalogue's lookup stats the project's file, so an edit is seen at the next check)."""
    return catalogue(bank_dir), check_date(date)


def _keys(q: Question) -> Iterator[tuple[str, str]]:
    for o in q.keys:
        yield f"{o.pointer}/text", o.text


def _other_text(q: Question) -> Iterator[tuple[str, str]]:
    """Where a question teaches besides its keys: stem, distractors, rationales, trap, explanation
    (never `references:`, whose titles quote pages as they were published)."""
    yield "/stem", q.stem
    for o in q.options:
        if not o.correct:
            yield f"{o.pointer}/text", o.text
        if o.rationale:
            yield f"{o.pointer}/rationale", o.rationale
    if q.trap:
        yield "/trap", q.trap
    yield "/explanation", q.explanation


def _when(service: Service, status: str) -> str:
    event = service.event(status)
    date = f" on {event.date.isoformat()}" if event and event.date else ""
    instead = f"; the vendor points to {service.replaced_by}" if service.replaced_by else ""
    return f"{date} ({event.source if event else 'catalogue'}){instead}"


_STATUS_WORDS = {"closed": "closed to new customers", "maintenance": "in maintenance (no new features)",
                 "end-of-support": "past its end of support"}


@rule("V001", "retired-key", "error", source=_SOURCE)
def retired_key(q: Question, ctx) -> Iterator[Finding]:
    """A keyed option names a service past its end of support.

    ## What it does
    Reads the text of each keyed option for the services of the lifecycle catalogue (qlint's own,
    `qlint/project/lifecycle.json`, plus the project's `<bank>/lifecycle.json`) and reports one
    whose end of support is on or before the date of the check (today, or `date` / `--date`).
    Names match whole and case-sensitive: "Amazon Forecast" is a product, "forecast the demand"
    is not.

    ## Why it matters
    A learner who memorises a retired service as the right answer learns something false: the
    service can no longer be used, and the exam guide no longer asks for it.

    ## Example
    ```yaml
    - id: lookout
      text: Amazon Lookout for Metrics
      correct: true
    ```

    ## Fix
    Key the service the vendor now recommends for the task, or retire the question
    (`status: retired` with `replaced_by:` a new question).
    """
    cat, on = _context(ctx, q)
    for pointer, text in _keys(q):
        for m in mentions(text, cat):
            if not m.former and m.service.status(on) == "end-of-support":
                yield Finding(pointer, f"the key names {m.service.name}, past its end of support"
                                       f"{_when(m.service, 'end-of-support')}: key a current service", within=m.name)


@rule("V002", "closed-service-key", "warning", source=_SOURCE, options={
    "statuses": Option(["closed", "maintenance"], "Lifecycle statuses a keyed service is reported for "
                                                 "(closed: to new customers; maintenance: no new features)."),
})
def closed_service_key(q: Question, ctx) -> Iterator[Finding]:
    """A keyed option names a service closed to new customers or in maintenance.

    ## What it does
    Reads the keyed options' text like V001 and reports a service whose status on the date of
    the check is one of `statuses` (default: closed to new customers, maintenance).

    ## Why it matters
    A new AWS account cannot start using a closed service, so a scenario that keys it teaches a
    choice the learner cannot make at work, and exam guides drop such services.

    ## Example
    ```yaml
    - id: debugger
      text: Amazon SageMaker Debugger
      correct: true
    ```

    ## Fix
    Key the current alternative (for training insight, SageMaker AI's managed MLflow or
    TensorBoard), or say in the stem that the team already uses the service.
    """
    cat, on = _context(ctx, q)
    wanted = set(ctx.option("statuses"))
    for pointer, text in _keys(q):
        for m in mentions(text, cat):
            status = m.service.status(on)
            if not m.former and status in wanted and status != "end-of-support":
                yield Finding(pointer, f"the key names {m.service.name}, {_STATUS_WORDS[status]}"
                                       f"{_when(m.service, status)}", within=m.name)


@rule("V003", "retired-mention", "warning", types=ITEM_TYPES, source=_SOURCE)
def retired_mention(q: Question, ctx) -> Iterator[Finding]:
    """A distractor, the stem or a rationale names a service past its end of support.

    ## What it does
    Reads the stem, the distractors, the rationales, the trap and the explanation for services
    of the lifecycle catalogue whose end of support is on or before the date of the check, and
    reports each service once, where it is first named (a distractor, not also its rationale).
    `references:` are not read: their titles quote pages as published.

    ## Why it matters
    A retired service as a distractor teaches a dead option: learners spend effort telling apart
    a product they will never meet, and the question looks out of date.

    ## Example
    ```yaml
    - id: opsworks
      text: AWS OpsWorks
      correct: false
    ```

    ## Fix
    Replace the distractor with a current service that is plausible for the scenario, and
    rewrite the rationale for it.
    """
    cat, on = _context(ctx, q)
    seen: set[str] = set()  # one finding per service: its distractor, not also its rationale
    for pointer, text in _other_text(q):
        for m in mentions(text, cat):
            if not m.former and m.service.status(on) == "end-of-support" and m.service.name not in seen:
                seen.add(m.service.name)
                yield Finding(pointer, f"names {m.service.name}, past its end of support"
                                       f"{_when(m.service, 'end-of-support')}: a dead option teaches nothing",
                              within=m.name)


@rule("V004", "former-service-name", "warning", types=ITEM_TYPES, fixable=True, source=_SOURCE)
def former_service_name(q: Question, ctx) -> Iterator[Finding]:
    """The text uses a service's former name where the rename is unambiguous.

    ## What it does
    Reports a former name of a renamed service (Amazon Kinesis Data Firehose, now Amazon Data
    Firehose) in the stem, options, rationales, trap or explanation, once the rename is in force
    on the date of the check, and offers a fix that writes the current name (comments and layout
    are kept). A text that also gives the current name ("AWS Single Sign-On, now called AWS IAM
    Identity Center") teaches the rename and is not reported. Renames whose old name is still a product's name are skipped: "Amazon SageMaker"
    now names AWS's unified platform as well as the former SageMaker, now SageMaker AI.
    `references:` are not read: a page title keeps the name it was published under.

    ## Why it matters
    Learners meet the current name in the console and on the exam; an old name makes a correct
    question look out of date and hides the service from a search.

    ## Example
    ```yaml
    stem: Which service loads the stream into Amazon S3 with Amazon Kinesis Data Firehose?
    ```

    ## Fix
    Write the current name (`qlint check --fix`).
    """
    cat, on = _context(ctx, q)
    fields = [(f"{o.pointer}/text", o.text) for o in q.options if o.correct] + list(_other_text(q))
    for pointer, text in fields:
        named = mentions(text, cat)
        current = {m.service.name for m in named if not m.former}  # "X, now called Y" teaches the rename
        found = [m for m in named if m.former and not m.service.ambiguous and m.service.renamed_by(on)
                 and m.service.name not in current]
        if not found:
            continue
        fixed, end = [], 0
        for m in found:
            fixed += [text[end:m.start], m.service.name]
            end = m.start + len(m.name)
        new_text = "".join(fixed) + text[end:]
        for m in found:
            yield Finding(pointer, f"{m.name!r} is now {m.service.name}{_when(m.service, 'renamed')}",
                          within=m.name, fix=Fix(f"write {m.service.name} for {m.name}", (Edit(pointer, new_text),)))


# A vendor's product name as written: "Amazon" or "AWS", then capitalised words (and the small
# words inside names, before another capitalised word: "Amazon Lookout for Vision", "AWS Identity
# and Access Management"). A name ends at a full stop and before the next vendor name ("Amazon S3
# and Amazon Chime" is two).
_PRODUCT = re.compile(r"(?<![\w-])(?:Amazon|AWS)(?: (?:[A-Z0-9][\w-]*(?:\.[\w-]+)*"
                      r"|(?:for|of|and|on)(?= (?!Amazon\b|AWS\b)[A-Z0-9]))(?=[\s,.;:()]|$))+")


def _named(text: str, names: tuple[str, ...]) -> list[tuple[str, int]]:
    out = []
    for name in names:
        for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
            out.append((name, m.start()))
    return out


def _in_scope(product: str, scope: tuple[str, ...]) -> bool:
    """A product is in scope when the list names it, a part of it or a product it is part of
    ("Amazon SageMaker AI Model Monitor" under "Amazon SageMaker AI")."""
    product = product.rstrip(" .")
    return any(product == s or product.startswith(s + " ") or s.startswith(product + " ") for s in scope)


@rule("V005", "out-of-scope-service", "warning", source="The exam guide's in-scope and out-of-scope service lists")
def out_of_scope_service(q: Question, ctx) -> Iterator[Finding]:
    """The question names a service its exam guide lists as out of scope, or keys one the guide does not list.

    ## What it does
    Reads the exam definition's `guide:` lists. A service of `out_of_scope` named anywhere in the
    stem, options, rationales, trap or explanation is reported; when `in_scope` is given, a keyed
    option that names an Amazon or AWS product the list does not cover is reported too (a product
    is covered by its own entry or by the service it is part of). Exams without the lists are
    not read.

    ## Why it matters
    The guide says what the exam asks about: a question built on a service outside it spends the
    learner's time on something the exam will not test, and keying it teaches the wrong answer
    to the exam's scenarios.

    ## Example
    ```yaml
    - id: chime
      text: Amazon Chime
      correct: true
    ```

    ## Fix
    Rewrite the question around a service the guide lists, or move it to the exam whose guide
    covers that service.
    """
    exam = ctx.exams.get(q.data.get("exam", ""))
    if exam is None:
        return
    guide = exam.guide
    if guide.out_of_scope:
        fields = [(f"{o.pointer}/text", o.text) for o in q.options if o.correct] + list(_other_text(q))
        for pointer, text in fields:
            for name, _ in _named(text, guide.out_of_scope):
                yield Finding(pointer, f"names {name}, which the {exam.code} guide lists as out of scope", within=name)
    if guide.in_scope:
        for pointer, text in _keys(q):
            for m in _PRODUCT.finditer(text):
                product = m.group(0).rstrip(" .")
                if not _in_scope(product, guide.in_scope) and not _named(product, guide.out_of_scope):
                    yield Finding(pointer, f"the key names {product}, which the {exam.code} guide does not list "
                                           "as in scope", within=product)
