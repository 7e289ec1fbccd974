"""Text hygiene: mechanical problems with a mechanical fix."""

from __future__ import annotations

import re
from typing import Iterator

from qlint.analysis import all_text, strings
from qlint.diagnostic import Edit, Fix
from qlint.loading.positions import join_pointer
from qlint.model import Question
from qlint.rules import Finding, rule

_HARD_BREAK = re.compile(r"\S {2,}$")  # Markdown renders two trailing spaces as a line break


@rule("F001", "trailing-whitespace", "warning", fixable=True,
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
        yield Finding(join_pointer(path), f"trailing whitespace in {where!r} (text line{'s' if len(bad) > 1 else ''} {lines_txt})"
                      + ("; a Markdown hard break would be lost" if hard else ""), fix=fix)


_MARKER = re.compile(r"\b(?:TODO|FIXME)\b")  # upper case: "a to-do list" in prose is not a marker


@rule("F002", "unfinished-text", "error",
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
    if not _MARKER.search(all_text(q)):
        return  # no marker anywhere: the common case, decided with one search
    for path, text in strings(q):
        found = _MARKER.search(text)
        if found:
            where = "/".join(str(p) for p in path)
            yield Finding(join_pointer(path), f"{where!r} still holds the placeholder marker {found.group(0)!r}: write the real text")
