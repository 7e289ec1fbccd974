#!/usr/bin/env python3
"""Convert the real practice banks in ../shared/corpora into qlint question files, for measuring.

The corpora are other people's MIT-licensed questions (see ../shared/corpora/README.md). They stay
in shared/: this module converts them into a folder the caller names (a temporary folder in tests,
benchmarks and scripts/rule_quality.py --real), never into bank/.

    .venv/bin/python scripts/corpora.py --out /tmp/real    # writes <out>/<corpus>/... and prints counts

The conversion is faithful: nothing the source lacks is invented. Where a source has a field qlint
wants but not in qlint's shape, it is mapped by position only, never by word overlap, so that the
rules measured on the result (which do read word overlap) are not tested against themselves:
- snts42: the explanation's first paragraph says why the key is right, the second has one sentence
  per distractor in option order. When the sentence count equals the distractor count, each
  distractor gets its sentence as `rationale` (and a single key gets the first paragraph);
  otherwise rationales stay absent.
- kananinirav: answers and (in about 450 questions) an explanation; `Reference:` lines and bare
  URLs become `references`.
Each converted question records which fields its source lacks (`missing`), so the measurement can
leave out the findings that only say "this field is absent" (they are true of every question and
say nothing about a rule's judgement).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("QLINT_SHARED", REPO.parent / "shared"))
CORPORA = SHARED / "corpora"

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


@dataclass
class Converted:
    corpus: str
    source: str  # file inside the corpus folder
    qid: str  # the source's own id (snts42) or the question number (kananinirav)
    data: dict[str, Any]
    missing: set[str] = field(default_factory=set)
    line: int = 0  # where the question starts in its source file (1-based)

    @property
    def key(self) -> str:
        """How judgments refer to the question: corpus/source#qid."""
        return f"{self.corpus}/{self.source}#{self.qid}"

    @property
    def relpath(self) -> str:
        """Where `write_bank` puts the file, relative to the output folder."""
        return f"{self.corpus}/{Path(self.source).with_suffix('').as_posix()}/{self.data['id']}.yaml"


# ---------------------------------------------------------------------------------------------
# shared helpers

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text.strip()) if s.strip()]


def _slug(text: str, limit: int = 40) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:limit].rstrip("-")


def _option_ids(texts: list[str]) -> list[str]:
    out: list[str] = []
    for i, text in enumerate(texts):
        base = _slug(text) or f"option-{i + 1}"
        if len(base) < 1 or not base[0].isalnum():
            base = f"option-{i + 1}"
        candidate, n = base, 2
        while candidate in out:
            candidate, n = f"{base}-{n}", n + 1
        out.append(candidate)
    return out


def _question(qid: str, exam: str, domain: str, stem: str, texts: list[str], keys: set[int],
              explanation: str | None, rationales: dict[int, str], references: list[str]) -> dict[str, Any]:
    ids = _option_ids(texts)
    options = []
    for i, text in enumerate(texts):
        opt: dict[str, Any] = {"id": ids[i], "text": text, "correct": i in keys}
        if i in rationales:
            opt["rationale"] = rationales[i]
        options.append(opt)
    data: dict[str, Any] = {"format": 1, "id": qid, "exam": exam, "domain": domain,
                            "type": "multiple" if len(keys) > 1 else "single"}
    if len(keys) > 1:
        data["choose"] = len(keys)
    data["status"] = "published"
    data["stem"] = stem
    data["options"] = options
    # The schema requires an explanation; where the source has none, a neutral sentence keeps the
    # file checkable by every other rule, and `missing` tells the measurement to drop what reads it.
    data["explanation"] = explanation or NO_EXPLANATION
    if references:
        data["references"] = [{"title": _ref_title(u), "url": u} for u in references]
    return data


def _ref_title(url: str) -> str:
    tail = [p for p in re.split(r"[/?#]", url.split("://", 1)[-1]) if p]
    return " / ".join(tail[:3])[:120] or url


NO_EXPLANATION = "The source gives no explanation for this question."


def _missing(data: dict[str, Any]) -> set[str]:
    gone = {"trap", "right_when"}
    if data["explanation"] == NO_EXPLANATION:
        gone.add("explanation")
    if any("rationale" not in o for o in data["options"]):
        gone.add("rationale")
    return gone


# ---------------------------------------------------------------------------------------------
# snts42/cloudcertprep: JSON lists per exam and domain


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
            if len(paras) == 2:
                said = sentences(paras[1])
                if len(said) == len(distractors):
                    rationales.update(zip(distractors, said))
                    if len(keys) == 1:
                        rationales[next(iter(keys))] = paras[0]
                    else:
                        first = sentences(paras[0])
                        if len(first) == len(keys):
                            rationales.update(zip(sorted(keys), first))
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
        for number, line, block in _markdown_exam(path):
            parsed = _kana_question(block)
            if parsed is None:
                continue
            stem, texts, keys, explanation, refs = parsed
            qid = f"kana-e{exam_no:02d}-q{number:02d}"
            data = _question(qid, "CLF-PRACTICE", "practice", stem, texts, keys, explanation or None, {}, refs)
            yield Converted(KANA, path.name, str(number), data, _missing(data), line)


# ---------------------------------------------------------------------------------------------


def available(root: Path = CORPORA) -> bool:
    return (root / SNTS).is_dir() and (root / KANA).is_dir()


def convert(root: Path = CORPORA) -> list[Converted]:
    return [*snts42(root), *kananinirav(root)]


def _exam_yaml(code: str) -> str:
    spec = EXAMS[code]
    lines = ["format: 1", f"code: {code}", f"name: {json.dumps(spec['name'])}", "domains:"]
    for did, name, weight in spec["domains"]:
        lines += [f"  - id: {did}", f"    name: {json.dumps(name)}", f"    weight: {weight}"]
    return "\n".join(lines) + "\n"


def write_bank(items: list[Converted], out: Path) -> dict[str, Path]:
    """Write each corpus as its own bank (exams/ + question files); returns corpus -> bank folder."""
    import yaml  # PyYAML: a plain, safe dump of plain data

    banks: dict[str, Path] = {}
    for item in items:
        bank = out / item.corpus
        if item.corpus not in banks:
            banks[item.corpus] = bank
            (bank / "exams").mkdir(parents=True, exist_ok=True)
            (bank / "qlint.toml").write_text('bank = "."\nexams = "exams"\n', encoding="utf-8")
        target = out / item.relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(yaml.safe_dump(item.data, sort_keys=False, allow_unicode=True, width=100),
                          encoding="utf-8")
    for bank in banks.values():
        codes = {i.data["exam"] for i in items if out / i.corpus == bank}
        for code in sorted(codes):
            (bank / "exams" / f"{code.lower()}.yaml").write_text(_exam_yaml(code), encoding="utf-8")
    return banks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="folder to write the converted banks into")
    ap.add_argument("--corpora", type=Path, default=CORPORA)
    args = ap.parse_args(argv)
    if not available(args.corpora):
        print(f"corpora not found at {args.corpora}", file=sys.stderr)
        return 2
    items = convert(args.corpora)
    banks = write_bank(items, args.out)
    for corpus, bank in banks.items():
        n = sum(1 for i in items if i.corpus == corpus)
        print(f"{corpus}: {n} questions -> {bank}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
