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
TYPES = ("single", "multiple", "ordering", "matching")


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
    case: str = ""  # the case study the question belongs to (`case:`), or ""

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
    if spec.type not in TYPES:
        raise ScaffoldError(f"type must be one of {', '.join(TYPES)}, not {spec.type!r}")
    if spec.case and not re.fullmatch(schema("case")["properties"]["id"]["pattern"], spec.case):
        raise ScaffoldError(f"case id {spec.case!r} must be lower-case words, digits and hyphens (3-80 characters)")
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
    """The project's schema/question.schema.json relative to the new file: it resolves in every
    clone (`qlint init` writes schema/; a path into the local installation would not)."""
    return Path(os.path.relpath(project_schema(config), target.parent)).as_posix()


def project_schema(config: Config, kind: str = "question") -> Path:
    return config.root / "schema" / f"{kind}.schema.json"


def _block(text: str, indent: str) -> str:
    return "|\n" + "\n".join(f"{indent}{ln}" if ln else "" for ln in text.splitlines()) + "\n"


def _shown(target: Path, config: Config) -> str:
    """The file as a command run from the project root names it (where qlint.toml or the bank is)."""
    try:
        rel = Path(os.path.relpath(target, config.root)).as_posix()
    except ValueError:  # another drive on Windows
        rel = str(target)
    return shlex.quote(rel)


def case_target_path(spec: Spec, config: Config) -> Path:
    """bank/<exam>/cases/<name>.yaml (the case id without the exam prefix)."""
    name = question_file_name(spec.id, spec.exam, "")
    return safe_join(config.bank_dir, f"{spec.exam.lower()}/cases/{name}")


def render_case(spec: Spec, target: Path, config: Config) -> str:
    """A case study file: the shared scenario and the ids of its questions, in order."""
    ref = schema_ref(target, config).replace("question.schema.json", "case.schema.json")
    lines = [
        f"# yaml-language-server: $schema={ref}",
        f"# New {spec.exam} case study. Replace every {TODO}; create its questions with",
        f"#   qlint new --exam {spec.exam} --domain <domain> --case {spec.id} --type <type> --id <question id>",
        f"# and list their ids under items. Then run: qlint format {_shown(target, config)} && qlint check",
        "format: 1",
        f"id: {spec.id}",
        f"exam: {spec.exam}",
        f"domain: {spec.domain}",
        f"title: {TODO} a short title",
        "status: draft",
        "",
        "# The scenario every question of the case shares (Markdown): the company, its data, its",
        "# constraints. Each question's stem then asks one thing about it.",
        "scenario: " + _block(f"{TODO}: the scenario.", "  ").rstrip("\n"),
        "",
        "# The ids of the case's questions in the order they are asked: two or more. Each of them",
        f"# says `case: {spec.id}`.",
        "items:",
        f"  - {spec.id}-question-1",
        f"  - {spec.id}-question-2",
        "",
    ]
    return format_text("\n".join(lines), "case", config)


def _steps(lines: list[str]) -> None:
    lines += [
        "# Steps in their CORRECT order: the list order is the key (players shuffle the steps).",
        "# 3-5 keyed steps; a distractor step says correct: false and when it WOULD be right",
        "# (right_when). Every step says why it sits where it does (rationale). Never number the",
        "# steps or start them with \"First\" or \"Then\": that gives the order away.",
        "steps:",
    ]
    for i in range(3):
        lines += ([""] if i else []) + [
            f"  - id: step-{i + 1}", f"    text: {TODO} step {i + 1}",
            f"    rationale: {_block(f'{TODO}: why this step comes in position {i + 1}.', '      ').rstrip()}"]
    lines += ["", "  - id: distractor-step", f"    text: {TODO} a step that belongs to no position", "    correct: false",
              f"    rationale: {_block(f'{TODO}: why this is no step of this task.', '      ').rstrip()}",
              f"    right_when: {_block(f'{TODO}: the task in which this step would belong.', '      ').rstrip()}"]


def _pairs(lines: list[str]) -> None:
    lines += [
        "# 3-7 prompts, each with the id of its response (match) and why the pair belongs together",
        "# (rationale). Each response matches one prompt at most; keep at least one surplus",
        "# response that matches none (with a rationale saying why), or the last pair is free.",
        "prompts:",
    ]
    for i in range(3):
        lines += ([""] if i else []) + [
            f"  - id: prompt-{i + 1}", f"    text: {TODO} prompt {i + 1}", f"    match: response-{i + 1}",
            f"    rationale: {_block(f'{TODO}: why prompt {i + 1} pairs with response {i + 1}.', '      ').rstrip()}"]
    lines += ["", "responses:"]
    lines += [ln for i in range(3) for ln in (f"  - id: response-{i + 1}", f"    text: {TODO} response {i + 1}")]
    lines += ["  - id: surplus-response", f"    text: {TODO} a response that matches no prompt",
              f"    rationale: {_block(f'{TODO}: why it matches none of the prompts.', '      ').rstrip()}"]


def render(spec: Spec, target: Path, config: Config) -> str:
    n = spec.keys
    word = NUMBER_NAMES.get(n, str(n))
    task = {"ordering": "Select and order THREE steps to ...", "matching": "Match each ... with the ... that ..."}
    stem = spec.stem.strip() or f"{TODO}: the scenario, its constraints, then " + (
        f"the task. {task[spec.type]}" if spec.type in task else "the lead-in question. Which ... ?")
    if spec.type == "multiple" and "choose" not in stem.lower():
        stem += f" (Choose {word}.)"
    wrong = {"ordering": "which wrong order (or extra step)", "matching": "which wrong pairing"}.get(spec.type,
                                                                                                 "which distractor")
    trap = spec.trap.strip() or f"{TODO}: {wrong} candidates pick, and the keyword in the stem they miss."
    lines = [
        f"# yaml-language-server: $schema={schema_ref(target, config)}",
        f"# New {spec.exam} question ({spec.domain}). Replace every {TODO}, then run:",
        f"#   qlint format {_shown(target, config)} && qlint check {_shown(target, config)}",
        "format: 1",
        f"id: {spec.id}",
        f"exam: {spec.exam}",
        f"domain: {spec.domain}",
    ]
    if spec.case:
        lines += ["# The case study whose scenario this question shares (bank/<exam>/cases/).", f"case: {spec.case}"]
    lines.append(f"type: {spec.type}")
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
        f"# {wrong[0].upper() + wrong[1:]} candidates pick and why: name the keyword in the stem they miss.",
        "trap: " + _block(trap, "  ").rstrip("\n"),
        "",
    ]
    if spec.type == "ordering":
        _steps(lines)
    elif spec.type == "matching":
        _pairs(lines)
    else:
        lines += [
            f"# {spec.option_count} options, {n} of them keyed (correct: true). Option ids are stable slugs,",
            "# never letters: letters are assigned at export. Every option says why it is right or wrong",
            "# here (rationale); every distractor says when it WOULD be right (right_when).",
            "options:",
        ]
    for i in range(spec.option_count if spec.type in ("single", "multiple") else 0):
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
        {"ordering": "# Why the steps go in this order and the distractor step in none (Markdown).",
         "matching": "# Why each pair belongs together and the surplus response fits no prompt (Markdown)."}.get(
            spec.type, "# Why the key meets the requirement and the distractors do not (Markdown)."),
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
