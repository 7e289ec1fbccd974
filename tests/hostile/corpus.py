"""The hostile-input corpus: each case builds a file (large ones are generated, never committed)
and states the diagnostic code and exit status qlint must answer with.

`python -m tests.hostile.corpus` (from the project root) prints every case's outcome, wall time
and peak memory, each run in its own process.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "bank" / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml"


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[Path], Path]  # gets the project folder, returns the path to lint
    code: str | None  # expected diagnostic code (None: clean)
    exit: int
    line: int | None = None


def project(root: Path) -> Path:
    """A minimal project: qlint.toml and the exam definitions, in `root`."""
    (root / "bank" / "exams").mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "bank" / "exams" / "mla-c01.yaml", root / "bank" / "exams" / "mla-c01.yaml")
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    return root


def sample() -> str:
    # alone in its project, the sample's related ids would not resolve (B002)
    text = SAMPLE.read_text(encoding="utf-8")
    return "\n".join("related: []" if line.startswith("related:") else line for line in text.split("\n"))


def _write(name: str, data: bytes | str) -> Callable[[Path], Path]:
    def build(root: Path) -> Path:
        f = root / "bank" / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return f

    return build


def _sub(old: str, new: str) -> str:
    text = sample()
    assert old in text, old
    return text.replace(old, new, 1)


def _alias_bomb() -> str:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    names = "abcdefghi"
    for prev, name in zip(names, names[1:]):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def _big_file(root: Path) -> Path:
    f = root / "bank" / "huge.yaml"
    f.parent.mkdir(parents=True, exist_ok=True)
    with open(f, "wb") as fh:
        fh.write(b"stem: |\n")
        chunk = b"  " + b"x" * 98 + b"\n"
        for _ in range(50 * 1024 * 1024 // len(chunk)):
            fh.write(chunk)
    return f


def _many_options() -> str:
    opts = "".join(
        f"  - id: o{i}\n    text: Option {i}\n    correct: {'true' if i == 0 else 'false'}\n    rationale: Reason {i} here.\n"
        for i in range(10_000)
    )
    head, _sep, _rest = sample().partition("options:\n")
    return head + "options:\n" + opts + "explanation: x\n"


def _unreadable(root: Path) -> Path:
    f = _write("locked.yaml", sample())(root)
    os.chmod(f, 0)
    return f


def _fifo(root: Path) -> Path:
    f = root / "bank" / "pipe.yaml"
    f.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(f)
    return f


def _dir_named_like_question(root: Path) -> Path:
    d = root / "bank" / "folder.yaml"
    d.mkdir(parents=True)
    return d


def _symlink_loop(root: Path) -> Path:
    f = root / "bank" / "loop.yaml"
    f.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(f, f)
    return f


def _symlink_out(root: Path) -> Path:
    outside = root.parent / f"{root.name}-outside.yaml"
    outside.write_text("secret: do-not-echo\n", encoding="utf-8")
    f = root / "bank" / "escape.yaml"
    f.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(outside, f)
    return f


def _odd_path(root: Path) -> Path:
    return _write("dossier été/question à espaces.yaml", sample())(root)


CASES: list[Case] = [
    # YAML
    Case("syntax error", _write("syntax.yaml", "id: [unclosed\nstem: x\n"), "Y001", 2),
    Case("tab indentation", _write("tabs.yaml", "id: q\noptions:\n\t- id: a\n"), "Y001", 2, 3),
    Case("duplicate keys", _write("dup.yaml", _sub("status: published\n", "status: published\nstatus: draft\n")), "Y002", 2, 9),
    Case("list at the root", _write("list.yaml", "- id: q1\n- id: q2\n"), "Y005", 2),
    Case("scalar at the root", _write("scalar.yaml", "just a sentence\n"), "Y005", 2),
    Case("empty file", _write("empty.yaml", ""), "Y004", 2),
    Case("several documents", _write("docs.yaml", sample() + "---\nid: second\n"), "Y006", 2),
    Case("unknown tag", _write("tag.yaml", _sub("stem: |", "stem: !include stem.md\nx: |")), "Y007", 2),
    Case("python object tag", _write("py.yaml", "id: !!python/object/apply:os.system ['touch PWNED']\n"), "Y007", 2, 1),
    Case("merge key", _write("merge.yaml", "base: &b {status: draft}\nq:\n  <<: *b\n"), "Y008", 2, 3),
    Case("anchors and aliases", _write("alias.yaml", _sub("tags: [distributed-training, gpu-memory]", "tags: &t [distributed-training, gpu-memory]")), None, 0),
    Case("alias bomb", _write("bomb.yaml", _alias_bomb()), "Y009", 2),
    Case("deep nesting", _write("deep.yaml", "a: " + "[" * 100_000 + "]" * 100_000 + "\n"), "Y009", 2, 1),
    Case("deep block nesting", _write("deepblock.yaml", "".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "v: 1\n"), "Y009", 2),
    Case("50 MB file", _big_file, "Y009", 2),
    Case("5 MB single line", _write("line.yaml", "stem: " + "x" * (5 * 1024 * 1024) + "\n"), "Y009", 2),
    Case("10,000 options", _write("many.yaml", _many_options()), "S001", 1),
    # bytes
    Case("invalid UTF-8", _write("latin1.yaml", "id: q\nstem: café\n".encode("latin-1")), "Y003", 2, 2),
    Case("UTF-16", _write("utf16.yaml", sample().encode("utf-16")), "Y003", 2, 1),
    Case("UTF-8 byte order mark", _write("bom.yaml", b"\xef\xbb\xbf" + sample().encode("utf-8")), None, 0),
    Case("NUL byte", _write("nul.yaml", "id: q\nstem: a\x00b\n"), "Y003", 2, 2),
    Case("CRLF line endings", _write("crlf.yaml", sample().replace("\n", "\r\n")), None, 0),
    Case("character XML forbids", _write("ctrl.yaml", _sub("  Which distributed", "  Which\x0c distributed")), "Y003", 2, 17),
    Case("escaped character XML forbids", _write("ctrl2.yaml", _sub("difficulty: medium", 'difficulty: medium\nshuffle: true')
         .replace("text: Data parallelism", 'text: "Data\\x0bparallelism"')), "S004", 1),
    # types
    Case("date where a string belongs", _write("date.yaml", _sub("id: mla-c01-dev-layer-split-gpus", "id: 2024-01-01")), "S001", 1, 3),
    Case("number where a string belongs", _write("number.yaml", _sub("text: Data parallelism", "text: 42")), "S001", 1),
    Case("correct: yes", _write("yes.yaml", _sub("text: Model parallelism\n    correct: true", "text: Model parallelism\n    correct: yes")), "S001", 1, 48),
    Case("null field", _write("null.yaml", _sub("explanation: |", "explanation:\nx_: |")), "S001", 1),
    # files
    Case("unreadable file", _unreadable, "Y010", 2),
    Case("FIFO named like a question", _fifo, "Y010", 2),
    Case("directory named like a question", _dir_named_like_question, "Y010", 2),
    Case("symlink loop", _symlink_loop, "Y010", 2),
    Case("symlink out of the project", _symlink_out, "Y010", 2),
    Case("path with spaces and non-ASCII", _odd_path, None, 0),
]


DENY_LOCKED = """
import builtins, sys
_open = builtins.open
def _deny(path, *args, **kwargs):
    if str(path).endswith("locked.yaml"):
        raise PermissionError(13, "Permission denied")
    return _open(path, *args, **kwargs)
builtins.open = _deny
from qlint.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _measure(case_name: str) -> None:  # pragma: no cover - run by the report below
    import resource
    import subprocess
    import sys
    import tempfile
    import time

    case = next(c for c in CASES if c.name == case_name)
    with tempfile.TemporaryDirectory() as tmp:
        root = project(Path(tmp) / "proj")
        target = case.build(root)
        exe = [sys.executable, "-m", "qlint", "check", str(target)]
        note = ""
        if case.build is _unreadable and os.geteuid() == 0:
            # root reads mode-000 files: refuse the read the way the kernel refuses everyone else
            exe = [sys.executable, "-c", DENY_LOCKED, "check", str(target)]
            note = " (as root: refusal simulated)"
        t0 = time.perf_counter()
        proc = subprocess.run(exe, cwd=root, capture_output=True, text=True, timeout=120)
        wall = time.perf_counter() - t0
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        first = (proc.stdout.splitlines() or [""])[0]
        code = first.split(": ")[1].split(" ")[0] if ": " in first and first.count(":") >= 3 else "-"
        ok = proc.returncode == case.exit and (case.code is None or f" {case.code} " in proc.stdout)
        print(f"| {case.name}{note} | {case.code or 'clean'} | {code} | {proc.returncode} | {wall:.2f} | {peak:.0f} | {'ok' if ok else 'MISMATCH'} |")


def main() -> None:  # pragma: no cover - a report, not a test
    import subprocess
    import sys

    print("| case | expected | got | exit | wall s | peak MB | |")
    print("|---|---|---|---|---|---|---|")
    for case in CASES:
        # one process per case, so ru_maxrss is that case's own peak
        subprocess.run([sys.executable, "-c", f"from tests.hostile.corpus import _measure; _measure({case.name!r})"],
                       cwd=REPO, check=False)


if __name__ == "__main__":
    main()
