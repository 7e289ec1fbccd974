"""Rules the loader emits: a file that cannot be read as one question (Y: exit 2) or that breaks
the schema or the exam blueprint (S: a finding). Declared here so docs, config and SARIF know them."""

from __future__ import annotations

from qlint.rules import declare

_YAML_SOURCE = "YAML 1.2.2 specification"

declare("Y001", "yaml-syntax", "error", """A file that is not valid YAML.

## What it does
Reports the first YAML syntax error, at the line and column where the parser stopped.

## Why it matters
Nothing else can be checked, exported or formatted until the file parses.

## Example
```yaml
stem: "Which service
options: [
```

## Fix
Close the quote or bracket the message names; check indentation (spaces, not tabs).""", source=_YAML_SOURCE)

declare("Y002", "duplicate-key", "error", """A mapping that repeats a key.

## What it does
Reports the second occurrence of a key in the same mapping and names the line of the first.

## Why it matters
YAML requires unique keys; parsers disagree on which value wins, so the file is ambiguous.

## Example
```yaml
correct: false
correct: true
```

## Fix
Delete one of the two entries.""", source=_YAML_SOURCE)

declare("Y003", "undecodable-text", "error", """A file that is not UTF-8 text.

## What it does
Reports invalid UTF-8 bytes, UTF-16 files and NUL bytes at the offending byte's position.
A UTF-8 byte order mark and CRLF line endings are accepted.

## Why it matters
Question files are text that every tool in the chain must read the same way.

## Example
A file saved as Latin-1 with `caf\\xe9` in its stem.

## Fix
Save the file as UTF-8.""")

declare("Y004", "empty-file", "error", """A file with no YAML content.

## What it does
Reports files that are empty or hold only comments.

## Why it matters
An empty question file is usually an accident that would silently shrink the bank.

## Example
A zero-byte `bank/mla-c01/data-preparation/new.yaml`.

## Fix
Fill it in (`qlint new` scaffolds one) or delete it.""")

declare("Y005", "not-a-mapping", "error", """A document whose root is not a mapping.

## What it does
Reports files whose top level is a list or a scalar.

## Why it matters
A question is a mapping of fields; anything else cannot be a question.

## Example
```yaml
- id: q1
```

## Fix
Remove the leading `- ` so the fields form a mapping.""")

declare("Y006", "multiple-documents", "error", """A file holding more than one YAML document.

## What it does
Reports the start of the second document (`---`).

## Why it matters
One file holds one question, so ids, diffs and reviews stay one-to-one.

## Example
```yaml
id: q1
---
id: q2
```

## Fix
Move each document into its own file.""")

declare("Y007", "unsupported-tag", "error", """A YAML tag qlint does not read.

## What it does
Reports local and language tags (`!include`, `!!python/object`) and complex keys. qlint never
constructs tagged objects, so no tag can run code.

## Why it matters
Question files are data; tags make them depend on one loader's behaviour, or worse, execute code.

## Example
```yaml
stem: !include stem.md
```

## Fix
Write the value inline as plain YAML.""")

declare("Y008", "merge-key", "error", """A YAML merge key (`<<`).

## What it does
Reports `<<:` keys, which YAML 1.2 does not define.

## Why it matters
Merged fields are invisible where they land; reviewers and other tools misread them.

## Example
```yaml
<<: *defaults
```

## Fix
Write the merged keys out in full.""")

declare("Y009", "input-limit", "error", """Input beyond qlint's safety limits.

## What it does
Reports files larger than `max-file-bytes`, nested deeper than `max-depth`, or whose aliases
expand to more than `max-nodes` values ("billion laughs").

## Why it matters
A linter runs on whatever lands in a repository; limits keep every run bounded in time and memory.
The defaults are far above any real question.

## Example
```yaml
a: &a [x, x, x, x, x, x, x, x, x]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
```

## Fix
Remove the construct, or raise the limit in `[tool.qlint.limits]` if the file is legitimate.""")

declare("Y010", "unreadable-file", "error", """A path that cannot be read.

## What it does
Reports missing files, directories named like question files, permission errors and symlink loops.

## Why it matters
A file that silently fails to load is a question that silently leaves the bank.

## Example
`bank/q1.yaml` is a directory, or a symlink pointing at itself.

## Fix
Fix the permissions or the link, or remove the path.""")

declare("S001", "schema", "error", """A value that breaks the question (exam, case study) schema.

## What it does
Validates the file against `schema/question.schema.json` (exam files: `schema/exam.schema.json`;
case study files, in a bank folder named `cases`: `schema/case.schema.json`)
and reports each error at the exact line and column of the offending value: wrong types, missing
or unknown fields (with the closest known name), values outside an enumeration.

## Why it matters
Every other rule and every exporter relies on the format; a typo must not silently drop a field.

## Example
```yaml
correct: yes    # YAML 1.2 reads this as the text "yes"
```

## Fix
Use the type the message asks for: `correct: true`. `qlint check --fix` rewrites values that only
break a pattern by case or spacing: option ids and tags become slugs (`Model Parallel` ->
`model-parallel`, unless another option or tag already has that slug) and the exam code is upper-cased.
With `--unsafe-fixes` it also slugs the question `id` (unsafe: other questions' `related` lists
may cite the old id).""", scope="schema", fixable=True)

declare("S002", "unknown-exam", "error", """A question (or case study) whose exam has no definition.

## What it does
Reports `exam:` values for which no file in the exams folder (default `bank/exams/`) defines that code.

## Why it matters
Domains, blueprint weights and exports are all taken from the exam definition.

## Example
```yaml
exam: MLA-C02
```

## Fix
Correct the code, or add `bank/exams/<code>.yaml`.""", scope="schema")

declare("S003", "unknown-domain", "error", """A question (or case study) whose domain is not in its exam's blueprint.

## What it does
Reports `domain:` values that are not one of the exam definition's domain ids, naming the closest.

## Why it matters
Blueprint coverage and per-domain exports depend on every question sitting in a real domain.

## Example
```yaml
exam: MLA-C01
domain: model-developement
```

## Fix
Use one of the ids listed in the exam file.""", scope="schema")

declare("X001", "internal-error", "error", """A rule or component of qlint failed on a file.

## What it does
Reports, at the top of the file, that a rule raised an unexpected error, instead of stopping the run.
The exit code is 2 so CI notices.

## Why it matters
One bug in one rule must not hide every other finding, nor pass a bank silently.

## Example
Any file that makes a rule raise.

## Fix
Report the message with the file to the qlint maintainers; `--ignore` the rule meanwhile.""")
