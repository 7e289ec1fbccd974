"""Edits that touch only what they change: set one scalar, reorder a list's items.

Both work on the file's text through the positions `yamldoc` finds, so every other byte (comments,
blank lines, quoting, the author's layout) stays as it was; each result is verified like a format.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from qlint.authoring import scalars
from qlint.authoring.formatter import FormatError, load, verify
from qlint.loading.positions import split_pointer
from qlint.project.config import Config
from qlint.authoring.yamldoc import BLOCK_HEADER, Doc, Entry, Map, Scalar, Seq, Unsupported, ends, parse


class EditError(Exception):
    """An edit that cannot be applied (no such scalar, unsupported layout)."""


def _doc(text: str, config: Config) -> Doc:
    try:
        return parse(text, load(text, config))
    except Unsupported as exc:
        raise EditError(f"line {exc.line}: {exc.message}") from None


def _set(data: Any, pointer: str, value: Any) -> Any:
    out = copy.deepcopy(data)
    parts = split_pointer(pointer)
    node = out
    for p in parts[:-1]:
        node = node[int(p)] if isinstance(node, list) else node[p]
    last = parts[-1]
    node[int(last) if isinstance(node, list) else last] = value
    return out


def _requote(style: str | None, value: Any) -> str | None:
    """Keep the author's quote character for a new single-line string where it can hold it."""
    if not isinstance(value, str) or "\n" in value:
        return None
    if style == "'" and "'" not in value and all(ch.isprintable() for ch in value):
        return f"'{value}'"
    if style == '"':
        return json.dumps(value, ensure_ascii=False)
    return None


def set_scalar(text: str, pointer: str, value: Any, config: Config) -> str:
    """`text` with the scalar at `pointer` replaced by `value`, styled by the formatter's rule."""
    doc = _doc(text, config)
    try:
        holder, node = doc.find(pointer)
    except KeyError:
        raise EditError(f"no value at {pointer}") from None
    if not isinstance(node, Scalar) or holder is None:
        raise EditError(f"{pointer} is not a single value")
    nl = doc.newline
    (l0, c0), (l1, c1) = node.start, node.end
    line0 = doc.lines[l0].rstrip("\r")
    head_comment = ""
    if node.style in ("|", ">"):
        head = BLOCK_HEADER.match(line0, c0)
        head_comment = line0[head.end() if head else c0 + 1:].strip()
    rest_of_line = doc.lines[l1].rstrip("\r")[c1:] if node.style not in ("|", ">") else ""
    if isinstance(holder, Entry) and _in_flow(doc, holder):
        rendered = [scalars.render_inline(value)]
    else:
        base = holder.col
        quoted = _requote(node.style, value) if node.single_line else None
        width = config.format.width
        rendered = [quoted] if quoted else scalars.render(value, None, c0, base + config.format.indent, width, was_block=node.style in ("|", ">"))
    if len(rendered) > 1 and rest_of_line.strip():  # an end-of-line comment moves to the block's header
        head_comment = f"{head_comment}  {rest_of_line.strip()}".strip()
        end = doc.offset(l1, len(doc.lines[l1].rstrip("\r")))
    else:
        end = doc.offset(l1, c1)
    first = rendered[0] + (f"  {head_comment}" if head_comment else "")
    new = first + "".join(nl + ln for ln in rendered[1:])
    result = text[: doc.offset(l0, c0)] + new + text[end:]
    try:
        verify(doc, result, config, _set(doc.data, pointer, value))
    except FormatError as exc:
        raise EditError(exc.message) from None
    return result


def _in_flow(doc: Doc, entry: Entry) -> bool:
    stack: list[Any] = [doc.root]
    while stack:
        node = stack.pop()
        children = node.entries if hasattr(node, "entries") else node.items if hasattr(node, "items") else []
        for c in children:
            if c is entry:
                return bool(node.flow)
            stack.append(c.value)
    return False


def reorder(text: str, pointer: str, order: list[int], config: Config) -> str:
    """`text` with the block list at `pointer` reordered so that new item i is old item order[i].
    Comments above an item move with it; blank lines between items stay where they were."""
    doc = _doc(text, config)
    try:
        _, seq = doc.find(pointer)
    except KeyError:
        raise EditError(f"no list at {pointer}") from None
    if not isinstance(seq, Seq) or seq.flow or sorted(order) != list(range(len(seq.items))):
        raise EditError(f"{pointer} is not a block list of {len(order)} items")
    slots = []  # (first line of the item's own text incl. its comments, last line)
    for it in seq.items:
        first_comment = next((i for i, ln in enumerate(it.leading) if ln), len(it.leading))
        movable = len(it.leading) - first_comment
        slots.append((it.line - movable, ends(it.value)[0]))
    lines = doc.lines
    region_start, region_end = slots[0][0], slots[-1][1]
    out: list[str] = []
    for i, src in enumerate(order):
        if i > 0:
            prev_end, start = slots[i - 1][1], slots[i][0]
            out += lines[prev_end + 1:start]  # the positional blank lines between items
        a, b = slots[src]
        out += lines[a:b + 1]
    new_lines = lines[:region_start] + out + lines[region_end + 1:]
    result = "\n".join(new_lines)
    expected = _set(doc.data, pointer, [load_list(doc.data, pointer)[i] for i in order])
    try:
        verify(doc, result, config, expected)
    except FormatError as exc:
        raise EditError(exc.message) from None
    return result


def load_list(data: Any, pointer: str) -> list[Any]:
    node = data
    for p in split_pointer(pointer):
        node = node[int(p)] if isinstance(node, list) else node[p]
    return node


def _mapping_lines(value: dict[str, Any], indent: int, first: str = "") -> list[str]:
    """A flat mapping of scalars as block lines at `indent` (the first line may start with `first`)."""
    lines = []
    for i, (k, v) in enumerate(value.items()):
        lead = (first if i == 0 else " " * len(first))
        lines.append(" " * indent + lead + f"{k}: {scalars.render_inline(v)}")
    return lines


def add_key(text: str, key: str, value: Any, kind: str, config: Config) -> str:
    """`text` with a new top-level `key` (a flat mapping, or a list of flat mappings) inserted where
    the schema's key order puts it, after a blank line; every other byte stays as it was."""
    from qlint.authoring.formatter import key_order

    doc = _doc(text, config)
    if doc.root.flow or any(e.key == key for e in doc.root.entries):
        raise EditError(f"cannot add {key}: the file already has it or is one flow mapping")
    step = config.format.indent
    if isinstance(value, list):
        new = [f"{key}:"]
        for item in value:
            new += _mapping_lines(item, step, "- ")
    else:
        new = [f"{key}:"] + _mapping_lines(value, step)
    order = list(key_order(kind, ()))
    rank = order.index(key) if key in order else len(order)
    later = [e for e in doc.root.entries if e.key in order and order.index(e.key) > rank]
    lines = list(doc.lines)
    if later:
        at = later[0].line - len(later[0].leading)
        if at > 0 and lines[at - 1].strip():
            new = [""] + new
        if later[0].leading[:1] != [""]:
            new = new + [""]
    else:
        last = doc.root.entries[-1]
        at = ends(last.value)[0] + 1
        new = [""] + new
    cr = "\r" if doc.newline == "\r\n" else ""
    result = "\n".join(lines[:at] + [ln + cr for ln in new] + lines[at:])
    if not result.endswith("\n"):
        result += doc.newline
    expected = copy.deepcopy(doc.data)
    expected[key] = value
    try:
        verify(doc, result, config, expected)
    except FormatError as exc:
        raise EditError(exc.message) from None
    return result


def append_item(text: str, pointer: str, value: dict[str, Any], config: Config) -> str:
    """`text` with the flat mapping `value` added as the last item of the block list at `pointer`,
    laid out like the list's last item."""
    doc = _doc(text, config)
    try:
        _, seq = doc.find(pointer)
    except KeyError:
        raise EditError(f"no list at {pointer}") from None
    if not isinstance(seq, Seq) or seq.flow or not seq.items:
        raise EditError(f"{pointer} is not a block list with items (write it as '- key: value' lines)")
    last = seq.items[-1]
    inner = last.value.entries[0].col if isinstance(last.value, Map) and last.value.entries else last.col + 2
    first = "-" + " " * max(1, inner - last.col - 1)
    new = _mapping_lines(value, last.col, first)
    at = ends(last.value)[0] + 1
    cr = "\r" if doc.newline == "\r\n" else ""
    result = "\n".join(doc.lines[:at] + [ln + cr for ln in new] + doc.lines[at:])
    expected = _set(doc.data, pointer, load_list(doc.data, pointer) + [value])
    try:
        verify(doc, result, config, expected)
    except FormatError as exc:
        raise EditError(exc.message) from None
    return result
