"""Moodle `match` and `ordering` questions as qlint matching and ordering questions.

- `match`: each subquestion with text -> a prompt (its answer -> the response it matches); a
  subquestion with empty text -> a surplus response; responses are the distinct answer texts
  (plain text in Moodle). The general feedback's `div.qlint-pairs` (qlint's export) gives each
  pair's rationale, in prompt order, and each response's (`div.qlint-response`, by its text).
- `ordering` (qtype_ordering): the answers by `fraction` (their position) -> the keyed steps in
  order; the general feedback's `div.qlint-steps` gives each step's rationale, and its
  `div.qlint-step.qlint-distractor` sections the distractor steps Moodle cannot hold.
Ids are slugs of the texts (Moodle stores none); anything else is reported, never dropped.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from qlint.importers import Imported
from qlint.importers._markdown import classes, local
from qlint.importers.common import option_ids
from qlint.importers._moodle_question import QuestionReader, _child, _plain, _text, heading

NOT_IN_ORDER = "Not part of the order: "  # the exporter's heading of a distractor step
ORDERING_SETTINGS = {"layouttype", "selecttype", "selectcount", "gradingtype", "showgrading", "numberingstyle"}


def _sections(block: etree._Element | None, cls: str) -> list[etree._Element]:
    return [d for d in block.iter() if local(d) == "div" and classes(d) == cls.split()] if block is not None else []


def _words(el: etree._Element | None) -> str:
    return " ".join("".join(el.itertext()).split()) if el is not None else ""


class _Reader(QuestionReader):
    def part(self, section: etree._Element, what: str) -> dict[str, str]:
        """rationale / right_when / why_chosen of one step or pair section, headings removed."""
        out = {}
        for cls, key in (("qlint-rationale", "rationale"), ("qlint-right-when", "right_when"),
                         ("qlint-why-chosen", "why_chosen")):
            div = next((d for d in section if local(d) == "div" and cls in classes(d)), None)
            if div is not None:
                heading(div)
                if text := self.text.markdown(div, f"{what} {key}"):
                    out[key] = text
        return out

    def plain(self, text: str, what: str) -> str:
        """Moodle's plain-text answer as Markdown (characters Markdown would read as syntax escaped)."""
        wrapper = etree.Element("div")
        wrapper.text = text
        return self.text.markdown(wrapper, what)


class MatchReader(_Reader):
    def read(self) -> Imported:
        self.head_id()
        data = self.q.data
        data["type"] = "matching"
        self.head()
        subs = [s for s in self.el if local(s) == "subquestion"]
        prompts: list[tuple[str, str]] = []  # (prompt Markdown, response plain text)
        responses: list[str] = []
        for n, sub in enumerate(subs, 1):
            answer = _plain(_child(sub, "answer"))
            if answer and answer not in responses:
                responses.append(answer)
            if _text(sub).strip():
                if not answer:
                    self.note(f"subquestion {n} has no answer; not imported", sub)
                    continue
                prompts.append((self.markdown(sub, f"subquestion {n}"), answer))
        texts = [self.plain(r, f"response {n}") for n, r in enumerate(responses, 1)]
        ids = dict(zip(responses, option_ids(texts)))
        block = self.general("qlint-pairs")
        pairs = _sections(block, "qlint-pair")
        rationale = {_words(heading(d)): self.part(d, "response") for d in _sections(block, "qlint-response")}
        if block is not None and len(pairs) != len(prompts):
            self.note(f"the general feedback explains {len(pairs)} pairs for {len(prompts)} prompts; "
                      "pair rationales were not imported")
            pairs = []
        prompt_ids = option_ids([p for p, _ in prompts])
        data["prompts"] = []
        for n, ((text, answer), pid) in enumerate(zip(prompts, prompt_ids)):
            prompt: dict[str, Any] = {"id": pid, "text": text, "match": ids[answer]}
            if pairs:
                heading(pairs[n])
                prompt.update(self.part(pairs[n], f"pair {n + 1}"))
            data["prompts"].append(prompt)
        data["responses"] = []
        for r, text in zip(responses, texts):
            response: dict[str, Any] = {"id": ids[r], "text": text}
            response.update({k: v for k, v in rationale.pop(" ".join(r.split()), {}).items() if k == "rationale"})
            data["responses"].append(response)
        for label in rationale:
            self.note(f"the general feedback explains a response {label!r} the question does not have")
        if len(prompts) < 2:
            self.note(f"the question has {len(prompts)} prompt(s)")
        return self.done()


class OrderingReader(_Reader):
    def read(self) -> Imported:
        self.head_id()
        data = self.q.data
        data["type"] = "ordering"
        self.head()
        answers = [a for a in self.el if local(a) == "answer"]
        positions = [self._fraction(a) for a in answers]
        if positions != sorted(positions):
            self.note("the answers are not listed in their order; they were put in the order of their positions")
        ordered = [a for _, _, a in sorted(zip(positions, range(len(answers)), answers), key=lambda t: t[:2])]
        texts = [self.markdown(a, f"answer {n}") for n, a in enumerate(ordered, 1)]
        self._settings(len(answers))
        block = self.general("qlint-steps")
        keyed = _sections(block, "qlint-step")
        if block is not None and len(keyed) != len(texts):
            self.note(f"the general feedback explains {len(keyed)} steps for {len(texts)} answers; "
                      "step rationales were not imported")
            keyed = []
        steps: list[dict[str, Any]] = []
        for n, text in enumerate(texts):
            step: dict[str, Any] = {"text": text}
            if keyed:
                heading(keyed[n])
                step.update(self.part(keyed[n], f"step {n + 1}"))
            steps.append(step)
        for n, div in enumerate(_sections(block, "qlint-step qlint-distractor"), 1):
            label = heading(div)
            if label is None or not (label.text or "").startswith(NOT_IN_ORDER):
                self.note(f"distractor step {n} in the general feedback has no text; not imported")
                continue
            holder = etree.Element("div")  # the heading's content, after the prefix
            holder.text = label.text[len(NOT_IN_ORDER):]
            for child in list(label):
                holder.append(child)
            steps.append({"text": self.text.markdown(holder, f"distractor step {n}"), "correct": False,
                          **self.part(div, f"distractor step {n}")})
        data["steps"] = [{"id": sid, **s} for sid, s in zip(option_ids([s["text"] for s in steps]), steps)]
        if len(texts) < 3:
            self.note(f"the question has {len(texts)} answer(s); qlint ordering questions order 3 or more steps")
        return self.done()

    def _settings(self, count: int) -> None:
        select = _plain(_child(self.el, "selecttype")).upper() or "RANDOM"
        shown = _plain(_child(self.el, "selectcount"))
        if select not in ("ALL", "EXACT") and not (shown.isdigit() and int(shown) in (0, count)):
            self.note(f"Moodle shows {shown or 'some'} of the {count} items ({select.lower()} selection); "
                      "a qlint ordering question orders every keyed step")
