"""Rules about qlint's own suppression comments; the engine emits them (src/qlint/lint/suppression.py)."""

from __future__ import annotations

from qlint.rules import declare

declare("M001", "unused-suppression", "warning", """A `# qlint:` comment that suppresses nothing.

## What it does
Reports `disable-line`, `disable` and `disable-file` comments, and each rule they name, that
turned off no finding in this run. Rules that did not run on the file (not selected, or ignored
for it by `per-file-ignores`) are not judged.

## Why it matters
A suppression outlives the problem it hid: once the question is fixed, the stale comment would
silently hide the next real finding on that line.

## Example
```yaml
stem: |  # qlint: disable-line K003
```
when K003 finds nothing on that line.

## Fix
Delete the comment, or the rule names it no longer needs.""", scope="meta")

declare("M002", "invalid-suppression", "warning", """A `# qlint:` comment qlint cannot apply.

## What it does
Reports unknown directives (`# qlint: disabel`), unknown rule codes or names (naming the
closest one), and rules that cannot be suppressed: Y and X (the file cannot be read) and
S (the schema and the exam blueprint).

## Why it matters
A misspelt suppression suppresses nothing while looking as if it did.

## Example
```yaml
# qlint: disable-line K0001 -- typo
```

## Fix
Use `disable-line`, `disable`, `enable` or `disable-file` with codes (`K001`), prefixes (`K`) or
names (`option-rationale`) from `qlint rule --all`.""", scope="meta")
