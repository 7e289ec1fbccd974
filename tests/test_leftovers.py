"""F004's note search by form: on ASCII text each form of a note is searched for only where one
of its words is. It must find what the whole alternation finds, at the same place."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qlint.rules.leftovers import _NOTE, _NOTE_FORMS, _note

# Pieces of every form, and of near misses, in any case: the search must agree on all of them.
_PIECES = ["note to the editor", "Note for self", "reviewer's comment", "Author’s query", "ref needed",
           "needs citation", "this needs to be checked", "key needs re-checked", "check this", "(Verify the answer",
           "double check the facts", "check box", "to be added later", "(unverified)", "(To be confirmed)",
           "lorem ipsum", "insert image here", "Add a table here", "WIP:", "wip", "note", "need", "here", "later",
           "\n", " ", ". ", "(", "[", "the ", "editor ", "Check ", "figures ", "é", "K"]


@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join))
@settings(max_examples=1500, deadline=None)
def test_the_search_by_form_finds_what_the_whole_alternation_finds(text):
    whole, by_form = _NOTE.search(text), _note(text)
    assert (whole and (whole.span(), whole.group(0))) == (by_form and (by_form.span(), by_form.group(0)))


def test_every_form_is_gated_by_words_its_matches_hold():
    # each form's own example holds one of its gate words once lower-cased
    examples = ["note to the editor", "reviewer's comment", "ref needed", "this needs checked", "check this",
                "to be added later", "lorem ipsum", "wip:"]
    assert len(examples) == len(_NOTE_FORMS)
    for (words, _pattern), example in zip(_NOTE_FORMS, examples):
        assert any(w in example for w in words) and _note(example) is not None, example
