"""`qlint format`: the canonical layout of question and exam files, without losing a word.

Canonical form:
- keys in the order the schema lists them (`properties`, and `$defs.option.properties` for options);
  keys the schema does not know follow, in the author's order;
- scalars styled by the rule in `qlint.authoring.scalars`; lists of short scalars in flow style (`[a, b]`)
  when they fit the line, one item per line otherwise;
- indentation `indent` (list dashes indented under their key), line width `width`;
- a blank line between options and before every top-level field that spans several lines; no
  blank line right after a `key:` or `- ` that opens a block; never two blank lines in a row;
- comments kept with the field or option below them (end-of-line comments with their line).

Every result is verified before anyone writes it: the new text must load to the same data and
hold the same comments, or formatting is refused for that file.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from qlint.authoring.changes import Change
from qlint.loading.errors import LoadError
from qlint.loading.fast import FastPathError, load_fast
from qlint.loading.syntax import syntax_error
from qlint.loading.reader import decode, read_source
from qlint.loading.schema import schema
from qlint.project.config import Config, FormatOptions
from qlint.paths import display_path
from qlint.authoring import scalars
from qlint.authoring.yamldoc import Doc, Entry, Map, Scalar, Seq, Unsupported, Value, parse

BLANK_BETWEEN_ITEMS = {("options",), ("steps",), ("prompts",)}  # lists whose items are separated by one blank line
BLOCK_LISTS = {("case", ("items",))}  # (kind, path): one item per line, never `[a, b]` (a case's questions)


class FormatError(Exception):
    """A file that cannot be formatted safely; carries a position for the report."""

    def __init__(self, message: str, line: int = 1, col: int = 1, code: str = "") -> None:
        super().__init__(message)
        self.message, self.line, self.col, self.code = message, line, col, code


def kind_of(path: str, config: Config) -> str:
    """'exam', 'case' or 'question' (the engine's rule: `qlint.project.banks.file_kind`)."""
    from qlint.project.banks import file_kind

    return file_kind(path, config)


def _resolve(root: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref", "")
    if ref.startswith("#/"):
        node = root
        for part in ref[2:].split("/"):
            node = node[part]
    return node


@lru_cache(maxsize=None)
def key_order(kind: str, path: tuple[Any, ...]) -> tuple[str, ...]:
    """The schema's key order for the mapping at `path` (keys as names, list positions as ints)."""
    root = schema(kind)
    node = _resolve(root, root)
    for part in path:
        node = node.get("items", {}) if isinstance(part, int) else node.get("properties", {}).get(part, {})
        node = _resolve(root, node)
    return tuple(node.get("properties", {}))


def ordered(entries: list[Entry], kind: str, path: tuple[Any, ...]) -> list[Entry]:
    rank = {k: i for i, k in enumerate(key_order(kind, tuple(0 if isinstance(p, int) else p for p in path)))}
    return sorted(entries, key=lambda e: rank.get(e.key, len(rank)))  # stable: unknown keys keep their order


def tidy(lines: list[str], *, first: bool, blank: bool | None = None) -> list[str]:
    """Comment and blank lines before an element: runs of blanks collapsed; none at the start of a
    block (`first`); exactly one leading blank when `blank` is True."""
    out: list[str] = []
    for ln in lines:
        if ln == "" and (not out and first or out and out[-1] == ""):
            continue
        out.append(ln)
    if first:
        return out
    if blank and (not out or out[0] != ""):
        out.insert(0, "")
    return out


def _eol(line: str, comment: str | None) -> str:
    return f"{line}  {comment}" if comment else line


class _Emitter:
    def __init__(self, doc: Doc, kind: str, options: FormatOptions) -> None:
        self.doc, self.kind = doc, kind
        self.step, self.width = options.indent, options.width
        self.out: list[str] = []

    def comments(self, lines: list[str], indent: int) -> None:
        self.out += [(" " * indent + ln) if ln else "" for ln in lines]

    def scalar(self, value: Scalar, col: int, indent: int) -> list[str]:
        return scalars.render(value.value, value, col, indent, self.width)

    def flow(self, seq: Seq, col: int) -> str | None:
        """`[a, b]` for a list of one-line scalars without comments that fits the line."""
        if any(not isinstance(it.value, Scalar) or it.leading or it.eol for it in seq.items):
            return None
        parts = []
        for it in seq.items:
            rendered = scalars.render(it.value.value, it.value, 0, 0, 1 << 16)  # type: ignore[union-attr]
            if len(rendered) > 1 or any(c in rendered[0] for c in ",[]{}#") and rendered[0][0] not in "'\"":
                return None
            parts.append(rendered[0])
        text = "[" + ", ".join(parts) + "]"
        return text if col + len(text) <= self.width else None

    def entry(self, e: Entry, indent: int, prefix: str | None = None, path: tuple[Any, ...] = ()) -> tuple[list[str], bool]:
        """The entry's own lines (key line, scalar block) and whether a nested block follows them."""
        lead = prefix if prefix is not None else " " * indent
        key = e.key_source if "\n" not in e.key_source else scalars.render_inline(e.key)
        v = e.value
        if isinstance(v, Scalar):
            col = len(lead) + len(key) + 2
            rendered = self.scalar(v, col, indent + self.step)
            return [_eol(f"{lead}{key}: {rendered[0]}", e.eol)] + rendered[1:], False
        if isinstance(v, Seq) and not v.items:
            return [_eol(f"{lead}{key}: []", e.eol)], False
        if isinstance(v, Map) and not v.entries:
            return [_eol(f"{lead}{key}: {{}}", e.eol)], False
        if isinstance(v, Seq) and (self.kind, path + (e.key,)) not in BLOCK_LISTS:
            flow = self.flow(v, len(lead) + len(key) + 2)
            if flow is not None:
                return [_eol(f"{lead}{key}: {flow}", e.eol)], False
        return [_eol(f"{lead}{key}:", e.eol)], True

    def emit_map(self, m: Map, indent: int, path: tuple[Any, ...], prefix: str | None = None, top: bool = False) -> None:
        entries = ordered(m.entries, self.kind, path)
        for i, e in enumerate(entries):
            own, nested = self.entry(e, indent, prefix if i == 0 else None, path)
            if i == 0 and top:  # the file's header comments, then those of the first key
                self.comments(tidy(self.doc.header + e.leading, first=True), indent)
            elif i > 0 or prefix is None:  # (a list item's first key: the caller put them above the dash)
                multi = len(own) > 1 or nested
                self.comments(tidy(e.leading, first=i == 0, blank=(top and i > 0 and multi) or None), indent)
            self.out += own
            if nested:
                self.emit_block(e.value, indent + self.step, path + (e.key,))

    def emit_block(self, value: Value, indent: int, path: tuple[Any, ...]) -> None:
        if isinstance(value, Map):
            self.emit_map(value, indent, path)
        elif isinstance(value, Seq):
            self.emit_seq(value, indent, path)

    def emit_seq(self, s: Seq, indent: int, path: tuple[Any, ...]) -> None:
        spaced = tuple(p for p in path if not isinstance(p, int)) in BLANK_BETWEEN_ITEMS
        for i, it in enumerate(s.items):
            leading = list(it.leading) + ([it.eol] if it.eol else [])
            dash = " " * indent + "- "
            v = it.value
            if isinstance(v, Map) and v.entries:
                entries = ordered(v.entries, self.kind, path + (i,))
                leading += entries[0].leading
                self.comments(tidy(leading, first=i == 0, blank=spaced or None), indent)
                self.emit_map(Map(entries, False, v.start), indent + 2, path + (i,), prefix=dash)
            elif isinstance(v, Scalar):
                self.comments(tidy(leading, first=i == 0, blank=spaced or None), indent)
                rendered = self.scalar(v, len(dash), indent + 2)
                self.out.append(dash + rendered[0])
                self.out += rendered[1:]
            else:
                self.comments(tidy(leading, first=i == 0, blank=spaced or None), indent)
                flow = self.flow(v, len(dash)) if isinstance(v, Seq) else None
                if flow is not None or (isinstance(v, (Seq, Map)) and not (v.items if isinstance(v, Seq) else v.entries)):
                    self.out.append(dash + (flow or ("[]" if isinstance(v, Seq) else "{}")))
                else:
                    self.out.append(dash.rstrip())
                    self.emit_block(v, indent + 2, path + (i,))

    def document(self) -> str:
        if not self.doc.root.entries:
            self.out += tidy(self.doc.header, first=True)
        self.emit_map(self.doc.root, 0, (), top=True)
        trailer = tidy(self.doc.trailer, first=False)
        while trailer and trailer[-1] == "":
            trailer.pop()
        self.out += trailer
        return self.doc.newline.join(self.out) + self.doc.newline


def _comments(doc: Doc) -> Counter[str]:
    found: Counter[str] = Counter(ln for ln in doc.header + doc.trailer if ln.startswith("#"))
    stack: list[Value] = [doc.root]
    while stack:
        v = stack.pop()
        children = v.entries if isinstance(v, Map) else v.items if isinstance(v, Seq) else []
        for c in children:
            found.update(ln for ln in c.leading if ln.startswith("#"))
            if c.eol:
                found[c.eol] += 1
            stack.append(c.value)
    return found


def load(text: str, config: Config) -> dict[str, Any]:
    """Plain data of `text` via the qlint loader; LoadError with the authoritative position."""
    try:
        return load_fast(text, config.limits)
    except FastPathError as exc:
        raise syntax_error(text, exc) from None


def verify(before: Doc, after_text: str, config: Config, expected: Any = None) -> Doc:
    """Refuse a result that reads differently from `expected` (default: unchanged data) or that
    lost, gained or changed a comment."""
    try:
        after_data = load(after_text, config)
        after = parse(after_text, after_data)
    except (LoadError, Unsupported) as exc:
        raise FormatError(f"internal: the formatted text does not parse ({exc}); file left unchanged") from None
    if after_data != (before.data if expected is None else expected):
        raise FormatError("internal: the rewrite would change another value; file left unchanged (please report it)")
    if _comments(after) != _comments(before):
        raise FormatError("internal: formatting would change a comment; file left unchanged (please report it)")
    return after


def format_doc(doc: Doc, kind: str, options: FormatOptions) -> str:
    return _Emitter(doc, kind, options).document()


def format_text(text: str, kind: str, config: Config) -> str:
    """The canonical form of `text`; LoadError if it does not parse, FormatError if it cannot be kept."""
    data = load(text, config)
    if not isinstance(data, dict):
        raise LoadError("Y005", "the document is not a mapping")
    try:
        doc = parse(text, data)
    except Unsupported as exc:
        raise FormatError(exc.message, exc.line, exc.col) from None
    result = format_doc(doc, kind, config.format)
    verify(doc, result, config)
    return result


def format_file(path: str, config: Config) -> Change:
    """The file's formatted text as a pending change; LoadError or FormatError leave it untouched."""
    raw = read_source(path, config.root, config.limits)
    return Change(display_path(path), raw, format_text(decode(raw), kind_of(path, config), config))
