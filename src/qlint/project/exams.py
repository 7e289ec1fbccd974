"""Exam definitions: code -> domains and weights, read from the exams folder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from qlint.project.guide import Guide, guide_from_data


@dataclass(frozen=True)
class Domain:
    id: str
    name: str
    weight: float


@dataclass(frozen=True)
class Exam:
    code: str
    name: str
    domains: tuple[Domain, ...]
    path: str
    types: dict[str, tuple[str, ...]]
    guide: Guide = Guide()  # the exam guide: task statements, service lists (project/guide.py)
    questions: int | None = None  # questions a sitting (scored and unscored): a practice exam's length
    scored: int | None = None  # of those, the ones that count towards the score

    @property
    def domain_ids(self) -> list[str]:
        return [d.id for d in self.domains]

    @classmethod
    def from_data(cls, data: dict[str, Any], path: str) -> "Exam":
        return cls(
            code=data["code"],
            name=data["name"],
            domains=tuple(Domain(d["id"], d["name"], float(d["weight"])) for d in data["domains"]),
            path=path,
            types={k: tuple(v) for k, v in (data.get("types") or {}).items()},
            guide=guide_from_data(data),
            questions=data.get("questions"),
            scored=data.get("scored"),
        )
