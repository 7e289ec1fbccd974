"""Which rules run, on which files, at which severity: select / ignore / per-file-ignores."""

from __future__ import annotations

import difflib
import fnmatch
import os
from dataclasses import dataclass, field
from pathlib import Path

from qlint.diagnostic import Severity
from qlint.rules import RULES, Rule


class SelectionError(ValueError):
    """An unknown rule code, prefix or name in select/ignore."""


def _expand(selector: str, preview: bool = True) -> set[str]:
    """Codes a selector names. A preview rule comes in by its exact code or name, or through
    ALL and prefixes only when `preview` is on (ruff's rule for its preview rules)."""
    sel = selector.strip()
    exact = {c for c, r in RULES.items() if c == sel.upper() or r.name == sel}
    if sel.upper() == "ALL":
        return {c for c, r in RULES.items() if preview or not r.preview}
    codes = {c for c, r in RULES.items() if c.startswith(sel.upper()) and (preview or not r.preview)} | exact
    if not codes and any(c.startswith(sel.upper()) for c in RULES.names()):
        return codes  # a prefix of preview rules only
    if not codes:
        known = RULES.names() + [r.name for _c, r in RULES.items()]
        close = difflib.get_close_matches(sel, known, n=1, cutoff=0.5) or difflib.get_close_matches(sel.upper(), known, n=1, cutoff=0.3)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise SelectionError(f"unknown rule {selector!r}{hint}")
    return codes


def expand_all(selectors: tuple[str, ...] | list[str], preview: bool = True) -> set[str]:
    out: set[str] = set()
    for s in selectors:
        out |= _expand(s, preview)
    return out


@dataclass(frozen=True)
class Selection:
    enabled: frozenset[str]
    per_file: tuple[tuple[str, frozenset[str]], ...]
    severity: dict[str, Severity]
    root: Path
    preview: bool = False  # preview mode: rules also run on the item shapes they are preview for
    named: frozenset[str] = frozenset()  # codes selected by exact code or name (as preview rules are)
    # scope -> its enabled rules, in registry order: asked twice per file, a scan of every rule each time
    _by_scope: dict[str, tuple[Rule, ...]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(cls, select, extend_select, ignore, per_file_ignores, severity, root: Path,
              preview: bool = False) -> "Selection":
        if select:
            enabled = expand_all(select, preview)
        else:
            enabled = {c for c, r in RULES.items() if r.default_enabled and (preview or not r.preview)}
        enabled |= expand_all(extend_select, preview)
        enabled -= expand_all(ignore)
        enabled |= {c for c, r in RULES.items() if r.fatal}  # unreadable input is always reported
        per_file = tuple((glob, frozenset(expand_all(codes))) for glob, codes in per_file_ignores.items())
        sev = {}
        for key, value in severity.items():
            for code in _expand(key):
                sev[code] = value
        named = frozenset(c for s in (*(select or ()), *extend_select) for c, r in RULES.items()
                          if c == s.strip().upper() or r.name == s.strip())
        return cls(frozenset(enabled), per_file, sev, root, preview, named)

    def rules(self, scope: str) -> tuple[Rule, ...]:
        found = self._by_scope.get(scope)
        if found is None:
            found = self._by_scope[scope] = tuple(r for c, r in RULES.items() if r.scope == scope and c in self.enabled)
        return found

    def runs_preview_of(self, rule: Rule) -> bool:
        """The rule also runs on the item shapes it is preview for: in preview mode, or when it
        was selected by its code or name (as a preview rule is)."""
        return self.preview or rule.code in self.named

    def allows(self, code: str, path: str) -> bool:
        if code not in self.enabled:
            return False
        if self.per_file and not RULES.get(code).fatal:
            try:
                rel = os.path.relpath(os.path.abspath(path), self.root)
            except ValueError:
                rel = path
            for glob, codes in self.per_file:
                if code in codes and (fnmatch.fnmatch(rel, glob) or fnmatch.fnmatch(path, glob)):
                    return False
        return True

    def severity_of(self, rule: Rule, graded: Severity | None = None) -> Severity:
        """The configured override, else the finding's own grade, else the rule's default."""
        return self.severity.get(rule.code) or graded or rule.severity
