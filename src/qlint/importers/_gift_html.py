"""The HTML texts of a GIFT question written `[html]` (as qlint's GIFT export writes every text) back
to Markdown, and qlint's feedback sections back to their fields (the reverse of exporters/_feedback
and exporters/_breakdown, docs/exports-web.md):

- an answer's feedback: `div.qlint-rationale` / `qlint-right-when` / `qlint-why-chosen` ->
  rationale, right_when, why_chosen (any other feedback: the rationale);
- the general feedback: `div.qlint-explanation` / `qlint-trap` / `qlint-references` ->
  explanation, trap, references (any other general feedback: the explanation), and a matching
  question's `div.qlint-pairs` -> each pair's rationale (by prompt order) and each response's.

Each section's visible heading ("When it would be right", ...) is dropped; a text Markdown cannot
say is kept and reported, as for Moodle XML.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from qlint.importers import Imported, Unmapped
from qlint.importers._markdown import classes, drop_case_scenario, linked_references, local, remove
from qlint.importers._text import TextReader, html_fragment

OPTION_PARTS = {"qlint-rationale": "rationale", "qlint-right-when": "right_when", "qlint-why-chosen": "why_chosen"}
GENERAL_PARTS = {"qlint-explanation": "explanation", "qlint-trap": "trap", "qlint-references": "references"}
# The two headings a rationale may carry (exporters/_feedback.verdict_label; exporters are a sibling
# layer, not importable here). Other sections always carry one; a rationale that opens with its own
# verdict carries none, so only these words are taken for its heading.
VERDICTS = ("Why this is correct", "Why it's wrong here")


def _words(el: etree._Element | None) -> str:
    return " ".join("".join(el.itertext()).split()) if el is not None else ""


def heading(div: etree._Element, only: tuple[str, ...] = ()) -> etree._Element | None:
    """Remove and return a section's heading, a first `<p><strong>…</strong></p>` (with `only`: one
    whose words are among them), if it has one."""
    first = next(iter(div), None)
    if first is None or local(first) != "p" or len(first) != 1 or local(first[0]) != "strong" \
            or (first.text or "").strip() or (first[0].tail or "").strip():
        return None
    if only and _words(first) not in only:
        return None
    remove(first)
    return first[0]


class HtmlTexts:
    """Converts one GIFT question's HTML texts; what Markdown cannot say is reported on `q`."""

    def __init__(self, q: Imported, line: int) -> None:
        self.q, self.line = q, line
        self.reader = TextReader(q)

    def note(self, message: str) -> None:
        self.q.unmapped.append(Unmapped(self.line, message))

    def markdown(self, el: etree._Element, what: str) -> str:
        return self.reader.markdown(el, what, self.line)

    def text(self, html: str, what: str) -> str:
        return self.markdown(html_fragment(html), what) if html.strip() else ""

    def stem(self, html: str) -> str:
        """The stem without the case scenario qlint's GIFT export writes before a case question's
        stem (`div.qlint-case`, then `hr`): GIFT has no case study to hold it."""
        if not html.strip():
            return ""
        el = html_fragment(html)
        drop_case_scenario(el)
        return self.markdown(el, "stem")

    def plain(self, text: str, what: str) -> str:
        """Plain text (a matching response) as Markdown, characters Markdown would read escaped."""
        wrapper = etree.Element("div")
        wrapper.text = text
        return self.markdown(wrapper, what)

    def feedback(self, html: str, what: str) -> dict[str, Any]:
        """An answer's feedback as rationale, right_when and why_chosen."""
        el = html_fragment(html)
        found = self._sections(el, OPTION_PARTS, what)
        if found is None:
            text = self.markdown(el, what)
            return {"rationale": text} if text else {}
        return found

    def general(self, html: str, pairs: bool = False) -> tuple[dict[str, Any], etree._Element | None]:
        """Explanation, trap and references; with `pairs`, the `div.qlint-pairs` block too (taken out)."""
        el = html_fragment(html)
        block = next((d for d in el.iter() if local(d) == "div" and classes(d) == ["qlint-pairs"]), None) if pairs else None
        if block is not None:
            remove(block)
        found = self._sections(el, GENERAL_PARTS, "general feedback")
        if found is None:
            found = {"explanation": self.markdown(el, "general feedback")}
        return {k: v for k, v in found.items() if v}, block

    def pair_parts(self, block: etree._Element | None, count: int) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """Each pair's rationale (in prompt order; [] when the block does not explain `count` pairs)
        and each response's rationale by the response's words."""
        if block is None:
            return [], {}
        rows = [d for d in block if local(d) == "div"]
        pairs = [d for d in rows if classes(d) == ["qlint-pair"]]
        if len(pairs) != count:
            self.note(f"the general feedback explains {len(pairs)} pairs for {count} prompts; "
                      "pair rationales were not imported")
            pairs = []
        out = []
        for n, div in enumerate(pairs, 1):
            heading(div)
            out.append(self._sections(div, {"qlint-rationale": "rationale"}, f"pair {n}") or {})
        responses = {}
        for div in (d for d in rows if classes(d) == ["qlint-response"]):
            label = _words(heading(div))
            responses[label] = (self._sections(div, {"qlint-rationale": "rationale"}, f"response {label!r}") or {}).get("rationale", "")
        return out, responses

    def _sections(self, el: etree._Element, names: dict[str, str], what: str) -> dict[str, Any] | None:
        """The `div.qlint-*` sections of `el` named in `names`, headings dropped; None when it has none."""
        divs = [d for d in el if local(d) == "div" and set(classes(d)) & set(names)]
        if not divs:
            return None
        out: dict[str, Any] = {}
        for div in divs:
            cls = next(c for c in classes(div) if c in names)
            if cls != "qlint-explanation":
                heading(div, VERDICTS if cls == "qlint-rationale" else ())
            if cls == "qlint-references":
                out["references"] = self._references(div)
            else:
                out[names[cls]] = self.markdown(div, f"{what} {names[cls]}")
            remove(div)
        if rest := _words(el):
            self.note(f"{what}: text outside qlint's sections was not imported: {rest[:60]!r}")
        return out

    def _references(self, div: etree._Element) -> list[dict[str, str]]:
        return linked_references(div, self.note)
