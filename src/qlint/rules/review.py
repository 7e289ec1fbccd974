"""Sign-off and frozen items (W001-W005): each review is bound to the content hash it approved,
and the project's policy (`[review]` in the configuration) says which roles and how many
reviewers a question needs (docs/review.md). The reading is `qlint.project.review`'s, shared with
`qlint export --require-review` and the reports. A case question is judged with its case study's
file (its hash covers the scenario), so its result is never served from the results cache
(`reads_case`)."""

from __future__ import annotations

from typing import Iterator

from qlint.model import ITEM_TYPES, Question
from qlint.project.casestudy import case_of
from qlint.project.review import FEW_REVIEWERS, FROZEN, MISSING_ROLE, SELF_REVIEW, STALE, reads_case, review_problems
from qlint.rules import Finding, rule

SOURCE = ("Certification programmes' item review: technical and editorial review by someone other than "
          "the author before an item goes live, and live items frozen (a change is a new item)")


# The five rules run one after another on each question: its problems are read once (one slot,
# holding the data itself, so the `is` test cannot match a new object at a reused address).
_last: list = [None, None, None, []]  # data, policy, path, problems


def _findings(q: Question, ctx, code: str) -> Iterator[Finding]:
    policy = ctx.config.review
    if not (_last[0] is q.data and _last[1] is policy and _last[2] == q.path):
        case = case_of(q.path, q.data, ctx.config) if reads_case(q.data) else None
        _last[:] = [q.data, policy, q.path, review_problems(q.data, policy, q.path, case=case)]
    for p in _last[3]:
        if p.code == code:
            yield Finding(p.pointer, p.message)


@rule(MISSING_ROLE, "review-missing-role", "error", types=ITEM_TYPES, source=SOURCE)
def review_missing_role(q: Question, ctx) -> Iterator[Finding]:
    """A question the review policy applies to has no sign-off for a required role.

    ## What it does
    When the configuration's `[review]` table names `roles`, each question whose status is among
    its `statuses` (default: published) needs, for every role, a `reviews:` entry with that role by
    a reviewer other than the author. A stale sign-off still counts here (W004 reports it).

    ## Why it matters
    A published item reaches learners: exam programmes have every new or changed item checked by
    a subject-matter expert (the key, blind) and an editor before it goes live.

    ## Example
    ```yaml
    status: published
    reviews:
      - {reviewer: ben, role: editorial, date: "2026-06-01", hash: "sha256:..."}
    # [review] roles = ["technical", "editorial"]: no technical sign-off
    ```

    ## Fix
    Have a reviewer check the question and sign: `qlint review sign --role technical --reviewer
    NAME FILE`.
    """
    yield from _findings(q, ctx, MISSING_ROLE)


@rule(SELF_REVIEW, "self-review", "error", types=ITEM_TYPES, source=SOURCE)
def self_review(q: Question, ctx) -> Iterator[Finding]:
    """A sign-off by the question's own author.

    ## What it does
    Compares each `reviews:` entry's reviewer with the author (the `author` field, or the
    configured `[review] author`), spaces and case ignored. The author's own sign-off never
    counts for a role or towards the number of reviewers.

    ## Why it matters
    An author reads what they meant, not what they wrote: the point of review is a second reader.

    ## Example
    ```yaml
    author: ana
    reviews:
      - {reviewer: Ana, role: technical, date: "2026-06-01", hash: "sha256:..."}
    ```

    ## Fix
    Remove the entry and have someone else review the question.
    """
    yield from _findings(q, ctx, SELF_REVIEW)


@rule(FEW_REVIEWERS, "too-few-reviewers", "error", types=ITEM_TYPES, source=SOURCE)
def too_few_reviewers(q: Question, ctx) -> Iterator[Finding]:
    """Fewer distinct reviewers signed the question off than the policy requires.

    ## What it does
    Counts the different people (spaces and case ignored, the author left out) in `reviews:` of a
    question the policy applies to, and reports when there are fewer than `[review] reviewers`.

    ## Why it matters
    One person signing both the technical and the editorial review is one reading, not two.

    ## Example
    ```yaml
    reviews:
      - {reviewer: ben, role: technical, date: "2026-06-01", hash: "sha256:..."}
      - {reviewer: ben, role: editorial, date: "2026-06-01", hash: "sha256:..."}
    # [review] reviewers = 2
    ```

    ## Fix
    Have another reviewer review the question and sign.
    """
    yield from _findings(q, ctx, FEW_REVIEWERS)


@rule(STALE, "stale-sign-off", "error", types=ITEM_TYPES, source=SOURCE)
def stale_sign_off(q: Question, ctx) -> Iterator[Finding]:
    """The question's meaning changed after a reviewer signed it off.

    ## What it does
    Compares each sign-off's `hash` with the question's content hash now (docs/review.md: the
    teaching fields, formatting left out). When they differ and the file is in a git repository,
    it finds the committed version with the approved hash and names the fields changed since;
    otherwise it says the approval is stale.

    ## Why it matters
    A sign-off approves a text, not a file name: a key flipped or a rationale rewritten after
    review reaches learners unreviewed.

    ## Example
    A technical review signed, then `correct:` moved to another option.

    ## Fix
    Review the question again and sign (`qlint review sign` replaces the reviewer's entry for the
    role), or put the approved text back.
    """
    yield from _findings(q, ctx, STALE)


@rule(FROZEN, "live-item-changed", "error", types=ITEM_TYPES, source=SOURCE)
def live_item_changed(q: Question, ctx) -> Iterator[Finding]:
    """A live (frozen) question changed meaning.

    ## What it does
    A question with `live:` (set by `qlint review live` when it went live) records its content
    hash then; any later change of meaning is reported, with the fields changed when git history
    has the frozen version. Formatting, tags, references and other metadata may still change.

    ## Why it matters
    Learners have answered the live version, and its statistics (`qlint analyze`) describe that
    version: an edit would mix two questions under one id.

    ## Example
    A live question whose distractor text was reworded.

    ## Fix
    Put the live text back, and publish the change as a new question with a new id; then retire
    this one with `status: retired` and `replaced_by: <new id>`.
    """
    yield from _findings(q, ctx, FROZEN)
