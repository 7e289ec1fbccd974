"""`qlint new`: a question file with every required field, placeholders and guidance comments.

Placeholders hold "TODO" so `qlint check` keeps flagging them (F002 unfinished-text) until an
author replaces them; the file is schema-valid from the start.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from qlint.files import safe_join
from qlint.authoring.formatter import format_text
from qlint.loading.schema import schema
from qlint.loading.schema_fixes import slug
from qlint.project.config import Config
from qlint.project.exams import Exam
from qlint.rules.core import NUMBER_NAMES
from qlint.authoring.scalars import render_inline

TODO = "TODO"


class ScaffoldError(ValueError):
    """Bad exam, domain, type or id: the message says what to use instead."""


@dataclass
class Spec:
    exam: str
    domain: str
    type: str = "single"
    choose: int | None = None
    id: str = ""
    difficulty: str = "medium"
    stem: str = ""
    trap: str = ""
    options: list[str] = field(default_factory=list)  # option texts; the first `keys` are keyed

    @property
    def keys(self) -> int:
        return self.choose or 1 if self.type == "multiple" else 1

    @property
    def option_count(self) -> int:
        return max(len(self.options), 4 if self.type == "single" else self.keys + 3)


def validate_spec(spec: Spec, exams: dict[str, Exam]) -> Exam:
    exam = exams.get(spec.exam) or exams.get(spec.exam.upper())
    if exam is None:
        close = difflib.get_close_matches(spec.exam.upper(), list(exams), n=1)
        hint = f"; did you mean {close[0]}?" if close else f"; known: {', '.join(sorted(exams)) or 'none (add one under the exams folder)'}"
        raise ScaffoldError(f"no exam definition for {spec.exam!r}{hint}")
    spec.exam = exam.code
    if spec.domain not in exam.domain_ids:
        by_name = {d.name.lower(): d.id for d in exam.domains}
        if spec.domain.lower() in by_name:
            spec.domain = by_name[spec.domain.lower()]
        else:
            close = difflib.get_close_matches(spec.domain, exam.domain_ids, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ScaffoldError(f"{spec.domain!r} is not a domain of {exam.code} (domains: {', '.join(exam.domain_ids)}){hint}")
    if spec.type not in ("single", "multiple"):
        raise ScaffoldError(f"type must be single or multiple, not {spec.type!r}")
    props = schema("question")["properties"]
    if spec.type == "multiple":
        low, high = props["choose"]["minimum"], props["choose"]["maximum"]
        if spec.choose is None or not low <= spec.choose <= high:
            raise ScaffoldError(f"a multiple question needs --choose N with N from {low} to {high}")
    elif spec.choose is not None:
        raise ScaffoldError("--choose is only for --type multiple")
    if spec.difficulty not in props["difficulty"]["enum"]:
        raise ScaffoldError(f"difficulty must be one of {', '.join(props['difficulty']['enum'])}")
    return exam


def default_id(spec: Spec) -> str:
    return slug(f"{spec.exam}-{spec.domain}-new-question", 80)


def file_name(spec: Spec) -> str:
    return question_file_name(spec.id, spec.exam, spec.domain)


def question_file_name(qid: str, exam: str, domain: str) -> str:
    """The id without the exam and domain prefixes the folder already says."""
    name = qid
    for prefix in (exam.lower() + "-", domain + "-"):
        if name.startswith(prefix) and len(name) > len(prefix):
            name = name[len(prefix):]
    return name + ".yaml"


def target_path(spec: Spec, config: Config) -> Path:
    """bank/<exam>/<domain>/<name>.yaml; UnsafePathError if that would leave the bank (a symlinked
    folder leading out of it, or names that are not plain words)."""
    return safe_join(config.bank_dir, f"{spec.exam.lower()}/{spec.domain}/{file_name(spec)}")


def check_id(qid: str) -> None:
    """The schema's id pattern, matched in full (`$` alone would let a trailing newline through)."""
    if not re.fullmatch(schema("question")["properties"]["id"]["pattern"], qid):
        raise ScaffoldError(f"id {qid!r} must be lower-case words, digits and hyphens (3-80 characters)")


def schema_ref(target: Path, config: Config) -> str:
    project_schema = config.root / "schema" / "question.schema.json"
    if project_schema.is_file():
        return os.path.relpath(project_schema, target.parent)
    from importlib import resources

    return str(resources.files("qlint").joinpath("schemas", "question.schema.json"))


def _block(text: str, indent: str) -> str:
    return "|\n" + "\n".join(f"{indent}{ln}" if ln else "" for ln in text.splitlines()) + "\n"


def _shown(target: Path, config: Config) -> str:
    """The file as a command run from the project root names it (where qlint.toml or the bank is)."""
    try:
        rel = Path(os.path.relpath(target, config.root)).as_posix()
    except ValueError:  # another drive on Windows
        rel = str(target)
    return shlex.quote(rel)


def render(spec: Spec, target: Path, config: Config) -> str:
    n = spec.keys
    word = NUMBER_NAMES.get(n, str(n))
    stem = spec.stem.strip() or f"{TODO}: the scenario, its constraints, then the lead-in question. Which ... ?"
    if spec.type == "multiple" and "choose" not in stem.lower():
        stem += f" (Choose {word}.)"
    trap = spec.trap.strip() or f"{TODO}: which distractor candidates pick, and the keyword in the stem they miss."
    lines = [
        f"# yaml-language-server: $schema={schema_ref(target, config)}",
        f"# New {spec.exam} question ({spec.domain}). Replace every {TODO}, then run:",
        f"#   qlint format {_shown(target, config)} && qlint check {_shown(target, config)}",
        "format: 1",
        f"id: {spec.id}",
        f"exam: {spec.exam}",
        f"domain: {spec.domain}",
        f"type: {spec.type}",
    ]
    if spec.type == "multiple":
        lines.append(f"choose: {n}")
    lines += [
        "# draft -> review -> published (exports take review and published by default)",
        "status: draft",
        f"difficulty: {spec.difficulty}",
        "tags: []",
        "",
        "# The scenario in Markdown, ending with the question"
        + (f"; it must say how many to choose (Choose {word})." if spec.type == "multiple" else "."),
        "stem: " + _block(stem, "  ").rstrip("\n"),
        "",
        "# Which wrong option candidates pick and why: name the keyword in the stem they miss.",
        "trap: " + _block(trap, "  ").rstrip("\n"),
        "",
        f"# {spec.option_count} options, {n} of them keyed (correct: true). Option ids are stable slugs,",
        "# never letters: letters are assigned at export. Every option says why it is right or wrong",
        "# here (rationale); every distractor says when it WOULD be right (right_when).",
        "options:",
    ]
    for i in range(spec.option_count):
        text = spec.options[i] if i < len(spec.options) else f"{TODO} option {i + 1}"
        keyed = i < n
        oid = slug(text) if i < len(spec.options) and slug(text) else f"option-{i + 1}"
        if i:
            lines.append("")
        lines += [f"  - id: {oid}", f"    text: {render_inline(text)}", f"    correct: {'true' if keyed else 'false'}"]
        if keyed:
            lines.append(f"    rationale: {_block(f'Correct: {TODO} why this meets the requirement in the stem.', '      ').rstrip()}")
        else:
            lines.append(f"    rationale: {_block(f'{TODO}: why this fails the requirement in the stem.', '      ').rstrip()}")
            lines.append(f"    right_when: {_block(f'{TODO}: the scenario in which this option would be correct.', '      ').rstrip()}")
    lines += [
        "",
        "# Why the key meets the requirement and the distractors do not (Markdown).",
        "explanation: " + _block(f"{TODO}: explain the correct answer.", "  ").rstrip("\n"),
        "",
        "# Go deeper: official documentation or papers.",
        "references:",
        f"  - title: {TODO} title of the page",
        "    url: https://example.com/TODO",
        "",
    ]
    text = "\n".join(lines)
    return format_text(text, "question", config)
