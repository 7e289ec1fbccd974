"""Rule declarations: each rule is declared once, with its metadata, docs and check function.

Rule modules in this package are imported on first use of `RULES`; adding a rule means adding
a decorated function to a module here (or a new module), never touching the engine.
"""

from __future__ import annotations

import inspect
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from qlint.diagnostic import Diagnostic, Fix, Severity
from qlint.model import CHOICE_TYPES, ITEM_TYPES
from qlint.prose.shapes import SHAPES
from qlint.registry import Registry


@dataclass(frozen=True)
class Finding:
    """What a check yields: where (JSON pointer), what, and optionally how to fix it."""

    pointer: str
    message: str
    at_key: bool = False
    fix: Fix | None = None
    path: str | None = None  # bank rules name the file; item rules leave it to the engine
    severity: Severity | None = None  # graded rules (warn at 0.5, error at 0.8); a configured override wins
    within: str = ""  # text inside the value to point at (an image path in a stem), when found there
    offset: int | None = None  # a character of the string (or key) at `pointer`: placed at that character


@dataclass(frozen=True)
class Option:
    """A rule option: its default, a one-line description for the docs, and what a configuration
    may set it to. The configuration comes with the repository, so every number declares its
    inclusive bounds (`rule()` refuses one without) and word lists are bounded in size: a pull
    request cannot make a rule run for minutes (`ngram = 10000000`) or compare with NaN."""

    default: Any
    description: str
    min: float | None = None
    max: float | None = None
    max_items: int = 1000  # entries of a word list, or of each list in a table of lists
    max_chars: int = 100  # characters of each word or phrase

    def problem(self, value: Any) -> str | None:
        """Why `value` (already of the default's type) cannot be this option, or None."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if not math.isfinite(value) or not self.min <= value <= self.max:
                return f"{value!r} is out of range: allowed {self.min:g} to {self.max:g} (default {self.default!r})"
            return None
        if isinstance(value, dict):
            for key, words in value.items():
                if not isinstance(words, list):
                    return f"{key!r}: expected a list of words, got {words!r}"
                if (bad := self._words(words)) is not None:
                    return f"{key!r}: {bad}"
            return None if len(value) <= self.max_items else f"at most {self.max_items} entries, got {len(value)}"
        return self._words(value) if isinstance(value, list) else None

    def _words(self, words: list[Any]) -> str | None:
        if len(words) > self.max_items:
            return f"at most {self.max_items} entries, got {len(words)}"
        for word in words:
            if not isinstance(word, str) or not 0 < len(word) <= self.max_chars:
                return f"each entry must be a word or phrase of 1 to {self.max_chars} characters, got {word!r}"
        return None


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    scope: str  # "load" (emitted by the loader), "item" (one question), "bank" (all questions),
    # "responses" (learners' answers to the questions: `qlint analyze`, `qlint check --responses`) or
    # "command" (emitted by the import, export and shuffle pipelines, rules/commands.py)
    summary: str
    doc: str
    check: Callable[..., Iterable[Finding]] | None
    options: dict[str, Option] = field(default_factory=dict)
    source: str = ""
    fixable: bool = False
    default_enabled: bool = True
    preview: bool = False  # judged precision on real text below the bar: runs only when asked for
    types: tuple[str, ...] = CHOICE_TYPES  # item types it applies to; the engine skips it for others
    cases: bool = False  # also reads case study files (rules over any file's strings: hygiene, media)
    # Item shapes (qlint.prose.shapes): `judges` the only shapes it reads (empty: every item),
    # `abstains` the shapes it never reads, `preview_on` those it reads only in preview mode
    # (its judged precision on that shape is below the bar). The engine applies them.
    judges: tuple[str, ...] = ()
    abstains: tuple[str, ...] = ()
    preview_on: tuple[str, ...] = ()

    def applies_to(self, item_type: str) -> bool:
        return item_type in self.types

    @property
    def shaped(self) -> bool:
        """Declares item shapes: the engine computes the question's shapes before running it."""
        return bool(self.judges or self.abstains or self.preview_on)

    def on_shapes(self, shapes: frozenset[str] | set[str]) -> str:
        """How the rule treats an item of these shapes: "judges", "abstains" or "preview"."""
        if (self.judges and not shapes.intersection(self.judges)) or shapes.intersection(self.abstains):
            return "abstains"
        return "preview" if shapes.intersection(self.preview_on) else "judges"

    @property
    def new_types_only(self) -> bool:
        """Applies to none of the choice types (single, multiple): it reads only ordering and
        matching questions, which the real corpora hold none of."""
        return not set(self.types) & set(CHOICE_TYPES)

    @property
    def enabled_by_default(self) -> bool:
        return self.default_enabled and not self.preview

    @property
    def reads_text(self) -> bool:
        """Judged by the question files' content; response rules read learners' answers instead,
        so precision on real question text does not apply to them, nor to the codes the
        import, export and shuffle pipelines report (scope "command")."""
        return self.scope not in ("responses", "command")

    @property
    def fatal(self) -> bool:
        """Load rules mean the file could not be read as a question: exit 2."""
        return self.scope == "load" and self.code[0] in "YX"


RULES: Registry[Rule] = Registry("rule", "qlint.rules")
_CODE = re.compile(r"^[A-Z][0-9]{3}$")
_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def rule(
    code: str,
    name: str,
    severity: Severity | str,
    *,
    scope: str = "item",
    options: dict[str, Option] | None = None,
    source: str = "",
    fixable: bool = False,
    default_enabled: bool = True,
    preview: bool = False,
    types: Iterable[str] | None = None,
    cases: bool = False,
    judges: Iterable[str] = (),
    abstains: Iterable[str] = (),
    preview_on: Iterable[str] = (),
) -> Callable[[Callable[..., Iterable[Finding]]], Callable[..., Iterable[Finding]]]:
    """Register a check function as a rule; its docstring is the rule's documentation.
    `types`: the item types it applies to (default: the choice types for item rules, every
    type for the others); `ITEM_TYPES` for a rule that reads what every question has. `cases`:
    an item rule that reads any file's strings runs on case study files too. `judges`,
    `abstains`, `preview_on`: item shapes (qlint.prose.shapes.SHAPES) it reads only, never, or
    only in preview mode (default on the other shapes)."""
    if not _CODE.match(code) or not _NAME.match(name):
        raise ValueError(f"bad rule identity {code!r} / {name!r}")
    kinds = tuple(types) if types is not None else CHOICE_TYPES if scope == "item" else ITEM_TYPES
    if not kinds or any(k not in ITEM_TYPES for k in kinds):
        raise ValueError(f"rule {code}: types must be among {', '.join(ITEM_TYPES)}")
    kinds = tuple(t for t in ITEM_TYPES if t in kinds)
    sev = Severity.parse(severity) if isinstance(severity, str) else severity
    for key, option in (options or {}).items():
        if isinstance(option.default, (int, float)) and not isinstance(option.default, bool) and not (
                option.min is not None and option.max is not None and option.min <= option.default <= option.max):
            raise ValueError(f"rule {code}: option {key!r} needs bounds min <= default <= max")
    judged, abstained, previewed = tuple(judges), tuple(abstains), tuple(preview_on)
    unknown = [s for s in (*judged, *abstained, *previewed) if s not in SHAPES]
    if unknown:
        raise ValueError(f"rule {code}: unknown item shape {unknown[0]!r} (shapes: {', '.join(SHAPES)})")
    if scope != "item" and (judged or abstained or previewed):
        raise ValueError(f"rule {code}: only item rules declare item shapes")

    def deco(fn: Callable[..., Iterable[Finding]]) -> Callable[..., Iterable[Finding]]:
        doc = inspect.cleandoc(fn.__doc__ or "")
        if not doc:
            raise ValueError(f"rule {code} has no docstring")
        summary = doc.splitlines()[0].strip()
        RULES.add(code, Rule(code, name, sev, scope, summary, doc, None if scope in ("load", "command") else fn,
                             dict(options or {}), source, fixable, default_enabled, preview, kinds, cases,
                             judged, abstained, previewed))
        return fn

    return deco


def declare(code: str, name: str, severity: Severity | str, doc: str, *, scope: str = "load", source: str = "",
            fixable: bool = False) -> None:
    """Declare a rule whose diagnostics another component (the loader) emits."""

    def _emitted_elsewhere(*_: Any) -> Iterable[Finding]:
        return ()

    _emitted_elsewhere.__doc__ = doc
    rule(code, name, severity, scope=scope, source=source, fixable=fixable)(_emitted_elsewhere)


def by_name_or_code(key: str) -> Rule | None:
    key = key.strip()
    if key.upper() in RULES:
        return RULES.get(key.upper())
    for _code, r in RULES.items():
        if r.name == key:
            return r
    return None


def reported(code: str, path: str, message: str, line: int = 1, col: int = 1) -> Diagnostic:
    """A diagnostic of a declared code (a pipeline's, a loader's) at its name and default severity,
    at `path`:`line`:`col` as given: the message is never searched for a position."""
    found = RULES.get(code)
    return Diagnostic(path, line or 1, col or 1, code, found.name, found.severity, message)
