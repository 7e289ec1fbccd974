"""The page layout shared by the Markdown pages and the HTML site: one page per question at
`<exam>/<domain>/<id>.<ext>`, an index per domain, per exam and at the root, images under
`media/<path in the bank>`, and the names and titles learners see."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import cached_property

from qlint.exporters import ExportJob
from qlint.markup import render
from qlint.exporters.kit.case_study import members
from qlint.exporters.kit.problems import ExportError, problem
from qlint.exporters.kit.gates import bank_root
from qlint.exporters.kit.media import Image, images_in, question_images, relative_url
from qlint.model import Case, Question
from qlint.project.guide import question_tasks

_TAG = re.compile(r"<[^>]+>")
_NUMBERS = {2: "TWO", 3: "THREE", 4: "FOUR", 5: "FIVE", 6: "SIX", 7: "SEVEN", 8: "EIGHT", 9: "NINE"}


def choose_word(n: int) -> str:
    """"TWO" for 2: how exam stems state the number of answers to choose."""
    return _NUMBERS.get(n, str(n))


def plain(markdown: str) -> str:
    """Markdown as one line of plain text (for titles and link labels; escaped again on output)."""
    return " ".join(html.unescape(_TAG.sub(" ", render(markdown))).split())


def lead_in(q: Question, limit: int = 120) -> str:
    """The stem's first sentence as plain text, shortened: a readable label for links to it."""
    text = plain(q.stem) or q.id
    first = re.split(r"(?<=[.?!])\s+", text, maxsplit=1)[0]
    return first if len(first) <= limit else first[: limit - 1].rsplit(" ", 1)[0] + "…"


@dataclass
class Site:
    job: ExportJob
    ext: str  # ".md" or ".html"
    images: dict[str, Image] = field(default_factory=dict)  # key -> image, filled by image_urls

    @cached_property
    def root(self):
        return bank_root(self.job)

    @cached_property
    def by_id(self) -> dict[str, Question]:
        seen: dict[str, Question] = {}
        for q in self.job.questions:
            if q.id in seen:
                raise ExportError(problem(q, "/id", f"question id {q.id!r} is also used by {seen[q.id].path}"))
            seen[q.id] = q
        return seen

    # Names ---------------------------------------------------------------
    def exam_name(self, code: str) -> str:
        exam = self.job.exams.get(code)
        return exam.name if exam else code

    def domain_name(self, code: str, domain: str) -> str:
        exam = self.job.exams.get(code)
        names = {d.id: d.name for d in exam.domains} if exam else {}
        return names.get(domain, domain)

    def tasks(self, q: Question) -> list[str]:
        """The task statements the question names, as "1.2 Transform data ..." (the id alone for an
        id the guide lacks: G001 reports it)."""
        exam = self.job.exams.get(q.exam)
        found = [(tid, exam.guide.task(tid) if exam else None) for tid in question_tasks(q.data)]
        return [f"{tid} {task.text}" if task else tid for tid, task in found]

    def title(self, q: Question) -> str:
        """The seed page's title: exam code, domain name, "Practice Question"."""
        return f"{q.exam} {self.domain_name(q.exam, q.domain)} Practice Question"

    # Structure -----------------------------------------------------------
    @cached_property
    def tree(self) -> list[tuple[str, list[tuple[str, list[Question]]]]]:
        """Exams, each with its domains in blueprint order (unknown ones after), each with questions."""
        tree: dict[str, dict[str, list[Question]]] = {}
        for q in self.by_id.values():
            tree.setdefault(q.exam, {}).setdefault(q.domain, []).append(q)
        out = []
        for code in sorted(tree):
            exam = self.job.exams.get(code)
            order = {d: i for i, d in enumerate(exam.domain_ids if exam else [])}
            domains = sorted(tree[code], key=lambda d: (order.get(d, len(order)), d))
            out.append((code, [(d, sorted(tree[code][d], key=lambda q: q.id)) for d in domains]))
        return out

    def page(self, q: Question) -> str:
        return f"{q.exam.lower()}/{q.domain}/{q.id}{self.ext}"

    def case_page(self, case: Case) -> str:
        """A case study's page, beside the exam's domain folders as cases/ is in the bank."""
        return f"{case.exam.lower()}/cases/{case.id}{self.ext}"

    @cached_property
    def cases(self) -> list[tuple[Case, list[tuple[str, Question | None]]]]:
        """Each case study some exported question belongs to, with its questions in `items` order."""
        return members(self.job)

    def case_rows(self, q: Question) -> tuple[Case, list[tuple[str, Question | None]]] | None:
        """The case study of `q` with its questions, or None when it has none in this export."""
        return next(((c, rows) for c, rows in self.cases if c.id == q.case), None)

    def exam_cases(self, code: str) -> list[tuple[Case, list[tuple[str, Question | None]]]]:
        return [(c, rows) for c, rows in self.cases if c.exam == code]

    def exam_index(self, code: str) -> str:
        return f"{code.lower()}/index{self.ext}"

    def domain_index(self, code: str, domain: str) -> str:
        return f"{code.lower()}/{domain}/index{self.ext}"

    @property
    def index(self) -> str:
        return f"index{self.ext}"

    def link(self, from_file: str, to_file: str) -> str:
        return relative_url(from_file, to_file)

    def neighbours(self, q: Question) -> tuple[Question | None, Question | None]:
        """Previous and next question in the same domain (for page navigation)."""
        for code, domains in self.tree:
            for domain, qs in domains:
                if code == q.exam and domain == q.domain:
                    i = qs.index(q)
                    return (qs[i - 1] if i else None, qs[i + 1] if i + 1 < len(qs) else None)
        return None, None

    def related(self, q: Question) -> list[tuple[str, Question | None]]:
        """(id, question or None when it is not part of this export) for each related id."""
        return [(rid, self.by_id.get(rid)) for rid in q.data.get("related") or []]

    # Media ---------------------------------------------------------------
    def image_urls(self, q: Question, page: str) -> dict[str, str]:
        """ref -> URL relative to `page` for the question's images; records them for `media_files`."""
        urls = {}
        for ref, image in question_images(q, self.root).items():
            self.images[image.key] = image
            urls[ref] = self.link(page, f"media/{image.key}")
        return urls

    def case_image_urls(self, case: Case, page: str) -> dict[str, str]:
        """As `image_urls`, for the images of a case study's scenario (paths relative to the case file)."""
        urls = {}
        for ref, image in images_in(Question(case.path, case.data), case.scenario, "/scenario", self.root).items():
            self.images[image.key] = image
            urls[ref] = self.link(page, f"media/{image.key}")
        return urls

    def media_files(self) -> dict[str, bytes]:
        return {f"media/{key}": image.read() for key, image in sorted(self.images.items())}
