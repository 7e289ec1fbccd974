"""The two AWS banks: snts42/cloudcertprep (JSON per exam and domain) and kananinirav (Markdown exams).

- snts42: the explanation's first paragraph says why the key is right, the second has one sentence
  per distractor, usually in option order (or several, each reason opening on its option; or a
  paragraph each; the SAA-C03 items give one paragraph of one sentence per option, the key's
  first). The source keys neither to options. When the sentence
  count equals the distractor count, each distractor gets as `rationale` the sentence whose
  subject (its opening words) names it, the others in option order; a single key gets the first
  paragraph, several keys one sentence each of it only when each sentence's subject names its key
  (the usual second sentence, "Both are ...", is no one option's reason); otherwise rationales
  stay absent.
- kananinirav: answers and (in about 450 questions) an explanation; `Reference:` lines and bare
  URLs become `references`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

from .common import Converted, _missing, _question, _slug, sentences

SNTS = "snts42-cloudcertprep"
KANA = "kananinirav-clf-c02"

# Exam blueprints (published exam guides: domain names and weights). The kananinirav exams carry no
# domain, so that corpus gets one exam of its own with a single domain.
EXAMS: dict[str, dict[str, Any]] = {
    "CLF-C02": {"name": "AWS Certified Cloud Practitioner", "domains": [
        ("domain1", "Cloud Concepts", 24), ("domain2", "Security and Compliance", 30),
        ("domain3", "Cloud Technology and Services", 34), ("domain4", "Billing, Pricing, and Support", 12)]},
    "SAA-C03": {"name": "AWS Certified Solutions Architect - Associate", "domains": [
        ("domain1", "Design Secure Architectures", 30), ("domain2", "Design Resilient Architectures", 26),
        ("domain3", "Design High-Performing Architectures", 24),
        ("domain4", "Design Cost-Optimized Architectures", 20)]},
    "CLF-PRACTICE": {"name": "AWS Cloud Practitioner practice exams (no domains in the source)",
                     "domains": [("practice", "Practice exam", 100)]},
}



_WORD = re.compile(r"[a-z0-9]+")
_COMMON = frozenset("a an the and or of to in on for with by from is are aws amazon".split())
# Words that name no option: function words, "service" (half the options are "X Service") and
# "management" ("AWS Management Console", "management events")
_GENERIC = frozenset("""be been being it its this that these those which who what when where how not no
    do does did has have had can could would should will may might must so if into as at but than then
    there their they them you your we our all any each some such only also both either neither
    service services management""".split())
_HEAD = 8  # a sentence's subject is in its opening words ("AWS Trusted Advisor provides ...")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower())) - _COMMON


def _scores(said: list[str], options: list[int], texts: list[str]) -> list[list[tuple[int, int]]]:
    """Per sentence, (count, option) for each of `options`, best first: how many of the option's
    own words (those no other of `options` has) the sentence's opening words hold."""
    own = {o: _words(texts[o]) - _GENERIC - set().union(*(_words(texts[u]) for u in options if u != o))
           for o in options}
    out = []
    for sentence in said:
        head = _words(" ".join(sentence.split()[:_HEAD]))
        out.append(sorted(((len(own[o] & head), o) for o in options), reverse=True))
    return out


def _claims(said: list[str], options: list[int], texts: list[str]) -> list[int | None]:
    """Per sentence, the option its opening words name when that option leads clearly; else None."""
    return [s[0][1] if s[0][0] and (len(s) == 1 or s[0][0] > s[1][0]) else None
            for s in _scores(said, options, texts)]


def _by_name(said: list[str], options: list[int], texts: list[str], strict: bool = False) -> list[int] | None:
    """The option each sentence is about, in sentence order. A sentence is about the option
    whose own words (those no other of `options` has) its opening words hold most, when that
    option leads clearly and no other sentence claims it. Some sources list the sentences out of
    option order, and some sentences are about options the question does not have: those fill
    the unclaimed options in order. `strict`: None unless every sentence names its option."""
    claims = _claims(said, options, texts)
    # two sentences on one option: neither keeps it (a stronger match is no safer: the opening
    # words often restate the stem's subject, "Multiple Availability Zones ... within a Region")
    claims = [c if c is not None and claims.count(c) == 1 else None for c in claims]
    if strict and None in claims:
        return None
    rest = iter(o for o in options if o not in claims)
    return [c if c is not None else next(rest) for c in claims]


def _grouped(said: list[str], options: list[int], texts: list[str]) -> list[str] | None:
    """More sentences than options: a sentence whose opening names an option starts that
    option's reason, and the sentences after it that name none, or name that option again less
    strongly, continue it ("Backup and restore has the highest recovery time. Data is restored
    from backups after ..."). None unless the first sentence names an option and each option
    starts exactly one reason; a sentence naming options equally (a tie) or naming the current
    option more strongly than its reason's first sentence (which would then start elsewhere) is
    no safe place to cut."""
    groups: list[tuple[int, int, list[str]]] = []  # (option, strength of the first sentence, sentences)
    for sentence, scores in zip(said, _scores(said, options, texts)):
        best, option = scores[0]
        if best and len(scores) > 1 and scores[1][0] == best:
            return None  # a tie
        if best and (not groups or groups[-1][0] != option):
            groups.append((option, best, [sentence]))
        elif groups and (not best or best < groups[-1][1]):
            groups[-1][2].append(sentence)
        else:
            return None  # the first sentence names no option, or a stronger naming of the current one
    if sorted(o for o, _n, _g in groups) != sorted(options):
        return None
    return [" ".join(g) for _o, _n, g in groups]


def _distractor_reasons(paras: list[str], distractors: list[int], texts: list[str]) -> list[str] | None:
    """The reasons after the key's paragraph, one per distractor (in the source's order), or
    None: the second paragraph's sentences, grouped by the option each opens on when there are
    more; or, where each distractor has a paragraph of its own, those paragraphs."""
    if len(paras) > 2 and len(paras) - 1 == len(distractors):
        return paras[1:]
    if len(paras) != 2 or not distractors:
        return None
    said = sentences(paras[1])
    if len(said) == len(distractors):
        return said
    return _grouped(said, distractors, texts) if len(said) > len(distractors) else None


def snts42(root: Path) -> Iterator[Converted]:
    for path in sorted((root / SNTS).glob("*/domain*.json")):
        exam = path.parent.name.upper()
        domain = path.stem
        for item in json.loads(path.read_text(encoding="utf-8")):
            letters = sorted(item["options"])
            texts = [str(item["options"][k]).strip() for k in letters]
            answer = item["answer"] if isinstance(item["answer"], list) else [item["answer"]]
            keys = {letters.index(a) for a in answer if a in letters}
            explanation = str(item.get("explanation") or "").strip()
            paras = [p.strip() for p in explanation.split("\n") if p.strip()]
            rationales: dict[int, str] = {}
            distractors = [i for i in range(len(texts)) if i not in keys]
            said = _distractor_reasons(paras, distractors, texts)
            if said is None and len(paras) == 1 and len(keys) == 1:
                # one paragraph of one sentence per option, the key's first (the SAA-C03 items)
                every = sentences(paras[0])
                if len(every) == len(texts) and _claims(every[:1], list(range(len(texts))), texts) == sorted(keys):
                    paras = [every[0]]
                    said = every[1:]
            if said is not None:
                rationales.update(zip(_by_name(said, distractors, texts) or (), said))
                if len(keys) == 1:
                    rationales[next(iter(keys))] = paras[0]
                else:
                    first = sentences(paras[0])
                    if len(first) == len(keys):
                        rationales.update(zip(_by_name(first, sorted(keys), texts, strict=True) or (), first))
            qid = f"snts-{exam.lower()}-{domain}-{item['id']}".replace("_", "-")
            data = _question(_slug(qid, 80), exam, domain, str(item["question"]).strip(), texts, keys,
                             explanation or None, rationales, [])
            yield Converted(SNTS, path.relative_to(root / SNTS).as_posix(), str(item["id"]), data, _missing(data))


# ---------------------------------------------------------------------------------------------
# kananinirav: Markdown practice exams

_NUMBERED = re.compile(r"^(\d+)\.\s+(.*)$")
_OPTION = re.compile(r"^\s*-\s+([A-F])\.\s*(.*)$")
_ANSWER = re.compile(r"^\s*Correct\s+answer:\s*([A-F][A-F,\s]*)$", re.I)
_URL = re.compile(r"<?(https?://[^\s>]+)>?")


def _markdown_exam(path: Path) -> Iterator[tuple[int, int, list[str]]]:
    """(number, first line, lines) for each numbered question of one practice exam."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = None
    number = 0
    for i, line in enumerate(lines):
        m = _NUMBERED.match(line)
        if m:
            if start is not None:
                yield number, start + 1, lines[start:i]
            start, number = i, int(m.group(1))
    if start is not None:
        yield number, start + 1, lines[start:]


def _kana_question(block: list[str]) -> tuple[str, list[str], set[int], str, list[str]] | None:
    first = _NUMBERED.match(block[0]).group(2)  # type: ignore[union-attr]
    # One source line runs option A onto the stem line: split it back off.
    head, sep, tail = first.partition(" - A. ")
    stem_lines = [head.strip()]
    if sep:
        block = [block[0], f"    - A. {tail.strip()}", *block[1:]]
    texts: list[str] = []
    answer: list[str] = []
    expl: list[str] = []
    in_details = in_expl = False
    for line in block[1:]:
        s = line.strip()
        if "<details" in s:
            in_details = True
            continue
        if "</details>" in s:
            in_details = in_expl = False
            continue
        if not in_details:
            m = _OPTION.match(line)
            if m and not expl:
                texts.append(m.group(2).strip())
            elif s and not texts:
                stem_lines.append(s)
            continue
        m = _ANSWER.match(s)
        if m:
            answer = re.findall(r"[A-F]", m.group(1).upper())
            continue
        if s.lower().startswith("explanation:"):
            in_expl = True
            s = s.split(":", 1)[1].strip()
        if in_expl:
            expl.append(s)
    if not texts or not answer:
        return None
    letters = [chr(ord("A") + i) for i in range(len(texts))]
    keys = {letters.index(a) for a in answer if a in letters}
    if not keys:
        return None
    stem = re.sub(r"\s*<br\s*/?>\s*", "\n\n", " ".join(stem_lines)).strip()
    refs: list[str] = []
    kept: list[str] = []
    for s in expl:
        body = re.sub(r"^reference:\s*", "", s, flags=re.I)
        urls = _URL.findall(body)
        if urls and not _URL.sub("", body).strip(" -*:"):
            refs.extend(urls)
        else:
            kept.append(s)
    text = "\n".join(kept).strip()
    return stem, texts, keys, text, refs


def kananinirav(root: Path) -> Iterator[Converted]:
    files = sorted((root / KANA).glob("practice-exam-*.md"), key=lambda p: int(re.sub(r"\D", "", p.stem)))
    for path in files:
        exam_no = int(re.sub(r"\D", "", path.stem))
        blocks = list(_markdown_exam(path))
        # one exam numbers every question "1." (Markdown renumbers them): count them instead
        if len({number for number, _, _ in blocks}) < len(blocks):
            blocks = [(n, line, block) for n, (_, line, block) in enumerate(blocks, 1)]
        for number, line, block in blocks:
            parsed = _kana_question(block)
            if parsed is None:
                continue
            stem, texts, keys, explanation, refs = parsed
            qid = f"kana-e{exam_no:02d}-q{number:02d}"
            data = _question(qid, "CLF-PRACTICE", "practice", stem, texts, keys, explanation or None, {}, refs)
            yield Converted(KANA, path.name, str(number), data, _missing(data), line)
