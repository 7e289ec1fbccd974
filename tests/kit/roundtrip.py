"""Strategies and the export-then-import helper of the round-trip tests (test_import_roundtrip,
test_import_roundtrip_types): canonical Markdown, the text qlint's importers write themselves,
and one question through the real CLI both ways."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import string
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from qlint.cli import main

from conftest import BANK

EXAM = BANK / "exams" / "mla-c01.yaml"
DOMAINS = ["data-preparation", "model-development", "deployment-orchestration", "monitoring-security"]
TEXT_FIELDS = ("stem", "trap", "explanation")
OPTION_TEXT_FIELDS = ("rationale", "right_when", "why_chosen")

# -- canonical Markdown: what the importer writes itself, so it must come back unchanged --------

LETTERS = string.ascii_letters + string.digits + "éüß漢字😀"
word = st.text(alphabet=LETTERS, min_size=1, max_size=8)
punct_word = st.builds(lambda w, p: w + p, word, st.sampled_from(list(".,:;!?%)'\"") + [""]))
code_span = st.text(alphabet=LETTERS + "*_[]<>&#|\\~=+-.(): ", min_size=1, max_size=10).filter(
    lambda s: s.strip() == s).map(lambda s: f"`{s}`")
emphasis = st.lists(word, min_size=1, max_size=3).map(lambda ws: "*" + " ".join(ws) + "*")
strong = st.lists(word, min_size=1, max_size=3).map(lambda ws: "**" + " ".join(ws) + "**")
link = st.builds(lambda ws, path: f"[{' '.join(ws)}](https://example.org/{path})",
                 st.lists(word, min_size=1, max_size=3), st.text(alphabet="abc123-/", max_size=10))
token = st.one_of(word, word, punct_word, code_span, emphasis, strong, link,
                  st.sampled_from(["-", "+", "=", "#", "(a)", "1.", "&", "a&b", "x > y", "50%", "'q'", '"q"', "~"]))


@st.composite
def canonical_line(draw) -> str:
    return " ".join([draw(word)] + draw(st.lists(token, max_size=8)))  # a word first: no line-start syntax


def canonical_list(ordered: bool):
    return st.lists(canonical_line(), min_size=1, max_size=4).map(
        lambda items: "\n".join(f"{f'{i}.' if ordered else '-'} {t}" for i, t in enumerate(items, 1)))


canonical_paragraph = st.lists(canonical_line(), min_size=1, max_size=3).map("\n".join)
# A paragraph, maybe followed by a list (two lists in a row would be one loose list, another spelling).
canonical_block = st.tuples(canonical_paragraph, st.one_of(st.just(""), canonical_list(False), canonical_list(True))).map(
    lambda pair: "\n\n".join(p for p in pair if p))
canonical_text = st.lists(canonical_block, min_size=1, max_size=2).map(lambda bs: "\n\n".join(bs)).map(
    lambda t: t + "\n" if "\n" in t else t)

# -- any Markdown: syntax characters everywhere ------------------------------------------------

ids = st.text(alphabet=string.ascii_lowercase + string.digits, min_size=2, max_size=10)


def round_trip(q: dict[str, Any], fmt: str) -> tuple[dict[str, Any], str]:
    """Export the one-question bank with `fmt`, import it into an empty bank; (question, stderr)."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        root = Path(tmp)
        (root / "bank" / "exams").mkdir(parents=True)
        shutil.copy(EXAM, root / "bank" / "exams")
        (root / "qlint.toml").write_text('bank = "bank"\nexams = "bank/exams"\n', encoding="utf-8")
        folder = root / "bank" / "mla-c01" / q["domain"]
        folder.mkdir(parents=True)
        # JSON is YAML 1.2 as qlint reads it (PyYAML's YAML 1.1 writer would leave a tag like `0e0` unquoted)
        (folder / "q.yaml").write_text(json.dumps(q, ensure_ascii=False, indent=1), encoding="utf-8")
        out = root / ("package.zip" if fmt.startswith("qti") else "bank.gift" if fmt == "gift" else "bank.xml")
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(["export", "--format", fmt, "--output", str(out), "--status", "draft,review,published", "--force"])
        assert code == 0, err.getvalue()
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(["import", "--from", fmt, str(out), "--output", str(root / "imported")])
        messages = err.getvalue()
        files = list((root / "imported").rglob("*.yaml"))
        assert code == 0 and len(files) == 1, messages
        return yaml.safe_load(files[0].read_text(encoding="utf-8")), messages


