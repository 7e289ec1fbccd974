"""Outputs never replace a file that is not a regular file (issue 24 point 2). A FIFO or a
character device given as a one-file output (`export -o`, `check --output-file`, `analyze
--output-file`) is opened and written, as a shell redirection would; a FIFO nobody reads is
refused instead of waited on; a folder-shaped output (an HTML site, `analyze --html`, a folder
export's entries, import targets) refuses them. Renaming over /dev/null as root would leave a
world-writable regular file in its place; these tests use FIFOs they make, and touch /dev/null
only through a path that renames nothing (every rename, link and temporary under /dev fails)."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import stat
import tempfile
import threading
import time
from pathlib import Path

import pytest

from kit.authoring import make_project, run
from qlint.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "import"


class Reader(threading.Thread):
    """Drains a FIFO for a bounded time, as `cat fifo` would."""

    def __init__(self, fifo: Path, seconds: float = 20.0) -> None:
        super().__init__(daemon=True)
        self.fifo, self.deadline, self.data = fifo, time.monotonic() + seconds, b""
        self.fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # open now: the writer sees a reader

    def run(self) -> None:
        try:
            while time.monotonic() < self.deadline:
                ready, _, _ = select.select([self.fd], [], [], 0.05)
                if not ready:
                    continue
                chunk = os.read(self.fd, 65536)
                if chunk:
                    self.data += chunk
                elif self.data:  # the writer closed after writing: the end
                    return
                else:
                    time.sleep(0.01)  # no writer yet
        finally:
            os.close(self.fd)


@pytest.fixture(autouse=True)
def bounded():
    """A run that waits on a FIFO fails the test in 20 s instead of hanging the suite."""
    def expire(_signum, _frame):
        raise TimeoutError("waited on a FIFO")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _said(capsys) -> str:
    captured = capsys.readouterr()
    return captured.out + captured.err


def _still_fifo(path: Path) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


@pytest.mark.parametrize("argv, parse", [
    (["export", "-f", "json", "-o", "FIFO"], lambda b: len(json.loads(b)["questions"]) > 20),
    (["export", "-f", "moodle", "-o", "FIFO"], lambda b: b.startswith(b"<?xml")),
    (["export", "-f", "qti21", "-o", "FIFO"], lambda b: b.startswith(b"PK")),  # a zip streamed as is
    (["check", "bank", "--output-format", "sarif", "--output-file", "FIFO"], lambda b: json.loads(b)["version"] == "2.1.0"),
    (["analyze", "examples/synthetic-responses.csv", "--output-format", "json", "--output-file", "FIFO"],
     lambda b: "diagnostics" in json.loads(b)),
])
def test_a_fifo_output_is_written_through_not_replaced(tmp_path, in_repo, capsys, argv, parse):
    fifo = _fifo(tmp_path / "out")
    reader = Reader(fifo)
    reader.start()
    code = main([str(fifo) if a == "FIFO" else a for a in argv])
    reader.join(25)
    assert code in (0, 1), capsys.readouterr().err
    assert _still_fifo(fifo) and parse(reader.data)
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no temporary left beside it


def test_a_fifo_nobody_reads_is_refused_at_once(tmp_path, in_repo, capsys):
    fifo = _fifo(tmp_path / "out")
    start = time.monotonic()
    assert main(["export", "-f", "json", "-o", str(fifo)]) == 2
    assert main(["check", "bank", "--output-format", "json", "--output-file", str(fifo)]) == 2
    err = capsys.readouterr().err
    assert time.monotonic() - start < 30 and _still_fifo(fifo)
    assert "a FIFO (named pipe) that no process is reading; nothing written" in err and "Traceback" not in err


def test_dev_null_stays_a_character_device(tmp_path, in_repo, monkeypatch, capsys):
    """The write to /dev/null provably opens and writes: any rename, link or temporary file under
    /dev fails the run before it could touch the device (so on code that renames, this fails
    harmlessly), and /dev/null is checked to be the character device afterwards."""
    def guard(real):
        def call(*args, **kwargs):
            if any(str(a) == "/dev" or str(a).startswith("/dev/") for a in list(args) + list(kwargs.values())):
                raise AssertionError(f"{real.__name__} under /dev: {args}")
            return real(*args, **kwargs)
        return call

    for name in ("replace", "rename", "link", "unlink"):
        monkeypatch.setattr(os, name, guard(getattr(os, name)))
    monkeypatch.setattr(tempfile, "mkstemp", guard(tempfile.mkstemp))
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert main(["export", "-f", "json", "-o", "/dev/null"]) == 0
    assert main(["check", "bank", "--output-format", "sarif", "--output-file", "/dev/null"]) == 0
    monkeypatch.undo()
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and os.stat("/dev/null").st_rdev == os.makedev(1, 3)


def test_folder_outputs_refuse_fifos(tmp_path, in_repo, capsys):
    site = _fifo(tmp_path / "site")
    assert main(["export", "-f", "html", "-o", str(site)]) == 2
    assert "is a FIFO (named pipe); give a folder for this format" in _said(capsys)
    # an entry of an earlier folder export replaced by a FIFO: refused, not renamed over
    pages = tmp_path / "pages"
    assert main(["export", "-f", "markdown", "-o", str(pages)]) == 0
    entry = next(p for p in sorted(pages.rglob("*.md")))
    entry.unlink()
    _fifo(entry)
    assert main(["export", "-f", "markdown", "-o", str(pages)]) == 2
    assert _still_fifo(entry) and "not a regular file; not replacing it" in _said(capsys)
    # analyze --html writes a folder's page: a FIFO there is refused too
    report = tmp_path / "report"
    report.mkdir()
    _fifo(report / "index.html")
    main(["analyze", "examples/synthetic-responses.csv", "--html", str(report)])
    assert _still_fifo(report / "index.html")
    assert "not a regular file; not replacing it" in capsys.readouterr().err


def test_import_force_never_renames_over_a_fifo(tmp_path, monkeypatch, capsys):
    make_project(tmp_path)
    root = tmp_path
    monkeypatch.chdir(root)
    args = ["import", "--from", "gift", str(FIXTURES / "sample.gift")]
    assert run(capsys, *args)[0] in (0, 1)  # 1: the fixture has a part no format maps (I001)
    target = root / "bank/mla-c01/model-development/layer-split.yaml"
    target.unlink()
    _fifo(target)
    code, _out, err = run(capsys, *args, "--force")
    assert code == 2 and _still_fifo(target) and "not a regular file" in err, err


def test_a_symlink_output_inside_its_folder_is_written_through_by_its_target_kind(tmp_path, in_repo, capsys):
    """A link within the output's folder is followed: to a regular file, that file is replaced
    (the link stays); to a FIFO, the FIFO is written. A link out of the folder stays refused."""
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    (tmp_path / "link.json").symlink_to("real.json")
    assert main(["export", "-f", "json", "-o", str(tmp_path / "link.json")]) == 0
    assert (tmp_path / "link.json").is_symlink() and json.loads(real.read_text(encoding="utf-8"))["questions"]
    fifo = _fifo(tmp_path / "pipe")
    (tmp_path / "to-pipe").symlink_to("pipe")
    reader = Reader(fifo)
    reader.start()
    assert main(["export", "-f", "json", "-o", str(tmp_path / "to-pipe")]) == 0
    reader.join(25)
    assert _still_fifo(fifo) and (tmp_path / "to-pipe").is_symlink() and json.loads(reader.data)["questions"]
    outside = tmp_path / "sub"
    outside.mkdir()
    (outside / "out.json").symlink_to(real)
    assert main(["export", "-f", "json", "-o", str(outside / "out.json")]) == 2
    assert "is a symbolic link to" in _said(capsys)
    shutil.rmtree(outside)


def test_an_output_name_that_looks_like_a_position_stays_the_path(tmp_path, in_repo, capsys):
    """The message of a refused output names it as given; text in it that reads `x:1:2: ` is no
    position (diagnostics are built from records, never parsed back from strings)."""
    site = tmp_path / "night 10:30:15: shift"
    site.mkdir()
    (site / "notes.txt").write_text("mine\n", encoding="utf-8")
    assert main(["export", "-f", "html", "-o", str(site)]) == 2
    said = _said(capsys)
    assert (f"{site}:1:1: E001 {site} is not empty and was not written by qlint export; "
            "choose a new or empty folder") in said, said
    assert (site / "notes.txt").read_text(encoding="utf-8") == "mine\n"
