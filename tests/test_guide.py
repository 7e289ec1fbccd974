"""The exam guide an exam definition carries (project/guide.py) and G002 on the exam file."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
from pathlib import Path

import yaml

from qlint.cli import main as qlint_main
from qlint.project.exams import Exam
from qlint.project.guide import guide_problems, task_id

REPO = Path(__file__).resolve().parent.parent
SAMPLE_EXAM = REPO / "bank" / "exams" / "mla-c01.yaml"


def _sample() -> dict:
    return yaml.safe_load(SAMPLE_EXAM.read_text(encoding="utf-8"))


def test_mla_c01_carries_its_twelve_task_statements_under_four_domains():
    exam = Exam.from_data(_sample(), str(SAMPLE_EXAM))
    guide = exam.guide
    assert guide.url.startswith("https://docs.aws.amazon.com/aws-certification/")
    assert guide.task_ids == [f"{d}.{t}" for d in range(1, 5) for t in range(1, 4)]
    by_domain = {d.id: [t.id for t in guide.tasks if t.domain == d.id] for d in exam.domains}
    assert by_domain["data-preparation"] == ["1.1", "1.2", "1.3"]
    assert by_domain["monitoring-security"] == ["4.1", "4.2", "4.3"]
    assert guide.task("2.2").text == "Train and refine models"
    assert guide_problems(_sample()) == []


def test_unquoted_task_ids_read_as_the_id_written():
    assert task_id(1.2) == "1.2" and task_id("3.1 ") == "3.1" and task_id(4) == "4"


def _check(root: Path, *args: str) -> tuple[int, str]:
    out, here = io.StringIO(), os.getcwd()
    os.chdir(root)
    try:
        with contextlib.redirect_stdout(out):
            code = qlint_main(["check", "--no-cache", "--jobs", "1", *args])
    finally:
        os.chdir(here)
    return code, out.getvalue()


def test_a_task_listed_under_the_wrong_domain_or_twice_is_reported_in_the_exam_file(tmp_path):
    shutil.copytree(REPO / "bank" / "exams", tmp_path / "bank" / "exams")
    text = SAMPLE_EXAM.read_text(encoding="utf-8")
    text = text.replace('      - id: "2.3"\n', '      - id: "3.3"\n', 1).replace('      - id: "4.2"\n', '      - id: "4.1"\n', 1)
    (tmp_path / "bank" / "exams" / "mla-c01.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    code, out = _check(tmp_path, "--select", "G002", "bank/exams/mla-c01.yaml")
    assert code == 1
    lines = [line for line in out.splitlines() if " G002 " in line]
    assert len(lines) == 3, out
    assert "task 3.3 is listed under domain 2 (model-development); its id must start with 2" in lines[0]
    assert "task 3.3 is listed twice" in lines[1]  # the real 3.3, under its own domain, comes second
    assert "task 4.1 is listed twice" in lines[2]
