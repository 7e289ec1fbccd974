"""The results cache and the worker processes change speed, never results."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from qlint.lint.engine import lint, make_settings
from qlint.cli.config import load_config
from qlint.paths import display_path
from qlint.lint.runner import PARALLEL_MIN_FILES, RunOptions

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import synthbank  # noqa: E402
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    root = tmp_path_factory.mktemp("bank")
    # flaws every 23 questions so there are findings (item and bank rules) to compare
    synthbank.generate(root / "bank", PARALLEL_MIN_FILES + 60, seed=3, dup_every=40, flaw_every=23)
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    return root


def run(root: Path, options: RunOptions | None, paths=None, config=None):
    config = config or load_config(root)
    settings = make_settings(config)
    return lint(paths or [str(root / "bank")], settings, options)


def diags(result):
    return [d.as_dict() | {"fix": repr(d.fix)} for d in result.diagnostics]


def test_serial_parallel_and_cached_runs_agree(bank, tmp_path, monkeypatch):
    monkeypatch.chdir(bank)
    serial = run(bank, RunOptions(None, jobs=1))
    assert serial.diagnostics, "the generated bank has planted flaws"
    assert {d.code[0] for d in serial.diagnostics} >= {"K", "B"}
    parallel = run(bank, RunOptions(None, jobs=2))
    cold = run(bank, RunOptions(tmp_path / "cache", jobs=2))
    warm = run(bank, RunOptions(tmp_path / "cache", jobs=2))
    questions = [f for f in warm.files if "exams" not in Path(f).parts]  # exam files are read up front
    assert len(warm.checker.hits) == len(questions) and not warm.checker.computed
    assert warm.checker.bank_hit
    assert diags(serial) == diags(parallel) == diags(cold) == diags(warm)


def test_one_changed_file_is_recomputed_with_the_bank_rules(bank, tmp_path, monkeypatch):
    monkeypatch.chdir(bank)
    cache = tmp_path / "cache"
    run(bank, RunOptions(cache, jobs=1))
    target = sorted((bank / "bank").rglob("q000005.yaml"))[0]
    original = target.read_text(encoding="utf-8")
    try:
        target.write_text(original.replace("correct: false", "correct: true", 1), encoding="utf-8")
        again = run(bank, RunOptions(cache, jobs=1))
        assert again.checker.computed == [str(target)] or [Path(p) for p in again.checker.computed] == [target]
        assert not again.checker.bank_hit
        fresh = run(bank, RunOptions(None, jobs=1))
        assert diags(again) == diags(fresh)
        assert any(d.code == "K002" and d.path.endswith("q000005.yaml") for d in again.diagnostics)
    finally:
        target.write_text(original, encoding="utf-8")


def test_config_schema_and_exam_changes_invalidate(bank, tmp_path, monkeypatch):
    monkeypatch.chdir(bank)
    cache = tmp_path / "cache"
    run(bank, RunOptions(cache, jobs=1))
    assert not run(bank, RunOptions(cache, jobs=1)).checker.computed
    # the configuration: a rule option changes results, so nothing may be reused
    config = load_config(bank)
    changed = replace(config, rules={"K001": {"min-words": 40}})
    assert run(bank, RunOptions(cache, jobs=1), config=changed).checker.hits == []
    # the schema
    from qlint.loading import schema as schema_module

    real = schema_module.schema_text
    monkeypatch.setattr("qlint.lint.runner.schema_text", lambda kind: real(kind) + " ")
    assert run(bank, RunOptions(cache, jobs=1)).checker.hits == []
    monkeypatch.setattr("qlint.lint.runner.schema_text", real)
    # an exam definition
    exam = bank / "bank" / "exams" / "bench-x1.yaml"
    text = exam.read_text(encoding="utf-8")
    try:
        exam.write_text(text.replace("name: Storage", "name: Storage and backup"), encoding="utf-8")
        assert run(bank, RunOptions(cache, jobs=1)).checker.hits == []
    finally:
        exam.write_text(text, encoding="utf-8")
    assert not run(bank, RunOptions(cache, jobs=1)).checker.computed  # back to the cached state


def test_a_broken_cache_is_no_cache(bank, tmp_path, monkeypatch):
    monkeypatch.chdir(bank)
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "cache.sqlite3").write_bytes(b"this is not a database")
    result = run(bank, RunOptions(cache, jobs=1))
    assert diags(result) == diags(run(bank, RunOptions(None, jobs=1)))


def test_unchanged_files_are_not_read_again(bank, tmp_path, monkeypatch):
    """A file's hash is remembered with its stat signature, so a warm run reads no unchanged
    file to hash it; an edit that keeps the size is still seen (mtime and ctime move)."""
    monkeypatch.chdir(bank)
    monkeypatch.setattr("qlint.lint.cache.RACY_NS", 0)  # the fixture's files are seconds old
    cache = tmp_path / "cache"
    run(bank, RunOptions(cache, jobs=1))
    import qlint.lint.runner

    real, reads = qlint.lint.runner.read_bytes, []
    monkeypatch.setattr("qlint.lint.runner.read_bytes", lambda path, limits: reads.append(path) or real(path, limits))
    warm = run(bank, RunOptions(cache, jobs=1, lean=True))
    assert reads == [] and not warm.checker.computed and warm.checker.bank_hit
    target = sorted((bank / "bank").rglob("q000007.yaml"))[0]
    original = target.read_text(encoding="utf-8")
    edited = original.replace("correct: false", "correct: fals2", 1)
    assert len(edited) == len(original) and edited != original
    try:
        target.write_text(edited, encoding="utf-8")
        again = run(bank, RunOptions(cache, jobs=1, lean=True))
        assert [Path(p) for p in reads] == [target]
        assert [Path(p).name for p in again.checker.computed] == [target.name]
        assert any(d.code == "S001" and d.path.endswith("q000007.yaml") for d in again.diagnostics)
    finally:
        target.write_text(original, encoding="utf-8")


def test_lean_results_keep_text_only_where_a_report_needs_it(bank, tmp_path, monkeypatch):
    """`qlint check` keeps no data and only the texts `qlint:` comments need (`--show-source`
    reads the others again); the findings are the same as with everything kept, cached or not."""
    monkeypatch.chdir(bank)
    quiet = sorted((bank / "bank").rglob("q000010.yaml"))[0]
    original = quiet.read_text(encoding="utf-8")
    try:  # a comment that suppresses nothing: M001 needs the text of a file with no other finding
        quiet.write_text(original.replace("\nstem:", "\n# qlint: disable-line K005\nstem:", 1), encoding="utf-8")
        full = run(bank, RunOptions(None, jobs=1))
        lean = run(bank, RunOptions(None, jobs=1, lean=True))
        cached = [run(bank, RunOptions(tmp_path / "cache", jobs=1, lean=True)) for _ in range(2)]
    finally:
        quiet.write_text(original, encoding="utf-8")
    assert diags(full) == diags(lean) == diags(cached[0]) == diags(cached[1])
    assert any(d.code == "M001" and d.path.endswith("q000010.yaml") for d in lean.diagnostics)
    assert any(r.text and r.diagnostics and not r.directives for r in full.results.values())
    for result in (lean, *cached):
        bank_named = {d.path for d in result.diagnostics if d.code.startswith("B")}  # placed from a cached bank result
        held = 0
        for path, r in result.results.items():
            if r.kind == "question":  # exam definitions are read whole up front: two files
                assert r.data is None, path
                if r.directives:
                    assert r.text, path
                elif display_path(path) not in bank_named:
                    assert not r.text, path
                held += bool(r.text)
        assert held < len(result.results) / 4


def test_a_context_file_edited_since_it_was_cached_is_read_again(bank, tmp_path, monkeypatch):
    """A run over one staged file reads the rest of the bank's entries from the cache; a file
    edited since (here made a copy of the staged one) must be seen as it is now."""
    monkeypatch.chdir(bank)
    cache = tmp_path / "cache"
    run(bank, RunOptions(cache, jobs=1))
    target = sorted((bank / "bank").rglob("q000011.yaml"))[0]
    other = sorted((bank / "bank").rglob("q000013.yaml"))[0]
    original = other.read_text(encoding="utf-8")
    copy = target.read_text(encoding="utf-8").replace("id: bench-000011", "id: bench-000011-copy", 1)
    assert copy != target.read_text(encoding="utf-8")
    try:
        other.write_text(copy, encoding="utf-8")
        cached = run(bank, RunOptions(cache, jobs=1), paths=[str(target)])
        assert len(cached.checker.hits) > 100  # the rest of the bank came from the cache
        fresh = run(bank, RunOptions(None, jobs=1), paths=[str(target)])
        assert diags(cached) == diags(fresh)
        assert any(d.code == "B006" and "q000013.yaml" in d.message for d in cached.diagnostics)
    finally:
        other.write_text(original, encoding="utf-8")


def test_a_bank_under_a_hidden_folder_is_still_the_context(tmp_path, monkeypatch):
    """`qlint check .` does not walk hidden folders; if the configured bank is in one, the bank
    rules must still read it (the run is not taken for one over the whole bank)."""
    root = tmp_path / "proj"
    synthbank.generate(root / ".data" / "bank", 30, seed=3, dup_every=10, flaw_every=1000)
    (root / "qlint.toml").write_text('bank = ".data/bank"\n', encoding="utf-8")
    monkeypatch.chdir(root)
    target = sorted((root / ".data" / "bank").rglob("q000009-dup.yaml"))[0]
    visible = root / "q.yaml"
    visible.write_text(target.read_text(encoding="utf-8").replace("-dup", "-visible"), encoding="utf-8")
    result = run(root, RunOptions(None, jobs=1), paths=["."])
    assert [Path(f).name for f in result.files] == ["q.yaml"]
    assert any(d.code == "B006" and d.path == "q.yaml" for d in result.diagnostics)


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_edit_between_the_hash_and_the_check_is_filed_under_the_bytes_checked(bank, tmp_path, monkeypatch, jobs):
    """The file is hashed, then edited before the check reads it (autosave, `git checkout`):
    here the check still sees the good version while the disk holds a schema error. Its clean
    result must not be filed under the bad bytes' hash, or every later cached run hides the error."""
    monkeypatch.chdir(bank)
    cache = tmp_path / "cache"
    target = sorted((bank / "bank").rglob("q000017.yaml"))[0]
    original = target.read_text(encoding="utf-8")
    broken = original.replace("correct: false", "correct: fals2", 1)
    assert broken != original
    import qlint.lint.check
    import qlint.lint.runner

    real, real_bytes = qlint.lint.check.read_source, qlint.lint.runner.read_bytes

    def stale(path, root, limits):
        return original.encode("utf-8") if Path(path).name == target.name else real(path, root, limits)

    def stale_bytes(path, limits):  # hashing reads too; the check gets the bytes it hashed
        return original.encode("utf-8") if Path(path).name == target.name else real_bytes(path, limits)

    try:
        target.write_text(broken, encoding="utf-8")
        monkeypatch.setattr("qlint.lint.check.read_source", stale)
        monkeypatch.setattr("qlint.lint.runner.read_bytes", stale_bytes)
        first = run(bank, RunOptions(cache, jobs=jobs, lean=True))
        assert not any(d.code == "S001" and d.path.endswith(target.name) for d in first.diagnostics)
        monkeypatch.setattr("qlint.lint.check.read_source", real)
        monkeypatch.setattr("qlint.lint.runner.read_bytes", real_bytes)
        later = run(bank, RunOptions(cache, jobs=jobs, lean=True))
        assert any(d.code == "S001" and d.path.endswith(target.name) for d in later.diagnostics)
        assert diags(later) == diags(run(bank, RunOptions(None, jobs=1, lean=True)))
    finally:
        target.write_text(original, encoding="utf-8")


# Interrupts and worker failures of a cold parallel check, as a user meets them: a real process
# on a few thousand files, signalled while its workers run. Each must end promptly with one line
# and its exit code, print no traceback, and leave no worker behind. (Repeated: Pool-based
# workers hung about one run in ten.)

import os  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402


BOUND_S = 30


@pytest.fixture(scope="module")
def big_bank(tmp_path_factory):
    return synthbank.practice(tmp_path_factory.mktemp("big"), 3000, exams=2)


def _session(sid: int) -> list[int]:
    """Live processes of session `sid` (the run and anything it started)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid and fields[0] != "Z":
                out.append(int(entry))
    return out


def _start(root: Path, code: str | None = None) -> subprocess.Popen:
    argv = [sys.executable, "-m", "qlint"] if code is None else [sys.executable, "-c", code]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}
    return subprocess.Popen([*argv, "check", "--no-cache", "--jobs", "2", "bank"], cwd=root, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_as_from_a_terminal)


def _as_from_a_terminal() -> None:
    # A run from a shell starts with default signal handling, whatever this test process inherited
    # (a pytest-xdist worker is itself a child process): Ctrl-C must reach qlint as it would there.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


def _wait_for_workers(proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while len(_session(proc.pid)) < 3:  # the run and its two workers
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, "no workers started"
        time.sleep(0.01)


def _finish(proc: subprocess.Popen) -> tuple[int, str]:
    try:
        _, err = proc.communicate(timeout=BOUND_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"the run did not end within {BOUND_S} s")
    left = _session(proc.pid)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"worker processes outlived the run: {left}"
    assert "Traceback" not in err, err
    return proc.returncode, err


@pytest.mark.parametrize("signum, to_group, code, line", [
    (signal.SIGINT, True, 130, "qlint: interrupted"),  # Ctrl-C: the terminal signals the whole group
    (signal.SIGTERM, True, 143, "qlint: terminated"),  # a CI cancel or `timeout` on the group
    (signal.SIGTERM, False, 143, "qlint: terminated"),  # `kill PID`: the workers get nothing
])
def test_a_signal_during_a_cold_parallel_check_ends_it_cleanly(big_bank, signum, to_group, code, line):
    rng = random.Random(18)
    for _ in range(4 if signum == signal.SIGINT else 2):
        proc = _start(big_bank)
        _wait_for_workers(proc)
        time.sleep(rng.uniform(0, 0.4))
        (os.killpg if to_group else os.kill)(proc.pid, signum)
        rc, err = _finish(proc)
        assert (rc, err.strip().splitlines()) == (code, [line])


def test_a_failure_in_the_parents_result_handling_ends_the_run(big_bank):
    """A MemoryError while reading the workers' results (Pool's result thread died of it and the
    run hung for good): exit 2, one line."""
    code = ("import os, sys\n"
            "from multiprocessing.reduction import ForkingPickler\n"
            "parent, real = os.getpid(), ForkingPickler.loads\n"
            "def loads(*a, **k):\n"
            "    if os.getpid() == parent:\n"
            "        raise MemoryError()\n"
            "    return real(*a, **k)\n"
            "ForkingPickler.loads = loads\n"
            "from qlint.cli import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    rc, err = _finish(_start(big_bank, code))
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "MemoryError" in err, err


def test_a_worker_killed_mid_run_ends_the_run(big_bank):
    """The out-of-memory killer takes one worker: exit 2 with one line, never a hang."""
    proc = _start(big_bank)
    _wait_for_workers(proc)
    worker = next(pid for pid in _session(proc.pid) if pid != proc.pid)
    os.kill(worker, signal.SIGKILL)
    rc, err = _finish(proc)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "worker process" in err, err
