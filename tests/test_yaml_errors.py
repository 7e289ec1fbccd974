"""YAML mistakes explained like a compiler would (issue 17 point 5): the line the author got wrong
(not the one where the parser gave up), a hint in plain words, and with --show-source the source
line with a caret under the slip."""

from __future__ import annotations

import re

import pytest

from qlint.lint.engine import load_document
from qlint.loading.errors import LoadError
from qlint.cli.config import load_config

from kit.authoring import run
from conftest import BANK, REPO

SAMPLE = BANK / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml"
LINES = SAMPLE.read_text(encoding="utf-8").split("\n")


def _with(line: int, new: str) -> str:
    lines = list(LINES)
    lines[line - 1] = new
    return "\n".join(lines)


def _error(text: str) -> LoadError:
    with pytest.raises(LoadError) as info:
        load_document("q.yaml", load_config(REPO), text)
    assert info.value.code == "Y001"
    return info.value


def _numbered(prefix: str) -> int:
    return next(i for i, ln in enumerate(LINES, 1) if ln.startswith(prefix))


def test_a_block_line_indented_too_little_is_reported_where_it_happened():
    line = _numbered("      so per-GPU memory")  # the second line of the first rationale (indented 6)
    err = _error(_with(line, LINES[line - 1][2:]))  # 4 spaces: the block ends there
    assert (err.line, err.col) == (line, 5), err.message  # today: two lines later, at the next key
    assert err.message.startswith("bad indentation: this line is indented 4 spaces, less than the text of "
                                  "'rationale' above it (6), so it ends the block: indent it 6 spaces"), err.message
    assert f"the parser stopped at {line + 1}:5: could not find expected ':'" in err.message


def test_a_key_indented_one_space_too_far_names_its_siblings():
    line = _numbered("    correct: false")
    err = _error(_with(line, " " + LINES[line - 1]))
    assert (err.line, err.col) == (line, 6)
    assert err.message.startswith("bad indentation: this key is indented 5 spaces; its siblings use 4"), err.message


def test_a_stem_line_at_the_margin_is_reported_at_that_line():
    line = _numbered("  The weights alone")
    err = _error(_with(line, LINES[line - 1].lstrip()))
    assert err.line == line, err.message  # today: five lines later, at `trap:`
    assert "less than the text of 'stem' above it (2)" in err.message


def test_every_block_line_slip_in_the_sample_bank_is_placed_at_its_line():
    """Each line after the first of every block scalar in the sample bank, moved back to its key's
    indentation, is reported at that very line."""
    config = load_config(REPO)
    tried = 0
    for path in sorted(BANK.glob("mla-c01/*/*.yaml")):
        lines = path.read_text(encoding="utf-8").split("\n")
        for i, ln in enumerate(lines):
            header = re.match(r"^( *)(?:- )?[a-z_]+: [|>]-?$", lines[i - 1]) if i else None
            if not header or not (i + 1 < len(lines) and lines[i + 1].strip()):
                continue
            key = len(lines[i - 1]) - len(lines[i - 1].lstrip(" ").lstrip("- "))
            second = i + 1  # the block's second line: the first sets its indentation
            if not re.match(r"^[A-Za-z(]", lines[second].strip()) or ": " in lines[second]:
                continue  # a line that would read as a key is valid YAML there, not a slip
            broken = lines[:second] + [" " * key + lines[second].strip()] + lines[second + 1:]
            try:
                load_document(str(path), config, "\n".join(broken))
            except LoadError as err:
                assert err.line == second + 1, (path.name, second + 1, err.line, err.message)
                assert "bad indentation" in err.message
                tried += 1
    assert tried >= 40


def test_show_source_prints_the_line_and_a_caret(tmp_path, capsys, in_repo):
    line = _numbered("      so per-GPU memory")
    path = tmp_path / "slip.yaml"
    path.write_text(_with(line, LINES[line - 1][2:]), encoding="utf-8")
    code, out, err = run(capsys, "check", "--no-cache", "--show-source", str(path))
    assert code == 2, out + err
    shown = out.splitlines()
    at = next(i for i, ln in enumerate(shown) if " Y001 bad indentation:" in ln)
    assert shown[at].startswith(f"{path}:{line}:5: ")
    assert shown[at + 1] == f"  {line:>4} |     so per-GPU memory does not shrink and the constraint remains."
    assert shown[at + 2] == "       |     ^"


@pytest.mark.parametrize("command", [("format", "--check"), ("format",), ("check", "--no-cache")])
def test_every_command_explains_the_slip_the_same_way(tmp_path, capsys, in_repo, command):
    """format reads files through the same explanation as check (before: format printed the bare
    parser message at the line where it gave up), and leaves the file untouched."""
    line = _numbered("      so per-GPU memory")
    path = tmp_path / "slip.yaml"
    text = _with(line, LINES[line - 1][2:])
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, *command, str(path))
    assert code == 2, out + err
    found = [ln for ln in (out + err).splitlines() if " Y001 " in ln]
    assert len(found) == 1 and found[0].startswith(f"{path}:{line}:5: Y001 bad indentation: this line is indented 4 spaces")
    assert path.read_text(encoding="utf-8") == text


# The first mistakes of a new author (issue 28 point 8): plain advice before the parser's words,
# at the place the author got wrong. Positions for more shapes: tests/cases/Y001.yaml.
FIRST_MISTAKES = [
    # (line prefix, its replacement, expected (line offset from it, col), words the message holds)
    ("    text: Data parallelism", '    text: "Data parallelism', (0, 11),
     ['unclosed quote: the double quote (") that opens this text is not closed on this line',
      "up to the end of the file", "close the quote", "the parser stopped at "]),
    ("    text: Data parallelism", "    text: 'Data parallelism", (0, 11),
     ["unclosed quote: the single quote (')", "close the quote"]),
    ("    text: Data parallelism", "    text: Data parallelism: split the batch", (0, 27),
     ["the text of 'text' contains ': '", "quote this text", "the parser stopped here: mapping values are not allowed here"]),
    ("    correct: false", "\tcorrect: false", (0, 1),
     ["indented with a tab", "indent with spaces", "found character '\\t' that cannot start any token"]),
    ("    text: Data parallelism", "    text: Data parallelism:", (0, 27),
     ["the text of 'text' contains a ':' at the end of the line", "quote this text"]),
    ("    text: Data parallelism", '    text: "Data" parallelism', (0, 11),
     ["the text of 'text' starts with a quote, so it ends at the closing quote", "quote the whole text",
      "the parser stopped at "]),
]


@pytest.mark.parametrize("prefix, new, at, words", FIRST_MISTAKES, ids=["double-quote", "single-quote", "colon", "tab", "colon-at-end", "text-after-quote"])
def test_a_first_mistake_gets_plain_advice_where_it_was_made(prefix, new, at, words):
    line = _numbered(prefix)
    err = _error(_with(line, new))
    assert (err.line, err.col) == (line + at[0], at[1]), err.message
    for word in words:
        assert word in err.message, err.message


def test_a_quoted_text_over_several_lines_is_not_taken_for_an_unclosed_quote():
    """A quote that closes lines later, its lines indented under the key, is valid YAML; an error
    after it stays where the parser found it."""
    line = _numbered("    text: Data parallelism")
    text = _with(line, '    text: "Data\n      parallelism"')
    slip = _numbered("    correct: false") + 1
    lines = text.split("\n")
    lines[slip - 1] = " " + lines[slip - 1]
    err = _error("\n".join(lines))
    assert "unclosed quote" not in err.message and err.line == slip, err.message
