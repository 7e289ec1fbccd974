"""Rule declarations: each rule is declared once, with its metadata, docs and check function.

Rule modules in this package are imported on first use of `RULES`; adding a rule means adding
a decorated function to a module here (or a new module), never touching the engine.
"""

from __future__ import annotations

import inspect
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
    """A rule option: its default and a one-line description for the docs."""

    default: Any
    description: str


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


_LOCATED = re.compile(r"^(.+?):(\d+):(\d+): (.*)$", re.S)


def reported(code: str, path: str, message: str, line: int = 1, col: int = 1, *, inside: bool = False) -> Diagnostic:
    """A diagnostic of a declared code (a pipeline's, a loader's) at its name and default severity.
    A message that starts `file:line:col: ` (as exporters and parsers raise them) is placed there,
    the prefix dropped; with `inside`, that file is one inside `path` (a package's part:
    `pkg` and `items/q.xml` give `pkg/items/q.xml`; `quiz.xml` and `quiz.xml` stay `quiz.xml`)."""
    found = RULES.get(code)
    m = _LOCATED.match(message)
    if m:
        inner, line, col, message = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        path = (path if path.endswith(inner) else f"{path}/{inner}") if inside else inner
    return Diagnostic(path, line or 1, col or 1, code, found.name, found.severity, message)
