"""Read-only views over a schema-valid question, so rules read fields by name, not by dict key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

LETTERS = "ABCDEFGHIJ"

# Types whose answer is a choice among `options`; ordering and matching have their own shapes.
CHOICE_TYPES = ("single", "multiple")
ORDERING, MATCHING = "ordering", "matching"
ITEM_TYPES = (*CHOICE_TYPES, ORDERING, MATCHING)


class lazy:
    """`functools.cached_property` without its lock (Python 3.11 takes one on every first access,
    and rules make thousands per second): computed on first access, then read from the instance's
    __dict__ (which also bypasses a frozen dataclass's __setattr__)."""

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


@dataclass(frozen=True)
class PartView:
    """One entry of a question's list of answer parts (`FIELD`: options, steps, prompts or
    responses): its place, id, text and rationale, read by name."""

    index: int
    raw: dict[str, Any]
    FIELD: ClassVar[str] = ""

    @property
    def pointer(self) -> str:
        return f"/{self.FIELD}/{self.index}"

    @property
    def id(self) -> str:
        return self.raw.get("id", "")

    @lazy  # rules read it dozens of times per question
    def text(self) -> str:
        return self.raw.get("text", "")

    @property
    def rationale(self) -> str | None:
        value = self.raw.get("rationale")
        return value if isinstance(value, str) else None

    @property
    def right_when(self) -> str:
        return self.raw.get("right_when") or ""


@dataclass(frozen=True)
class OptionView(PartView):
    FIELD: ClassVar[str] = "options"

    @property
    def correct(self) -> bool:
        return self.raw.get("correct") is True

    @property
    def letter(self) -> str:
        return LETTERS[self.index] if self.index < len(LETTERS) else str(self.index + 1)


@dataclass(frozen=True)
class StepView(PartView):
    """One step of an ordering question; keyed steps are listed in their correct order."""

    FIELD: ClassVar[str] = "steps"

    @property
    def correct(self) -> bool:
        return self.raw.get("correct", True) is not False  # keyed unless marked a distractor step


@dataclass(frozen=True)
class PromptView(PartView):
    """One prompt of a matching question and the id of the response it matches."""

    FIELD: ClassVar[str] = "prompts"

    @property
    def match(self) -> str:
        return self.raw.get("match", "")


@dataclass(frozen=True)
class ResponseView(PartView):
    """One response of a matching question; a surplus response matches no prompt."""

    FIELD: ClassVar[str] = "responses"


@dataclass(frozen=True)
class BankFile:
    """A schema-valid bank file's data with its path: what questions and case studies share."""

    path: str
    data: dict[str, Any]

    @property
    def id(self) -> str:
        return self.data.get("id", "")

    @property
    def exam(self) -> str:
        return self.data.get("exam", "")

    @property
    def domain(self) -> str:
        return self.data.get("domain", "")


@dataclass(frozen=True)
class Question(BankFile):
    @property
    def type(self) -> str:
        return self.data.get("type", "single")

    @property
    def is_choice(self) -> bool:
        """single or multiple: answered by choosing among `options`."""
        return self.type in CHOICE_TYPES

    @property
    def case(self) -> str | None:
        value = self.data.get("case")
        return value if isinstance(value, str) else None

    @property
    def choose(self) -> int:
        return self.data.get("choose", 1) if self.type == "multiple" else 1

    @property
    def stem(self) -> str:
        return self.data.get("stem", "")

    @property
    def trap(self) -> str | None:
        value = self.data.get("trap")
        return value if isinstance(value, str) else None

    @property
    def explanation(self) -> str:
        return self.data.get("explanation", "")

    @lazy
    def options(self) -> list[OptionView]:
        return [OptionView(i, o) for i, o in enumerate(self.data.get("options", []))]

    @lazy
    def keys(self) -> list[OptionView]:
        return [o for o in self.options if o.correct]

    @lazy
    def distractors(self) -> list[OptionView]:
        return [o for o in self.options if not o.correct]

    @lazy
    def steps(self) -> list[StepView]:
        return [StepView(i, s) for i, s in enumerate(self.data.get("steps", []))]

    @lazy
    def key_order(self) -> list[StepView]:
        """The keyed steps in their correct order (distractor steps left out)."""
        return [s for s in self.steps if s.correct]

    @lazy
    def prompts(self) -> list[PromptView]:
        return [PromptView(i, p) for i, p in enumerate(self.data.get("prompts", []))]

    @lazy
    def responses(self) -> list[ResponseView]:
        return [ResponseView(i, r) for i, r in enumerate(self.data.get("responses", []))]

    @lazy
    def derived(self) -> dict[Any, Any]:
        """Views that rules derive from several fields, computed once (see `qlint.prose.views`)."""
        return {}


@dataclass(frozen=True)
class Case(BankFile):
    """A case study: one scenario shared by the questions listed in `items`, each scored separately."""

    @property
    def title(self) -> str:
        return self.data.get("title") or ""

    @property
    def scenario(self) -> str:
        return self.data.get("scenario", "")

    @property
    def items(self) -> list[str]:
        return list(self.data.get("items", []))


def iter_strings(value: Any, path: list[Any] | None = None) -> Iterator[tuple[list[Any], str]]:
    """Every string in a question's data with its path (keys and indexes), depth first."""
    path = path or []
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from iter_strings(v, path + [k])
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from iter_strings(v, path + [i])


# Option fields that hold Markdown shown to learners.
OPTION_TEXTS = ("text", "rationale", "right_when", "why_chosen")


def text_fields(q: Question) -> Iterator[tuple[str, str]]:
    """(pointer, Markdown) for every learner-facing text of the question, in reading order."""
    for key in ("stem", "trap"):
        if isinstance(q.data.get(key), str):
            yield f"/{key}", q.data[key]
    for o in q.options:
        for key in OPTION_TEXTS:
            if isinstance(o.raw.get(key), str):
                yield f"{o.pointer}/{key}", o.raw[key]
    for part in (*q.steps, *q.prompts, *q.responses):
        for key in OPTION_TEXTS:
            if isinstance(part.raw.get(key), str):
                yield f"{part.pointer}/{key}", part.raw[key]
    if isinstance(q.data.get("explanation"), str):
        yield "/explanation", q.data["explanation"]
