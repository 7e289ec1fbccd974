"""The content hash (`qlint.project.contenthash`): layout never changes it, meaning always does.

The two property tests edit the sample bank's questions as text and count the distinct edits they
made: formatting-only edits (re-wrapped paragraphs, extra spaces, every YAML quoting and block
style, comments, key order at every level, `qlint format`) must all keep each question's hash;
edits of meaning (a word of any teaching text, a key flag, two keyed steps swapped, a match
changed, `choose` changed), written in the same random layouts, must all change it.
"""

from __future__ import annotations

import copy
import io
import random
import re
import shutil
import textwrap

import pytest

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import (DoubleQuotedScalarString, FoldedScalarString, LiteralScalarString,
                                      SingleQuotedScalarString)

from qlint.authoring.formatter import format_text
from qlint.cli.config import load_config
from qlint.loading.fast import load_fast
from qlint.loading.limits import Limits
from qlint.project.contenthash import changed_fields, content_fields, content_hash, normal_text

from conftest import REPO, examples
from rulecases import qlint

CONFIG = load_config(REPO)
FILES = sorted(p for p in (REPO / "bank" / "mla-c01").rglob("*.yaml") if "cases" not in p.parts)
TEXTS = [p.read_text(encoding="utf-8") for p in FILES]
DATA = [load_fast(t, Limits()) for t in TEXTS]
HASHES = [content_hash(d) for d in DATA]
STYLES = (None, SingleQuotedScalarString, DoubleQuotedScalarString, LiteralScalarString, FoldedScalarString)
TEXT_KEYS = ("stem", "trap", "explanation")
PART_TEXT_KEYS = ("text", "rationale", "right_when", "why_chosen")
_BLOCK = re.compile(r"^\s*(?:[-*+]\s|\d{1,9}[.)]\s|#{1,6}\s|>|\|)")


# --- unit cases ---------------------------------------------------------------------------------

def test_the_sample_bank_has_the_shapes_the_edits_need():
    types = {d["type"] for d in DATA}
    assert types == {"single", "multiple", "ordering", "matching"}
    assert len(set(HASHES)) == len(HASHES)  # no two questions share a hash
    assert all(h.startswith("sha256:") and len(h) == 7 + 64 for h in HASHES)


def test_wrapping_and_spacing_are_removed_but_blocks_stay():
    assert normal_text("A  team\nmust train\n\n\nIt  fails.\n") == "A team must train\n\nIt fails."
    assert normal_text("Steps:\n- one\n  more\n- two\n") == "Steps:\n- one more\n- two"
    assert normal_text("Steps: - one - two") != normal_text("Steps:\n- one\n- two")
    code = "Run:\n\n```python\nif x:\n    y()   \n```\n"
    assert normal_text(code) == "Run:\n\n```python\nif x:\n    y()\n```"
    assert normal_text("e\u0301t\u00e9") == normal_text("\u00e9t\u00e9")  # NFC


def test_check_fix_of_trailing_whitespace_keeps_the_hash(tmp_path):
    path = FILES[0]
    (tmp_path / "bank").mkdir()
    target = tmp_path / "bank" / path.name
    lines = TEXTS[0].split("\n")
    spaced = "\n".join(ln + "   " if ln.startswith("  ") and ln.strip() else ln for ln in lines)
    target.write_text(spaced, encoding="utf-8")
    (tmp_path / "qlint.toml").write_text('bank = "bank"\nexams = "exams"\n', encoding="utf-8")
    shutil.copytree(REPO / "bank" / "exams", tmp_path / "exams")
    qlint(tmp_path, "check", "--fix", "--unsafe-fixes", "--select", "F001", "--no-cache", str(target))
    fixed = target.read_text(encoding="utf-8")
    assert fixed != spaced  # F001 removed the spaces it reports (those inside texts)
    assert content_hash(load_fast(spaced, Limits())) == content_hash(load_fast(fixed, Limits())) == HASHES[0]


def test_fields_outside_the_teaching_text_do_not_count():
    data = copy.deepcopy(DATA[0])
    for key, value in (("status", "retired"), ("difficulty", "hard"), ("tags", ["x-y"]), ("tasks", ["9.9"]),
                       ("references", []), ("related", ["other-id"]), ("domain", "elsewhere")):
        data[key] = value
    data["reviews"] = [{"reviewer": "ana", "role": "technical", "date": "2026-01-01", "hash": HASHES[0]}]
    assert content_hash(data) == HASHES[0]


def test_option_order_counts_only_when_shuffling_is_off():
    data = next(d for d in DATA if d["type"] == "single" and d.get("shuffle") is not False)
    moved = copy.deepcopy(data)
    moved["options"].reverse()
    assert content_hash(moved) == content_hash(data)  # `qlint shuffle` keeps the sign-off
    fixed, fixed_moved = copy.deepcopy(data), copy.deepcopy(moved)
    fixed["shuffle"] = fixed_moved["shuffle"] = False
    assert content_hash(fixed) != content_hash(data)
    assert content_hash(fixed) != content_hash(fixed_moved)
    pinned = copy.deepcopy(data)
    pinned["options"][-1]["pinned"] = True
    assert content_hash(pinned) != content_hash(data)


def test_distractor_steps_may_move_keyed_steps_may_not():
    data = next(d for d in DATA if d["type"] == "ordering" and any(s.get("correct") is False for s in d["steps"]))
    steps = data["steps"]
    keyed = [i for i, s in enumerate(steps) if s.get("correct") is not False]
    other = next(i for i, s in enumerate(steps) if s.get("correct") is False)
    moved = copy.deepcopy(data)
    step = moved["steps"].pop(other)
    moved["steps"].insert(0, step)
    assert content_hash(moved) == content_hash(data)
    swapped = copy.deepcopy(data)
    a, b = keyed[0], keyed[1]
    swapped["steps"][a], swapped["steps"][b] = swapped["steps"][b], swapped["steps"][a]
    assert content_hash(swapped) != content_hash(data)
    assert changed_fields(data, swapped) == ["steps (order)"]


def test_changed_fields_name_what_changed():
    data = next(d for d in DATA if d["type"] == "single")
    after = copy.deepcopy(data)
    after["stem"] += " Really?"
    after["options"][0]["rationale"] = (after["options"][0].get("rationale") or "") + " More."
    after["options"][1]["correct"] = not after["options"][1]["correct"]
    ids = [o["id"] for o in data["options"]]
    assert changed_fields(data, after) == ["stem", f"options[{ids[0]}].rationale", f"options[{ids[1]}].correct"]
    del after["options"][2]
    assert f"options[{ids[2]}] (removed)" in changed_fields(data, after)
    assert changed_fields(data, copy.deepcopy(data)) == []


def test_a_case_question_hashes_its_case_studys_title_and_scenario():
    case = load_fast((REPO / "bank" / "mla-c01" / "cases" / "demand-forecast.yaml").read_text(encoding="utf-8"), Limits())
    member = next(d for d in DATA if d.get("case") == case["id"])
    alone = next(d for d in DATA if not d.get("case"))
    assert content_hash(alone, case) == content_hash(alone)  # no case named: the hash as before
    assert content_hash(member, case) != content_hash(member)
    for key, value in (("scenario", case["scenario"].replace("\n", "\n ", 3) + "\n"),  # layout only
                       ("references", []), ("status", "draft"), ("items", case["items"][::-1])):
        assert content_hash(member, dict(case, **{key: value})) == content_hash(member, case), key
    for key, value in (("scenario", case["scenario"].replace("600", "60")), ("title", "Another title")):
        changed = dict(case, **{key: value})
        assert content_hash(member, changed) != content_hash(member, case), key
        assert changed_fields(member, member, case, changed) == [f"case.{key}"]
    assert changed_fields(member, member, case, case) == []


def test_hash_of_malformed_data_is_still_a_hash():
    for data in ({}, {"options": "x"}, {"options": [1, None, {"id": 3}]}, {"steps": [[]]}, {"stem": 5}):
        assert content_hash(data).startswith("sha256:")
    assert content_fields([]) == {}


# --- generated layouts --------------------------------------------------------------------------

def rewrap(text: str, width: int, spaces: bool) -> str:
    """`text` with each plain paragraph filled to `width` (a line must not start a Markdown block,
    which would change the text's meaning), optionally with doubled spaces."""
    if "```" in text or "~~~" in text:
        return text
    out = []
    for para in text.split("\n\n"):
        if any(_BLOCK.match(line) for line in para.split("\n")) or not para.strip():
            out.append(para)
            continue
        filled = textwrap.fill(" ".join(para.split()), width=width, break_long_words=False, break_on_hyphens=False)
        if any(_BLOCK.match(line) for line in filled.split("\n")[1:]):
            filled = " ".join(para.split())
        if spaces:
            filled = filled.replace(" ", "  ", 1)
        out.append(filled)
    return "\n\n".join(out) + ("\n" if text.endswith("\n") else "")


@st.composite
def layout(draw):
    """A way to write a question: per-value choices drawn as the writer walks the data."""
    return random.Random(draw(st.integers(0, 2**32))), draw(st.integers(30, 120)), draw(st.booleans())


def write(data, rng, width: int) -> str:
    """`data` as YAML text: keys shuffled, each string in a random style (re-wrapped first when it
    is long), comments before keys and at line ends."""
    counter = iter(range(10_000))

    def node(value):
        if isinstance(value, dict):
            keys = list(value)
            rng.shuffle(keys)
            m = CommentedMap((k, node(value[k])) for k in keys)
            for k in keys:
                roll = rng.random()
                if roll < 0.15:
                    m.yaml_set_comment_before_after_key(k, before=f"note {next(counter)}: #, 'quoted'")
                elif roll < 0.25 and not isinstance(m[k], (dict, list)):
                    m.yaml_add_eol_comment(f"# eol {next(counter)}", k)
            return m
        if isinstance(value, list):
            return CommentedSeq(node(v) for v in value)
        if isinstance(value, str):
            text = rewrap(value, rng.randint(20, 100), rng.random() < 0.3) if rng.random() < 0.6 else value
            style = rng.choice(STYLES)
            if style in (LiteralScalarString, FoldedScalarString) and (text != text.lstrip() or "\t" in text):
                style = DoubleQuotedScalarString  # a block cannot start with spaces without an indicator
            return style(text) if style else text
        return value

    y = YAML()
    y.width = width
    buf = io.StringIO()
    y.dump(node(data), buf)
    return "# yaml-language-server: $schema=../../../schema/question.schema.json\n" + buf.getvalue()


def reread(text: str):
    try:
        return load_fast(text, Limits())
    except Exception:  # a layout the writer chose that qlint's loader rejects is no input here
        assume(False)


@pytest.mark.slow  # about 25 s: 1,200 questions written and read back
def test_formatting_only_edits_keep_the_hash():
    seen: set[str] = set()

    @settings(max_examples=examples(1200), deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.integers(0, len(FILES) - 1), layout())
    def check(index, how):
        rng, width, formatted = how
        data = DATA[index]
        text = write(data, rng, width)
        if formatted:
            text = format_text(text, "question", CONFIG)
        after = reread(text)
        assert content_hash(after) == HASHES[index], (FILES[index].name, changed_fields(data, after), text)
        seen.add(text)

    check()
    assert len(seen) >= 1000, len(seen)
    for text, path, digest in zip(TEXTS, FILES, HASHES):  # and `qlint format` on the files themselves
        assert content_hash(load_fast(format_text(text, "question", CONFIG), Limits())) == digest, path.name


def _texts(data) -> list[tuple[tuple, str]]:
    """(path, text) of every teaching text of the question."""
    out = [((k,), data[k]) for k in TEXT_KEYS if isinstance(data.get(k), str)]
    for field in ("options", "steps", "prompts", "responses"):
        for i, part in enumerate(data.get(field) or []):
            out += [((field, i, k), part[k]) for k in PART_TEXT_KEYS if isinstance(part.get(k), str)]
    return out


def _set(data, path, value):
    target = data
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value


WORD = re.compile(r"[A-Za-z]{3,}")


@st.composite
def meaning_edit(draw):
    """(question index, edited data, what was edited, layout): one change of meaning. Hypothesis draws a
    seed and the choices follow from it (drawing each choice from Hypothesis directly favours the
    first question and the first word, and repeats them)."""
    rng = random.Random(draw(st.integers(0, 2**32)) * 2**33 + draw(st.integers(0, 2**32)))
    index = rng.randrange(len(FILES))
    data = copy.deepcopy(DATA[index])
    kinds = ["word"] * 3
    if data["type"] in ("single", "multiple", "ordering"):
        kinds.append("key")
    if data["type"] == "multiple":
        kinds.append("choose")
    if data["type"] == "ordering":
        kinds.append("swap")
    if data["type"] == "matching":
        kinds.append("match")
    kind = rng.choice(kinds)
    if kind == "word":
        path, text = rng.choice(_texts(data))
        m = rng.choice(list(WORD.finditer(text)))
        new = rng.choice(["not", "never", "always", m.group(0) + "s", m.group(0)[::-1] + "x", "Amazon"])
        assume(new != m.group(0))
        _set(data, path, text[:m.start()] + new + text[m.end():])
        what = f"word {m.group(0)!r} at {m.start()} -> {new!r} in {'/'.join(map(str, path))}"
    elif kind == "key":
        field = "options" if data["type"] != "ordering" else "steps"
        i = rng.randrange(len(data[field]))
        part = data[field][i]
        part["correct"] = part.get("correct") is False if field == "steps" else not part["correct"]
        what = f"key flag of {field}[{i}]"
    elif kind == "choose":
        data["choose"] = data["choose"] + rng.choice([-1, 1])
        what = f"choose {data['choose']}"
    elif kind == "swap":
        keyed = [i for i, s in enumerate(data["steps"]) if s.get("correct") is not False]
        a, b = rng.sample(keyed, 2)
        data["steps"][a], data["steps"][b] = data["steps"][b], data["steps"][a]
        what = f"steps {min(a, b)} and {max(a, b)} swapped"
    else:
        i = rng.randrange(len(data["prompts"]))
        others = [r["id"] for r in data["responses"] if r["id"] != data["prompts"][i]["match"]]
        data["prompts"][i]["match"] = rng.choice(others)
        what = f"match of prompts[{i}] -> {data['prompts'][i]['match']}"
    return index, data, what, (rng, rng.randint(30, 120), rng.random() < 0.5)  # and the layout to write it in


@pytest.mark.slow  # about 25 s, as above
def test_edits_of_meaning_change_the_hash():
    seen: set[str] = set()
    kinds: set[str] = set()

    @settings(max_examples=examples(1400), deadline=None, suppress_health_check=list(HealthCheck))
    @given(meaning_edit())
    def check(edit):
        index, data, what, how = edit
        rng, width, formatted = how
        text = write(data, rng, width)
        if formatted:
            text = format_text(text, "question", CONFIG)
        after = reread(text)
        assert content_hash(after) != HASHES[index], (FILES[index].name, what)
        assert changed_fields(DATA[index], after), what
        seen.add(content_hash(after))  # distinct edited questions, not distinct draws
        kinds.add(what.split()[0])

    check()
    assert len(seen) >= 1000, len(seen)
    assert kinds == {"word", "key", "choose", "steps", "match"}


# One-line texts take a short cut (most fields are one line): it must say what the line-by-line
# reading says, for fences, list marks, odd spaces and text that NFC changes.
_ONE_LINE = st.text(st.sampled_from(list("ab `~-*#>|1.) \t\u00a0\u2028\u3000\u0301e\u00e9")), max_size=30)


@given(_ONE_LINE, st.sampled_from(["", "\n", "\n\n", "\r\n", "\r", "\n\r\n"]))
@settings(max_examples=600, deadline=None)
def test_the_one_line_short_cut_agrees_with_the_line_reading(line, breaks):
    from qlint.project.contenthash import _lines, normal_text

    assert normal_text(line + breaks) == _lines(line + breaks)


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c", ""]), st.sampled_from(["x", "y"])), max_size=6))
@settings(max_examples=300, deadline=None)
def test_parts_sort_by_id_then_by_their_text_whatever_the_ids(pairs):
    import json

    from qlint.project.contenthash import _by_id

    parts = [{"id": i, "text": t} for i, t in pairs]
    full = sorted(parts, key=lambda p: (str(p.get("id", "")), json.dumps(p, sort_keys=True, ensure_ascii=False)))
    assert _by_id(parts) == full


# The characters that decide how `_lines` cuts a text: line ends, blank lines, fences, list
# markers, headings, quotes, table bars, spaces of other kinds and a combining accent (NFC).
_LAYOUT = "ab \n\n\t\r-*+1.)#>|`~\u00a0\u2028e\u0301é"


def test_the_fast_paths_of_normal_text_agree_with_reading_line_by_line():
    from qlint.project.contenthash import _lines

    rng = random.Random(3)
    for _ in range(30000):
        text = "".join(rng.choice(_LAYOUT) for _ in range(rng.randint(0, 24)))
        assert normal_text(text) == _lines(text), repr(text)
    wrapped = "Which service\nstores objects\n  durably?\n"
    assert normal_text(wrapped) == "Which service stores objects durably?" == _lines(wrapped)
