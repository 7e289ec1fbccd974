"""Codes the import, export, shuffle and file-rewriting pipelines report (scope "command"), declared here so
`qlint rule`, docs/rules.md, configuration and every reporter know them. They judge no question
text, so the precision policy on real questions does not apply (`Rule.reads_text`)."""

from __future__ import annotations

from qlint.rules import declare

declare("E001", "export-refused", "error", """A question the export target cannot carry.

## What it does
`qlint export` reports the question (at its file, line and column) that the target refused:
a character XML forbids, an image that leaves the bank or is unsafe, options no learner could
answer (a shared id, an empty option, the same text twice). Nothing is written.

## Why it matters
These checks run even with `--force` or with the lint rules ignored: a package a platform
rejects, or a question that cannot be answered, must not reach learners.

## Example
```yaml
stem: "Which service \\u0007stores objects?"   # U+0007 is not allowed in XML
```

## Fix
Edit the place named; `qlint check` reports the same problem under its own rule (S004-S007, O006).""",
        scope="command")

declare("E002", "export-not-written", "error", """The export's output could not be written.

## What it does
Reports why `qlint export --output PATH` could not write PATH: a folder in the way of a file,
no permission, a full disk. Nothing half-written is left behind.

## Why it matters
The questions are fine; the place is not. Exit code 2 tells a CI job the export did not happen.

## Example
```yaml
# qlint export --format qti21 --output /read-only/bank.zip bank
```

## Fix
Choose a writable output path, or remove what is in the way.""", scope="command")

declare("E003", "export-warning", "warning", """Something the export target drops or cannot show.

## What it does
Reports what an exporter wrote a warning about: content a format cannot represent (it is left
out), or files in an output folder this export did not write (its manifest ignores them).

## Why it matters
The export succeeded, but learners will not see exactly what the bank holds.

## Example
```yaml
# qlint export --format qti21 --no-zip --output out/qti bank   # out/qti holds an old file
```

## Fix
Export to an empty folder, or change the question so the target can carry all of it.""",
        scope="command")

declare("I001", "import-unmapped", "warning", """Source content `qlint import` could not map.

## What it does
Reports each part of the source (at its line, and the file inside a package) that has no place
in qlint's format. The text is also kept in a YAML comment in the question written, so nothing
is dropped in silence. Exit code 1.

## Why it matters
An import is only as good as what it kept; an author must look at what it could not keep.

## Example
```yaml
# GIFT: ::Q1:: Which service? {=S3 ~EBS ~EFS} with a numeric answer range qlint has no field for
```

## Fix
Edit the imported question by hand to carry what the comment holds, then delete the comment.""",
        scope="command")

declare("I002", "import-unreadable", "error", """A source `qlint import` cannot read at all.

## What it does
Reports a source file that cannot be read (missing, no permission, not UTF-8, too large), a
folder that cannot be listed, or a file that is not the format given with `--from`.

## Why it matters
Nothing is imported from it; exit code 2 when nothing was imported at all.

## Example
```yaml
# qlint import --from gift quiz.xml   # a Moodle XML file read as GIFT
```

## Fix
Pass the right `--from` format, or fix the file's encoding or permissions.""", scope="command")

declare("I003", "import-not-written", "error", """An imported question or image that was not written.

## What it does
Reports a question whose target file exists (without `--force`), two questions that would
share one file, an image path that would leave the bank, or a question that could not be
written as valid qlint YAML.

## Why it matters
An import never overwrites an author's file unless asked, and never writes outside the bank.

## Example
```yaml
# qlint import --from gift quiz.gift   # run twice: the second run finds its own files
```

## Fix
Use `--force` to overwrite, or import into another `--output` folder.""", scope="command")

declare("A001", "not-shuffled", "error", """A question `qlint shuffle` could not reorder.

## What it does
Reports a question whose options could not be reordered safely in its YAML layout (the edit
would change more than the order); the file is left as it is.

## Why it matters
The key balance `qlint shuffle` prints counts that question where it is.

## Example
```yaml
options: [{id: a, text: S3, correct: true}, {id: b, text: EBS}]   # a flow sequence
```

## Fix
Run `qlint format` on the file (block style), then shuffle again.""", scope="command")


declare("A002", "changed-while-writing", "error", """A file edited on disk while qlint was rewriting it.

## What it does
`qlint format`, `qlint shuffle`, `qlint check --fix` and `qlint import` write a batch of files all
or nothing. When a file changes on disk between qlint reading it and replacing it (an editor
saved it, a checkout ran), qlint keeps the author's bytes, puts the batch's other files back and
reports each edited file with this code (or that a file could not be put back); exit 2.

## Why it matters
Writing over an edit made a moment earlier would lose the author's work without a trace.

## Example
```text
bank/q.yaml:1:1: A002 changed on disk while qlint was writing it; kept as you left it
```

## Fix
Run the command again once the edit is saved.""", scope="command")

declare("A003", "not-written", "error", """A batch of rewritten files that could not be written.

## What it does
Reports the file that stopped a rewrite batch (a symbolic link leading out of the project, two
paths to one file with different results, a permission or disk error); nothing in the batch is
written and the command exits 2.

## Why it matters
A half-written batch leaves a bank in a state nobody asked for.

## Example
```text
bank/q.yaml:1:1: A003 symbolic link leads outside the project; nothing was written (3 files left as they were)
```

## Fix
Replace the link with the file, fix the permission or free space, and run the command again.""", scope="command")

declare("A004", "not-formatted", "error", """A file `qlint format` cannot lay out safely.

## What it does
Reports a file that parses but that the formatter cannot rewrite without changing a value (the
message says what and where); the file is left as it is and the command exits 2.

## Why it matters
A formatter must never change what a question says.

## Example
```text
bank/q.yaml:3:5: A004 cannot format: a tag the formatter does not keep
```

## Fix
Edit the named place by hand into plain YAML, then format again.""", scope="command")


declare("A005", "not-signed", "error", """A file `qlint review sign` or `qlint review live` did not write.

## What it does
Reports a question the command refused (the reviewer is its author, it is not published, a live
question whose meaning changed, a `reviews:` list written in flow style) or could not edit
safely; nothing of the batch is written and the command exits 2.

## Why it matters
A sign-off binds a reviewer to a text: it must never be written for the wrong person, nor freeze
a text that already moved.

## Example
```text
bank/q.yaml:1:1: A005 not signed: ana is the question's author; a sign-off needs another reviewer
```

## Fix
Do what the message says (another reviewer, restore the live text, or write `reviews:` as a block
list), then run the command again.""", scope="command")
