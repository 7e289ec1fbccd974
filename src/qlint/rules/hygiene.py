"""Text hygiene: mechanical problems with a mechanical fix."""

from __future__ import annotations

import re
from typing import Any, Iterator

from qlint.prose.views import all_text, strings
from qlint.diagnostic import Edit, Fix
from qlint.loading.positions import join_pointer
from qlint.model import ITEM_TYPES, Question
from qlint.rules import Finding, rule
from qlint.text import HIDDEN, PLACEHOLDER_MARKER, has_marker, hidden_name, is_bidi, skeleton

_HARD_BREAK = re.compile(r"\S {2,}$")  # Markdown renders two trailing spaces as a line break


@rule("F001", "trailing-whitespace", "warning", types=ITEM_TYPES, cases=True, fixable=True,
      source="Team standard; CommonMark 0.31 §6.7 (hard line breaks)")
def trailing_whitespace(q: Question, ctx) -> Iterator[Finding]:
    """Text with spaces or tabs at the end of a line.

    ## What it does
    Reports every text value (stem, trap, options, explanation, references...) in which a line ends
    with spaces or tabs, including the last line of a quoted string (`"Data parallelism "`).

    ## Why it matters
    Invisible characters make diffs noisy, break exact-match checks (duplicate options, keyed text
    in imports) and keep `qlint format` from writing the text as a block scalar.

    ## Example
    ```yaml
    text: "Model parallelism "
    ```

    ## Fix
    Delete the trailing spaces. `qlint check --fix` does so; when a line ends with two or more
    spaces before another line (a Markdown hard line break) the fix changes the rendering, so it
    needs `--unsafe-fixes` (write a backslash at the end of the line for a visible hard break).
    """
    joined = all_text(q)  # a string ending in a space or tab shows as " \n" here too
    if " \n" not in joined and "\t\n" not in joined and not joined.endswith((" ", "\t")):
        return
    for path, text in strings(q):
        if " \n" not in text and "\t\n" not in text and not text.endswith((" ", "\t")):
            continue  # no line ends in a space or tab: the common case, decided without splitting
        lines = text.split("\n")
        bad = [i for i, ln in enumerate(lines) if ln != ln.rstrip(" \t")]
        if not bad:
            continue
        fixed = "\n".join(ln.rstrip(" \t") for ln in lines)
        hard = any(_HARD_BREAK.search(lines[i]) and i + 1 < len(lines) and lines[i + 1].strip() for i in bad)
        where = "/".join(str(p) for p in path)
        fix = Fix(f"strip trailing whitespace in {where}", (Edit(join_pointer(path), fixed),), safe=not hard)
        lines_txt = ", ".join(str(i + 1) for i in bad[:5]) + ("..." if len(bad) > 5 else "")
        first = sum(len(ln) + 1 for ln in lines[:bad[0]]) + len(lines[bad[0]].rstrip(" \t"))
        yield Finding(join_pointer(path), f"trailing whitespace in {where!r} (text line{'s' if len(bad) > 1 else ''} {lines_txt})"
                      + ("; a Markdown hard break would be lost" if hard else ""), fix=fix,
                      offset=first)  # at the first trailing space, not the start of the value


_MARKER = PLACEHOLDER_MARKER


@rule("F002", "unfinished-text", "error", types=ITEM_TYPES, cases=True,
      source="Team standard: placeholders written by `qlint new` and `qlint import` must not be published")
def unfinished_text(q: Question, ctx) -> Iterator[Finding]:
    """Text that still holds a TODO or FIXME marker.

    ## What it does
    Reports every text value (stem, trap, options, rationales, explanation, references...) that
    contains the word `TODO` or `FIXME` in capitals. `qlint new` writes such placeholders for every
    field the author must fill, and `qlint import` writes one where the source lacks a required
    field (a stem, an option's text, the explanation), so the file stays schema-valid.

    ## Why it matters
    A schema-valid placeholder passes every structural check; without this rule a question whose
    explanation reads "TODO: the source has no explanation." could be exported to candidates.

    ## Example
    ```yaml
    explanation: "TODO: the source has no explanation."
    ```

    ## Fix
    Write the real text. For a marker that belongs in the text (a question about TODO comments),
    suppress the finding on that line with `# qlint: disable-line F002 -- reason`.
    """
    # look-alike letters and invisible characters cannot hide a marker ("ТODO" with a Cyrillic
    # Т, "TO\u200bDO"): the search runs on the skeleton, which is the text itself for ASCII
    if not has_marker(skeleton(all_text(q))):
        return  # no marker anywhere: the common case, decided with one search
    for path, text in strings(q):
        found = _MARKER.search(skeleton(text))
        if found:
            where = "/".join(str(p) for p in path)
            disguised = "" if text.isascii() else " (written with look-alike or invisible characters)"
            yield Finding(join_pointer(path), f"{where!r} still holds the placeholder marker {found.group(0)!r}{disguised}: write the real text")


_JOINERS = ("\u200c", "\u200d")  # shape Arabic, Indic and emoji sequences: removing them can change the text


@rule("F003", "hidden-characters", "error", types=ITEM_TYPES, cases=True, fixable=True,
      source="Unicode TR36 (security), TR9 (bidi controls); Boucher & Anderson (2021), \"Trojan Source\" (CVE-2021-42574)")
def hidden_characters(q: Question, ctx) -> Iterator[Finding]:
    """Text holds a bidi control or an invisible character.

    ## What it does
    Reports, at the character itself, every text value or key that holds a bidirectional control
    (U+202A-U+202E embeddings and overrides, U+2066-U+2069 isolates, U+200E/U+200F/U+061C marks)
    or a character that draws nothing: zero-width space and joiners (U+200B-U+200D), word joiner
    and invisible operators (U+2060-U+2064), U+FEFF inside text, soft hyphen (U+00AD), U+180E,
    Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), tag characters (U+E0000-U+E007F) and the
    other invisible format characters. Exam definitions are checked too.

    ## Why it matters
    What the reviewer reads is not what the file says: a right-to-left override shows a text in
    another order than it is stored ("Trojan Source"), and a zero-width character splits a word
    so that exact comparisons miss it — "TO\u200bDO" hides a placeholder, "Amazon\u200bS3" a
    duplicate option. Learners see the same hidden text in every export.

    ## Example
    ```yaml
    explanation: "TO\u200bDO: write the explanation."
    ```

    ## Fix
    Delete the character. `qlint check --fix` removes them all from the value; when the value
    holds a zero-width joiner or non-joiner (which shape some scripts and emoji) the fix needs
    `--unsafe-fixes`.
    """
    if all_text(q).isascii():
        return  # the common case: no string holds anything but ASCII (question keys are schema-fixed)
    yield from hidden_in(q.data)


def hidden_in(data: Any) -> Iterator[Finding]:
    """F003's findings on any loaded document (a question or an exam definition): values and keys."""
    out: list[tuple[list[Any], str, bool]] = []
    _texts_and_keys(data, [], out)
    for path, text, at_key in out:
        if text.isascii():
            continue
        first = HIDDEN.search(text)
        if not first:
            continue
        ch = first.group(0)
        count = len(HIDDEN.findall(text))
        more = f" (and {count - 1} more hidden character{'s' if count > 2 else ''})" if count > 1 else ""
        kind = "a bidi control that reorders how the text is shown" if is_bidi(ch) else "an invisible character"
        where = "/".join(str(p) for p in path)
        pointer = join_pointer(path)
        if at_key:
            yield Finding(pointer, f"key {where!r} holds {hidden_name(ch)}, {kind}{more}: delete it",
                          at_key=True, offset=first.start())
            continue
        safe = not any(j in text for j in _JOINERS)
        fix = Fix(f"remove hidden characters from {where}", (Edit(pointer, HIDDEN.sub("", text)),), safe=safe)
        yield Finding(pointer, f"{where!r} holds {hidden_name(ch)}, {kind}{more}: delete it", fix=fix,
                      offset=first.start())


def _texts_and_keys(value: Any, path: list[Any], out: list[tuple[list[Any], str, bool]]) -> None:
    if isinstance(value, str):
        out.append((path, value, False))
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str):
                out.append((path + [k], k, True))
            _texts_and_keys(v, path + [k], out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _texts_and_keys(v, path + [i], out)
