"""`gift`: Moodle's GIFT text format. Each question is one block with no blank line inside: a
`// [id:…] [tag:…]` comment (which Moodle reads back as idnumber and tags), `::id::[html]stem{`,
one line per answer with its feedback, the general feedback after `####`, and `}`. Every text is
HTML (the same safe rendering as the other targets) with GIFT's special characters escaped and
line breaks written as `\\n`, so no text can end a question early."""

from __future__ import annotations

from itertools import groupby

from qlint.exporters import ALL_OR_NOTHING, ExportJob, ExportResult, exporter
from qlint.exporters.kit import breakdown as _breakdown
from qlint.exporters.kit import feedback as fb
from qlint.exporters.kit.grades import fmt, fractions, is_multiple
from qlint.exporters.kit.layout import Site
from qlint.exporters.kit.media import question_images
from qlint.exporters.kit.output import write_file
from qlint.exporters.kit.problems import ExportError, Problem, about_output, problem
from qlint.exporters.kit.tags import lms_tags
from html import escape as html_escape

from qlint.model import MATCHING, ORDERING, Case, Question

# Moodle's GIFT writer escapes exactly these; "\n" keeps a line break without a real one.
_ESCAPES = str.maketrans({"\\": "\\\\", "~": "\\~", "=": "\\=", "#": "\\#", "{": "\\{", "}": "\\}",
                          ":": "\\:", "\n": "\\n", "\r": ""})
# At the start of an answer, "%…%" reads as a weight and "[…]" as a text format: use entities.
_LEADING = {"%": "&#37;", "[": "&#91;"}
DROPPED = ("GIFT has no place for shuffle settings, answer numbering, correct/incorrect feedback, "
           "option ids, difficulty, status, related questions or images; the exam trap, references, "
           "'when it would be right' and 'why learners choose it' are folded into the feedback texts")


def escape(text: str) -> str:
    return text.translate(_ESCAPES)


def _answer_text(html: str) -> str:
    return _LEADING.get(html[:1], html[:1]) + html[1:] if html else html


def _category(code: str, name: str) -> str:
    # Moodle does not unescape category lines; a '/' inside a name is doubled as in Moodle XML.
    return "$CATEGORY: " + "/".join(["$course$", *(" ".join(n.split()).replace("/", "//") for n in (code, name))])


MIN_PAIRS = 3  # Moodle's GIFT matching needs at least three pairs


def _stem(q: Question, case: Case | None) -> str:
    """The stem's HTML; for a question of a case study, after the case's title and scenario (GIFT
    has no shared scenario, and a question imported from it stands alone in Moodle's bank)."""
    stem = fb.render(q.stem)
    if case is None:
        return stem
    return (f'<div class="qlint-case"><p><strong>Case study: {html_escape(case.title or case.id)}</strong></p>'
            f"{fb.render(case.scenario)}</div><hr>{stem}")


def question_block(q: Question, case: Case | None = None) -> str:
    marks = [f"[id:{q.id}]", *(f"[tag:{t}]" for t in lms_tags(q))]
    lines = [f"// {' '.join(marks)}", f"::{escape(q.id)}::[html]{escape(_stem(q, case))}{{"]
    if q.type == MATCHING:
        return "\n".join(lines + _pairs(q) + [f"####{escape(_breakdown.general(q))}", "}"])
    multiple = is_multiple(q)
    for o, fraction in zip(q.options, fractions(q)):
        sign = f"~%{fmt(fraction)}%" if multiple else ("=" if o.correct else "~")
        feedback = fb.option(o)
        lines.append(f"{sign}{escape(_answer_text(fb.compact(o.text)))}" + (f"#{escape(feedback)}" if feedback else ""))
    lines.append(f"####{escape(fb.general(q))}")
    lines.append("}")
    return "\n".join(lines)


def _pairs(q: Question) -> list[str]:
    """`=prompt -> response` per prompt; a surplus response as `=-> response`: an empty prompt,
    which Moodle's match question keeps as an extra wrong answer. Responses are plain text."""
    text = {r.id: r.text for r in q.responses}
    matched = {p.match for p in q.prompts}
    lines = [f"={escape(_answer_text(fb.compact(p.text)))} -> {escape(_breakdown.plain_text(text.get(p.match, '')))}"
             for p in q.prompts]
    lines += [f"=-> {escape(_breakdown.plain_text(r.text))}" for r in q.responses if r.id not in matched]
    return lines


def refused(q: Question) -> Problem | None:
    """Why GIFT cannot carry this question at all, or None."""
    if q.type == ORDERING:
        return (problem(q, '/type', "GIFT has no ordering question; not exported "
                "(use the moodle format, whose ordering question Moodle 4.4+ imports)"))
    if q.type == MATCHING and len(q.prompts) < MIN_PAIRS:
        return (problem(q, '/prompts', f"GIFT matching needs at least {MIN_PAIRS} pairs and this question has "
                f"{len(q.prompts)}; not exported"))
    return None


def _losses(q: Question, root, cases: dict[str, Case]) -> list[Problem]:
    """What this file sets that GIFT cannot keep, each as a "file:line:col: message" warning."""
    out = []
    if q.data.get("shuffle") is False:
        out.append(problem(q, '/shuffle', "GIFT cannot keep the option order (shuffle: false); Moodle may shuffle it"))
    if any(o.raw.get("pinned") for o in q.options):
        out.append(problem(q, '/options', "GIFT cannot pin an option in place; Moodle may shuffle it"))
    if q.type == MATCHING:
        out.append(problem(q, '/prompts', "GIFT matching has no feedback per pair and shows responses as plain "
                   "text; each pair's rationale is in the general feedback"))
    if q.case is not None and q.case in cases:
        out.append(problem(q, '/case', f"GIFT has no case study: the scenario of {q.case!r} is written before "
                   "this question's stem (as in each of the case's questions)"))
    elif q.case is not None:
        out.append(problem(q, '/case', f"case study {q.case!r} is not part of this export; the question is "
                   "exported on its own, without the case's scenario"))
    if images := question_images(q, root):
        out.append(problem(q, None, f"GIFT cannot carry images; {', '.join(sorted(images))} will not import "
                   "(use the moodle format)"))
    return out


@exporter("gift", "GIFT (Moodle's text format): categories, per-answer and general feedback, weights")
def export_gift(job: ExportJob) -> ExportResult:
    if job.scoring == ALL_OR_NOTHING:
        for q in job.questions:
            if is_multiple(q):  # refused before writing: GIFT's only multiple response is per-answer weights
                raise ExportError(problem(q, '/type', "GIFT cannot score a multiple-response question "
                                 "all-or-nothing (its answers carry partial weights only); export with "
                                 "--scoring partial, or use the moodle format"))
    site = Site(job, ".gift")
    result = ExportResult()
    blocks = []
    done = 0
    kept = []
    for q in job.questions:
        why = refused(q)
        if why:  # one warning per question the file leaves out; the others are still written
            result.warnings.append(why)
            result.left_out += 1
        else:
            kept.append(q)
    for (code, domain), group in groupby(kept, key=lambda q: (q.exam, q.domain)):
        blocks.append(_category(code, site.domain_name(code, domain)))
        for q in group:
            blocks.append(question_block(q, job.cases.get(q.case) if q.case else None))
            result.warnings += _losses(q, site.root, job.cases)
            if q.type == MATCHING and job.scoring == ALL_OR_NOTHING:
                result.warnings.append(problem(q, '/type', "Moodle grades a matching question per pair (partial "
                                       "credit); all-or-nothing scoring cannot be expressed for it"))
            done += 1
            job.tick(done)
    data = "\n\n".join(blocks) + "\n"
    result.written = write_file(job.output, data.encode("utf-8"))
    result.warnings.append(about_output(job.output, DROPPED))
    return result
