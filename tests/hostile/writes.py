"""Write-path cases: every command that writes, run as a user runs it, under a full disk, an
exception halfway, a failed rename, a killed process, and inputs that try to write elsewhere.

Each case builds a project in a fresh folder, runs the command and checks the guarantee,
raising AssertionError with what it saw when the guarantee does not hold. tests/test_write_safety.py
runs every case; `python -m tests.hostile.writes` (from the project root) prints them as a table.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import io
import json
import os
import re
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator
from unittest import mock

from qlint.cli import main
from qlint.exporters.kit.output import MARKER
from qlint.files import is_temp_name

from .corpus import REPO, project, sample

# single and multiple questions, which every export target carries (not the case studies' files)
QUESTIONS = [p for p in sorted((REPO / "bank" / "mla-c01").rglob("*.yaml"))
             if re.search(r"(?m)^type: (?:single|multiple)$", p.read_text(encoding="utf-8"))][:5]
PAGE = REPO / "tests" / "fixtures" / "import" / "feature-store.txt"
PAGE_KEY = "Online store of a SageMaker Feature Store feature group"
SHUFFLE_SEED = "11"
ASIDE = "aside"  # beside the project: backups and markers, never part of a snapshot


# --- running and observing ---------------------------------------------------------------------

def qlint(cwd: Path, argv: list[str] | tuple[str, ...]) -> tuple[int, str]:
    """Run the CLI in-process as a user would from `cwd`: (exit code, stdout + stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue() + err.getvalue()


Snapshot = dict[str, tuple[str, bytes | str, int]]  # relative path -> (kind, content, permission bits)


def snapshot(root: Path) -> Snapshot:
    """Every file, folder and symlink under `root` (symlinks are not followed)."""
    out: Snapshot = {}
    for folder, dirs, names in os.walk(root):
        if Path(folder) == root:
            dirs[:] = [d for d in dirs if d != ASIDE]
        dirs[:] = [d for d in dirs if d != ".qlint_cache"]
        for n in dirs + names:
            p = Path(folder, n)
            st = os.lstat(p)
            rel = p.relative_to(root).as_posix()
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p), 0)
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", b"", stat.S_IMODE(st.st_mode))
            else:
                out[rel] = ("file", p.read_bytes(), stat.S_IMODE(st.st_mode))
    return out


def differences(a: Snapshot, b: Snapshot) -> list[str]:
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


def leftovers(snap: Snapshot) -> list[str]:
    return sorted(k for k in snap if is_temp_name(k.rsplit("/", 1)[-1]))


def assert_unchanged(before: Snapshot, after: Snapshot, out: str) -> None:
    changed = differences(before, after)
    assert not changed, f"changed: {changed[:5]}\n{out}"


def assert_old_or_new(before: Snapshot, expected: Snapshot, after: Snapshot) -> tuple[int, int]:
    """Every path holds its old or its new content (never a mix); anything else is a qlint
    temporary. Returns (files new, files old) among those the command changes."""
    new = old = 0
    for k in set(before) | set(expected) | set(after):
        if is_temp_name(k.rsplit("/", 1)[-1]) or k.endswith("/" + MARKER):
            continue  # the export marker lists old and new files while they are renamed
        now, was, will = after.get(k), before.get(k), expected.get(k)
        assert now in (was, will), f"{k}: neither its old nor its new content"
        if was != will and (will or was)[0] == "file":
            new, old = new + (now == will), old + (now == was)
    return new, old


def umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


# --- fault injection ---------------------------------------------------------------------------

@contextlib.contextmanager
def disk_full_at(n: int) -> Iterator[None]:
    """fsync of the n-th regular file raises ENOSPC (where a full disk shows up for buffered data)."""
    real, seen = os.fsync, [0]

    def fsync(fd: int) -> None:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            seen[0] += 1
            if seen[0] == n:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    with mock.patch("os.fsync", fsync):
        yield


@contextlib.contextmanager
def exception_at(n: int) -> Iterator[None]:
    """An unexpected exception (a bug, not an OSError) while the n-th file is being written."""
    import qlint.files

    real, seen = qlint.files._stage, [0]

    def stage(target, payload):
        seen[0] += 1
        if seen[0] == n:
            raise RuntimeError(f"injected failure while writing {Path(target).name}")
        return real(target, payload)

    with mock.patch.object(qlint.files, "_stage", stage):
        yield


@contextlib.contextmanager
def rename_fails_at(n: int) -> Iterator[None]:
    """The n-th rename (os.replace, or os.link for a new file) fails once with EIO."""
    real_replace, real_link, seen = os.replace, os.link, [0]

    def counted(real):
        def op(*args, **kwargs):
            seen[0] += 1
            if seen[0] == n:
                raise OSError(errno.EIO, os.strerror(errno.EIO))
            return real(*args, **kwargs)
        return op

    with mock.patch("os.replace", counted(real_replace)), mock.patch("os.link", counted(real_link)):
        yield


def _third_call_raises(real: Callable, what: str) -> Callable:
    seen = [0]

    def wrapper(*args, **kwargs):
        seen[0] += 1
        if seen[0] == 3:
            raise RuntimeError(f"injected {what} bug on the third file")
        return real(*args, **kwargs)

    return wrapper


@contextlib.contextmanager
def formatter_bug() -> Iterator[None]:
    import qlint.authoring.formatter as mod  # the command imports it when it runs

    with mock.patch.object(mod, "format_file", _third_call_raises(mod.format_file, "formatter")):
        yield


@contextlib.contextmanager
def rule_bug() -> Iterator[None]:
    """F001 (the rule whose fixes the --fix case applies) raises on the third file it sees."""
    from qlint.rules import RULES

    real = RULES.get("F001")
    paths: list[str] = []

    def check(q, ctx):
        if q.path not in paths:
            paths.append(q.path)
        if paths.index(q.path) == 2:
            raise RuntimeError("injected rule bug on the third file")
        return real.check(q, ctx)

    with mock.patch.dict(RULES._items, {"F001": dataclasses.replace(real, check=check)}):
        yield


@contextlib.contextmanager
def shuffle_bug() -> Iterator[None]:
    import qlint.authoring.yamledit as mod  # the command imports it when it runs

    with mock.patch.object(mod, "reorder", _third_call_raises(mod.reorder, "shuffle")):
        yield


@contextlib.contextmanager
def importer_bug(fmt: str) -> Iterator[None]:
    from qlint.importers import IMPORTERS

    real = IMPORTERS.get(fmt)
    with mock.patch.dict(IMPORTERS._items, {fmt: dataclasses.replace(real, read=_third_call_raises(real.read, "importer"))}):
        yield


@contextlib.contextmanager
def scaffold_bug() -> Iterator[None]:
    import qlint.authoring.scaffold as mod  # the command imports it when it runs

    def render(*_args, **_kwargs):
        raise RuntimeError("injected scaffold bug")

    with mock.patch.object(mod, "render", render):
        yield


# --- projects ----------------------------------------------------------------------------------

def bank(proj: Path, edit: Callable[[str], str] = lambda t: t) -> list[Path]:
    """A project with five real questions (mode 0o640), each passed through `edit`."""
    project(proj)
    out = []
    for src in QUESTIONS:
        dst = proj / "bank" / src.relative_to(REPO / "bank")
        dst.parent.mkdir(parents=True, exist_ok=True)
        text = re.sub(r"^related:.*$", "related: []", src.read_text(encoding="utf-8"), flags=re.M)
        new = edit(text)
        assert new != text or edit.__name__ == "<lambda>", f"{edit.__name__} changed nothing in {src.name}"
        dst.write_text(new, encoding="utf-8")
        os.chmod(dst, 0o640)
        out.append(dst)
    return out


def unbalanced_bank(proj: Path) -> list[Path]:
    """`bank` plus eight copies of one single-answer question, all keyed at the same letter: the
    shuffle moves only what the balance needs, so this bank gives it a batch of files to write."""
    files = bank(proj)
    single = next(f for f in files if "\ntype: single\n" in f.read_text(encoding="utf-8"))
    text = single.read_text(encoding="utf-8")
    qid = re.search(r"^id: (.+)$", text, re.M).group(1)
    for i in range(8):
        copy = single.with_name(f"copy-{i}.yaml")
        copy.write_text(text.replace(f"id: {qid}\n", f"id: {qid}-copy-{i}\n", 1), encoding="utf-8")
        os.chmod(copy, 0o640)
        files.append(copy)
    return files


def messy(text: str) -> str:
    """`id` before `format`: qlint format puts them back in schema order."""
    return re.sub(r"^format: 1\n(id: .*\n)", r"\1format: 1\n", text, count=1, flags=re.M)


def trailing_space(text: str) -> str:
    """The first option text gets a trailing space (F001, which --fix removes)."""
    return re.sub(r"^    text: (.+)$", lambda m: "    text: " + json.dumps(m[1] + " "), text, count=1, flags=re.M)


def revised(text: str) -> str:
    """A changed explanation: every export format carries it."""
    return text.replace("explanation: |\n  ", "explanation: |\n  Revised. ", 1)


def gift_sources(proj: Path, feedback: str = "Low latency.") -> None:
    src = proj / "src"
    src.mkdir(exist_ok=True)
    for i, word in enumerate(["alpha", "bravo", "charlie", "delta", "echo"]):
        (src / f"{word}.gift").write_text(
            f"::Store {word}::Which store serves the {word} features within 10 ms? {{\n"
            f"=Online store {word} #Correct: {feedback}\n~Offline store #Too slow for a request.\n"
            f"~Athena query #Seconds to start.\n####The online store answers in milliseconds.\n}}\n", encoding="utf-8")


def page_sources(proj: Path) -> None:
    src = proj / "src"
    src.mkdir(exist_ok=True)
    text = PAGE.read_text(encoding="utf-8")
    for word, region in zip(["alpha", "bravo", "charlie", "delta", "echo"], ["north", "south", "east", "west", "central"]):
        # five questions, five files: the file name comes from the stem (never from the key)
        page = text.replace(PAGE_KEY, f"{word.title()} {PAGE_KEY.lower()}").replace("A fraud model", f"A {region} fraud model")
        (src / f"{word}.txt").write_text(page, encoding="utf-8")


def png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\x00")) + chunk(b"IEND", b""))


# --- the commands that write -------------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    name: str  # as the user types it
    build: Callable[[Path], None]  # the project (and anything the command reads) in this folder
    argv: tuple[str, ...]
    nth: int  # the file a failure is injected at (the 3rd of a batch, else the only one)
    sources: bool  # writes the user's files (all or nothing, a failed rename is rolled back)
    bug: Callable[[], contextlib.AbstractContextManager] | None = None  # its own step raising on file 3
    kill: bool = False  # also killed mid-batch in a subprocess

    @property
    def batch(self) -> bool:
        return self.nth > 1


def _first_export(fmt: str, output: str, *extra: str) -> Callable[[Path], None]:
    def build(proj: Path) -> None:
        bank(proj)
        code, out = qlint(proj, ["export", "-f", fmt, "-o", output, "--force", *extra])
        assert code == 0, out
        for p in (proj / "out").rglob("*"):
            if p.is_file():
                os.chmod(p, 0o640)
        for q in (proj / "bank").rglob("*.yaml"):  # the next export differs in every file
            if q.parent.name != "exams":
                q.write_text(revised(q.read_text(encoding="utf-8")), encoding="utf-8")
    return build


def _report(proj: Path) -> None:
    bank(proj)
    code, out = qlint(proj, ["check", "--output-format", "json", "--output-file", "out/report.json", "bank"])
    assert code in (0, 1), out
    os.chmod(proj / "out" / "report.json", 0o640)
    q = next((proj / "bank").rglob("athena-ctas-join.yaml"))
    q.write_text(trailing_space(q.read_text(encoding="utf-8")), encoding="utf-8")


def _imported_once(proj: Path) -> None:
    project(proj)
    gift_sources(proj)
    code, out = qlint(proj, IMPORT_GIFT)
    assert code in (0, 1), out
    for p in (proj / "bank" / "mla-c01").rglob("*.yaml"):
        os.chmod(p, 0o640)
    gift_sources(proj, feedback="Single-digit milliseconds.")


def _empty(proj: Path) -> None:
    project(proj)


IMPORT_GIFT = ("import", "--from", "gift", "src", "--exam", "MLA-C01", "--domain", "data-preparation")
EXPORTS = [
    ("qti21", "out/pkg.zip", ()), ("qti21", "out/pkg", ("--no-zip",)),
    ("qti30", "out/pkg.zip", ()), ("qti30", "out/pkg", ("--no-zip",)),
    ("canvas", "out/pkg.zip", ()), ("canvas", "out/pkg", ("--no-zip",)),
    ("moodle", "out/q.xml", ()), ("gift", "out/q.gift", ()), ("json", "out/q.json", ()), ("jsonl", "out/q.jsonl", ()),
    ("markdown", "out/md", ()), ("html", "out/site", ()),
]

TARGETS = [
    Target("format", lambda p: bank(p, messy) and None, ("format", "bank"), 3, True, formatter_bug, kill=True),
    Target("check --fix", lambda p: bank(p, trailing_space) and None, ("check", "--select", "F001", "--fix", "bank"), 3, True, rule_bug, kill=True),
    Target("shuffle", lambda p: unbalanced_bank(p) and None, ("shuffle", "--seed", SHUFFLE_SEED, "bank"), 3, True, shuffle_bug,
           kill=True),
    Target("new", _empty, ("new", "--exam", "MLA-C01", "--domain", "model-development", "--id", "mla-c01-dev-brand-new"),
           1, True, scaffold_bug),
    Target("import --from gift", lambda p: (project(p), gift_sources(p)) and None, IMPORT_GIFT, 3, True,
           lambda: importer_bug("gift"), kill=True),
    Target("import --from gift --force", _imported_once, (*IMPORT_GIFT, "--force"), 3, True, lambda: importer_bug("gift")),
    Target("import --from page", lambda p: (project(p), page_sources(p)) and None, ("import", "--from", "page", "src"), 3, True,
           lambda: importer_bug("page")),
    *[Target(f"export -f {fmt}{' ' + ' '.join(extra) if extra else ''}" + (" (zip)" if out.endswith(".zip") else ""),
             _first_export(fmt, out, *extra), ("export", "-f", fmt, "-o", out, "--force", *extra),
             1 if Path(out).suffix or fmt == "canvas" else 3,  # a canvas re-export changes one file
             False, kill=fmt == "html" or (fmt == "qti21" and not Path(out).suffix))
      for fmt, out, extra in EXPORTS],
    Target("check --output-file", _report, ("check", "--output-format", "json", "--output-file", "out/report.json", "bank"),
           1, False),
]


def _expected(tmp: Path, t: Target) -> tuple[Snapshot, int]:
    """The tree after a clean run, and its exit code; the project is then put back as it was."""
    proj, backup = tmp / "proj", tmp / ASIDE / "backup"
    shutil.copytree(proj, backup, symlinks=True)
    code, out = qlint(proj, t.argv)
    assert code in (0, 1), out
    expected = snapshot(tmp)
    shutil.rmtree(proj)
    shutil.copytree(backup, proj, symlinks=True)
    shutil.rmtree(backup)
    return expected, code


def _setup(tmp: Path, t: Target) -> tuple[Path, Snapshot]:
    proj = tmp / "proj"
    (tmp / ASIDE).mkdir(parents=True, exist_ok=True)
    t.build(proj)
    return proj, snapshot(tmp)


def run_ok(t: Target, tmp: Path) -> str:
    proj, before = _setup(tmp, t)
    code, out = qlint(proj, t.argv)
    assert code in (0, 1) and "Traceback" not in out, out
    after = snapshot(tmp)
    changed = [k for k in differences(before, after) if after.get(k, ("",))[0] == "file"]
    assert changed, "the command wrote nothing"
    assert not leftovers(after), leftovers(after)
    kept = [k for k in changed if k in before]
    for k in kept:
        assert after[k][2] == before[k][2], f"{k}: mode {after[k][2]:o}, was {before[k][2]:o}"
    for k in set(changed) - set(kept):
        assert after[k][2] == umask_mode(), f"{k}: new file with mode {after[k][2]:o}"
    modes = sorted({f"{before[k][2]:o}" for k in kept})
    return (f"exit {code}; {len(changed)} file{'s' if len(changed) != 1 else ''} written" + (f", mode {'/'.join(modes)} kept" if kept else
                                                           f", new files {umask_mode():o} (umask)"))


def run_fault(t: Target, tmp: Path, fault: str) -> str:
    proj, before = _setup(tmp, t)
    expected, _ = _expected(tmp, t) if fault == "rename" else ({}, 0)
    inject = {"disk full": lambda: disk_full_at(t.nth), "exception": lambda: exception_at(t.nth),
              "rename": lambda: rename_fails_at(t.nth), "bug": t.bug}[fault]
    with inject():
        code, out = qlint(proj, t.argv)
    after = snapshot(tmp)
    assert code == 2 and "Traceback" not in out, f"exit {code}\n{out}"
    assert not leftovers(after), leftovers(after)
    if fault == "disk full":
        assert "No space left on device" in out, out
    if fault == "bug" and t.nth > 1:
        assert "nothing was written" in out, out
    if fault == "rename" and not t.sources:
        new, old = assert_old_or_new(before, expected, after)
        return f"exit 2; each file whole: {new} new, {old} old (run it again)"
    assert_unchanged(before, after, out)
    return "exit 2; every file unchanged, no temporary file"


HARNESS = r"""
import os, stat, sys, time
point, n, marker, argv = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
seen = [0]
def pause():
    seen[0] += 1
    if seen[0] == n:
        open(marker, "w").close()
        time.sleep(600)  # until the test kills us
if point == "staging":
    real_fsync = os.fsync
    def fsync(fd):
        real_fsync(fd)
        if stat.S_ISREG(os.fstat(fd).st_mode):
            pause()
    os.fsync = fsync
else:
    real_replace, real_link = os.replace, os.link
    def replace(*a, **k):
        real_replace(*a, **k)
        pause()
    def link(*a, **k):
        real_link(*a, **k)
        pause()
    os.replace, os.link = replace, link
from qlint.cli import main
from qlint.exporters.kit.output import MARKER
sys.exit(main(argv))
"""


def run_kill(t: Target, tmp: Path, point: str) -> str:
    """The real command in a subprocess, paused after the 3rd file is staged (fsynced) or renamed
    into place, then killed with SIGKILL: no cleanup code runs."""
    proj, before = _setup(tmp, t)
    expected, _ = _expected(tmp, t)
    marker = tmp / ASIDE / "paused"
    proc = subprocess.Popen([sys.executable, "-c", HARNESS, point, "3", str(marker), *t.argv], cwd=proj,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert proc.poll() is None, f"finished before the kill point: {proc.communicate()}"
            assert time.monotonic() < deadline, "never reached the kill point"
            time.sleep(0.02)
    finally:
        proc.kill()
        proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    after = snapshot(tmp)
    new, old = assert_old_or_new(before, expected, after)
    left = leftovers(after)
    if point == "staging":
        assert new == 0, f"{new} files changed before anything was renamed"
    else:
        assert new and old, f"not killed mid-batch: {new} new, {old} old"
    assert all(Path(k).name.startswith(".") for k in left)
    if t.sources:  # the leftovers are never linted
        code, out = qlint(proj, ["check", "bank"])
        assert "qlint-tmp" not in out, out
        note = "check ignores them"
    else:  # the next export removes them and completes
        code, out = qlint(proj, t.argv)
        assert code == 0, out
        final = snapshot(tmp)
        assert not leftovers(final) and not differences(expected, final), differences(expected, final)
        note = "the next export removes them"
    return f"each file whole: {new} new, {old} old; {len(left)} hidden .qlint-tmp left, {note}"


# --- writing outside the target folder ---------------------------------------------------------

def _outside(tmp: Path) -> Path:
    out = tmp / "outside"
    out.mkdir(exist_ok=True)
    # a question format, --fix (F001) and shuffle would all change, if they followed a link to it
    (out / "victim.yaml").write_text(messy(trailing_space(sample())), encoding="utf-8")
    (out / "fig.png").write_bytes(png())
    return out


def refused(argv: tuple[str, ...], build: Callable[[Path, Path], None], must: str = "", code: int = 2) -> Callable[[Path], str]:
    """The command exits `code`, prints `must`, and nothing changes anywhere (outside included)."""
    def run(tmp: Path) -> str:
        proj, outside = tmp / "proj", _outside(tmp)
        build(proj, outside)
        before = snapshot(tmp)
        got, out = qlint(proj, argv)
        assert got == code and "Traceback" not in out, f"exit {got}\n{out}"
        assert must in out, out
        assert_unchanged(before, snapshot(tmp), out)
        return f"exit {got}; refused ({must or 'nothing written'}), nothing changed"
    return run


def stays_inside(argv: tuple[str, ...], build: Callable[[Path, Path], None]) -> Callable[[Path], str]:
    """The command writes, but every new file is inside the bank."""
    def run(tmp: Path) -> str:
        proj, outside = tmp / "proj", _outside(tmp)
        build(proj, outside)
        before = snapshot(tmp)
        code, out = qlint(proj, argv)
        changed = differences(before, snapshot(tmp))
        assert code in (0, 1), out
        files = [k for k in changed if k.endswith(".yaml")]
        assert files and all(k.startswith("proj/bank/") and ".." not in k for k in changed), changed
        return "written inside the bank as " + ", ".join(k.removeprefix("proj/") for k in files)
    return run


def _link(path: Path, to: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(to)


def _bank_with_link(proj: Path, outside: Path) -> None:
    bank(proj)
    _link(proj / "bank" / "mla-c01" / "data-preparation" / "evil.yaml", outside / "victim.yaml")


def _domain_linked_out(proj: Path, outside: Path) -> None:
    project(proj)
    gift_sources(proj)
    _link(proj / "bank" / "mla-c01" / "model-development", outside)
    _link(proj / "bank" / "mla-c01" / "data-preparation", outside)


def _import_over_link(proj: Path, outside: Path) -> None:
    project(proj)
    gift_sources(proj)
    for word in ["alpha", "bravo", "charlie", "delta", "echo"]:
        _link(proj / "bank" / "mla-c01" / "data-preparation" / f"store-{word}.yaml", outside / "victim.yaml")


def _malicious_gift(proj: Path, _outside: Path) -> None:
    project(proj)
    (proj / "src").mkdir()
    (proj / "src" / "evil.gift").write_text(
        "$CATEGORY: $course$/../../../../outside/MLA-C01/../../etc\n\n"
        "::../../../../outside/victim::Which store is fastest? {\n=/etc/passwd online store\n~Offline store\n~Athena\n"
        "####The online store.\n}\n", encoding="utf-8")


def _malicious_page(proj: Path, _outside: Path) -> None:
    project(proj)
    (proj / "src").mkdir()
    text = PAGE.read_text(encoding="utf-8").replace(
        "MLA-C01 Data Preparation for Machine Learning (ML) Practice Question", "MLA-C01 ../../../../outside Practice Question")
    (proj / "src" / "evil.txt").write_text(text.replace(PAGE_KEY, "../../../../outside/victim"), encoding="utf-8")


def _export_then(plant: Callable[[Path, Path], None], fmt: str, output: str, *extra: str) -> Callable[[Path, Path], None]:
    def build(proj: Path, outside: Path) -> None:
        _first_export(fmt, output, *extra)(proj)
        plant(proj / output, outside)
    return build


def _replace_with_link(rel: str) -> Callable[[Path, Path], None]:
    def plant(root: Path, outside: Path) -> None:
        target = root / rel
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
        _link(target, outside if rel.endswith("/") or "." not in Path(rel).name else outside / "victim.yaml")
    return plant


def _output_link(rel: str) -> Callable[[Path, Path], None]:
    def build(proj: Path, outside: Path) -> None:
        bank(proj)
        _link(proj / rel, outside / "victim.yaml")
    return build


def _image(ref: str, link: bool = False) -> Callable[[Path, Path], None]:
    def build(proj: Path, outside: Path) -> None:
        bank(proj)
        q = proj / "bank" / "mla-c01" / "data-preparation" / "athena-ctas-join.yaml"
        if link:
            _link(q.parent / ref, outside / "fig.png")
        q.write_text(q.read_text(encoding="utf-8").replace("stem: |\n", f"stem: |\n  ![figure]({ref})\n\n", 1), encoding="utf-8")
    return build


def _leftover_in_bank(tmp: Path) -> str:
    proj = tmp / "proj"
    files = bank(proj)
    (files[0].parent / f".{files[0].name}.abcd1234.qlint-tmp").write_text("id: [half a file", encoding="utf-8")
    code, out = qlint(proj, ["check", "bank"])
    assert code == 0 and "qlint-tmp" not in out, out
    code, out = qlint(proj, ["format", "--check", "bank"])
    assert code == 0 and "qlint-tmp" not in out, out
    return "check and format skip it (hidden, no .yaml suffix): exit 0"


def _zip_slip(tmp: Path) -> str:
    from qlint.exporters.kit.content import write_zip
    from qlint.exporters.kit.output import write_folder, write_tree
    from qlint.files import UnsafePathError

    bad = ["../evil.xml", "/etc/evil.xml", "a/../../evil.xml", "a\\..\\..\\evil.xml", "C:/evil.xml", "./x", "a//b"]
    for name in bad:
        for write in (lambda n: write_zip(tmp / "p.zip", {"ok.xml": b"x", n: b"evil"}),
                      lambda n: write_tree(tmp / "tree", {"ok.xml": b"x", n: b"evil"}),
                      lambda n: write_folder(tmp / "site", {"ok.html": b"x", n: b"evil"}, "html")):
            try:
                write(name)
            except UnsafePathError:
                continue
            raise AssertionError(f"{name!r} was accepted")
    left = sorted(p.relative_to(tmp).as_posix() for p in tmp.rglob("*"))
    assert not left and not (tmp.parent / "evil.xml").exists(), left
    return f"{len(bad)} names x (zip, --no-zip folder, site folder): all refused, nothing written"


@dataclass(frozen=True)
class Case:
    command: str
    situation: str
    run: Callable[[Path], str]  # asserts the guarantee, returns what it saw


def _matrix() -> list[Case]:
    cases = []
    for t in TARGETS:
        cases.append(Case(t.name, "success: permissions kept", lambda tmp, t=t: run_ok(t, tmp)))
        cases.append(Case(t.name, f"disk full (ENOSPC) at file {t.nth}", lambda tmp, t=t: run_fault(t, tmp, "disk full")))
        cases.append(Case(t.name, f"exception while writing file {t.nth}", lambda tmp, t=t: run_fault(t, tmp, "exception")))
        cases.append(Case(t.name, f"rename fails (EIO) at file {t.nth}", lambda tmp, t=t: run_fault(t, tmp, "rename")))
        if t.bug:
            cases.append(Case(t.name, "its own step raises on file 3 of 5" if t.batch else "its own step raises",
                              lambda tmp, t=t: run_fault(t, tmp, "bug")))
        if t.kill:
            cases.append(Case(t.name, "SIGKILL after 3 files staged", lambda tmp, t=t: run_kill(t, tmp, "staging")))
            cases.append(Case(t.name, "SIGKILL after 3 files renamed", lambda tmp, t=t: run_kill(t, tmp, "commit")))
    return cases


def _unparseable(argv: tuple[str, ...]) -> Callable[[Path], str]:
    def run(tmp: Path) -> str:
        proj = tmp / "proj"
        files = bank(proj, messy if argv[0] == "format" else trailing_space if "--fix" in argv else (lambda t: t))
        broken = files[0].parent / "broken.yaml"
        broken.write_bytes(b"format: 1\nid: q-broken\nstem: \"never closed\noptions: [\n")
        os.chmod(broken, 0o640)
        before = snapshot(tmp)
        code, out = qlint(proj, argv)
        after = snapshot(tmp)
        assert after["proj/bank/mla-c01/data-preparation/broken.yaml"] == before["proj/bank/mla-c01/data-preparation/broken.yaml"]
        others = [k for k in differences(before, after)]
        assert "broken.yaml:5:1: Y001" in out or "broken.yaml:4:" in out or "Y001" in out, out
        return f"exit {code}; broken file's bytes unchanged (Y001 reported), {len(others)} other files written"
    return run


CASES: list[Case] = [
    *_matrix(),
    Case("format", "a file that does not parse", _unparseable(("format", "bank"))),
    Case("check --fix", "a file that does not parse", _unparseable(("check", "--select", "F001", "--fix", "bank"))),
    Case("shuffle", "a file that does not parse", _unparseable(("shuffle", "--seed", SHUFFLE_SEED, "bank"))),
    Case("format", "symlink to a file outside the project",
         refused(("format", "bank"), _bank_with_link, "symbolic link leads outside the project")),
    Case("check --fix", "symlink to a file outside the project",
         refused(("check", "--select", "F001", "--fix", "bank/mla-c01/data-preparation/evil.yaml"), _bank_with_link,
                 "symbolic link leads outside the project")),
    Case("shuffle", "symlink to a file outside the project",
         refused(("shuffle", "--seed", SHUFFLE_SEED, "bank/mla-c01/data-preparation/evil.yaml"), _bank_with_link,
                 "symbolic link leads outside the project")),
    Case("new", "--id ../../x", refused(("new", "--exam", "MLA-C01", "--domain", "model-development", "--id", "../../x"),
                                        lambda p, o: project(p) and None, "must be lower-case words")),
    Case("new", "--id with a trailing newline", refused(("new", "--exam", "MLA-C01", "--domain", "model-development", "--id", "abc-def\n"),
                                                        lambda p, o: project(p) and None, "must be lower-case words")),
    Case("new", "domain folder is a symlink out of the bank",
         refused(("new", "--exam", "MLA-C01", "--domain", "model-development"), _domain_linked_out, "leaves")),
    Case("import --from gift", "--exam ../../../../outside", stays_inside(
        ("import", "--from", "gift", "src", "--exam", "../../../../outside", "--domain", "data-preparation"),
        lambda p, o: (project(p), gift_sources(p)) and None)),
    Case("import --from gift", "--exam /absolute/path", stays_inside(
        ("import", "--from", "gift", "src", "--exam", "/tmp/qlint-abs", "--domain", "/etc"),
        lambda p, o: (project(p), gift_sources(p)) and None)),
    Case("import --from gift", "category, title and key naming ../ and absolute paths",
         stays_inside(("import", "--from", "gift", "src"), _malicious_gift)),
    Case("import --from page", "title and key naming ../ paths", stays_inside(("import", "--from", "page", "src"), _malicious_page)),
    Case("import --from gift", "domain folder is a symlink out of the bank",
         refused(IMPORT_GIFT, _domain_linked_out, "leaves")),
    Case("import --from gift --force", "targets are symlinks to a file outside",
         refused((*IMPORT_GIFT, "--force"), _import_over_link, "leaves")),
    Case("export -f qti21 (zip)", "--output is a symlink to a file outside",
         refused(("export", "-f", "qti21", "-o", "out/pkg.zip", "--force"), _output_link("out/pkg.zip"), "symbolic link")),
    Case("export -f moodle", "--output is a symlink to a file outside",
         refused(("export", "-f", "moodle", "-o", "out/q.xml", "--force"), _output_link("out/q.xml"), "symbolic link")),
    Case("check --output-file", "the report path is a symlink to a file outside",
         refused(("check", "--output-file", "out/report.txt", "bank"), _output_link("out/report.txt"), "symbolic link")),
    Case("export -f qti21 --no-zip", "a package file is a symlink to a file outside",
         refused(("export", "-f", "qti21", "-o", "out/pkg", "--no-zip", "--force"),
                 _export_then(_replace_with_link("imsmanifest.xml"), "qti21", "out/pkg", "--no-zip"), "leaves")),
    Case("export -f qti21 --no-zip", "a dangling symlink where a package file goes",
         refused(("export", "-f", "qti21", "-o", "out/pkg", "--no-zip", "--force"),
                 lambda p, o: (bank(p), _link(p / "out" / "pkg" / "imsmanifest.xml", o / "planted.xml")) and None, "leaves")),
    Case("export -f html", "a site folder is a symlink to a folder outside",
         refused(("export", "-f", "html", "-o", "out/site", "--force"),
                 _export_then(_replace_with_link("mla-c01/"), "html", "out/site"), "leaves")),
    Case("export (zip, --no-zip, folders)", "entry names with .., absolute, backslash, drive", _zip_slip),
    *[Case(f"export -f {fmt}", "image path leaving the bank",
           refused(("export", "-f", fmt, "-o", out, "--force", *extra), _image("../../../../outside/fig.png"), "leaves the bank"))
      for fmt, out, extra in EXPORTS if not extra],
    Case("export -f html", "image symlink leading out of the bank",
         refused(("export", "-f", "html", "-o", "out/site", "--force"), _image("fig.png", link=True), "leaves the bank")),
    Case("export -f qti21 (zip)", "image symlink leading out of the bank",
         refused(("export", "-f", "qti21", "-o", "out/pkg.zip", "--force"), _image("fig.png", link=True), "leaves the bank")),
    Case("check, format", "a leftover .x.yaml.*.qlint-tmp in the bank", _leftover_in_bank),
]


def main_report() -> None:  # pragma: no cover - a report, not a test
    print("| command | situation | outcome |")
    print("|---|---|---|")
    for case in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                outcome = case.run(Path(tmp))
            except AssertionError as exc:
                outcome = "FAILED: " + " ".join(str(exc).split())[:200]
        print(f"| {case.command} | {case.situation} | {outcome} |", flush=True)


if __name__ == "__main__":
    main_report()
