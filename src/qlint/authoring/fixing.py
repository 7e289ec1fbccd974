"""`qlint check --fix`: apply the fixes rules attach to their diagnostics, then lint again.

Fixes are applied in rounds: each round lints the current text, applies every fix whose pointer
does not overlap another's (two fixes to one stem would otherwise overwrite each other), and the
next round sees the result. Each edit goes through `yamledit.set_scalar`, so only the edited value
changes and the result is verified before it is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from qlint.authoring.changes import Change, internal_error
from qlint.authoring.yamledit import EditError, set_scalar
from qlint.diagnostic import Diagnostic
from qlint.lint.check import check_file
from qlint.lint.settings import Settings
from qlint.loading.errors import LoadError
from qlint.loading.reader import decode, read_source
from qlint.paths import display_path
from qlint.project.discovery import discover
from qlint.rules import RULES

MAX_ROUNDS = 10


@dataclass
class FixReport:
    changes: list[Change] = field(default_factory=list)
    applied: list[Diagnostic] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # "path:line:col: CODE fix not applied: why"
    unsafe_left: int = 0
    internal: list[str] = field(default_factory=list)  # qlint bugs met: nothing is written then
    unreadable: list[str] = field(default_factory=list)  # "path:1:1: Y010 why": missing paths, unlistable folders


def _overlaps(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


def _pick(candidates: list[Diagnostic]) -> list[Diagnostic]:
    chosen: list[Diagnostic] = []
    for d in candidates:
        pointers = [e.pointer for e in d.fix.edits]  # type: ignore[union-attr]
        if not any(_overlaps(p, e.pointer) for c in chosen for e in c.fix.edits for p in pointers):  # type: ignore[union-attr]
            chosen.append(d)
    return chosen


def apply_fix(text: str, d: Diagnostic, settings: Settings) -> str:
    """`text` with the one fix of `d` applied (EditError when it cannot be)."""
    for edit in d.fix.edits:  # type: ignore[union-attr]
        if edit.delete:
            raise EditError("removing a field is not supported by --fix")
        text = set_scalar(text, edit.pointer, edit.value, settings.config)
    return text


def fix_file(path: str, settings: Settings, unsafe: bool, report: FixReport) -> None:
    try:
        raw = read_source(path, settings.config.root, settings.config.limits)
        text = decode(raw)
    except LoadError:
        return  # the lint that follows reports it
    fixed = fix_text(path, text, settings, unsafe, report)
    if fixed is not None:
        report.changes.append(Change(display_path(path), raw, fixed))


def fix_text(path: str, text: str, settings: Settings, unsafe: bool, report: FixReport) -> str | None:
    """`text` (the content of `path`, on disk or in an editor) with the fixes applied round by
    round; None when a rule or an edit failed (report.internal says why: nothing is trusted)."""
    current, gave_up = text, set()
    for _ in range(MAX_ROUNDS):
        result = check_file(path, settings, current)
        crashed = [d for d in result.diagnostics if d.code == "X001"]
        if crashed:  # a rule failed: the file was not fully checked, so no fix is trusted
            report.internal += [f"{d.path}:{d.line}:{d.col}: {d.code} {d.message}" for d in crashed]
            return None
        fixable = [d for d in result.diagnostics if d.fix and RULES.get(d.code).fixable and (d.code, d.pointer) not in gave_up]
        candidates = [d for d in fixable if d.fix.safe or unsafe]  # type: ignore[union-attr]
        progressed = False
        for d in _pick(candidates):
            try:
                current = apply_fix(current, d, settings)
            except EditError as exc:
                gave_up.add((d.code, d.pointer))
                report.failed.append(f"{d.path}:{d.line}:{d.col}: {d.code} fix not applied: {exc}")
                continue
            except Exception as exc:  # a bug in an edit: stop before anything is written
                report.internal.append(internal_error(d.path, f"applying the {d.code} fix", exc))
                return None
            report.applied.append(d)
            progressed = True
        if not progressed:
            report.unsafe_left += len(fixable) - len(candidates)
            break
    return current


def fix_paths(paths: list[str], settings: Settings, unsafe: bool = False) -> FixReport:
    report = FixReport()
    files, problems = discover(paths)
    report.unreadable = [f"{display_path(m)}:1:1: Y010 {why}" for m, why in problems]
    for f in files:
        fix_file(f, settings, unsafe, report)
    return report
