"""Helpers every importer uses: ids from text, unique option ids, exam and domain mapping."""

from __future__ import annotations

import re
from typing import Any, Callable

from qlint.importers import Imported, ImportJob, Unmapped, match_domain, match_exam
from qlint.authoring.formatter import key_order
from qlint.loading.schema_fixes import slug
from qlint.project.guide import TASK_TAG


def option_ids(texts: list[str]) -> list[str]:
    """Slugs of the option texts, made unique with -2, -3 ...; 'option-N' when a text has no letters."""
    out: list[str] = []
    taken: set[str] = set()
    next_n: dict[str, int] = {}  # base -> first suffix not tried yet: 4,000 equal options were cubic
    for i, text in enumerate(texts):
        base = slug(text, 40) or f"option-{i + 1}"
        candidate, n = base, next_n.get(base, 2)
        while candidate in taken:
            candidate, n = f"{base}-{n}", n + 1
        next_n[base] = n
        taken.add(candidate)
        out.append(candidate)
    return out


def place(q: Imported, job: ImportJob, exam_text: str, domain_text: str, line: int) -> None:
    """Set exam and domain from the source's words (or the job's defaults), reporting misses."""
    exam = match_exam(exam_text, job.exams) if exam_text else None
    if exam is None and job.exam:
        exam = match_exam(job.exam, job.exams)
    if exam is None:
        q.data["exam"] = (exam_text or job.exam or "UNKNOWN").upper()
        q.unmapped.append(Unmapped(line, f"exam {exam_text or job.exam or '(none)'!r} has no exam definition"))
    else:
        q.data["exam"] = exam.code
    domain = match_domain(domain_text, exam) if domain_text else None
    if domain is None and job.domain:
        domain = match_domain(job.domain, exam)
    if domain is None:
        q.data["domain"] = slug(domain_text or job.domain or "unknown") or "unknown"
        q.unmapped.append(Unmapped(line, f"domain {domain_text or job.domain or '(none)'!r} is not a domain of "
                                         f"{q.data['exam']} (use --domain)"))
    else:
        q.data["domain"] = domain


def stem_words(stem: str, option_texts: list[str], count: int = 5) -> str:
    """Words for a question id from its stem: the first `count` content words that no option uses,
    so neither the id nor the file name gives the answer away (the key's text never enters it)."""
    from qlint.text import STOPWORDS

    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", text.lower())

    in_options = {w for t in option_texts for w in words(t)}
    picked = [w for w in dict.fromkeys(words(stem)) if w not in STOPWORDS and w not in in_options and len(w) > 2]
    return " ".join(picked[:count]) or "question"


def question(qid_words: str, data: dict[str, Any], exam: str, domain: str) -> str:
    return slug(f"{exam}-{domain}-{qid_words}", 80)


# \Z, not $: `$` also matches before a final newline, and "x\n" would pass as an id.
QUESTION_ID = re.compile(r"^[a-z0-9][a-z0-9-]{2,79}\Z")
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,47}\Z")  # option ids and tags


def placeholder(what: str) -> str:
    """Text for a required field the source lacks: the file stays schema-valid so it can be
    formatted and reviewed, the import reports it as unmapped, and lint rule F002 reports the
    marker until someone writes the real text."""
    return f"TODO: the source has no {what}."


def short(text: str, n: int = 60) -> str:
    """A source excerpt for a message: one line, at most `n` characters, quoted."""
    one = " ".join(text.split())
    return repr(one if len(one) <= n else one[: n - 3] + "...")


def clean_tags(tags: list[str], note: Callable[[str], None]) -> list[str]:
    """Tags as qlint slugs, without repeats; each one that had to change is reported."""
    out: list[str] = []
    for tag in tags:
        if not SLUG.match(tag):
            new = slug(tag, 48)
            note(f"tag {tag!r} became {new!r}")
            tag = new
        if tag and tag not in out:
            out.append(tag)
    return out


TASK = re.compile(r"^[1-9][0-9]?\.[1-9][0-9]?\Z")  # a guide's task statement id, as the schema has it


def clean_tasks(ids: list[str], note: Callable[[str], None]) -> list[str]:
    """Task statement ids as the schema has them, without repeats; one that is not an id is reported."""
    out: list[str] = []
    for tid in ids:
        if not TASK.match(tid):
            note(f"task statement {tid!r} is not an id such as 1.2; it was left out")
        elif tid not in out:
            out.append(tid)
    return out


def split_task_tags(tags: list[str]) -> tuple[list[str], list[str]]:
    """(tags, task ids): `task:1.2` tags carry task statements, the others are tags."""
    tasks = [t[len(TASK_TAG):].strip() for t in tags if t.startswith(TASK_TAG)]
    return [t for t in tags if not t.startswith(TASK_TAG)], tasks


LANG_TAG = "lang:"  # the question's language as qlint's Moodle export tags it
_LANG = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$(?![\s\S])")


def split_lang_tag(tags: list[str]) -> tuple[list[str], str]:
    """(the other tags, the language of a `lang:es` tag, or ""); a tag that is no language tag stays."""
    langs = [t[len(LANG_TAG):] for t in tags if t.startswith(LANG_TAG) and _LANG.match(t[len(LANG_TAG):])]
    return [t for t in tags if not (t.startswith(LANG_TAG) and t[len(LANG_TAG):] in langs)], langs[0] if langs else ""


def in_schema_order(data: dict[str, Any]) -> dict[str, Any]:
    """The question's fields in the schema's order (the formatter would sort them anyway; files
    read more easily when `qlint import` writes them that way already)."""
    order = key_order("question", ())
    return {k: data[k] for k in sorted(data, key=lambda k: order.index(k) if k in order else len(order))}
