"""Imported questions to canonical qlint YAML files."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml

from qlint.files import safe_join
from qlint.authoring.formatter import format_text
from qlint.importers import Imported, Unmapped
from qlint.loading.fast import resolve_plain
from qlint.loading.schema_fixes import slug
from qlint.authoring.scalars import literal_safe, retyped_by_yaml11
from qlint.printable import printable
from qlint.project.config import Config
from qlint.authoring.scaffold import question_file_name, schema_ref

ORDER_HINT = "qlint import: could not map"
# Outside YAML's printable set, or a line break only to YAML 1.1 (NEL, LS, PS); tab and LF are fine.
_ESCAPE = re.compile("[^\t\n\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029\ufeff]")


def target_path(q: Imported, output: Path) -> Path:
    """output/<exam>/<domain>/<id>.yaml. Exam, domain and id come from the source or the command
    line, so each becomes a plain slug (no `/`, `..` or absolute path can reach the file system),
    and the result must stay inside `output` (UnsafePathError), even through a symlinked folder."""
    d = q.data
    exam = slug(str(d.get("exam") or ""), 32) or "unknown-exam"
    if q.kind == "case":  # a case study: bank/<exam>/cases/<id>.yaml
        return safe_join(output, f"{exam}/cases/{slug(str(d.get('id') or ''), 80) or 'imported-case'}.yaml")
    domain = slug(str(d.get("domain") or ""), 64) or "unknown-domain"
    name = question_file_name(slug(str(d.get("id") or ""), 80) or "imported", exam, domain)
    return safe_join(output, f"{exam}/{domain}/{name}")


def _one_line(text: str) -> str:
    return " / ".join(part.strip() for part in text.splitlines() if part.strip())


def comment_text(text: str) -> str:
    """Text from a source (a file name, a quoted line, an author's comment) made safe to follow
    `# ` on one comment line: every line break YAML 1.1 or 1.2 knows (LF, CR, NEL, LS, PS), every
    other control and every bidi or invisible character is spelled as an escape (`\\n`,
    `\\u202e`), so nothing can end the comment and start YAML (`difficulty: easy`) or a
    `# qlint: disable-file` line, and nothing hides or reorders what a reviewer reads."""
    return printable(text)


def _where(u: Unmapped) -> str:
    return " ".join(filter(None, [u.part, f"line {u.line}" if u.line else ""])) or "source"


class _Literal(str):
    """Multi-line text, written as a literal block (the formatter's canonical style)."""


class _Quoted(str):
    """Text a YAML 1.1 or 1.2 reader would take for another type if written plain (`no`, `1e3`)."""


class _Dumper(yaml.CSafeDumper if hasattr(yaml, "CSafeDumper") else yaml.SafeDumper):  # libyaml's writer
    pass


_Dumper.add_representer(_Literal, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", str(s), style="|"))
_Dumper.add_representer(_Quoted, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", str(s), style='"'))


def _blocks(value: Any) -> Any:
    """Multi-line text as literal blocks, the formatter's canonical style (a quoted string would be
    kept quoted: the formatter keeps an author's quoting)."""
    if isinstance(value, dict):
        return {k: _blocks(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_blocks(v) for v in value]
    if isinstance(value, str) and "\n" in value.rstrip("\n") and literal_safe(value):
        return _Literal(value)
    if isinstance(value, str) and (retyped_by_yaml11(value) or resolve_plain(value) != value or _ESCAPE.search(value)):
        # `Yes`, `no`, `1e3`: text to every reader. Characters libyaml would write raw inside a
        # plain or single-quoted scalar (NEL, LS, PS: line breaks to YAML 1.1 readers) or that a
        # file may not hold (controls, a BOM) are written as escapes inside double quotes.
        return _Quoted(value)
    return value


def to_yaml(q: Imported, source: str, fmt: str, target: Path, config: Config) -> str:
    """The question as a formatted file; unmapped source text is kept in comments at the top.
    `source` says where the question comes from (`file:line`)."""
    body = yaml.dump(_blocks(q.data), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1 << 16)
    header = [f"# yaml-language-server: $schema={comment_text(_schema(target, config, q.kind))}",
              f"# Imported by qlint from {comment_text(source)} ({fmt}); review it"
              + (", then set status to review." if q.data.get("status", "draft") == "draft" else ".")]
    header += [f"# {ORDER_HINT} ({comment_text(_where(u))}): {comment_text(_one_line(u.message))}" for u in q.unmapped]
    header += [f"# source comment: {comment_text(_one_line(c))}" for c in q.comments]
    return format_text("\n".join(header) + "\n" + body, "case" if q.kind == "case" else "question", config)


def _schema(target: Path, config: Config, kind: str) -> str:
    if kind != "case":
        return schema_ref(target, config)
    project_schema = config.root / "schema" / "case.schema.json"
    if project_schema.is_file():
        return os.path.relpath(project_schema, target.parent)
    from importlib import resources

    return str(resources.files("qlint").joinpath("schemas", "case.schema.json"))

