"""Read-only views over a schema-valid question, so rules read fields by name, not by dict key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator

LETTERS = "ABCDEFGHIJ"


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
class OptionView:
    index: int
    raw: dict[str, Any]

    @property
    def pointer(self) -> str:
        return f"/options/{self.index}"

    @property
    def id(self) -> str:
        return self.raw.get("id", "")

    @lazy  # rules read it dozens of times per question
    def text(self) -> str:
        return self.raw.get("text", "")

    @property
    def correct(self) -> bool:
        return self.raw.get("correct") is True

    @property
    def rationale(self) -> str | None:
        value = self.raw.get("rationale")
        return value if isinstance(value, str) else None

    @property
    def right_when(self) -> str:
        return self.raw.get("right_when") or ""

    @property
    def letter(self) -> str:
        return LETTERS[self.index] if self.index < len(LETTERS) else str(self.index + 1)


@dataclass(frozen=True)
class Question:
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

    @property
    def type(self) -> str:
        return self.data.get("type", "single")

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
    def derived(self) -> dict[Any, Any]:
        """Views that rules derive from several fields, computed once (see `qlint.prose.views`)."""
        return {}


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
    if isinstance(q.data.get("explanation"), str):
        yield "/explanation", q.data["explanation"]
