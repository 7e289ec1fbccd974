"""The pool a number of practice exams needs (bank/pool.py) and the exam file's sitting length."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from qlint.bank.pool import pool_need, pool_needs, sitting
from qlint.project.exams import Exam
from conftest import REPO
from kit.lifecycle import check_in as _check

SAMPLE_EXAM = REPO / "bank" / "exams" / "mla-c01.yaml"


def _exam(**extra) -> Exam:
    data = yaml.safe_load(SAMPLE_EXAM.read_text(encoding="utf-8")) | extra
    return Exam.from_data(data, str(SAMPLE_EXAM))


def test_one_sitting_follows_the_weights_and_adds_up_to_its_length():
    # MLA-C01's weights 28/26/22/24 of 65: 18.2, 16.9, 14.3, 15.6; largest remainders get the two left over
    assert sitting(_exam(), 65) == {"data-preparation": 18, "model-development": 17,
                                    "deployment-orchestration": 14, "monitoring-security": 16}
    for length in (1, 7, 50, 65, 999):
        assert sum(sitting(_exam(), length).values()) == length


def test_n_practice_exams_need_n_sittings_of_each_domain_spread_over_its_tasks():
    need = pool_need(_exam(questions=65, scored=50), 3)
    assert need is not None and (need.length, need.scored, need.exams) == (65, 50, 3)
    assert need.domains == {"data-preparation": 54, "model-development": 51,
                            "deployment-orchestration": 42, "monitoring-security": 48}
    assert need.tasks["1.1"] == 18 and need.tasks["2.3"] == 17 and need.tasks["3.2"] == 14 and need.tasks["4.3"] == 16
    assert set(need.tasks) == {f"{d}.{t}" for d in range(1, 5) for t in range(1, 4)}


def test_a_task_need_is_rounded_up_and_a_given_length_wins():
    need = pool_need(_exam(questions=65), 1, length=10)  # 10: 3, 3, 2, 2 (2.8, 2.6, 2.2, 2.4)
    assert need is not None and need.length == 10
    assert need.domains == {"data-preparation": 3, "model-development": 3,
                            "deployment-orchestration": 2, "monitoring-security": 2}
    assert need.tasks["1.1"] == 1 and need.tasks["3.1"] == 1  # 3/3 and 2/3 rounded up


def test_without_a_length_there_is_no_pool_figure():
    assert pool_need(_exam(), 3) is None
    assert pool_needs({"MLA-C01": _exam()}, 3) == {}
    assert list(pool_needs({"MLA-C01": _exam(questions=65)}, 3)) == ["MLA-C01"]


def _project(tmp_path: Path, text: str) -> None:
    shutil.copytree(REPO / "bank" / "exams", tmp_path / "bank" / "exams", dirs_exist_ok=True)
    (tmp_path / "bank" / "exams" / "mla-c01.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")


def test_the_exam_file_takes_a_sitting_length_and_refuses_a_bad_one(tmp_path):
    text = SAMPLE_EXAM.read_text(encoding="utf-8").replace(
        "Associate\n", "Associate\nquestions: 65\nscored: 50\n", 1)
    _project(tmp_path, text)
    assert _check(tmp_path, "bank/exams/mla-c01.yaml")[0] == 0
    _project(tmp_path, text.replace("questions: 65", "questions: 0"))
    code, out = _check(tmp_path, "bank/exams/mla-c01.yaml")
    assert code == 1 and "mla-c01.yaml:7:12: S001" in out
