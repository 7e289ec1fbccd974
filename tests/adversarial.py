"""Adversarial inputs of about 70 KB, and a worker that runs one group of them.

`python tests/adversarial.py GROUP` runs every case of GROUP (an importer, the Markdown renderer,
the exporters or the lint) one after the other and prints `case<TAB>seconds` (the process's CPU
time, so a busy machine does not stretch it) as each one ends,
then `done`. tests/test_bounded_work.py runs it in a subprocess under a memory limit and a
timeout, so a hang or a blow-up fails the test instead of freezing or swapping the machine.
"""

from __future__ import annotations

import html
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterator

# The blow-ups fixed so far (docs/safety.md, "Bounded work") would take over 5 s of CPU or 1 GiB
# at this size (e.g. 100 KB of spaces took 49 s; 100 KB of `*a ` 3.2 GB); fixed, well under 1 s.
N = 70_000
# markdown-it tries a link at every `[` (docs/safety.md, "Known residuals"): linear but ~70 us per
# bracket on a loaded machine, so the bracket payloads are a quarter of the size and held to the
# same per-case bound as the rest.
N_BRACKETS = N // 4
MARK = "QLINTPAYLOADMARK"

# Markdown / plain text payloads: runs that make naive parsers and regexes backtrack or copy.
TEXT: dict[str, str] = {
    "space run": "a" + " " * N + "b",
    "blank-line run": "a" + "\n" * N + "b",
    "spaces between words": ("word" + " " * 200) * (N // 204),
    "tab and space run": "a" + " \t" * (N // 2) + "b",
    "open brackets": "[" * N_BRACKETS,
    "nested brackets": "[" * (N_BRACKETS // 2) + "]" * (N_BRACKETS // 2),
    "unclosed links": "[a](" * (N_BRACKETS // 4),
    "unclosed images": "![" * (N_BRACKETS // 2),
    "nested lists": "- " * (N // 2) + "a",
    "list lines": "".join(" " * (i % 40) + "- a\n" for i in range(N // 25)),
    "nested blockquotes": ">" * N + " a",
    "spaced blockquotes": "> " * (N // 2) + "a",
    "emphasis *": "*a " * (N // 3),
    "emphasis _": "_a " * (N // 3),
    "strong **": "**a " * (N // 4),
    "mixed emphasis": "*a_ " * (N // 4),
    "star run": "*" * N,
    "backtick words": "`a " * (N // 3),
    "backtick run": "`" * N,
    "escapes": "\\*" * (N // 2),
    "entities": "&amp;" * (N // 5),
    "angle brackets": "<a " * (N // 3),
}
# HTML payloads for the importers that read HTML (Moodle, QTI): tags nested deep or left open.
HTML: dict[str, str] = {
    "nested bold": "<b>" * (N // 3),
    "nested lists (html)": "<ul><li>" * (N // 8),
    "open paragraphs": "<p>a" * (N // 4),
    "bold runs": "<b>a</b> " * (N // 9),
    "br run": "<br/>" * (N // 5),
}


def _time(out, name: str, work: Callable[[], object]) -> None:
    print(f"start\t{name}", file=out, flush=True)
    t0 = time.process_time()  # CPU, not wall: the groups run side by side with the rest of the suite
    work()
    print(f"{name}\t{time.process_time() - t0:.3f}", file=out, flush=True)


def _sample() -> dict:
    import yaml

    sys.path.insert(0, str(Path(__file__).parent))
    from conftest import standalone_sample

    return yaml.safe_load(standalone_sample())


def _exams():
    import yaml

    from qlint.project.exams import Exam

    exam = Path(__file__).resolve().parents[1] / "bank" / "exams" / "mla-c01.yaml"
    return {"MLA-C01": Exam.from_data(yaml.safe_load(exam.read_text(encoding="utf-8")), str(exam))}


def _with_stem(stem: str) -> dict:
    data = _sample()
    data["stem"] = stem
    return data


def _questions(tmp: Path, texts: dict[str, str]) -> Iterator[tuple[str, "object"]]:
    from qlint.model import Question

    for i, (name, text) in enumerate(texts.items()):
        path = tmp / "bank" / f"q{i}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("stem: x\n", encoding="utf-8")
        data = _with_stem(text)
        data["id"] = f"mla-c01-adversarial-{i}"
        data["explanation"] = text
        yield name, Question(str(path), data)


def _export(fmt: str, questions: list, out: Path) -> None:
    from qlint.exporters import EXPORTERS, ExportJob

    EXPORTERS.get(fmt).write(ExportJob(questions=questions, exams=_exams(), output=out, bank_root=out.parent / "bank"))


def _template(fmt: str, tmp: Path) -> Path:
    """A one-question export in `fmt` whose stem is MARK, to put payloads into."""
    from qlint.model import Question

    path = tmp / "bank" / "template.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("stem: x\n", encoding="utf-8")
    out = tmp / f"template-{fmt}"
    _export(fmt, [Question(str(path), _with_stem(MARK))], out)
    return out


def page(out, tmp: Path) -> None:
    from qlint.importers import IMPORTERS, ImportJob

    read = IMPORTERS.get("page").read
    exams = _exams()
    titles = {"title: space run": "MLA-C01" + " " * N + "x",
              "title: space run before the heading": "MLA-C01 Data" + " " * N + "practice questio",
              "title: words and spaces": ("MLA-C01 " + "a " * (N // 2)),
              "title: tab run": "MLA-C01\t" + "\t" * N + "Data practice question"}
    for name, title in titles.items():
        _time(out, name, lambda: read(ImportJob(tmp / "p.txt", title + "\nWhat now?\n", exams)))
    for name, text in TEXT.items():
        body = (f"MLA-C01 Data Preparation Practice Question\n{text}\nAnswer choices\n{text}\nb\n"
                f"Correct answer & explanation\n✓\n{text}\n{text}\nGo deeper\n{text}\nRelated to this question\n{text}\n")
        _time(out, name, lambda: read(ImportJob(tmp / "p.txt", body, exams)))


def gift(out, tmp: Path) -> None:
    from qlint.importers import IMPORTERS, ImportJob

    read = IMPORTERS.get("gift").read
    template = (_template("gift", tmp)).read_text(encoding="utf-8")
    exams = _exams()
    special = {"colon pairs": "::" * (N // 2), "open braces": "{" * N, "backslashes": "\\" * N,
               "tildes": "~" * N, "equals": "=" * N, "percent": "%" * N, "comment lines": "//\n" * (N // 3),
               "category lines": "$CATEGORY: a\n" * (N // 13), "html format": "[html]" + "<b>" * (N // 3)}
    for name, text in {**TEXT, **special}.items():
        _time(out, name, lambda: read(ImportJob(tmp / "q.gift", template.replace(MARK, text), exams)))
        _time(out, name + " (bare)", lambda: read(ImportJob(tmp / "q.gift", text, exams)))


def _xml_cases(template: bytes) -> dict[str, bytes]:
    head, _, rest = template.partition(b"?>")
    decl = head + b"?>"
    cases = {
        "blank lines after the declaration": decl + b"\n" * N + rest,
        "spaces after the declaration": decl + b" " * N + rest,
        "comments after the declaration": decl + b"\n<!-- a -->" * (N // 11) + rest,
        "unclosed comments": decl + b"\n" + b"<!--" * (N // 4),
        "processing instructions": decl + b"\n<?a b?>" * (N // 8) + rest,
        "unclosed processing instructions": decl + b"<?a" * (N // 3),
        "blank lines then a DOCTYPE": decl + b"\n" * N + b"<!DOCTYPE quiz>" + rest,
    }
    for name, text in {**TEXT, **HTML}.items():
        cases[name] = template.replace(MARK.encode(), html.escape(text).encode())
    for name, text in HTML.items():
        cases[name + " (markup)"] = template.replace(MARK.encode(), text.encode())
    return cases


def moodle(out, tmp: Path) -> None:
    from qlint.importers import IMPORTERS, ImportJob, SourceError

    read = IMPORTERS.get("moodle").read
    template = _template("moodle", tmp).read_bytes()
    exams = _exams()

    def one(data: bytes) -> None:
        try:
            read(ImportJob(tmp / "q.xml", "", exams, data=data))
        except SourceError:
            pass  # refused with a message: bounded

    for name, data in _xml_cases(template).items():
        _time(out, name, lambda: one(data))


def qti21(out, tmp: Path) -> None:
    import shutil

    from qlint.importers import IMPORTERS, ImportJob, SourceError

    read = IMPORTERS.get("qti21").read
    folder = tmp / "template-qti21"
    from qlint.exporters import EXPORTERS, ExportJob  # a folder package: --no-zip
    from qlint.model import Question

    path = tmp / "bank" / "template.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("stem: x\n", encoding="utf-8")
    EXPORTERS.get("qti21").write(ExportJob([Question(str(path), _with_stem(MARK))], _exams(), folder, zip=False))
    item = next((folder / "items").glob("*.xml"))
    template = item.read_bytes()
    manifest = (folder / "imsmanifest.xml").read_bytes()
    exams = _exams()

    def one(data: bytes, where: Path) -> None:
        original = where.read_bytes()
        where.write_bytes(data)
        try:
            read(ImportJob(folder, "", exams))
        except SourceError:
            pass
        finally:
            where.write_bytes(original)

    for name, data in _xml_cases(template).items():
        _time(out, name, lambda: one(data, item))
    head, _, rest = manifest.partition(b"?>")
    _time(out, "manifest: blank lines after the declaration", lambda: one(head + b"?>" + b"\n" * N + rest, folder / "imsmanifest.xml"))
    shutil.rmtree(folder)


def renderer(out, tmp: Path) -> None:
    from qlint.markup import image_paths, render, render_inline
    from qlint.exporters.web._markdown_text import to_markdown

    for name, text in TEXT.items():
        _time(out, name + ": html", lambda: (render(text), render_inline(text), image_paths(text + "![")))
        _time(out, name + ": markdown", lambda: to_markdown(text + "<b>"))  # "<" forces the full re-render


def exporters(out, tmp: Path) -> None:
    from qlint.exporters import EXPORTERS

    # the payloads that blew up or copy most; every payload goes through the renderer group
    picked = ("emphasis *", "mixed emphasis", "escapes", "blank-line run", "nested blockquotes")
    questions = [q for _n, q in _questions(tmp, {k: TEXT[k] for k in picked})]
    for fmt in EXPORTERS.names():
        target = tmp / f"out-{fmt}"
        _time(out, fmt, lambda: _export(fmt, questions, target))


def lint(out, tmp: Path) -> None:
    import yaml

    from qlint.lint.engine import check_file, make_settings
    from qlint.cli.config import load_config

    root = tmp / "project"
    (root / "bank").mkdir(parents=True)
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    os.chdir(root)
    settings = make_settings(load_config())
    for i, (name, text) in enumerate(TEXT.items()):
        data = _with_stem(text)
        data["options"][1]["text"] = text[:2000]
        path = root / "bank" / f"q{i}.yaml"
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        _time(out, name, lambda: check_file(str(path), settings))


def _csv_cell(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def analyze(out, tmp: Path) -> None:
    """The responses readers (generic, Canvas, Moodle) with payload cells, headers and times, and
    a sparse file whose dense matrix would not fit: each must finish (or refuse) in bounded time."""
    from qlint.itemanalysis.data import ItemKey, ResponsesError
    from qlint.itemanalysis.readers import read_responses
    from qlint.itemanalysis.stats import analyse

    stem = "Which of these options is the one that the stem of this question asks for?"
    # the last option is a hostile bank's: N/2 words, so a run of pieces could grow that long
    key = ItemKey("q1", "q1.yaml", ("a", "b", "c", "d"), ("Alpha, with a comma", "Beta; a semicolon", "Gamma",
                                                            "a " * (N // 2)), 0b0001, False, stem)
    keys = {"q1": key}
    f = tmp / "responses.csv"

    def read(name: str, text: str) -> None:
        f.write_text(text, encoding="utf-8")

        def work():
            try:
                analyse(read_responses([str(f)], keys), keys)
            except ResponsesError:
                pass  # refused with file:line:col: what a bad file should get

        _time(out, name, work)

    canvas = "name,id,sis_id,section,section_id,section_sis_id,submitted,attempt,{},1.0\nAnn,1,,S,1,,2024-01-01,1,{},1\n"
    moodle = "Surname,First name,Email address,State,Started on,Question 1,Response 1\nLee,Ann,a@x,Finished,{},{},{}\n"
    cells = {"commas": "," * N, "semicolons": ";" * N, "comma words": "a," * (N // 2), "semicolon words": "a;" * (N // 2),
             "comma spaces": ", " * (N // 2), **TEXT}
    for name, cell in cells.items():
        read(f"canvas answer: {name}", canvas.format(_csv_cell("101: " + stem), _csv_cell(cell)))
        read(f"moodle answer: {name}", moodle.format("1 March 2024, 9:00 AM", "q1", _csv_cell(cell)))
        read(f"long answer: {name}", f"respondent,question,selected,timestamp\nann,q1,{_csv_cell(cell)},2024-03-01T05:00Z\n")
    for name, text in {"< run": "<" * 120_000, "<a run": "<a" * (N // 2), **TEXT}.items():
        read(f"canvas header: {name}", canvas.format(_csv_cell("101: " + text), "Alpha"))
        read(f"moodle question: {name}", moodle.format("1 March 2024, 9:00 AM", _csv_cell(text), "Alpha"))
        read(f"time: {name}", f"respondent,question,selected,timestamp\nann,q1,a,{_csv_cell(text)}\n")
        read(f"attempt: {name}", f"respondent,question,selected,attempt\nann,q1,a,{_csv_cell(text)}\n")
    read("stray quote", "respondent,question,selected\n" + "ann,q1,\"a\r\n" + "bob,q1,a\r\n" * (N // 2))
    # 150,000 answers, each by another learner to another of 1,000 questions: 150 million cells
    many = {f"q{i}": ItemKey(f"q{i}", f"q{i}.yaml", ("a", "b"), ("A", "B"), 1, False, f"Stem {i}") for i in range(1000)}
    f.write_text("respondent,question,selected\n" + "".join(f"l{i},q{i % 1000},a\n" for i in range(150_000)), encoding="utf-8")

    def dense():
        try:
            analyse(read_responses([str(f)], many), many)
        except ResponsesError:
            pass

    _time(out, "sparse answers, dense matrix", dense)


GROUPS = {f.__name__: f for f in (page, gift, moodle, qti21, renderer, exporters, lint, analyze)}


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as folder:
        GROUPS[sys.argv[1]](sys.stdout, Path(folder))
    print("done", flush=True)
