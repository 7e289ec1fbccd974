"""A question file as a tree that knows where every value, comment and blank line sits.

libyaml's composer (through PyYAML's C binding; ruamel.yaml's pure-Python composer gives the same
nodes ten times slower) gives each node its position and scalar style; this module adds what the
formatter and the editors need on top: which full-line comments and blank lines precede which
field or list item (`leading`), which end-of-line comment belongs to which line (`eol`), and the
header and trailer of the file. Comments are found from the node spans, so a `#` inside a scalar
is never mistaken for one.

Why not ruamel's own comment model: its round-trip dumper prints an end-of-line comment on a
block scalar's key twice and moves a comment before a list item's first key; a formatter that
promises never to lose or move an author's words cannot build on that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator, Union

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode

try:
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - PyYAML wheels ship libyaml
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

from qlint.loading.errors import LoadError
from qlint.loading.positions import split_pointer


class Unsupported(Exception):
    """The file parses, but holds a construct the tree cannot reproduce (anchors, comments inside
    flow collections): it is reported and left alone."""

    def __init__(self, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.message, self.line, self.col = message, line, col


@dataclass
class Scalar:
    node: ScalarNode
    value: Any  # typed, as the qlint loader reads it
    source: str  # the scalar's text exactly as written
    start: tuple[int, int]  # (line, col), 0-based
    end: tuple[int, int]  # just past the last character of its content

    @property
    def style(self) -> str | None:
        return self.node.style or None  # libyaml says '' for plain

    @property
    def single_line(self) -> bool:
        return self.start[0] == self.end[0]


@dataclass
class Map:
    entries: list["Entry"]
    flow: bool
    start: tuple[int, int]


@dataclass
class Seq:
    items: list["Item"]
    flow: bool
    start: tuple[int, int]


Value = Union[Scalar, Map, Seq]


@dataclass
class Entry:
    key: str
    key_source: str
    value: Value
    line: int  # the key's line
    col: int  # the key's column
    leading: list[str] = field(default_factory=list)  # full-line comments ('# ...') and blanks ('') before it
    eol: str | None = None  # comment on the key's line or the inline value's last line

@dataclass
class Item:
    value: Value
    line: int  # the dash's line
    col: int  # the dash's column
    leading: list[str] = field(default_factory=list)
    eol: str | None = None


@dataclass
class Doc:
    text: str
    lines: list[str]
    root: Map
    data: dict[str, Any]
    header: list[str]  # comments, blank lines and `---` before the first key
    trailer: list[str]  # after the last value
    newline: str = "\n"

    def offset(self, line: int, col: int) -> int:
        """Character offset of (line, col) in `text`."""
        return self._starts[line] + col if line < len(self._starts) else len(self.text)

    def __post_init__(self) -> None:
        self._starts = [0]
        for ln in self.lines:
            self._starts.append(self._starts[-1] + len(ln) + 1)

    def find(self, pointer: str) -> tuple[Entry | Item | None, Value]:
        """(the entry or item holding the value at `pointer`, the value); KeyError if absent."""
        holder: Entry | Item | None = None
        node: Value = self.root
        for part in split_pointer(pointer):
            if isinstance(node, Map):
                match = next((e for e in node.entries if e.key == part), None)
                if match is None:
                    raise KeyError(pointer)
                holder, node = match, match.value
            elif isinstance(node, Seq) and part.isdigit() and int(part) < len(node.items):
                holder = node.items[int(part)]
                node = holder.value
            else:
                raise KeyError(pointer)
        return holder, node


_ANCHOR = re.compile(r"(?:^|[\s\[{,])[&*][^\s,\]}]")  # outside scalars: an anchor or alias
WS = " \t"  # YAML white space; str.strip() would also eat NBSP and other text
_COMMENT = re.compile(r"(?:^|(?<=[ \t]))#")
BLOCK_HEADER = re.compile(r"[|>][-+0-9]*")


def _typed(data: Any, parts: list[Any]) -> Any:
    for p in parts:
        data = data[p]
    return data


class _Builder:
    def __init__(self, text: str, data: Any) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.data = data
        self.scalars: list[Scalar] = []
        self.elements: list[Entry | Item] = []
        self.flows: list[tuple[tuple[int, int], tuple[int, int]]] = []
        self.seen: set[int] = set()

    def line_text(self, line: int) -> str:
        return self.lines[line].rstrip("\r") if line < len(self.lines) else ""

    def _once(self, node: Node) -> None:
        """The composer hands an alias back as the anchored node itself: a second visit is an alias."""
        if id(node) in self.seen:
            raise Unsupported("anchors and aliases are not supported here: write the value out",
                              node.start_mark.line + 1, node.start_mark.column + 1)
        self.seen.add(id(node))

    def scalar(self, node: ScalarNode, parts: list[Any], is_key: bool = False) -> Scalar:
        self._once(node)
        start = (node.start_mark.line, node.start_mark.column)
        if node.style in ("|", ">"):
            end = self._block_end(node)
        else:
            end = (node.end_mark.line, node.end_mark.column)
        value = node.value if is_key else _typed(self.data, parts)
        source = self._slice(start, end)
        if source.startswith("&"):  # libyaml starts an anchored node at its anchor
            raise Unsupported("anchors and aliases are not supported here: write the value out", start[0] + 1, start[1] + 1)
        s = Scalar(node, value, source, start, end)
        self.scalars.append(s)
        return s

    def _slice(self, start: tuple[int, int], end: tuple[int, int]) -> str:
        if start[0] == end[0]:
            return self.line_text(start[0])[start[1]:end[1]]
        out = [self.line_text(start[0])[start[1]:]]
        out += [self.line_text(i) for i in range(start[0] + 1, end[0])]
        out.append(self.line_text(end[0])[: end[1]])
        return "\n".join(out)

    def _block_end(self, node: ScalarNode) -> tuple[int, int]:
        """End of a block scalar's last content line (trailing blank lines are not content unless kept)."""
        header = self.line_text(node.start_mark.line)[node.start_mark.column:]
        last = node.end_mark.line if node.end_mark.column else node.end_mark.line - 1
        last = min(last, len(self.lines) - 1)
        if "+" not in header.split("#")[0]:
            # A line of spaces only is trailing (not content) unless it reaches past the content
            # indentation: `|-` over "a" and "  " (two spaces more) reads "a\n  ".
            indent = self._block_indent(node)
            while last > node.start_mark.line and not self.line_text(last).strip(WS):
                ln = self.line_text(last)
                if indent is not None and len(ln) > indent and not ln[:indent].strip(" "):
                    break
                last -= 1
        return last, len(self.line_text(last))

    def _block_indent(self, node: ScalarNode) -> int | None:
        """A block scalar's content indentation: the first line holding text, less the spaces its
        value keeps at the start (those sit beyond the indentation); None for blank-only content."""
        first = next((seg for seg in str(node.value).split("\n") if seg.strip(" ")), None)
        if first is None:
            return None
        for ln in range(node.start_mark.line + 1, node.end_mark.line + 1):
            text = self.line_text(ln)
            if text.strip(" "):
                return (len(text) - len(text.lstrip(" "))) - (len(first) - len(first.lstrip(" ")))
        return None

    def value(self, node: Node, parts: list[Any]) -> Value:
        if isinstance(node, ScalarNode):
            return self.scalar(node, parts)
        self._once(node)
        start = (node.start_mark.line, node.start_mark.column)
        if node.flow_style:
            self.flows.append((start, (node.end_mark.line, node.end_mark.column)))
        if isinstance(node, MappingNode):
            entries = []
            for k, v in node.value:
                if not isinstance(k, ScalarNode):
                    raise Unsupported("complex keys are not supported", k.start_mark.line + 1, k.start_mark.column + 1)
                key = self.scalar(k, [], is_key=True)
                key_name = k.value
                entry = Entry(key_name, key.source, self.value(v, parts + [key_name]), k.start_mark.line, k.start_mark.column)
                if not node.flow_style:  # flow members share their line with the collection's key
                    self.elements.append(entry)
                entries.append(entry)
            return Map(entries, bool(node.flow_style), start)
        items = []
        for i, v in enumerate(node.value):
            line, col = self._dash(v) if not node.flow_style else (v.start_mark.line, v.start_mark.column)
            item = Item(self.value(v, parts + [i]), line, col)
            if not node.flow_style:
                self.elements.append(item)
            items.append(item)
        return Seq(items, bool(node.flow_style), start)

    def _dash(self, node: Node) -> tuple[int, int]:
        line, col = node.start_mark.line, node.start_mark.column
        while line >= 0:
            text = self.line_text(line)[: col if line == node.start_mark.line else None]
            stripped = text.rstrip(WS)
            if stripped.endswith("-") and (len(stripped) == 1 or stripped[-2] in " \t-"):
                return line, len(stripped) - 1
            if stripped.lstrip(WS).startswith("-"):
                return line, len(text) - len(text.lstrip(WS))
            line -= 1
            col = 10**9
        return node.start_mark.line, max(0, node.start_mark.column - 2)


def ends(value: Value) -> tuple[int, int]:
    """Where a value's text ends (line, col)."""
    if isinstance(value, Scalar):
        return value.end
    if isinstance(value, Map):
        return ends(value.entries[-1].value) if value.entries else value.start
    return ends(value.items[-1].value) if value.items else value.start


def _walk(value: Value) -> Iterator[Entry | Item]:
    if isinstance(value, Map):
        for e in value.entries:
            yield e
            yield from _walk(e.value)
    elif isinstance(value, Seq):
        for it in value.items:
            yield it
            yield from _walk(it.value)


def _comment_col(line_text: str, taken: list[tuple[int, int]]) -> int | None:
    """Column of a comment on this line outside the given scalar column ranges."""
    for m in _COMMENT.finditer(line_text):
        if not any(a <= m.start() < b for a, b in taken):
            return m.start()
    return None


def parse(text: str, data: dict[str, Any]) -> Doc:
    """Build the tree of `text`, whose plain data (from the qlint loader) is `data`."""
    try:
        root_node = yaml.compose(text, Loader=_Loader)
    except (yaml.YAMLError, RecursionError, ValueError) as exc:  # the fast loader accepted it; be safe anyway
        raise LoadError("Y001", f"cannot parse: {exc}") from None
    if not isinstance(root_node, MappingNode):
        raise LoadError("Y005", "the document is not a mapping")
    b = _Builder(text, data)
    root = b.value(root_node, [])
    assert isinstance(root, Map)

    # Which columns of each line belong to scalars (a '#' there is text, not a comment).
    taken: dict[int, list[tuple[int, int]]] = {}
    inner: set[int] = set()  # lines wholly inside a multi-line scalar
    for s in b.scalars:
        (l0, c0), (l1, c1) = s.start, s.end
        if l0 == l1:
            taken.setdefault(l0, []).append((c0, c1))
        else:
            if s.style in ("|", ">"):  # only the indicator: a comment may follow it on the header line
                head = BLOCK_HEADER.match(b.line_text(l0), c0)
                taken.setdefault(l0, []).append((c0, head.end() if head else c0 + 1))
            else:
                taken.setdefault(l0, []).append((c0, 10**9))
            inner.update(range(l0 + 1, l1))
            taken.setdefault(l1, []).append((0, c1))
            if s.style in ("|", ">"):
                inner.add(l1)

    # Where each element's own text ends: an end-of-line comment there belongs to it.
    elements = sorted(b.elements, key=lambda e: (e.line, 0 if isinstance(e, Item) else 1))
    first_line = elements[0].line if elements else len(b.lines)
    last_line = max(ends(root)[0], first_line) if elements else len(b.lines)
    for (l0, _c0), (l1, _c1) in b.flows:
        for ln in range(l0, l1):
            col = _comment_col(b.line_text(ln), taken.get(ln, []))
            if col is not None:
                raise Unsupported("comment inside a flow collection ([...] or {...}): move it above the field", ln + 1, col + 1)

    header: list[str] = []
    trailer: list[str] = []
    pending: list[str] = []
    starts: dict[int, Entry | Item] = {}
    for e in elements:  # the outermost element starting on a line takes its leading lines
        starts.setdefault(e.line, e)
    for ln in range(len(b.lines)):
        if ln in inner:
            continue
        raw = b.line_text(ln)
        col = _comment_col(raw, taken.get(ln, []))
        structural = raw[:col] if col is not None else raw
        masked = structural
        for a, z in taken.get(ln, ()):  # scalar text blanked out, so a `&` or `*` in it is no anchor
            z = min(z, len(masked))
            if a < z:
                masked = masked[:a] + " " * (z - a) + masked[z:]
        anchor = _ANCHOR.search(masked)
        if anchor:
            raise Unsupported("anchors and aliases are not supported here: write the value out", ln + 1, anchor.start() + 2)
        comment = raw[col:].rstrip(WS) if col is not None else None
        if not structural.strip(WS):
            pending.append(comment or "")
            continue
        if masked.strip(WS) in ("---", "...") or masked.lstrip(WS).startswith("%"):  # not text inside a scalar
            if ln < first_line:
                pending.append(raw.rstrip(WS))
                continue
            if ln > last_line:
                pending.append(raw.rstrip(WS))
                continue
            raise Unsupported("document marker inside the document", ln + 1, 1)
        owner = starts.get(ln)
        if owner is not None:
            if ln == first_line and owner is elements[0]:
                header, pending = pending, []
            owner.leading, pending = pending, []
        if comment is not None:
            target = _eol_owner(b, ln, elements)
            if target is None:
                raise Unsupported("comment in a place qlint cannot keep: move it to its own line", ln + 1, col + 1)
            if target.eol is not None:
                target.eol += " " + comment
            else:
                target.eol = comment
    if not elements:
        header, pending = pending, []
    trailer = pending
    while trailer and trailer[-1] == "":
        trailer.pop()
    newline = "\r\n" if text.count("\r\n") * 2 > text.count("\n") else "\n"
    return Doc(text, b.lines, root, data, header, trailer, newline)


def _eol_owner(b: _Builder, line: int, elements: list[Entry | Item]) -> Entry | Item | None:
    """The innermost element whose own line (key line, dash line, or inline value's last line) is `line`."""
    best: Entry | Item | None = None
    for e in elements:
        own = {e.line}
        if isinstance(e.value, Scalar) or (isinstance(e.value, (Map, Seq)) and e.value.flow):
            own.add(ends(e.value)[0])
        if isinstance(e.value, Scalar) and e.value.style in ("|", ">"):
            own = {e.value.start[0]}
        if line in own:
            best = e  # elements are in document order: the last match is the innermost
    return best


