"""`html`: a static practice site that works from the file system, offline: one page per question
(answer first, then reveal the verdict, the explanation and the option-by-option breakdown) and
indexes at the root, per exam and per domain.

Pages are Jinja2 templates with autoescaping on, so every name and label is escaped by default and
only the shared Markdown renderer's output (raw HTML already escaped) is inserted as markup. CSS
and JavaScript are inline and allowed by hash in a Content-Security-Policy that forbids every
other script, style, connection and remote image.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cached_property, lru_cache
from importlib import resources

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from qlint.bank.pool import PRACTICE_EXAMS
from qlint.exporters import PARTIAL, ExportJob, ExportResult, exporter
from qlint.markup import render
from qlint.exporters.kit import feedback as fb
from qlint.exporters.kit.language import question_lang
from qlint.exporters.kit.feedback import compact
from qlint.exporters.kit.grades import fractions, is_multiple
from qlint.exporters.web import _type_words as tw
from qlint.exporters.kit.layout import Site, choose_word, lead_in, plain
from qlint.exporters.kit.output import write_folder
from qlint.exporters.kit.problems import Problem, problem
from qlint.exporters.web._coverage_chart import coverage_sections
from qlint.exporters.web._present import letter, presented_responses, presented_steps
from qlint.model import MATCHING, ORDERING, Question

# markdown-it writes table alignment as a style attribute, which the CSP would block: use classes.
_ALIGN = re.compile(r' style="text-align:(left|center|right)"')
_REMOTE_IMG = re.compile(r'<img src="(?:https?:)?//')
LABELS = {"trap": fb.TRAP, "right_when": fb.RIGHT_WHEN, "why_chosen": fb.WHY_CHOSEN, "go_deeper": fb.GO_DEEPER,
          "related": fb.RELATED, "tasks": fb.TASKS}  # the seed page's words, as every other format prints them


def _asset(name: str) -> str:
    return resources.files("qlint.exporters.web").joinpath("site", name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


@lru_cache(maxsize=1)
def _env() -> Environment:
    return Environment(loader=PackageLoader("qlint.exporters.web", "site"), autoescape=True, trim_blocks=True,
                       lstrip_blocks=True, keep_trailing_newline=True, undefined=StrictUndefined)


def _csp(css: str, js: str) -> str:
    """Only this page's own inline style and script run; images come from the site folder."""
    script = _hash(js) if js else "'none'"
    return (f"default-src 'none'; script-src {script}; style-src {_hash(css)}; img-src 'self' data:; "
            "base-uri 'none'; form-action 'none'")


def _html(markdown: str | None, urls: dict[str, str], inline: bool = False) -> Markup:
    out = compact(markdown or "", urls) if inline else render(markdown or "", urls)
    return Markup(_ALIGN.sub(r' class="align-\1"', out))


class _Pages:
    def __init__(self, job: ExportJob) -> None:
        self.site = Site(job, ".html")
        self.partial = job.scoring == PARTIAL
        self.css, self.js = _asset("practice.css"), _asset("practice.js")
        # Ordering, matching and case pages add their own style and script; choice pages keep theirs.
        self.arrange_css, self.arrange_js = self.css + _asset("arrange.css"), _asset("arrange.js")
        self.warnings: list[Problem] = []
        self.review = job.review
        self.job = job
        # index pages: the questions' one language, else the configured default
        langs = {question_lang(q, job.lang) for q in job.questions}
        self.lang = langs.pop() if len(langs) == 1 else job.lang

    def _page(self, template: str, here: str, crumbs: list[tuple[str, str]], script: bool = False,
              js: str = "", css: str = "", lang: str = "", **values) -> bytes:
        links = [(label, self.site.link(here, target)) for label, target in crumbs]
        js = js or (self.js if script else "")
        css = css or self.css
        html = _env().get_template(template).render(crumbs=links, css=Markup(css), js=Markup(js),
                                                     csp=Markup(_csp(css, js)), lang=lang or self.lang, **values)
        return html.encode("utf-8")

    def _case(self, q: Question, here: str) -> dict | str:
        """The case-study block above a question: its title, place and scenario ("" when none)."""
        found = self.site.case_rows(q)
        if not found:
            return ""
        case, rows = found
        ids = [rid for rid, _ in rows]
        return {"label": tw.CASE_STUDY, "title": case.title or case.id, "href": self.site.link(here, self.site.case_page(case)),
                "place": tw.ordinal(ids.index(q.id) + 1, len(ids)),
                "scenario": _html(case.scenario, self.site.case_image_urls(case, here))}

    def _common(self, q: Question, here: str, urls: dict[str, str]) -> dict:
        """What every question page shows around its answer: header, trap, explanation, links."""
        site = self.site
        prev, nxt = site.neighbours(q)
        return dict(
            title=site.title(q), stem=_html(q.stem, urls), trap=_html(q.trap, urls) if q.trap else "",
            explanation=_html(q.explanation, urls), labels=LABELS, case=self._case(q, here),
            partial=self.partial,  # ordering and matching: 1/n per step in place or pair right, as QTI and Moodle grade
            references=[(r["title"], r["url"]) for r in q.data.get("references") or []], tasks=site.tasks(q),
            related=[(lead_in(other) if other else rid, site.link(here, site.page(other)) if other else "")
                     for rid, other in site.related(q)],
            prev=site.link(here, site.page(prev)) if prev else "", next=site.link(here, site.page(nxt)) if nxt else "",
        )

    def _crumbs(self, q: Question) -> list[tuple[str, str]]:
        site = self.site
        return [("Practice questions", site.index), (site.exam_name(q.exam), site.exam_index(q.exam)),
                (site.domain_name(q.exam, q.domain), site.domain_index(q.exam, q.domain))]

    def _remote(self, q: Question, htmls) -> None:
        if any(_REMOTE_IMG.search(str(v)) for v in htmls):
            self.warnings.append(problem(q, None, "a remote image cannot load in the offline site"))

    def ordering(self, q: Question) -> bytes:
        """Steps lettered as presented, a select per position to put them in order, then the reveal:
        the correct order and a card per step (keyed ones first, in order; then distractor steps)."""
        here = self.site.page(q)
        urls = self.site.image_urls(q, here)
        shown = presented_steps(q)
        letters = {s.id: letter(i) for i, s in enumerate(shown)}
        steps = [{"id": s.id, "letter": letters[s.id], "html": _html(s.text, urls, inline=True), "plain": plain(s.text)}
                 for s in shown]
        place = {s.id: n for n, s in enumerate(q.key_order, 1)}
        cards = [{
            "id": s.id, "letter": letters[s.id], "html": _html(s.text, urls, inline=True), "position": place.get(s.id, ""),
            "correct": s.correct, "rationale": _html(s.rationale, urls) if s.rationale else "",
            "right_when": _html(s.right_when, urls) if s.right_when else "",
            "why_chosen": _html(s.raw.get("why_chosen"), urls) if s.raw.get("why_chosen") else "",
        } for s in [*q.key_order, *(s for s in q.steps if not s.correct)]]
        common = self._common(q, here, urls)
        self._remote(q, [common["stem"], *(s["html"] for s in steps)])
        return self._page("ordering.html.j2", here, self._crumbs(q), js=self.arrange_js, css=self.arrange_css,
                          lang=question_lang(q, self.job.lang),
                          instruction=tw.instruction(q), steps=steps, slots=[s.id for s in q.key_order], cards=cards,
                          words=tw, breakdown_intro=tw.intro(q), **common)

    def matching(self, q: Question) -> bytes:
        """Prompts, each with a select of the responses (lettered as presented), then the reveal:
        a card per pair with its rationale, then a card per surplus response."""
        here = self.site.page(q)
        urls = self.site.image_urls(q, here)
        shown = presented_responses(q)
        responses = [{"id": r.id, "letter": letter(i), "html": _html(r.text, urls, inline=True), "plain": plain(r.text)}
                     for i, r in enumerate(shown)]
        by_id = {r["id"]: r for r in responses}
        missing = {"id": "", "letter": "?", "html": "", "plain": ""}
        about = {r.id: _html(r.rationale, urls) for r in q.responses if r.rationale}
        prompts = [{"id": p.id, "number": n, "html": _html(p.text, urls, inline=True), "match": by_id.get(p.match, missing),
                    "rationale": _html(p.rationale, urls) if p.rationale else "", "about": about.get(p.match, "")}
                   for n, p in enumerate(q.prompts, 1)]
        matched = {p.match for p in q.prompts}
        surplus = [{**by_id[r.id], "rationale": _html(r.rationale, urls) if r.rationale else ""}
                   for r in shown if r.id not in matched]
        common = self._common(q, here, urls)
        self._remote(q, [common["stem"], *(r["html"] for r in responses), *(p["html"] for p in prompts)])
        return self._page("matching.html.j2", here, self._crumbs(q), js=self.arrange_js, css=self.arrange_css,
                          lang=question_lang(q, self.job.lang),
                          instruction=tw.instruction(q), prompts=prompts, responses=responses, surplus=surplus,
                          words=tw, breakdown_intro=tw.intro(q), **common)

    def case_page(self, case, rows) -> bytes:
        """The scenario, then its questions in order, each a link to its own (separately scored) page."""
        site, here = self.site, self.site.case_page(case)
        links = [(lead_in(q) if q else rid, site.link(here, site.page(q)) if q else "") for rid, q in rows]
        return self._page("case.html.j2", here, [("Practice questions", site.index), (site.exam_name(case.exam), site.exam_index(case.exam))],
                          css=self.arrange_css, title=f"{tw.CASE_STUDY}: {case.title or case.id}",
                          lang=str(case.data.get("lang") or self.lang),
                          scenario=_html(case.scenario, site.case_image_urls(case, here)), links=links, words=tw,
                          references=[(r["title"], r["url"]) for r in case.data.get("references") or []], labels=LABELS)

    def question(self, q: Question) -> bytes:
        if q.type == ORDERING:
            return self.ordering(q)
        if q.type == MATCHING:
            return self.matching(q)
        site, here = self.site, self.site.page(q)
        urls = site.image_urls(q, here)
        options = [{
            "id": o.id, "letter": o.letter, "correct": o.correct, "html": _html(o.text, urls, inline=True),
            "rationale": _html(o.rationale, urls) if o.rationale else "",
            "right_when": _html(o.right_when, urls) if o.right_when else "",
            "why_chosen": _html(o.raw.get("why_chosen"), urls) if o.raw.get("why_chosen") else "",
            "verdict": fb.verdict_label(o),
        } for o in q.options]
        multiple = is_multiple(q)
        partial = multiple and self.partial
        if partial:  # each option's credit when ticked, as Moodle grades it (the page's script adds them)
            for option, share in zip(options, fractions(q)):
                option["credit"] = f"{share / 100:.7g}"
        prev, nxt = site.neighbours(q)
        stem = _html(q.stem, urls)
        if any(_REMOTE_IMG.search(str(v)) for v in [stem, *(o["html"] for o in options)]):
            self.warnings.append(problem(q, None, "a remote image cannot load in the offline site"))
        return self._page(
            "question.html.j2", here,
            [("Practice questions", site.index), (site.exam_name(q.exam), site.exam_index(q.exam)),
             (site.domain_name(q.exam, q.domain), site.domain_index(q.exam, q.domain))],
            lang=question_lang(q, self.job.lang),
            script=True, css=self.arrange_css if q.case in site.job.cases else "", case=self._case(q, here),
            title=site.title(q), stem=stem, trap=_html(q.trap, urls) if q.trap else "",
            multiple=multiple, partial=partial, choose=len(q.keys) if multiple else 1,
            choose_word=choose_word(len(q.keys)),
            options=options, keys=[o for o in options if o["correct"]], explanation=_html(q.explanation, urls),
            breakdown_intro=fb.breakdown_intro(q), labels=LABELS,
            references=[(r["title"], r["url"]) for r in q.data.get("references") or []], tasks=site.tasks(q),
            related=[(lead_in(other) if other else rid, site.link(here, site.page(other)) if other else "")
                     for rid, other in site.related(q)],
            prev=site.link(here, site.page(prev)) if prev else "", next=site.link(here, site.page(nxt)) if nxt else "",
        )

    COVERAGE = "coverage.html"

    @cached_property
    def coverage(self) -> list[dict]:
        return coverage_sections(self.site.job)

    def coverage_page(self) -> bytes:
        """Per exam, bar charts of questions per domain and per task statement against the blueprint."""
        return self._page("coverage.html.j2", self.COVERAGE, [("Practice questions", self.site.index)],
                          title="Coverage of the blueprint", exams=self.coverage, practice=PRACTICE_EXAMS,
                          intro="How many of this site's questions each domain and task statement of the exam "
                                "guide has, against what the blueprint's weights ask for.")

    def root_index(self) -> bytes:
        site = self.site
        sections = [{"heading": f"{code}: {site.exam_name(code)}", "href": site.link(site.index, site.exam_index(code)),
                     "count": f"{sum(len(qs) for _, qs in domains)} questions",
                     "links": [(site.domain_name(code, d), site.link(site.index, site.domain_index(code, d)),
                                f"{len(qs)} questions") for d, qs in domains]}
                    for code, domains in site.tree]
        return self._page("index.html.j2", site.index, [], title="Practice questions",
                          intro="Pick a domain, answer each question, then check your answer.", sections=sections,
                          coverage=site.link(site.index, self.COVERAGE) if self.coverage else "",
                          review=self._review())

    def _review(self) -> list[tuple[str, ...]]:
        """The review status rows (exam, domain name, counts...) and a total, for the root index;
        empty when the project has no review policy and no question a sign-off (docs/review.md)."""
        rows = self.review
        if not rows:
            return []
        site = self.site
        body = [(r.exam, site.domain_name(r.exam, r.domain), str(r.reviewed), str(r.stale), str(r.missing),
                 str(r.not_required)) for r in rows]
        total = [str(sum(getattr(r, f) for r in rows)) for f in ("reviewed", "stale", "missing", "not_required")]
        return body + [("All", "", *total)]

    def exam_index(self, code: str, domains) -> bytes:
        site, here = self.site, self.site.exam_index(code)
        sections = [{"heading": site.domain_name(code, d), "href": site.link(here, site.domain_index(code, d)),
                     "count": f"{len(qs)} questions",
                     "links": [(lead_in(q), site.link(here, site.page(q)), "") for q in qs]} for d, qs in domains]
        if cases := site.exam_cases(code):
            sections.append({"heading": "Case studies", "href": "", "count": "",
                             "links": [(case.title or case.id, site.link(here, site.case_page(case)), f"{len(rows)} questions")
                                       for case, rows in cases]})
        return self._page("index.html.j2", here, [("Practice questions", site.index)],
                          title=f"{code}: {site.exam_name(code)}", intro="", sections=sections)

    def domain_index(self, code: str, domain: str, qs: list[Question]) -> bytes:
        site, here = self.site, self.site.domain_index(code, domain)
        sections = [{"heading": "", "href": "", "count": "",
                     "links": [(lead_in(q), site.link(here, site.page(q)), "") for q in qs]}]
        return self._page("index.html.j2", here, [("Practice questions", site.index), (site.exam_name(code), site.exam_index(code))],
                          title=f"{code} {site.domain_name(code, domain)}", intro="", sections=sections)


@exporter("html", "Static practice site (offline, keyboard accessible): a page per question plus indexes")
def export_html(job: ExportJob) -> ExportResult:
    pages = _Pages(job)
    site = pages.site
    files = {site.index: pages.root_index()}
    if pages.coverage:
        files[pages.COVERAGE] = pages.coverage_page()
    done = 0
    for code, domains in site.tree:
        files[site.exam_index(code)] = pages.exam_index(code, domains)
        for domain, qs in domains:
            files[site.domain_index(code, domain)] = pages.domain_index(code, domain, qs)
            for q in qs:
                files[site.page(q)] = pages.question(q)
                done += 1
                job.tick(done)
    for case, rows in site.cases:
        files[site.case_page(case)] = pages.case_page(case, rows)
    files.update(site.media_files())
    return ExportResult(written=write_folder(job.output, files, "html"), warnings=[*pages.warnings, *tw.page_warnings(job, "the site")])
