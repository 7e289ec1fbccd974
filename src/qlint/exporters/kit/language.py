"""The language a question is exported in: its own `lang`, else the configured default
(`ExportJob.lang`). Formats carry it where they have a place (docs/translations.md)."""

from __future__ import annotations

import re

from qlint.model import Question

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
# BCP 47 as the question schema reads it: a 2-3 letter language, then subtags
TAG = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$(?![\s\S])")


LANG_TAG = "lang:"  # a question's own `lang:` as a Moodle tag (Moodle XML has no language field)


def lang_tags(q: Question) -> list[str]:
    """`lang:es` for a question that names its language; none for one in the configured default,
    so a bank without translations exports as before."""
    value = q.data.get("lang")
    return [LANG_TAG + value] if isinstance(value, str) and value else []


def question_lang(q: Question, default: str) -> str:
    value = q.data.get("lang")
    return value if isinstance(value, str) and value else default


def same_lang(a: str, b: str) -> bool:
    """BCP 47 tags compare without case (`pt-BR` is `pt-br`)."""
    return a.lower() == b.lower()
