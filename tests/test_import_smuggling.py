"""What a received source can smuggle into the bank through `qlint import` (issue 24): files
outside a source folder reached through symlinks, FIFOs, YAML or `# qlint:` lines carried by a
file name, two zip entries for one file, markup nested past the parser's limit, and a question
too large for `qlint check`. Each test fails on the code before the fix."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from kit.authoring import make_project, qti21_package_files, run
from conftest import REPO

SECRET = "qlint-secret-5f2a9c"  # text of a file outside the source folder
FIXTURES = REPO / "tests" / "fixtures" / "import"

GIFT = """$CATEGORY: MLA-C01/ML Model Development

::Layer split::Which strategy places different layers of one large model on different GPUs? {
  =Model parallelism #It splits the layers across the GPUs, so each GPU holds part of the weights.
  ~Data parallelism #Every GPU holds a full replica of the weights, so memory does not shrink.
  ~Hyperparameter search #Tuning jobs each train a full copy of the model; nothing is split.
  ####Model parallelism splits the layers across GPUs.
}
"""


def moodle_xml(stem_html: str, name: str = "Layer split") -> str:
    from xml.sax.saxutils import escape

    return f"""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<question type="category"><category><text>$course$/MLA-C01/ML Model Development</text></category></question>
<question type="multichoice">
<name><text>{name}</text></name>
<questiontext format="html">
<text>{escape(stem_html)}</text>
</questiontext>
<answer fraction="100"><text>Model parallelism</text><feedback><text>It splits the layers.</text></feedback></answer>
<answer fraction="0"><text>Data parallelism</text><feedback><text>Every GPU holds a full copy.</text></feedback></answer>
<single>true</single>
</question>
</quiz>
"""


SOURCES = {  # importer -> (file suffix, a good source's text)
    "gift": (".gift", GIFT),
    "page": (".txt", (FIXTURES / "feature-store.txt").read_text(encoding="utf-8")),
    "moodle": (".xml", moodle_xml("<p>Which strategy places different layers on different GPUs?</p>")),
}


@pytest.fixture
def project(tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def files_under(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file() and not p.is_symlink()}


def written(project: Path) -> list[Path]:
    return sorted(p for p in (project / "bank").rglob("*.yaml") if "exams" not in p.parts)


def qlint_subprocess(root: Path, *args: str) -> subprocess.CompletedProcess:
    """The CLI in its own process: a read that blocks on a FIFO is killed, not left hanging."""
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    try:
        return subprocess.run([sys.executable, "-m", "qlint", *args], cwd=root, env=env, capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"qlint {' '.join(args)} hung (killed after 60 s)")


# -- point 1: a source folder's symlinks, FIFOs and devices ---------------------------------------

def outside_source(project: Path, fmt: str) -> Path:
    """A good source of `fmt` outside the folder to import, carrying SECRET."""
    suffix, text = SOURCES[fmt]
    outside = project / "outside"
    outside.mkdir(exist_ok=True)
    target = outside / f"secret{suffix}"
    marked = text.replace("Which strategy", f"{SECRET} Which strategy").replace("A fraud model", f"{SECRET} A fraud model")
    assert SECRET in marked
    target.write_text(marked, encoding="utf-8")
    return target


@pytest.mark.parametrize("fmt", sorted(SOURCES))
def test_a_symlink_out_of_a_source_folder_is_refused_and_never_echoed(capsys, project, fmt):
    target = outside_source(project, fmt)
    (project / "received").mkdir()
    os.symlink(target, project / "received" / f"q{SOURCES[fmt][0]}")
    before = files_under(project)
    code, out, err = run(capsys, "import", "--from", fmt, "received")
    assert code == 2, err
    assert f"received/q{SOURCES[fmt][0]}:1:1: I002 is a symbolic link that leads outside received; " \
           "qlint does not follow it (nothing was read)" in err
    assert SECRET not in err + out
    assert files_under(project) == before and written(project) == []


@pytest.mark.parametrize("fmt", sorted(SOURCES))
def test_a_symlinked_folder_leading_out_is_refused_by_name(capsys, project, fmt):
    outside_source(project, fmt)
    (project / "received").mkdir()
    os.symlink(project / "outside", project / "received" / "more")
    code, out, err = run(capsys, "import", "--from", fmt, "received")
    assert code == 2, err  # it was skipped in silence: exit 0, "Imported 0 questions"
    assert "received/more:1:1: I002 is a symbolic link to a folder outside received; qlint does not follow it" in err
    assert SECRET not in err + out and written(project) == []


@pytest.mark.parametrize("fmt", sorted(SOURCES))
def test_links_that_stay_inside_the_source_folder_are_followed(capsys, project, fmt):
    suffix, text = SOURCES[fmt]
    (project / "received" / "store").mkdir(parents=True)
    (project / "received" / "store" / "real.source").write_text(text, encoding="utf-8")  # no importer suffix
    os.symlink(Path("store") / "real.source", project / "received" / f"q{suffix}")
    code, _out, err = run(capsys, "import", "--from", fmt, "received")
    assert code in (0, 1), err
    assert "I002" not in err and len(written(project)) == 1


@pytest.mark.parametrize("fmt", ["gift", "page"])
def test_fifos_and_devices_are_refused_without_a_hang(project, fmt):
    suffix = SOURCES[fmt][0]
    received = project / "received"
    received.mkdir()
    os.mkfifo(received / f"pipe{suffix}")
    os.symlink("pipe" + suffix, received / f"to-pipe{suffix}")  # a link inside, to a FIFO
    os.symlink("/dev/zero", received / f"zero{suffix}")  # a device outside: refused as a link out
    proc = qlint_subprocess(project, "import", "--from", fmt, "received")
    assert proc.returncode == 2, proc.stderr
    for name in (f"pipe{suffix}", f"to-pipe{suffix}"):
        assert f"received/{name}:1:1: I002 is not a regular file (a pipe, socket, device or folder); not read" in proc.stderr
    assert f"received/zero{suffix}:1:1: I002 is a symbolic link that leads outside received" in proc.stderr
    proc = qlint_subprocess(project, "import", "--from", fmt, f"received/pipe{suffix}")  # named on the command line
    assert proc.returncode == 2 and "I002 is not a regular file" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and written(project) == []


# -- point 2: names and text that would write YAML ------------------------------------------------

REVIEWER_NAME = "a\n# qlint: disable-file\ndifficulty: easy\n#x.gift"
BREAKS = {"LF": "\n", "CR": "\r", "CRLF": "\r\n", "NEL": "\x85", "LS": "\u2028", "PS": "\u2029", "VT": "\x0b",
          "FF": "\x0c", "FS": "\x1c", "ESC": "\x1b", "RLO": "\u202e", "LRI": "\u2066", "BOM": "\ufeff"}


def directives(text: str) -> list[str]:
    from qlint.lint.suppression import parse

    found, _errors = parse(text)
    return [d.verb for d in found]


def loads(text: str) -> dict:
    from qlint.loading.fast import load_fast
    from qlint.loading.limits import Limits

    return load_fast(text, Limits())


def hidden(text: str) -> list[str]:
    """Raw controls and line separators anywhere; in comment lines also bidi and invisible
    characters (in a value they are the source's text, which F003 reports at the character)."""
    import unicodedata

    def bad(ch: str, comment: bool) -> bool:
        return ch != "\n" and unicodedata.category(ch) in (("Cc", "Cf", "Zl", "Zp") if comment else ("Cc", "Zl", "Zp"))

    return [ch for ln in text.split("\n") for ch in ln if bad(ch, ln.lstrip().startswith("#"))]


def test_a_line_break_in_a_file_name_writes_no_yaml_and_no_directive(capsys, project):
    (project / "received").mkdir()
    (project / "received" / REVIEWER_NAME).write_text(GIFT, encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", "gift", "received")
    assert code == 0, err
    [path] = written(project)
    text = path.read_text(encoding="utf-8")
    assert "difficulty" not in loads(text)  # the source has no difficulty
    assert directives(text) == []
    assert "# Imported by qlint from received/a\\n# qlint: disable-file\\ndifficulty: easy\\n#x.gift:3 (gift)" in text
    assert [ln for ln in text.splitlines() if ln.startswith("#")] == text.splitlines()[:2]  # the header, two lines
    code, out, _err = run(capsys, "check", str(path))
    assert code == 1 and "K003" in out  # every rule still runs on it


@pytest.mark.parametrize("brk", sorted(BREAKS))
@pytest.mark.parametrize("fmt", ["gift", "page"])
def test_no_character_of_a_file_name_ends_the_header_comment(capsys, project, brk, fmt):
    suffix, source = SOURCES[fmt]
    name = f"x{BREAKS[brk]}# qlint: disable-file{BREAKS[brk]}difficulty: easy{suffix}"
    (project / "received").mkdir()
    (project / "received" / name).write_text(source, encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", fmt, "received")
    assert code in (0, 1) and "I003" not in err and "X001" not in err, err
    [path] = written(project)
    text = path.read_text(encoding="utf-8")
    assert "difficulty" not in loads(text) and directives(text) == []
    assert hidden(text) == []  # no raw control, break, bidi or BOM anywhere in the file


@pytest.mark.parametrize("brk", sorted(BREAKS))
def test_source_text_reaches_the_file_as_text_and_comments_as_comments(capsys, project, brk):
    """A GIFT comment, a quoted unmapped line and the stem carry each break: every comment stays
    on its line, the stem reads back as the source's text, no directive, no raw hidden character."""
    b = BREAKS[brk]
    source = GIFT.replace("$CATEGORY:", f"// note{b}# qlint: disable-file{b}difficulty: easy\n$CATEGORY:")
    source = source.replace("Which strategy places", f"Which{b}difficulty: easy{b}strategy places")
    source = source.replace("####", f"~%33%Half{b}# qlint: disable-file #partial\n  ####")  # reported as unmapped
    (project / "received.gift").write_text(source, encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", "gift", "received.gift")
    assert code in (0, 1) and "I003" not in err and "X001" not in err, err
    [path] = written(project)
    text = path.read_text(encoding="utf-8")
    data = loads(text)
    assert "difficulty" not in data and directives(text) == []
    assert data["stem"].startswith("Which") and "strategy places" in data["stem"]
    assert hidden(text) == []
    prefixes = ("# yaml-language-server: ", "# Imported by qlint from ", "# qlint import: could not map ", "# source comment: ")
    assert all(ln.startswith(prefixes) for ln in text.splitlines() if ln.lstrip().startswith("#"))


@pytest.mark.parametrize("brk", sorted(BREAKS))
def test_the_writer_escapes_a_package_part_and_every_scalar(brk):
    """What a package importer hands the writer: a part name (a zip entry's) and scalars."""
    from qlint.importers import Imported, Unmapped
    from qlint.importers._write import to_yaml
    from qlint.project.config import Config

    b = BREAKS[brk]
    evil = f"x{b}# qlint: disable-file{b}difficulty: easy"
    data = {"format": 1, "id": "mla-c01-dev-escape-test", "exam": "MLA-C01", "domain": "model-development",
            "type": "single", "status": "draft", "stem": f"Which {evil} one?",
            "options": [{"id": "a-b", "text": evil, "correct": True, "rationale": f"multi\n{evil}\nline\n"},
                        {"id": "c-d", "text": "Other", "correct": False}],
            "explanation": f"{evil}\n"}
    q = Imported(data, 1, unmapped=[Unmapped(2, f"item {evil}", part=f"items/{evil}.xml")], comments=[evil],
                 part=f"items/{evil}.xml")
    text = to_yaml(q, f"pkg.zip/items/{evil}.xml:1", "qti21", REPO / "bank" / "mla-c01" / "x" / "y.yaml", Config(root=REPO))
    assert loads(text) == data and directives(text) == [] and hidden(text) == []


def test_a_qti_image_name_becomes_a_plain_file_name(capsys, project, tmp_path, monkeypatch):
    files = qti21_package_files(capsys, tmp_path, monkeypatch)
    monkeypatch.chdir(project)
    item = next(n for n in files if n.startswith("items/") and b"qlint-stem" in files[n])
    evil = "images/arch\u202e\ndifficulty.png"
    files[evil] = b"\x89PNG\r\n\x1a\n" + bytes(16)
    src = "../images/arch&#x202e;&#10;difficulty.png"  # as character references: an attribute keeps them
    files[item] = files[item].replace(b'<div class="qlint-stem">', f'<div class="qlint-stem"><p><img src="{src}" alt="a"/></p>'.encode(), 1)
    write_zip(project / "img.zip", files)
    code, _out, err = run(capsys, "import", "--from", "qti21", "img.zip")
    assert code in (0, 1) and "I003" not in err, err
    images = [p for p in (project / "bank").rglob("*.png")]
    assert [p.name for p in images] == ["arch--difficulty.png"]
    assert hidden("".join(p.read_text(encoding="utf-8") for p in written(project))) == []


# -- point 3: two zip entries for one file -------------------------------------------------------

def write_zip(path: Path, files: dict[str, bytes], extra: list[tuple[str, bytes]] = ()) -> None:
    import warnings

    with warnings.catch_warnings(), zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        warnings.simplefilter("ignore")  # "Duplicate name": the point of the test
        for name, data in [*files.items(), *extra]:
            zf.writestr(zipfile.ZipInfo(name), data)


@pytest.mark.parametrize("second, shown", [
    ("{item}", "zip entry '{item}' is in the zip twice"),
    ("./{item}", "zip entries '{item}' and './{item}' name the same file"),
    ("items//{base}", "zip entries '{item}' and 'items//{base}' name the same file"),
    ("items\\{base}", "zip entries '{item}' and 'items\\\\{base}' name the same file"),
    ("ITEMS/{base}", "zip entries '{item}' and 'ITEMS/{base}' name the same file"),
    ("items/x/../{base}", "zip entry 'items/x/../{base}' points outside the package"),  # refused as zip slip
])
def test_two_zip_entries_for_one_file_are_refused(capsys, project, tmp_path, monkeypatch, second, shown):
    files = qti21_package_files(capsys, tmp_path, monkeypatch)
    monkeypatch.chdir(project)
    item = next(n for n in files if n.startswith("items/") and b"qlint-stem" in files[n])
    base = item.split("/", 1)[1]
    other = files[item].replace(b'<div class="qlint-stem">', f'<div class="qlint-stem"><p>{SECRET}</p>'.encode(), 1)
    write_zip(project / "dup.zip", files, [(second.format(item=item, base=base), other)])
    before = files_under(project)
    code, out, err = run(capsys, "import", "--from", "qti21", "dup.zip")
    assert code == 2, err
    assert f"dup.zip:1:1: I002 {shown.format(item=item, base=base)}" in err
    assert "nothing was read" in err and SECRET not in err + out
    assert files_under(project) == before


# -- point 4: markup nested past the parser's limit ----------------------------------------------

@pytest.mark.parametrize("levels", [150, 5000])
def test_a_moodle_question_nested_too_deep_is_reported_not_imported_as_no_stem(capsys, project, levels):
    deep = "<div>" * levels + "Which strategy places different layers on different GPUs?" + "</div>" * levels
    good = moodle_xml("<p>Which strategy splits the layers of one model across GPUs?</p>", "Good one")
    xml = moodle_xml(deep, "Deep one").replace("</quiz>", good.split("<quiz>", 1)[1].split("\n", 2)[2])
    (project / "deep.xml").write_text(xml, encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", "moodle", "deep.xml")
    assert code == 1, err
    line = xml[: xml.index("<text>", xml.index("<questiontext"))].count("\n") + 1  # the text's own line
    assert (f"deep.xml:{line}:1: I001 could not map: multichoice question 'Deep one': its text nests more than 100 "
            "elements deep") in err
    assert "the question was not imported" in err and "no stem" not in err
    assert [p.name for p in written(project)] == ["good-one.yaml"]


def test_a_qti_item_nested_too_deep_is_reported(capsys, project, tmp_path, monkeypatch):
    files = qti21_package_files(capsys, tmp_path, monkeypatch)
    monkeypatch.chdir(project)
    item = next(n for n in files if n.startswith("items/") and b"qlint-stem" in files[n])
    at = files[item].index(b'<div class="qlint-stem">') + len(b'<div class="qlint-stem">')
    line = files[item][:at].count(b"\n") + 1
    for levels in (150, 5000):
        shown = dict(files)
        shown[item] = files[item][:at] + b"<div>" * levels + b"deep" + b"</div>" * levels + files[item][at:]
        write_zip(project / "deep.zip", shown)
        code, _out, err = run(capsys, "import", "--from", "qti21", "deep.zip", "--output", str(tmp_path / f"out{levels}"))
        if levels == 150:  # within libxml2's limit: this item is reported, the others are imported
            assert code == 1, err
            assert f"deep.zip/{item}:{line}:1: I001 could not map: item " in err
            assert "its text nests more than 100 elements deep" in err and "the item was not imported" in err
        else:  # past it: the XML itself is refused, in qlint's words
            assert code == 2, err
            assert f"deep.zip/{item}:{line}:" in err and "I002 the XML nests deeper than libxml2's limit of 256" in err
            assert "XML_PARSE_HUGE" not in err


def test_a_deeply_nested_page_imports_as_text_and_checks_in_bounded_time(capsys, project):
    """The page importer parses no markup: nested quotes and lists reach the stem as written, and
    `qlint check` (whose Markdown renderer bounds nesting) reads the file."""
    import time

    source = SOURCES["page"][1]
    deep = "> " * 5000 + "quoted\n\n" + "\n".join("  " * i + "- item" for i in range(300))
    (project / "deep.txt").write_text(source.replace("Which storage should the endpoint", deep + "\n\nWhich storage should the endpoint"),
                                      encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", "page", "deep.txt")
    assert code == 0, err
    [path] = written(project)
    assert "> " * 5000 + "quoted" in loads(path.read_text(encoding="utf-8"))["stem"]
    start = time.monotonic()
    code, out, _err = run(capsys, "check", str(path))
    assert time.monotonic() - start < 30
    assert code == 1 and "Y0" not in out and "X001" not in out


# -- point 5: a question too large for `qlint check` ---------------------------------------------

def test_a_page_larger_than_max_file_bytes_is_refused_at_import(capsys, project):
    source = SOURCES["page"][1].replace("Which storage should the endpoint read the features from?",
                                        "Which storage should the endpoint read? " * 130_000)  # 5 MB
    (project / "big.txt").write_text(source, encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", "page", "big.txt")
    assert code == 2, err
    assert "big.txt:1:1: I002 larger than 1,000,000 bytes (max-file-bytes: it holds one question" in err
    assert written(project) == []


def test_a_question_file_qlint_check_would_refuse_is_not_written(capsys, project):
    huge = "Which strategy places different layers on different GPUs? " * 20_000  # 1.2 MB, one line
    source = GIFT + "\n" + GIFT.replace("::Layer split::", "::Huge one::").replace(
        "Which strategy places different layers of one large model on different GPUs?", huge)
    (project / "two.gift").write_text(source, encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", "gift", "two.gift")
    assert code == 1, err
    line = source[: source.index("::Huge one::")].count("\n") + 1
    assert (f"two.gift:{line}:1: I003 bank/mla-c01/model-development/huge-one.yaml would be 1,1") in err
    assert "bytes; qlint check refuses files over 1,000,000 bytes (max-file-bytes), so it was not written" in err
    assert [p.name for p in written(project)] == ["layer-split.yaml"]
    # the project's own limit is the one applied
    (project / "qlint.toml").write_text('bank = "bank"\nexams = "bank/exams"\n[limits]\nmax-file-bytes = 3000000\n',
                                        encoding="utf-8")
    code, _out, err = run(capsys, "import", "--from", "gift", "two.gift", "--force")
    assert code == 0, err
    code, _out, err = run(capsys, "check", "bank/mla-c01/model-development/huge-one.yaml")
    assert "Y009" not in _out + err


def test_a_package_folder_is_bounded_like_a_zip(tmp_path):
    from qlint.importers import SourceError
    from qlint.importers._package import Package, PackageLimits

    for n in range(3):
        (tmp_path / f"f{n}.xml").write_bytes(bytes(400))
    pkg = Package(tmp_path, PackageLimits(max_entry_bytes=500, max_total_bytes=1000))
    pkg.read("f0.xml")
    pkg.read("f1.xml")
    pkg.read("f0.xml")  # read again: counted once
    with pytest.raises(SourceError, match="the package's files come to more than 1,000 bytes"):
        pkg.read("f2.xml")
