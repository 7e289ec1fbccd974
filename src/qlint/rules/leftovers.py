"""What the writing process left in learner-facing text: notes for an editor (F004) and marks that
give the answer away (F005). F002 owns the TODO and FIXME placeholders."""

from __future__ import annotations

import re
from typing import Iterator

from qlint.loading.positions import join_pointer
from qlint.model import ITEM_TYPES, Question
from qlint.prose.views import all_text, per_text, strings
from qlint.rules import Finding, rule
from qlint.rules.core import _is_placeholder

# Code is what a question tests: "== ???" in an exercise, "[check]" in a shell prompt.
_CODE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)|`[^`\n]*`", re.S)


def blank_code(text: str) -> str:
    """`text` with code spans and fenced blocks blanked (same length, so offsets stay)."""
    return _CODE.sub(lambda m: " " * len(m.group(0)), text) if "`" in text or "~~~" in text else text


# Markers written in capitals, as writers use them (F002 has TODO and FIXME): "TBD", "XXX:"; "???"
# standing alone ("= ???", not "What is it???"). Not TBC or TBA (tuberculosis in Spanish medicine,
# a trivia option), not "(?)" (the unknown of an aptitude puzzle), not "placeholder text" or "work in
# progress" in prose (lessons teach them).
_CAPS = re.compile(r"(?<![\w-])(?:TBD|XXX+(?=\s*[:\]]))(?![\w-])|(?<![\w?])\?{3,}")
# A bracketed comment that opens with an editor's word: "[check figures]", "[Reviewer: reword]";
# "[Note: ...]" and "[Source: ...]" may be for learners, a Markdown link "[text](url)" is not a comment.
_BRACKETED = re.compile(
    r"\[\s*(?:editor|reviewer|comment|query|check|verify|confirm|fix|rewrite|reword|sme|wip|todo|tbd|fixme|placeholder)\b[^\]\n]{0,120}\](?![(\[])",
    re.I,
)
_HINT_WORDS = ("note", "editor", "reviewer", "author", "translator", "need", "check", "verif", "confirm", "lorem",
               "insert", "add ", "put ", "wip", "tbd", "xxx", "???", "[")
_HINT = re.compile("|".join(map(re.escape, _HINT_WORDS)), re.I)


def _hinted(text: str) -> bool:
    """Whether `text` holds a word every note or marker above holds (`_HINT`): for ASCII text
    the same answer from lower() and `in`, six times faster than the case-blind alternation
    (which was the run's costliest regex: 2.3 s of 14 s CPU on 2,000 grown questions)."""
    if not text.isascii():  # case-blind matching beyond ASCII (the Kelvin sign is a `k`): the regex
        return _HINT.search(text) is not None
    low = text.lower()
    for w in _HINT_WORDS:  # a loop, not any(): no generator frame per word
        if w in low:
            return True
    return False


# A note's forms, each with words one of which every match holds (lower case): on ASCII text a
# form is searched for only where one of its words is (the whole case-blind alternation, searched
# at every position of every text, was F004's cost).
_NOTE_FORMS = (
    # a note addressed to someone in the writing process
    (("note",), r"\bnote (?:to|for) (?:the )?(?:editors?|self|reviewers?|authors?|writers?|sme|team|translators?|proof-?readers?)\b"),
    (("note", "comment", "query"), r"\b(?:editor|reviewer|author|translator)(?:'s|s'|’s)? (?:note|comment|query)\b"),
    # a claim waiting for its source or check
    (("needed", "citation"), r"\b(?:ref|reference|source|citation) needed\b|\bneeds? (?:a )?citation\b"),
    (("need",), r"\b(?:this|answer|key|figures?|numbers?|wording|claim|limit) needs? (?:to be )?(?:checked|verified|confirmed|re-?checked|reviewed)\b"),
    (("check ", "verify ", "confirm "),
     r"(?:^|[(\[]\s*)(?:check|verify|confirm|double-check|double check) (?:this|the (?:answer|key|wording|numbers?|figures?|source|facts?))\b(?! box)"),
    (("later", "(to be confirmed)", "(unverified)", "(unchecked)"),
     r"\bto be (?:confirmed|verified|checked|written|completed|added|updated) later\b|\((?:to be confirmed|unverified|unchecked)\)"),
    # unfilled template text
    (("lorem", "here"), r"\blorem ipsum\b|\b(?:insert|add|put) (?:the |an? )?(?:image|diagram|figure|picture|screenshot|table|chart|link|url|reference|explanation|answer|text|exhibit) here\b"),
    (("wip",), r"\bwip\b(?=\s*[:\])])"),
)
_NOTE = re.compile("|".join(pattern for _, pattern in _NOTE_FORMS), re.I | re.M)
_NOTE_PARTS = tuple((words, re.compile(pattern, re.I | re.M)) for words, pattern in _NOTE_FORMS)


def _note(body: str) -> re.Match[str] | None:
    """`_NOTE.search(body)`: the leftmost match, the earlier alternative where two start together."""
    if not body.isascii():
        return _NOTE.search(body)
    low = body.lower()
    first = None
    for words, pattern in _NOTE_PARTS:
        for w in words:  # a loop, not any(): no generator per form
            if w in low:
                break
        else:
            continue
        m = pattern.search(body)
        if m is not None and (first is None or m.start() < first.start()):
            first = m
    return first


@per_text
def editor_note(text: str) -> re.Match[str] | None:
    """The first editor's note or placeholder marker in prose (code left out)."""
    if not _hinted(text):
        return None
    body = blank_code(text)
    caps = _CAPS.search(body) if ("TBD" in body or "XXX" in body or "???" in body) else None
    bracketed = _BRACKETED.search(body) if "[" in body else None
    found = [m for m in (_note(body), caps, bracketed) if m]
    return min(found, key=lambda m: m.start()) if found else None


@rule("F004", "editor-note", "error", types=ITEM_TYPES, cases=True,
      source="Team standard: text under review must not reach learners; Haladyna, Downing & Rodriguez (2002) "
             "H8 (edit and proof items): a note to the editor is an unfinished edit")
def editor_note_left(q: Question, ctx) -> Iterator[Finding]:
    """Learner-facing text holds a note for an editor or a placeholder marker.

    ## What it does
    Reports every text value (stem, options, rationales, explanation, trap, references...) that,
    outside code, holds a note addressed to the writing process ("[Note to editor: ...]",
    "reviewer's comment", "ref needed", "needs to be checked", "check the numbers"), a
    bracketed comment opening with an editor's word ("[check figures]", "[Reviewer: reword]"),
    unfilled template text ("lorem ipsum", "insert image here", "[placeholder]") or a marker
    writers use for later: TBD, "XXX:", a "???" standing alone. TODO and FIXME are F002's. Code
    spans and fenced blocks are left out: "== ???" in an exercise is the blank to fill. Not
    reported: TBC and TBA (tuberculosis in Spanish clinical text, a trivia option), "(?)" (the
    unknown of an aptitude puzzle), "placeholder text" and "work in progress" in prose.

    ## Why it matters
    The note was meant for a colleague, not a candidate: it shows the item is unfinished, often
    says what is doubtful about it, and sometimes gives the answer away.

    ## Example
    ```yaml
    stem: Which service stores objects? [Note to editor: check the 5 TB limit.]
    ```

    ## Fix
    Do what the note asks, then delete it. For a marker that belongs in the text (a question about
    "TBD" fields), suppress the finding on that line with `# qlint: disable-line F004 -- reason`.
    """
    if not _hinted(all_text(q)):
        return
    for path, text in strings(q):
        found = editor_note(text)
        if found and not (path[-1] in ("rationale", "trap") and _is_placeholder(text)):  # K001's, K003's
            where = "/".join(str(p) for p in path)
            yield Finding(join_pointer(path), f"{where!r} holds a note or placeholder for the writers "
                                              f"({found.group(0).strip()!r}): resolve it and delete it", offset=found.start())


# ---------------------------------------------------------------------------------------------
# answer marks

_WORD = r"(?:correct|right|answer|correct answer|right answer|the answer|true answer|key|ans)"
# In an option's text: "(correct)", "[answer]", "<-- answer", "**correct**", a check mark.
_OPTION_MARK = re.compile(
    rf"[(\[]\s*{_WORD}\s*!?\s*[)\]]|<-+\s*{_WORD}\b|\*{{1,2}}\s*{_WORD}\s*\*{{1,2}}|[✓✔☑✅]",
    re.I,
)
# In the stem or an option: "Answer: B", "Correct answer is C", "Ans: 2" (a letter in capitals; a
# number only after a colon: "the answer is 9" is the result of a word problem's arithmetic).
_ANSWER_LINE = re.compile(r"\b(?:[Cc]orrect [Aa]nswer|[Aa]nswer|ANSWER|[Aa]ns|[Rr]espuesta|[Aa]ntwort|[Rr]éponse|[Rr]isposta|[Rr]esposta)"
                          r"(?:\s*(?:is|=|-|–)\s*\(?[A-J]|\s*:\s*\(?(?:[A-J]|[1-9]))\b\)?(?![\w'.,]\w)")
_MARK_HINT = re.compile(r"correct|right|answer|key|ans|respuesta|antwort|réponse|risposta|resposta|[✓✔☑✅]", re.I)
_MARK_WORDS = ("correct", "right", "key", "ans", "respuesta", "antwort", "risposta", "resposta")  # of ASCII text, as `in`


@per_text
def answer_mark(text: str, in_option: bool) -> re.Match[str] | None:
    if not (_MARK_HINT.search(text) if not text.isascii() else any(w in text.lower() for w in _MARK_WORDS)):
        return None
    body = blank_code(text)
    found = [m for m in ((_OPTION_MARK.search(body) if in_option else None), _ANSWER_LINE.search(body)) if m]
    if not found:
        return None
    first = min(found, key=lambda m: m.start())
    if in_option and first.group(0).strip("()[]*! ").lower() == text.strip().strip("()[]*! .").lower():
        return None  # the whole option is the word: an option "Correct" is content (code counts as text here)
    return first


@rule("F005", "answer-mark", "error",
      source="Haladyna, Downing & Rodriguez (2002) H28 (avoid clues to the right answer); NBME item-writing guide "
             "(Paniagua & Swygert 2016): cues that let testwise candidates answer without the knowledge tested")
def answer_mark_left(q: Question, ctx) -> Iterator[Finding]:
    """The stem or an option's text marks the answer.

    ## What it does
    Reports an option whose text carries a mark a writer used to flag the key ("(correct)",
    "[answer]", "<-- answer", "**correct**", a check mark) and a stem or option text that states
    the answer ("Answer: B", "Correct answer is C", "Respuesta: 2"). The explanation and the
    rationales may say which option is right; the text every candidate reads before answering may
    not. Code is left out, and an option that is only the word ("Correct") is content.

    ## Why it matters
    Every candidate sees the answer: the item measures nothing, and a mark on a distractor also
    contradicts the key.

    ## Example
    ```yaml
    - id: s3
      text: Amazon S3 (correct)
      correct: true
    ```

    ## Fix
    Delete the mark; the key is `correct: true`.
    """
    hit = answer_mark(q.stem, False)
    if hit:
        yield Finding("/stem", f"the stem states the answer ({hit.group(0).strip(' ()')!r}): delete it", offset=hit.start())
    for o in q.options:
        hit = answer_mark(o.text, True)
        if hit:
            whose = "the key" if o.correct else "a distractor"
            yield Finding(f"{o.pointer}/text", f"the text of option {o.id!r} ({whose}) carries the answer mark "
                                               f"{hit.group(0).strip()!r}: delete it", offset=hit.start())
