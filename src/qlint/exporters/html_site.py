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
from functools import lru_cache
from importlib import resources

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from qlint.exporters import PARTIAL, ExportJob, ExportResult, exporter
from qlint.markup import render
from qlint.exporters import _feedback as fb
from qlint.exporters._feedback import compact
from qlint.exporters._grades import fractions, is_multiple
from qlint.exporters._layout import Site, choose_word, lead_in
from qlint.exporters._output import write_folder
from qlint.model import Question

# markdown-it writes table alignment as a style attribute, which the CSP would block: use classes.
_ALIGN = re.compile(r' style="text-align:(left|center|right)"')
_REMOTE_IMG = re.compile(r'<img src="(?:https?:)?//')
LABELS = {"trap": fb.TRAP, "right_when": fb.RIGHT_WHEN, "why_chosen": fb.WHY_CHOSEN, "go_deeper": fb.GO_DEEPER,
          "related": fb.RELATED}  # the seed page's words, as every other format prints them


def _asset(name: str) -> str:
    return resources.files("qlint.exporters").joinpath("site", name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


@lru_cache(maxsize=1)
def _env() -> Environment:
    return Environment(loader=PackageLoader("qlint.exporters", "site"), autoescape=True, trim_blocks=True,
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
        self.warnings: list[str] = []

    def _page(self, template: str, here: str, crumbs: list[tuple[str, str]], script: bool = False, **values) -> bytes:
        links = [(label, self.site.link(here, target)) for label, target in crumbs]
        js = self.js if script else ""
        html = _env().get_template(template).render(crumbs=links, css=Markup(self.css), js=Markup(js),
                                                     csp=Markup(_csp(self.css, js)), **values)
        return html.encode("utf-8")

    def question(self, q: Question) -> bytes:
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
            self.warnings.append(f"{q.path}:1:1: a remote image cannot load in the offline site")
        return self._page(
            "question.html.j2", here,
            [("Practice questions", site.index), (site.exam_name(q.exam), site.exam_index(q.exam)),
             (site.domain_name(q.exam, q.domain), site.domain_index(q.exam, q.domain))],
            script=True, title=site.title(q), stem=stem, trap=_html(q.trap, urls) if q.trap else "",
            multiple=multiple, partial=partial, choose=len(q.keys) if multiple else 1,
            choose_word=choose_word(len(q.keys)),
            options=options, keys=[o for o in options if o["correct"]], explanation=_html(q.explanation, urls),
            breakdown_intro=fb.breakdown_intro(q), labels=LABELS,
            references=[(r["title"], r["url"]) for r in q.data.get("references") or []],
            related=[(lead_in(other) if other else rid, site.link(here, site.page(other)) if other else "")
                     for rid, other in site.related(q)],
            prev=site.link(here, site.page(prev)) if prev else "", next=site.link(here, site.page(nxt)) if nxt else "",
        )

    def root_index(self) -> bytes:
        site = self.site
        sections = [{"heading": f"{code}: {site.exam_name(code)}", "href": site.link(site.index, site.exam_index(code)),
                     "count": f"{sum(len(qs) for _, qs in domains)} questions",
                     "links": [(site.domain_name(code, d), site.link(site.index, site.domain_index(code, d)),
                                f"{len(qs)} questions") for d, qs in domains]}
                    for code, domains in site.tree]
        return self._page("index.html.j2", site.index, [], title="Practice questions",
                          intro="Pick a domain, answer each question, then check your answer.", sections=sections)

    def exam_index(self, code: str, domains) -> bytes:
        site, here = self.site, self.site.exam_index(code)
        sections = [{"heading": site.domain_name(code, d), "href": site.link(here, site.domain_index(code, d)),
                     "count": f"{len(qs)} questions",
                     "links": [(lead_in(q), site.link(here, site.page(q)), "") for q in qs]} for d, qs in domains]
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
    done = 0
    for code, domains in site.tree:
        files[site.exam_index(code)] = pages.exam_index(code, domains)
        for domain, qs in domains:
            files[site.domain_index(code, domain)] = pages.domain_index(code, domain, qs)
            for q in qs:
                files[site.page(q)] = pages.question(q)
                done += 1
                job.tick(done)
    files.update(site.media_files())
    return ExportResult(written=write_folder(job.output, files, "html"), warnings=pages.warnings)
