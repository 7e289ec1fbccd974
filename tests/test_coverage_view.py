"""`qlint coverage`: questions per domain and task statement against the blueprint and the pool N
practice exams need, in the terminal and in Markdown; the PR summary carries the same tables."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
from collections import Counter
from pathlib import Path

import yaml

from qlint.cli import main as qlint_main
from conftest import REPO


def _run(root: Path, *args: str) -> tuple[int, str, str]:
    out, err, here = io.StringIO(), io.StringIO(), os.getcwd()
    os.chdir(root)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = qlint_main(list(args))
            except SystemExit as exc:  # argparse's usage errors
                code = int(exc.code or 0)
    finally:
        os.chdir(here)
    return code, out.getvalue(), err.getvalue()


def _sample_counts() -> tuple[Counter, Counter]:
    """Questions per domain and per task of the sample bank, read from its files (not through qlint)."""
    domains, tasks = Counter(), Counter()
    for f in (REPO / "bank" / "mla-c01").rglob("*.yaml"):
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
        if "cases" in f.parts or data.get("status") == "retired":
            continue
        domains[data["domain"]] += 1
        tasks.update(str(t) for t in set(data.get("tasks") or []))
    return domains, tasks


def _rows(out: str) -> dict[str, list[str]]:
    """Text view rows by their first word (a task id or a domain's first word), cells split on 2+ spaces."""
    rows = {}
    for line in out.splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) > 3 and cells[0][:1].isdigit():
            rows[cells[0].split()[0]] = cells
    return rows


def test_the_sample_bank_in_the_terminal_without_a_length():
    code, out, err = _run(REPO, "coverage", "--jobs", "1")
    domains, tasks = _sample_counts()
    assert code == 0 and err == ""
    assert f"MLA-C01: {sum(domains.values())} questions in the bank." in out
    assert "no practice exam length" in out and "needed for" not in out
    rows = _rows(out)
    assert sorted(rows) == [f"{d}.{t}" for d in range(1, 5) for t in range(1, 4)]
    assert {tid: int(cells[2]) for tid, cells in rows.items()} == {tid: tasks.get(tid, 0) for tid in rows}


def test_the_pool_for_n_practice_exams_against_what_the_bank_has():
    code, out, _ = _run(REPO, "coverage", "--exams", "3", "--length", "65", "--jobs", "1")
    domains, tasks = _sample_counts()
    assert code == 0 and "3 practice exams of 65 questions without a repeated question take 195" in out
    rows = _rows(out)
    # 65 a sitting at 28/26/22/24 is 18/17/14/16; three sittings over three tasks a domain: 18, 17, 14, 16 a task
    for tid, need in {"1.1": 18, "2.2": 17, "3.3": 14, "4.3": 16}.items():
        assert rows[tid][-2:] == [str(need), str(max(0, need - tasks[tid]))], rows[tid]
    data_prep = next(line for line in out.splitlines() if "(data-preparation)" in line).split()
    assert data_prep[-2:] == ["54", str(54 - domains["data-preparation"])]


def _project(tmp_path: Path, questions: int | None = None) -> Path:
    shutil.copytree(REPO / "bank", tmp_path / "bank")
    (tmp_path / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    if questions:
        exam = tmp_path / "bank" / "exams" / "mla-c01.yaml"
        text = exam.read_text(encoding="utf-8")
        exam.write_text(text.replace("Associate\n", f"Associate\nquestions: {questions}\nscored: 50\n", 1), encoding="utf-8")
    return tmp_path


def test_the_exam_files_length_is_used_and_the_pr_summary_has_the_same_tables(tmp_path):
    root = _project(tmp_path, questions=65)
    code, md, _ = _run(root, "coverage", "--output-format", "markdown", "--jobs", "1")
    assert code == 0 and md.startswith("## qlint coverage\n")
    assert "1 practice exam of 65 questions (50 scored) without a repeated question take 65" in md
    assert "| exam | task | domain | questions | blueprint share | gap | needed for 1 practice exam | short |" in md
    tables = md.split("### Blueprint coverage", 1)[1]
    _, summary, _ = _run(root, "check", "--no-cache", "--jobs", "1", "--output-format", "markdown")
    assert "### Blueprint coverage" + tables in summary  # the same sections, word for word


def test_without_a_pool_the_pr_summary_keeps_its_tables(tmp_path):
    _, summary, _ = _run(_project(tmp_path), "check", "--no-cache", "--jobs", "1", "--output-format", "markdown")
    assert "| exam | task | domain | questions | blueprint share | gap |\n" in summary and "practice exam" not in summary


def test_bad_arguments_and_a_missing_bank_exit_2(tmp_path):
    for bad in (["--exams", "0"], ["--exams", "many"], ["--length", "-5"], ["--output-format", "html"]):
        code, _, err = _run(REPO, "coverage", *bad)
        assert code == 2 and "error" in err, bad
    code, _, err = _run(tmp_path, "coverage")
    assert code == 2 and "no question bank here" in err


def test_a_file_that_cannot_be_read_stops_it_and_one_off_the_schema_is_not_counted(tmp_path):
    root = _project(tmp_path)
    files = sorted((root / "bank" / "mla-c01").rglob("*.yaml"))
    files = [f for f in files if "cases" not in f.parts]
    good = files[1].read_text(encoding="utf-8")
    files[0].write_text("id: [unclosed\n", encoding="utf-8")
    code, out, err = _run(root, "coverage", "--jobs", "1")
    assert code == 2 and out == "" and f"{files[0].name}:2:1: Y001" in err  # unreadable input: exit 2, where
    files[0].write_text(good.replace("stem:", "stems:", 1), encoding="utf-8")  # valid YAML, off the schema
    code, out, err = _run(root, "coverage", "--jobs", "1")
    assert code == 0 and "1 question file with schema or YAML errors not counted" in err
    assert f"MLA-C01: {sum(_sample_counts()[0].values()) - 1} questions in the bank." in out


def test_the_output_file_is_written(tmp_path):
    code, out, _ = _run(REPO, "coverage", "--jobs", "1", "--output-file", str(tmp_path / "c.md"), "--output-format", "markdown")
    assert code == 0 and out == "" and "### Task statement coverage" in (tmp_path / "c.md").read_text(encoding="utf-8")


def test_the_guides_example_is_what_the_command_prints():
    doc = (REPO / "docs" / "guide-and-lifecycle.md").read_text(encoding="utf-8")
    block = doc.split("$ qlint coverage --exams 3 --length 65\n", 1)[1].split("```", 1)[0]
    shown = [line for line in block.splitlines() if not line.startswith("...")]
    _, out, _ = _run(REPO, "coverage", "--exams", "3", "--length", "65", "--jobs", "1")
    assert shown and all(line in out.splitlines() for line in shown), shown


def test_control_characters_in_a_task_statement_are_shown_escaped(tmp_path):
    root = _project(tmp_path)
    exam = root / "bank" / "exams" / "mla-c01.yaml"
    exam.write_text(exam.read_text(encoding="utf-8").replace("text: Ingest and store data",
                                                             'text: "Ingest \\e[31mand\\u202e store"'), encoding="utf-8")
    code, out, _ = _run(root, "coverage", "--jobs", "1")
    assert code == 0 and "\x1b" not in out and "\u202e" not in out and "1.1 Ingest \\x1b[31mand" in out
    code, md, _ = _run(root, "coverage", "--output-format", "markdown", "--jobs", "1")
    assert code == 0 and "\x1b" not in md and "\u202e" not in md
