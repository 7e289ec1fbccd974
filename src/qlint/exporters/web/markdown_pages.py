"""`markdown`: one Markdown page per question in the seed page's reading order, plus an index at
the root, per exam and per domain. Every text goes through the safe Markdown writer, so raw HTML
in a question is shown, never rendered."""

from __future__ import annotations

from qlint.exporters import ExportJob, ExportResult, exporter
from qlint.exporters.kit import feedback as fb
from qlint.exporters.kit.grades import is_multiple
from qlint.exporters.web import _type_words as tw
from qlint.exporters.kit.layout import Site, choose_word, lead_in
from qlint.exporters.web._markdown_text import link, text, to_markdown
from qlint.exporters.kit.output import write_folder
from qlint.exporters.web._present import letter, presented_responses, presented_steps
from qlint.model import MATCHING, ORDERING, OptionView, Question

REVEAL = "Answer the question above first, then reveal the full breakdown to understand why each option is right or wrong."
# The only raw HTML a page holds: ours, on lines of their own (question text is always escaped).
DETAILS_OPEN = "<details>\n<summary>Show the answer and the option-by-option breakdown</summary>"
DETAILS_CLOSE = "</details>"
# The fold of each item type's answer (single and multiple keep the seed's words above).
DETAILS_OPENS = (DETAILS_OPEN, *(f"<details>\n<summary>{summary}</summary>" for summary in tw.SUMMARY.values()))


def _indent(block: str, prefix: str, first: str) -> str:
    """A block under a list marker or quote: `first` before line one, `prefix` before the rest."""
    lines = block.split("\n")
    return "\n".join([first + lines[0], *((prefix + ln) if ln else prefix.rstrip() for ln in lines[1:])])


def _mark(o: OptionView) -> str:
    return "✓" if o.correct else "✗"


def _option_heading(o: OptionView, body: str) -> str:
    if "\n" not in body and not body.startswith(("#", ">", "-", "*", "+", "|", "```", "    ")):
        return f"### {_mark(o)} {o.letter}. {body}"
    return f"### {_mark(o)} Option {o.letter}\n\n{body}"


def _labelled(label: str, body: str) -> list[str]:
    if not body:
        return []
    return [f"**{label}**", body] if label else [body]


class _Page:
    def __init__(self, site: Site, q: Question) -> None:
        self.site, self.q, self.path = site, q, site.page(q)
        self.urls = site.image_urls(q, self.path)

    def md(self, markdown: str | None) -> str:
        return to_markdown(markdown or "", self.urls)

    def link_to(self, label: str, target: str) -> str:
        return link(label, self.site.link(self.path, target))

    def render(self) -> str:
        q, site = self.q, self.site
        crumbs = " › ".join([self.link_to("Practice questions", site.index),
                             self.link_to(site.exam_name(q.exam), site.exam_index(q.exam)),
                             self.link_to(site.domain_name(q.exam, q.domain), site.domain_index(q.exam, q.domain))])
        parts = [crumbs, f"# {text(site.title(q))}", self.case_block(), self.md(q.stem)]
        if q.trap:
            parts.append(_indent(f"**⚠ {fb.TRAP}**\n\n{self.md(q.trap)}", "> ", "> "))
        parts.append("## Answer choices")
        if q.type == ORDERING:
            parts += self.ordering()
        elif q.type == MATCHING:
            parts += self.matching()
        else:
            parts += self.choice()
        if refs := q.data.get("references"):
            parts += [f"## {fb.GO_DEEPER}", "\n".join(f"- {link(r['title'], r['url'])}" for r in refs)]
        if tasks := site.tasks(q):
            parts += [f"## {fb.TASKS}", "\n".join(f"- {text(t)}" for t in tasks)]
        parts.append(DETAILS_CLOSE)
        if related := site.related(q):
            parts.append(f"## {fb.RELATED}")
            parts.append("\n".join(
                f"- {self.link_to(lead_in(other), site.page(other))}" if other else f"- {text(rid)} (not in this export)"
                for rid, other in related))
        prev, nxt = site.neighbours(q)
        nav = [self.link_to("← Previous question", site.page(prev)) if prev else "",
               self.link_to("Next question →", site.page(nxt)) if nxt else ""]
        if any(nav):
            parts += ["---", " · ".join(n for n in nav if n)]
        return "\n\n".join(p for p in parts if p) + "\n"

    def case_block(self) -> str:
        """A case-study question opens with its scenario, quoted, and a link to the case's page."""
        found = self.site.case_rows(self.q)
        if not found:
            return ""
        case, rows = found
        ids = [rid for rid, _ in rows]
        where = f" ({tw.ordinal(ids.index(self.q.id) + 1, len(ids))})"
        head = f"**{tw.CASE_STUDY}: {self.link_to(case.title or case.id, self.site.case_page(case))}**{where}"
        scenario = to_markdown(case.scenario, self.site.case_image_urls(case, self.path))
        return _indent(f"{head}\n\n{scenario}", "> ", "> ")

    def choice(self) -> list[str]:
        q = self.q
        parts = []
        if is_multiple(q):
            parts.append(f"*Choose {choose_word(len(q.keys))}.*")
        parts.append("\n".join(_indent(self.md(o.text), "   ", f"- **{o.letter}.** ") for o in q.options))
        # As on the HTML site, the answer waits below the choices: folded until the reader opens it
        # (GitHub, GitLab and most Markdown viewers render <details>; a plain one shows it all).
        parts += ["## Why each option matters", f"*{REVEAL}*", DETAILS_OPEN]
        parts.append("## Correct answer & explanation")
        parts.append("\n".join(_indent(self.md(o.text), "   ", f"- ✓ **{o.letter}.** ") for o in q.keys))
        parts.append(self.md(q.explanation))
        parts.append("## Option-by-option breakdown")
        parts.append(fb.breakdown_intro(q))
        for o in q.options:
            parts.append(_option_heading(o, self.md(o.text)))
            parts += _labelled(fb.verdict_label(o), self.md(o.rationale))
            parts += _labelled(fb.RIGHT_WHEN, self.md(o.right_when))
            parts += _labelled(fb.WHY_CHOSEN, self.md(o.raw.get("why_chosen")))
        return parts

    def _reveal(self) -> list[str]:
        kind = self.q.type
        return [f"## {tw.WHY_MATTERS[kind]}", f"*{tw.REVEAL[kind]}*",
                f"<details>\n<summary>{tw.SUMMARY[kind]}</summary>", "## Correct answer & explanation"]

    def _pair(self, lead: str, rid: str, letters: dict[str, str], arrow: str = "→ ") -> str:
        """"prompt → **C.** response", on one line when both are one line."""
        response = self.md(self._response(rid))
        sep = " " if "\n" not in lead + response else "\n\n"
        return f"{lead}{sep}{arrow}**{letters.get(rid, '?')}.** {response}"

    def ordering(self) -> list[str]:
        """Steps as presented (lettered), then the reveal: the correct order, a row per keyed step
        saying why it sits there, then each distractor step: why it belongs nowhere, when it would."""
        q = self.q
        shown = presented_steps(q)
        letters = {s.id: letter(i) for i, s in enumerate(shown)}
        parts = [f"*{tw.instruction(q)}*",
                 "\n".join(_indent(self.md(s.text), "   ", f"- **{letters[s.id]}.** ") for s in shown)]
        parts += self._reveal()
        parts.append("\n".join(_indent(self.md(s.text), "   ", f"{n}. ✓ **{letters[s.id]}.** ")
                                for n, s in enumerate(q.key_order, 1)))
        parts.append(self.md(q.explanation))
        parts += [f"## {tw.BREAKDOWN[ORDERING]}", tw.intro(q)]
        for n, s in enumerate(q.key_order, 1):
            parts.append(_heading("✓", f"Step {n}: {letters[s.id]}.", f"Step {n}: {letters[s.id]}", self.md(s.text)))
            parts += _labelled(tw.WHY_HERE, self.md(s.rationale))
            parts += _labelled(tw.WHEN_IT_BELONGS, self.md(s.right_when))
            parts += _labelled(fb.WHY_CHOSEN, self.md(s.raw.get("why_chosen")))
        for s in (s for s in q.steps if not s.correct):
            parts.append(_heading("✗", f"{letters[s.id]}.", f"Step {letters[s.id]}", self.md(s.text), tw.NOT_A_STEP))
            parts += _labelled(tw.WHY_NOWHERE, self.md(s.rationale))
            parts += _labelled(tw.WHEN_IT_BELONGS, self.md(s.right_when))
            parts += _labelled(fb.WHY_CHOSEN, self.md(s.raw.get("why_chosen")))
        return parts

    def matching(self) -> list[str]:
        """Prompts (numbered) and responses (lettered) as presented, then the reveal: a row per
        pair with its rationale, then each surplus response with its own."""
        q = self.q
        shown = presented_responses(q)
        letters = {r.id: letter(i) for i, r in enumerate(shown)}
        parts = [f"*{tw.instruction(q)}*", "**Prompts**",
                 "\n".join(_indent(self.md(p.text), "   ", f"{n}. ") for n, p in enumerate(q.prompts, 1)),
                 "**Responses**",
                 "\n".join(_indent(self.md(r.text), "   ", f"- **{letters[r.id]}.** ") for r in shown)]
        parts += self._reveal()
        parts.append("\n".join(_indent(self._pair(self.md(p.text), p.match, letters), "   ", f"{n}. ✓ ")
                                for n, p in enumerate(q.prompts, 1)))
        parts.append(self.md(q.explanation))
        parts += [f"## {tw.BREAKDOWN[MATCHING]}", tw.intro(q)]
        for n, p in enumerate(q.prompts, 1):
            parts.append(_heading("✓", f"{n}.", f"Prompt {n}", self.md(p.text)))
            parts.append(self._pair(f"**{tw.MATCHES}:**", p.match, letters, arrow=""))
            parts += _labelled(tw.WHY_PAIR, self.md(p.rationale))
            parts += _labelled(tw.ABOUT_RESPONSE, self.md(next((r.rationale for r in q.responses if r.id == p.match), None)))
        matched = {p.match for p in q.prompts}
        for r in (r for r in shown if r.id not in matched):
            parts.append(_heading("✗", f"{letters[r.id]}.", f"Response {letters[r.id]}", self.md(r.text), tw.SURPLUS))
            parts += _labelled(tw.WHY_SURPLUS, self.md(r.rationale))
        return parts

    def _response(self, rid: str) -> str:
        return next((r.text for r in self.q.responses if r.id == rid), rid)


def _heading(mark: str, label: str, long_label: str, body: str, note: str = "") -> str:
    """A breakdown row's heading: the text inline when it is one plain line, else below it."""
    suffix = f" ({note})" if note else ""
    if "\n" not in body and not body.startswith(("#", ">", "-", "*", "+", "|", "```", "    ")):
        return f"### {mark} {label} {body}{suffix}"
    return f"### {mark} {long_label}{suffix}\n\n{body}"


def _index_root(site: Site) -> str:
    lines = ["# Practice questions", ""]
    for code, domains in site.tree:
        total = sum(len(qs) for _, qs in domains)
        lines.append(f"- {link(f'{code}: {site.exam_name(code)}', site.exam_index(code))} ({total} questions)")
    return "\n".join(lines) + "\n"


def _index_exam(site: Site, code: str, domains) -> str:
    here = site.exam_index(code)
    lines = [link("Practice questions", site.link(here, site.index)), "", f"# {text(f'{code}: {site.exam_name(code)}')}", ""]
    exam = site.job.exams.get(code)
    weights = {d.id: d.weight for d in exam.domains} if exam else {}
    for domain, qs in domains:
        weight = f", {weights[domain]:g}% of the exam" if domain in weights else ""
        lines.append(f"- {link(site.domain_name(code, domain), site.link(here, site.domain_index(code, domain)))} "
                     f"({len(qs)} questions{weight})")
    if cases := site.exam_cases(code):
        lines += ["", "## Case studies", ""]
        lines += [f"- {link(case.title or case.id, site.link(here, site.case_page(case)))} ({len(rows)} questions)"
                  for case, rows in cases]
    return "\n".join(lines) + "\n"


def _case_page(site: Site, case, rows) -> str:
    """The scenario, then its questions in order, each linked to its own page (scored there)."""
    here = site.case_page(case)
    crumbs = " › ".join([link("Practice questions", site.link(here, site.index)),
                         link(site.exam_name(case.exam), site.link(here, site.exam_index(case.exam)))])
    parts = [crumbs, f"# {text(f'{tw.CASE_STUDY}: {case.title or case.id}')}",
             to_markdown(case.scenario, site.case_image_urls(case, here)), "## Questions", f"*{tw.CASE_SCORING}*",
             "\n".join(f"{n}. {link(lead_in(q), site.link(here, site.page(q)))}" if q else f"{n}. {text(rid)} (not in this export)"
                       for n, (rid, q) in enumerate(rows, 1))]
    if refs := case.data.get("references"):
        parts += [f"## {fb.GO_DEEPER}", "\n".join(f"- {link(r['title'], r['url'])}" for r in refs)]
    return "\n\n".join(p for p in parts if p) + "\n"


def _index_domain(site: Site, code: str, domain: str, qs: list[Question]) -> str:
    here = site.domain_index(code, domain)
    crumbs = " › ".join([link("Practice questions", site.link(here, site.index)),
                         link(site.exam_name(code), site.link(here, site.exam_index(code)))])
    lines = [crumbs, "", f"# {text(f'{code} {site.domain_name(code, domain)}')}", ""]
    lines += [f"{i}. {link(lead_in(q), site.link(here, site.page(q)))}" for i, q in enumerate(qs, 1)]
    return "\n".join(lines) + "\n"


@exporter("markdown", "Markdown pages: one per question (seed reading order) and indexes per exam and domain")
def export_markdown(job: ExportJob) -> ExportResult:
    site = Site(job, ".md")
    files: dict[str, str | bytes] = {site.index: _index_root(site)}
    done = 0
    for code, domains in site.tree:
        files[site.exam_index(code)] = _index_exam(site, code, domains)
        for domain, qs in domains:
            files[site.domain_index(code, domain)] = _index_domain(site, code, domain, qs)
            for q in qs:
                files[site.page(q)] = _Page(site, q).render()
                done += 1
                job.tick(done)
    for case, rows in site.cases:
        files[site.case_page(case)] = _case_page(site, case, rows)
    out = {name: data.encode("utf-8") if isinstance(data, str) else data for name, data in files.items()}
    out.update(site.media_files())
    return ExportResult(written=write_folder(job.output, out, "markdown"), warnings=tw.page_warnings(job, "the Markdown page"))
