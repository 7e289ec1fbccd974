"""Sign-off and frozen items judged against the project's policy: one reading for the W rules,
`qlint export --require-review` and the reports (docs/review.md).

A sign-off (`reviews:` entry) counts for its role when its reviewer is not the author; it is
stale when the content hash it approved is not the question's hash now. A live question
(`live:`) may not change meaning at all. A question of a case study is judged with its case's
data (`qlint.project.casestudy`), as its content hash covers the case's title and scenario.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from qlint.project.config import ReviewPolicy
from qlint.project.contenthash import case_hash, changed_fields, content_hash
from qlint.model import Case
from qlint.project.history import approved_case_version, approved_version

MISSING_ROLE, SELF_REVIEW, FEW_REVIEWERS, STALE, FROZEN = "W001", "W002", "W003", "W004", "W005"
# What a status summary calls each question: the policy does not apply, it is met, a sign-off or
# the freeze no longer matches the text, or a required sign-off is missing.
NOT_REQUIRED, REVIEWED, STALE_STATUS, MISSING = "not required", "reviewed", "stale", "missing"


@dataclass(frozen=True)
class Problem:
    code: str
    pointer: str
    message: str


def person(name: Any) -> str:
    """A name as compared: spaces collapsed, case folded ('Ana  Lima' is 'ana lima')."""
    return " ".join(str(name or "").split()).casefold()


def author_of(data: dict[str, Any], policy: ReviewPolicy) -> str:
    value = data.get("author")
    return value.strip() if isinstance(value, str) and value.strip() else policy.author


def _reviews(data: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    raw = data.get("reviews")
    return [(i, r) for i, r in enumerate(raw) if isinstance(r, dict)] if isinstance(raw, list) else []


def _short(digest: str) -> str:
    return digest[:19] + "..." if len(digest) > 19 else digest


def _since(path: str | None, digest: str, data: dict[str, Any], verb: str = "approved",
           case: Case | None = None) -> str:
    """' (approved in commit 1a2b3c4; changed since: stem, options[x].rationale)' when git has the
    approved version of the question (read with its case study as it is now) or, for a case
    question, of its case file (read with the question as it is now); '' otherwise."""
    if not path:
        return ""
    found = approved_version(path, digest, case_hash(case.data) if case is not None else None)
    if found is not None:
        commit, old = found
        fields = changed_fields(old, data)
        where = ""
    elif case is not None and (old_case := approved_case_version(case.path, digest, content_hash(data))) is not None:
        commit, old = old_case
        fields = changed_fields(data, data, old, case.data)
        where = " of its case study"
    else:
        return ""
    return f" ({verb} in commit {commit[:7]}{where}; changed since: {', '.join(fields)})" if fields else ""


def reads_case(data: dict[str, Any]) -> bool:
    """Judging this question reads its case study too: it names one and has a sign-off or a
    freeze whose hash must be compared (otherwise no content hash is computed at all)."""
    return (isinstance(data, dict) and bool(data.get("case"))
            and (bool(data.get("reviews")) or isinstance(data.get("live"), dict)))


def applies(data: dict[str, Any], policy: ReviewPolicy) -> bool:
    """The policy's roles and reviewer count apply to this question's status."""
    return policy.configured and data.get("status") in policy.statuses


def review_problems(data: dict[str, Any], policy: ReviewPolicy, path: str | None = None,
                    history: bool = True, case: Case | None = None) -> list[Problem]:
    """Every W finding on one question's data (`case`: the case study it names, if found). `history`: look up the approved versions in git (the messages name the changed fields);
    without it they say only that the approval is stale."""
    if not isinstance(data, dict) or data.get("status") == "retired":
        return []
    out: list[Problem] = []
    # the hash (~0.2 ms) only when a sign-off or a freeze needs comparing
    now = content_hash(data, case.data if case else None) if _reviews(data) or isinstance(data.get("live"), dict) else ""
    unnamed = ("the approved text is not in the file's git history here" if case is None else
               "neither the question's git history nor its case study as it is now has the approved text")
    author = author_of(data, policy)
    counted: list[dict[str, Any]] = []
    for i, r in _reviews(data):
        who, role = str(r.get("reviewer", "")), str(r.get("role", ""))
        if author and person(who) == person(author):
            out.append(Problem(SELF_REVIEW, f"/reviews/{i}/reviewer",
                               f"{who} is the question's author ({'author field' if data.get('author') else 'configured [review] author'}): "
                               "a sign-off needs a reviewer other than the author; this one does not count"))
        else:
            counted.append(r)
        approved = r.get("hash")
        if isinstance(approved, str) and approved != now:
            detail = _since(path if history else None, approved, data, case=case)
            out.append(Problem(STALE, f"/reviews/{i}/hash",
                               f"the content changed after the {role} sign-off by {who} on {r.get('date', '?')}"
                               + (detail or f": the approval is stale (it approved {_short(approved)}, the "
                                  f"question is now {_short(now)}; {unnamed}, so the changed fields cannot be "
                                  "named)")
                               + f"; review it again and sign: qlint review sign --role {role} --reviewer NAME FILE"))
    if applies(data, policy):
        at = "/reviews" if "reviews" in data else "/status"
        roles = {str(r.get("role", "")) for r in counted}
        for role in policy.roles:
            if role not in roles:
                out.append(Problem(MISSING_ROLE, at,
                                   f"{data.get('status')} question has no {role} sign-off (the project requires: "
                                   f"{', '.join(policy.roles)}): a reviewer other than the author signs with "
                                   f"qlint review sign --role {role} --reviewer NAME FILE"))
        people = {person(r.get("reviewer")) for r in counted if person(r.get("reviewer"))}
        if len(people) < policy.reviewers:
            out.append(Problem(FEW_REVIEWERS, at,
                               f"{len(people)} distinct reviewer{'' if len(people) == 1 else 's'} signed this "
                               f"{data.get('status')} question off; the project requires {policy.reviewers} "
                               "(the author does not count)"))
    live = data.get("live")
    frozen = live.get("hash") if isinstance(live, dict) else None
    if isinstance(frozen, str) and frozen != now:
        detail = _since(path if history else None, frozen, data, "frozen", case)
        since = f" since {live['date']}" if live.get("date") else ""
        out.append(Problem(FROZEN, "/live/hash",
                           f"this question is live{since} and its meaning changed"
                           + (detail or f" (frozen at {_short(frozen)}, now {_short(now)})")
                           + ": a live question is frozen; put its text back, and publish the change as a new "
                           "question with a new id (then set status: retired and replaced_by: <new id> here)"))
    return out


def review_state(data: dict[str, Any], policy: ReviewPolicy, case: Case | None = None) -> str:
    """One word for the summaries, as `export --require-review` judges: 'stale' (a sign-off or the
    freeze no longer matches), 'missing' (the policy is not met; with no policy, a published
    question that nobody but its author signed), 'reviewed', or 'not required'."""
    if not isinstance(data, dict) or data.get("status") == "retired":
        return NOT_REQUIRED
    codes = {p.code for p in review_problems(data, policy, history=False, case=case)}
    if codes & {STALE, FROZEN}:
        return STALE_STATUS
    if codes & {MISSING_ROLE, FEW_REVIEWERS}:
        return MISSING
    if applies(data, policy) or (not policy.configured and data.get("status") == "published"):
        return REVIEWED if _counted(data, policy) or policy.configured else MISSING
    return REVIEWED if _counted(data, policy) else NOT_REQUIRED


def _counted(data: dict[str, Any], policy: ReviewPolicy) -> bool:
    author = author_of(data, policy)
    return any(not author or person(r.get("reviewer")) != person(author) for _, r in _reviews(data))


def refused(data: dict[str, Any], policy: ReviewPolicy, case: Case | None = None) -> tuple[str, str] | None:
    """(pointer, why) when `export --require-review` refuses a published question, or None: a
    stale sign-off or freeze, the policy not met, a self-review, or (with no policy configured)
    no sign-off by anyone but the author."""
    if not isinstance(data, dict) or data.get("status") != "published":
        return None
    problems = review_problems(data, policy, history=False, case=case)
    if problems:
        codes = ", ".join(sorted({p.code for p in problems}))
        return problems[0].pointer, f"not reviewed as required ({codes}): {problems[0].message}"
    if not policy.configured and not _counted(data, policy):
        return "/status", "published without a sign-off: nobody but its author has reviewed it (qlint review sign)"
    return None


@dataclass(frozen=True)
class ReviewRow:
    """How many questions of one exam domain are reviewed, stale, missing a sign-off, or need none."""

    exam: str
    domain: str
    reviewed: int = 0
    stale: int = 0
    missing: int = 0
    not_required: int = 0


def review_summary(items: list[dict[str, Any]], policy: ReviewPolicy,
                   cases: list[Case | None] | None = None) -> list[ReviewRow]:
    """One row per (exam, domain) of the questions' data, sorted; empty when no question carries a
    sign-off or a freeze and no policy is configured (nothing to summarise). `cases`: per item,
    the case study it names (or None)."""
    if not policy.configured and not any(isinstance(d, dict) and (d.get("reviews") or d.get("live")) for d in items):
        return []
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for i, d in enumerate(items):
        if not isinstance(d, dict):
            continue
        row = counts.setdefault((str(d.get("exam", "")), str(d.get("domain", ""))), {})
        state = review_state(d, policy, cases[i] if cases is not None and i < len(cases) else None)
        row[state] = row.get(state, 0) + 1
    return [ReviewRow(exam, domain, c.get(REVIEWED, 0), c.get(STALE_STATUS, 0), c.get(MISSING, 0), c.get(NOT_REQUIRED, 0))
            for (exam, domain), c in sorted(counts.items())]
