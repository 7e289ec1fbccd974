"""Rule cases: small question banks that say, on the offending line, which finding they expect.

One runner for item rules (tests/cases/<CODE>.yaml) and bank rules (tests/bank_cases/<CODE>.yaml).

Item case files (the format sqlfluff's YAML rule cases and inline-expectation fixtures inspired):

    rule: K011
    base: |                      # the question every case starts from
      stem: Which strategy splits the layers?
      options:
        - id: data
          rationale: Every GPU holds a full replica.
    cases:
      - name: the base itself is clean           # no patch: the base as written
      - name: a rationale about another option
        patch:                                   # path: replacement, written as in the question
          options.data.rationale: Hyperparameter search splits no layer.  # expect: K011
        drop: [options.data.right_when]          # fields removed from the base
        fixed: {stem: ...}                       # fixable rules: the text after `qlint check --fix
                                                 # --unsafe-fixes`, as a patch of the case (or a text)
      - name: a question the base cannot express
        yaml: |                                  # a whole question instead of base + patch
          ...

A file or a case may add `config:`, more of the case project's qlint.toml (the case's own entry
replacing the file's of the same name): a mapping is a table, `config: {review: {roles: [technical]}}`
writes `[review]`; any other value a top-level key, `config: {languages: [en, es]}`.

A path walks mapping keys and list items; a list item is named by its `id` or its index. A patched
value is copied into the question exactly as written (quotes, block scalars), re-indented.

Expectations are markers at the end of a line of the rendered question: two spaces, then
`# expect: CODE[@COL][, CODE...]`. The marker and its two spaces are removed before linting, so a
line keeps any trailing whitespace written before them. Without `@COL` the column is the start of
the first value that begins on that line (the node a rule flags); with it, that column. Either way
a finding that moves to another line or node fails its case.

Bank case files keep their own shape (files from templates, `series`, an `expect` list of
"path:line:col CODE [severity]"; see tests/bank_cases/_bases.yaml); literal file texts may carry
markers too, and `{{hash a.yaml}}` in a file is the content hash of the case's file a.yaml. Both kinds run through
`qlint check --output-format json` in a throwaway project.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from string import Template

import yaml

from qlint.cli import main as qlint_main
from qlint.project.contenthash import content_hash

# libyaml's loader: every worker builds the cases at collection, and the pure-Python composer
# made that 1.5 s; the marks (line, column) are the same
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

REPO = Path(__file__).resolve().parent.parent
ITEM_CASES = Path(__file__).parent / "cases"
BANK_CASES = Path(__file__).parent / "bank_cases"

MARKER = re.compile(r"  # expect: (?P<codes>[^#\n]*)$")
TAIL = re.compile(r"[ \t]*(?:  # expect: [^#\n]*)?")
LOOSE_MARKER = re.compile(r"#\s*expect\b")
EXPECTATION = re.compile(r"(?P<code>[A-Z][0-9]{3})(?:@(?P<col>[0-9]+))?(?: (?P<severity>error|warning|info))?$")


class CaseError(Exception):
    """A case file the runner cannot read: a bad path, marker or field."""


# --- markers ---------------------------------------------------------------------------------


def strip_markers(text: str) -> tuple[str, list[tuple[int, int | None, str, str | None]]]:
    """The text without its `# expect:` markers, and (line, col or None, code, severity) per mark."""
    lines = text.split("\n")
    marks = []
    for n, line in enumerate(lines, 1):
        found = MARKER.search(line)
        if not found:
            if LOOSE_MARKER.search(line):
                raise CaseError(f"line {n}: an expect marker is '  # expect: CODE[@COL], ...' at the end of a line: {line!r}")
            continue
        lines[n - 1] = line[: found.start()]
        for item in found["codes"].split(","):
            got = EXPECTATION.match(item.strip())
            if not got:
                raise CaseError(f"line {n}: {item.strip()!r} is not CODE, CODE@COL or CODE severity")
            marks.append((n, int(got["col"]) if got["col"] else None, got["code"], got["severity"]))
    return "\n".join(lines), marks


def _node_starts(text: str) -> dict[int, int]:
    """1-based line -> 1-based column of the first value (scalar, list or mapping) starting there."""
    try:
        root = yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError:
        return {}
    starts: dict[int, int] = {}

    def visit(node, is_key=False):
        if node is None:
            return
        if not is_key:
            line, col = node.start_mark.line + 1, node.start_mark.column + 1
            starts[line] = min(starts.get(line, col), col)
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                visit(k, is_key=True)
                visit(v)
        elif isinstance(node, yaml.SequenceNode):
            for v in node.value:
                visit(v)

    visit(root)
    return starts


def expectations(text: str, path: str = "") -> tuple[str, list[str]]:
    """The clean text and its expected findings as "[path:]line:col CODE[ severity]"."""
    clean, marks = strip_markers(text)
    starts = _node_starts(clean) if any(col is None for _, col, _, _ in marks) else {}
    lines = clean.split("\n")
    out = []
    for line, col, code, severity in marks:
        if col is None:
            col = starts.get(line) or len(lines[line - 1]) - len(lines[line - 1].lstrip()) + 1
        out.append(f"{path + ':' if path else ''}{line}:{col} {code}" + (f" {severity}" if severity else ""))
    return clean, out


# --- rendering: base + patch -----------------------------------------------------------------


@dataclass
class Span:
    """A node's text in a document: 0-based (line, col) of its start and end, end exclusive."""

    start: tuple[int, int]
    end: tuple[int, int]
    anchor: int  # column of the key (or list dash) that owns the node: re-indentation is relative to it


def _end(node, lines: list[str]) -> tuple[int, int]:
    """Where a node's own text ends: a block collection at its last value, a block scalar at its
    last non-blank line (the parser's end marks point at the next token)."""
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style and node.value:
        last = node.value[-1]
        return _end(last[1] if isinstance(node, yaml.MappingNode) else last, lines)
    line, col = node.end_mark.line, node.end_mark.column
    if line > node.start_mark.line and (line >= len(lines) or not lines[line][:col].strip()):
        line -= 1
        while line > node.start_mark.line and not lines[line].strip():
            line -= 1
        col = len(lines[line])
    return line, col


def _find(root, path: str, lines: list[str]) -> tuple[object, object, int]:
    """(parent node, the node at `path` or None, anchor column); the last segment may be new."""
    parent, node, anchor = None, root, 0
    for segment in path.split("."):
        parent = node
        if isinstance(node, yaml.MappingNode):
            hit = [(k, v) for k, v in node.value if k.value == segment]
            if hit:
                anchor = hit[0][0].start_mark.column
            node = hit[0][1] if hit else None
        elif isinstance(node, yaml.SequenceNode):
            items = node.value
            if segment.isdigit():
                node = items[int(segment)] if int(segment) < len(items) else None
            else:
                node = next((i for i in items if isinstance(i, yaml.MappingNode)
                             and any(k.value == "id" and getattr(v, "value", None) == segment for k, v in i.value)), None)
            if node is not None:  # the dash before the item
                anchor = lines[node.start_mark.line].rfind("-", 0, node.start_mark.column)
        else:
            raise CaseError(f"path {path!r}: {segment!r} is below a scalar")
        if node is None and segment != path.split(".")[-1]:
            raise CaseError(f"path {path!r}: no {segment!r} in the base")
    return parent, node, anchor


def _splice(lines: list[str], span: Span, raw: list[str], raw_anchor: int) -> list[str]:
    """Replace the span by `raw` (lines as written in the case file), re-indented onto the span."""
    shift = span.anchor - raw_anchor
    moved = [raw[0]] + [(" " * (len(r) - len(r.lstrip(" ")) + shift) + r.lstrip(" ")) if r.strip() else "" for r in raw[1:]]
    (sl, sc), (el, ec) = span.start, span.end
    suffix = lines[el][ec:]
    if TAIL.fullmatch(suffix):  # the base's trailing blanks and marker belonged to the value replaced
        suffix = ""
    middle = moved[:-1] + [moved[-1] + suffix]
    middle[0] = lines[sl][:sc] + middle[0]
    return lines[:sl] + middle + lines[el + 1:]


def _raw(source: list[str], key, value) -> tuple[list[str], int]:
    """The patch value's text as written in the case file (with a marker ending its last line)."""
    (sl, sc), (el, ec) = (value.start_mark.line, value.start_mark.column), _end(value, source)
    if sl == el:
        raw = [source[sl][sc:ec]]
    else:
        raw = [source[sl][sc:]] + source[sl + 1: el] + [source[el][:ec]]
    rest = source[el][ec:]
    if TAIL.fullmatch(rest):  # trailing blanks (a case may test them) and the marker
        raw[-1] += rest
    return raw, key.start_mark.column


def render_item(base: str, patch_nodes: list[tuple[object, object]], drop: list[str], source: list[str]) -> str:
    """The base question with each patch value spliced in and each dropped field removed."""
    text = base
    for key, value in patch_nodes:
        path = key.value
        clean, _ = strip_markers(text)
        lines, clean_lines = text.split("\n"), clean.split("\n")
        root = yaml.compose(clean, Loader=_LOADER)
        parent, node, anchor = _find(root, path, clean_lines)
        raw, raw_anchor = _raw(source, key, value)
        if node is not None:
            span = Span((node.start_mark.line, node.start_mark.column), _end(node, clean_lines), anchor)
            lines = _splice(lines, span, raw, raw_anchor)
        elif isinstance(parent, yaml.MappingNode) and parent.value:  # a new field after the last one
            last_key, last = parent.value[-1]
            el, _ = _end(last, clean_lines)
            name = path.split(".")[-1]
            col = last_key.start_mark.column
            new = _splice([" " * col + name + ": "], Span((0, col + len(name) + 2), (0, col + len(name) + 2), col), raw, raw_anchor)
            lines = lines[: el + 1] + new + lines[el + 1:]
        else:
            raise CaseError(f"path {path!r}: no such field in the base, and no mapping to add it to")
        text = "\n".join(lines)
    for path in drop:
        clean, _ = strip_markers(text)
        lines, clean_lines = text.split("\n"), clean.split("\n")
        parent, node, _ = _find(yaml.compose(clean, Loader=_LOADER), path, clean_lines)
        if node is None or not isinstance(parent, yaml.MappingNode):
            raise CaseError(f"drop {path!r}: no such field in the base")
        key = next(k for k, v in parent.value if v is node)
        first, (last, _) = key.start_mark.line, _end(node, clean_lines)
        if clean_lines[first][: key.start_mark.column].strip():
            raise CaseError(f"drop {path!r}: the field shares its line with another; patch the list item instead")
        lines = lines[:first] + lines[last + 1:]
        text = "\n".join(lines)
    return text


# --- loading ---------------------------------------------------------------------------------


@dataclass
class Case:
    rule: str
    name: str
    scope: str  # "item" or "bank"
    files: dict[str, str]  # path in the bank -> text, markers included
    targets: list[str]
    expect: list[str]  # besides the markers: "path:line:col CODE [severity]"
    options: dict = field(default_factory=dict)
    fixed: str | None = None  # item cases: the question after every fix
    origin: str = ""
    config: dict = field(default_factory=dict)  # more qlint.toml: top-level keys ({"languages": [...]}) and
    # tables ({"review": {"roles": [...]}})


def _pairs(node) -> dict:
    return {k.value: v for k, v in node.value} if isinstance(node, yaml.MappingNode) else {}


def _load_item_file(path: Path) -> list[Case]:
    text = path.read_text(encoding="utf-8")
    source = text.split("\n")
    data = yaml.load(text, Loader=_LOADER)
    tree = _pairs(yaml.compose(text, Loader=_LOADER))
    base = data.get("base")
    out = []
    for spec, node in zip(data["cases"], tree["cases"].value):
        nodes = _pairs(node)
        where = f"{path.name}: case {spec['name']!r}"
        try:
            if "yaml" in spec:
                question = spec["yaml"]
            elif base is None:
                raise CaseError("needs `yaml`, or a `base` in the file")
            else:
                patch = list(nodes["patch"].value) if "patch" in nodes else []
                question = render_item(base, patch, spec.get("drop") or [], source)
            fixed = None
            if "fixed" in spec:
                clean, _ = strip_markers(question)
                fixed = spec["fixed"] if isinstance(spec["fixed"], str) else render_item(clean, list(nodes["fixed"].value), [], source)
        except (CaseError, yaml.YAMLError) as exc:
            raise CaseError(f"{where}: {exc}") from None
        files = {"case.yaml": question, **(spec.get("files") or {})}
        out.append(Case(data["rule"], spec["name"], "item", files, ["case.yaml"], list(spec.get("expect") or []),
                        dict(spec.get("options") or {}), fixed, where,
                        {**(data.get("config") or {}), **(spec.get("config") or {})}))
    return out


# bank cases: question files from the templates of _bases.yaml
LETTERS = "ABCDE"
OPTION_WORDS = ("alpha", "bravo", "delta", "gamma", "omega")  # equal lengths: no key is longest by chance


def render_bank_question(bases: dict[str, str], name: str, spec: dict) -> str:
    """A question file from a base template: `key` letters set `correct`, `long-key` lengthens the key."""
    values = {k.replace("-", "_"): v for k, v in spec.items() if k not in ("base", "key", "long-key")}
    slug = Path(name).stem.lower()
    keys = spec.get("key", "A")
    values.setdefault("id", f"case-{slug}")
    values.setdefault("domain", "model-development")
    values.setdefault("stem", f"Which choice does the scenario numbered {slug} require?")
    values.setdefault("explanation", "The keyed choice meets the requirement of the scenario.")
    values.setdefault("related", "[]")
    for pos, word in enumerate(OPTION_WORDS):
        keyed = LETTERS[pos] in keys
        values[f"c{pos}"] = "true" if keyed else "false"
        text = values.get(f"t{pos}", f"Choice {word}")
        if keyed and spec.get("long-key"):
            text += " with a qualifying clause that makes it the longest"
        values[f"t{pos}"] = text
    return Template(bases[spec.get("base", "q")]).substitute(values)


def _bank_files(bases: dict[str, str], case: dict) -> dict[str, str]:
    files = {}
    for name, spec in (case.get("files") or {}).items():
        files[name] = spec if isinstance(spec, str) else render_bank_question(bases, name, spec)
    for s, series in enumerate(case.get("series") or []):
        keys = series["keys"].split() if " " in series["keys"] else series["keys"]
        for n, letters in enumerate(keys):
            name = f"s{s}-{n:03d}.yaml"
            spec = dict(series.get("vars") or {}, base=series.get("base", "q"), key=letters)
            spec["long-key"] = series.get("long-key", False)
            spec.setdefault("id", f"s{s}-{n:03d}")
            files[name] = render_bank_question(bases, name, spec)
    return files


def _load_bank_file(path: Path) -> list[Case]:
    spec = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    bases = {**yaml.load((BANK_CASES / "_bases.yaml").read_text(encoding="utf-8"), Loader=_LOADER), **(spec.get("bases") or {})}
    out = []
    for case in spec["cases"]:
        files = _bank_files(bases, case)
        out.append(Case(spec["rule"], case["name"], "bank", files, list(case.get("targets") or files),
                        list(case.get("expect") or []), dict(case.get("options") or {}), None,
                        f"{path.name}: case {case['name']!r}", dict(case.get("config") or {})))
    return out


def load_cases() -> list[Case]:
    cases = []
    for f in sorted(ITEM_CASES.glob("[A-Z]*.yaml")):
        cases += _load_item_file(f)
    for f in sorted(BANK_CASES.glob("[A-Z]*.yaml")):
        cases += _load_bank_file(f)
    return cases


# --- running ---------------------------------------------------------------------------------


def _toml(value) -> str:
    return json.dumps(value)  # strings, numbers, booleans and lists are the same in TOML


def write_expectations(case: Case) -> tuple[dict[str, str], list[str]]:
    """The case's files without markers, and every finding it expects."""
    files, expected = {}, list(case.expect)
    for name, text in case.files.items():
        if name.endswith(".yaml"):
            text, marks = expectations(text, "" if case.scope == "item" else name)
            expected += marks
        files[name] = text
    return files, expected


# `{{hash a.yaml}}` in a bank case's file: the content hash of the case's file a.yaml (L003)
_HASH = re.compile(r"\{\{hash ([^}]+)\}\}")


def write_project(root: Path, case: Case) -> tuple[Path, list[str]]:
    """The case as a project: qlint.toml, the files under bank/; returns the bank and the expectations."""
    bank = root / "bank"
    own_exams = any(n.startswith("exams/") for n in case.files)
    exams = "bank/exams" if own_exams else "exams"  # the sample exams beside the bank: a configured path stays in the project
    if not own_exams:
        shutil.copytree(REPO / "bank" / "exams", root / "exams", dirs_exist_ok=True)
    config = [f"bank = {_toml('bank')}", f"exams = {_toml(exams)}"]
    config += [f"{k} = {_toml(v)}" for k, v in case.config.items() if not isinstance(v, dict)]
    for table, values in case.config.items():  # before [rules.X]: a table header ends the top level
        if isinstance(values, dict):
            config.append(f"[{table}]")
            config += [f"{k} = {_toml(v)}" for k, v in values.items()]
    if case.options:
        config.append(f"[rules.{case.rule}]")
        config += [f"{k} = {_toml(v)}" for k, v in case.options.items()]
    (root / "qlint.toml").write_text("\n".join(config) + "\n", encoding="utf-8")
    files, expected = write_expectations(case)
    for name, text in files.items():
        text = _HASH.sub(lambda m: content_hash(yaml.safe_load(files[m.group(1)])), text)
        target = bank / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return bank, expected


def qlint(root: Path, *args: str) -> tuple[int, str]:
    """`qlint ARGS` run in-process with `root` as working directory: (exit code, stdout)."""
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(root)
    try:
        with contextlib.redirect_stdout(out):
            code = qlint_main(list(args))
    finally:
        os.chdir(here)
    return code, out.getvalue()


def findings(case: Case, root: Path, bank: Path, graded: bool) -> list[str]:
    # S001 always runs, so a case with a schema mistake cannot pass silently
    code, out = qlint(root, "check", "--select", f"{case.rule},S001", "--output-format", "json",
                      "--no-cache", "--jobs", "1", *[str(bank / t) for t in case.targets])
    if code not in (0, 1) and not (code == 2 and case.rule.startswith("Y")):  # a Y finding exits 2
        raise AssertionError(f"{case.origin}: qlint check exited {code}")
    got = []
    for d in json.loads(out)["diagnostics"]:
        where = os.path.relpath(os.path.join(root, d["path"]), bank).replace(os.sep, "/")
        prefix = "" if case.scope == "item" else where + ":"
        got.append(f"{prefix}{d['line']}:{d['col']} {d['code']}" + (f" {d['severity']}" if graded else ""))
    return sorted(got)


def fix(case: Case, root: Path, bank: Path) -> str:
    qlint(root, "check", "--select", case.rule, "--fix", "--unsafe-fixes", "--no-cache", "--jobs", "1",
          str(bank / case.targets[0]))
    return (bank / case.targets[0]).read_text(encoding="utf-8")


def run(case: Case, root: Path) -> tuple[list[str], list[str]]:
    """(expected, found) findings of the case, sorted."""
    bank, expected = write_project(root, case)
    graded = any(len(e.split()) == 3 for e in expected)
    return sorted(expected), findings(case, root, bank, graded)
