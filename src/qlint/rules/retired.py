"""Retired questions (`status: retired`, `replaced_by:`): links that lead to a question learners
no longer see (B014). Exports never include a retired question (exporters/pipeline.py)."""

from __future__ import annotations

import difflib
from typing import Iterator

from qlint.rules import Finding, rule


@rule("B014", "retired-link", "error", scope="bank",
      source="Bank integrity: a retired question is never exported, so a link to it is a dead link")
def retired_link(bank, ctx) -> Iterator[Finding]:
    """A `replaced_by` or `related` link leads to a retired or missing question.

    ## What it does
    For each question, checks `replaced_by` (set only on a retired question) names a question of
    the bank that is not retired itself, and that no `related` entry names a retired question.
    A `replaced_by` on a question that is not retired is reported too. A `related` id that names
    no question at all is B002's finding.

    ## Why it matters
    Retired questions are never exported: a link to one is a broken link in every export, and a
    replacement that is itself retired sends reviewers round in circles.

    ## Example
    ```yaml
    status: retired
    replaced_by: mla-c01-dev-forecast-canvas   # also retired
    ```

    ## Fix
    Point `replaced_by` (and `related`) at the current question, or drop the link.
    """
    status = {e.id: e.status for e in bank.entries}
    for q, target in zip(bank.entries, bank.target_flags()):
        if not target:
            continue
        successor = q.replaced_by
        if successor:
            if q.status != "retired":
                yield Finding("/replaced_by", f"only a retired question has a replacement; this one is "
                                              f"{q.status or 'not retired'}: set status: retired or drop replaced_by",
                              path=q.path)
            elif successor == q.id:
                yield Finding("/replaced_by", "a question cannot replace itself", path=q.path)
            elif successor not in status:
                close = difflib.get_close_matches(successor, list(status), n=1, cutoff=0.8)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                yield Finding("/replaced_by", f"no question has the id {successor!r}{hint}", path=q.path)
            elif status[successor] == "retired":
                yield Finding("/replaced_by", f"{successor!r} is retired too: name the question that replaces "
                                              "it now", path=q.path)
        for i, ref in enumerate(q.related):
            if status.get(ref) == "retired":
                yield Finding(f"/related/{i}", f"{ref!r} is retired and never exported: link the question that "
                                               "replaces it", path=q.path)
