"""Case studies across the bank: a case and its questions must name each other.

A case file (bank/<exam>/cases/<id>.yaml) lists its questions in `items`; each of them says
`case: <id>`. Both sides are checked, so a renamed question or case is caught from either file.
"""

from __future__ import annotations

import difflib
from typing import Iterator

from qlint.bank import Bank
from qlint.bank.entry import BankEntry, CaseEntry
from qlint.paths import display_path
from qlint.rules import Finding, rule
from qlint.text import id_key

_SOURCE = "Exam format (AWS exam guides: a case study has one scenario and two or more questions); bank integrity"


class _Names:
    """Known ids for "did you mean" hints, each dangling name looked up once: difflib against every
    id of a 10k bank, for each of hundreds of files naming the same missing case, took most of a
    lint."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.hints: dict[str, str] = {}

    def hint(self, name: str) -> str:
        if name not in self.hints:
            close = difflib.get_close_matches(name, self.names, n=1, cutoff=0.8)
            self.hints[name] = f"; did you mean {close[0]!r}?" if close else ""
        return self.hints[name]


def _cases_by_id(bank: Bank) -> dict[str, CaseEntry]:
    """Case id -> the first case file (path order) that has it (B001 reports the others)."""
    out: dict[str, CaseEntry] = {}
    for c in bank.cases:
        out.setdefault(c.id, c)
    return out


def _questions_by_id(bank: Bank) -> dict[str, BankEntry]:
    out: dict[str, BankEntry] = {}
    for e in bank.entries:
        out.setdefault(e.id, e)
    return out


@rule("B009", "case-too-few-items", "error", scope="bank", source=_SOURCE)
def case_too_few_items(bank: Bank, ctx) -> Iterator[Finding]:
    """A case study lists fewer than two questions.

    ## What it does
    Reports a case file (`bank/<exam>/cases/<id>.yaml`) whose `items` names fewer than two
    questions.

    ## Why it matters
    The exam's case study is one scenario with two or more questions, each scored separately; a
    scenario with one question is a long stem, and exports would build a shared passage for it.

    ## Example
    ```yaml
    id: mla-c01-case-churn
    items: [mla-c01-case-churn-metric]
    ```

    ## Fix
    Write a second question on the scenario and list it, or fold the scenario into the one
    question's stem and delete the case file.
    """
    for c, target in zip(bank.cases, bank.case_target_flags()):
        if target and len(c.items) < 2:
            yield Finding("/items", f"case {c.id!r} lists {len(c.items)} question{'s' if len(c.items) != 1 else ''}; "
                                    "a case study has two or more", path=c.path)


@rule("B010", "case-item-unresolved", "error", scope="bank", source=_SOURCE)
def case_item_unresolved(bank: Bank, ctx) -> Iterator[Finding]:
    """A case study lists a question that does not exist or does not belong to it.

    ## What it does
    Checks every id in a case's `items` against the bank's questions: reports an id no question
    has (naming the closest id), and a question that does not say `case: <this case's id>`
    (it names another case, or none).

    ## Why it matters
    Exports build each case from its items: a dangling id drops a question from the scenario, and
    a question that does not name the case is exported twice, once alone without its scenario.

    ## Example
    ```yaml
    id: mla-c01-case-churn
    items: [mla-c01-case-churn-metric, mla-c01-case-churn-retrain]
    ```
    while `mla-c01-case-churn-retrain.yaml` has no `case:` line.

    ## Fix
    Correct the id, or add `case: mla-c01-case-churn` to the question.
    """
    questions = _questions_by_id(bank)
    names = _Names(list(questions))
    for c, target in zip(bank.cases, bank.case_target_flags()):
        if not target:
            continue
        for i, qid in enumerate(c.items):
            q = questions.get(qid)
            if q is None:
                yield Finding(f"/items/{i}", f"no question has the id {qid!r}{names.hint(qid)}", path=c.path)
            elif q.case != c.id:
                says = f"says 'case: {q.case}'" if q.case else "names no case"
                yield Finding(f"/items/{i}", f"question {qid!r} {says}; add 'case: {c.id}' to it or remove it from items",
                              path=c.path)


@rule("B011", "unknown-case", "error", scope="bank", source=_SOURCE)
def unknown_case(bank: Bank, ctx) -> Iterator[Finding]:
    """A question names a case study that does not exist or does not list it.

    ## What it does
    Checks each question's `case` against the bank's case files: reports a case id no case file
    has (naming the closest), a case whose `items` do not list the question, and a case of
    another exam than the question's.

    ## Why it matters
    A question that claims a scenario it is not shown with is unanswerable: its stem says "the
    company" and the learner never reads which.

    ## Example
    ```yaml
    id: mla-c01-case-churn-metric
    case: mla-c01-case-chrun
    ```

    ## Fix
    Correct the case id, and list the question in the case's `items`.
    """
    cases = _cases_by_id(bank)
    names = _Names(list(cases))
    for q, target in zip(bank.entries, bank.target_flags()):
        if not target or not q.case:
            continue
        c = cases.get(q.case)
        if c is None:
            yield Finding("/case", f"no case study has the id {q.case!r}{names.hint(q.case)}", path=q.path)
        elif q.id not in c.items:
            yield Finding("/case", f"case {c.id!r} does not list this question in its items", path=q.path)
        elif c.exam != q.exam:
            yield Finding("/case", f"case {c.id!r} is for {c.exam}, this question for {q.exam}", path=q.path)


def duplicate_case_ids(bank: Bank) -> Iterator[Finding]:
    """Case files that share an id (B001 reports them with the questions' ids)."""
    groups: dict[str, list[CaseEntry]] = {}
    for c in bank.cases:
        groups.setdefault(id_key(c.id), []).append(c)
    flags = dict(zip((c.path for c in bank.cases), bank.case_target_flags()))
    for group in groups.values():
        for c in group if len(group) > 1 else ():
            if flags[c.path]:
                others = ", ".join(display_path(o.path) for o in group if o is not c)
                yield Finding("/id", f"case id {c.id!r} is also used by {others}", path=c.path)
