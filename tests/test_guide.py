"""The exam guide an exam definition carries (project/guide.py) and G002 on the exam file."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from qlint.project.exams import Exam
from qlint.project.guide import guide_problems, task_id
from kit.lifecycle import check_in as _check

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


# The task statement each sample question assesses, read against the MLA-C01 guide: the sample
# bank's questions name these (`tasks:`), which the exports carry since issue 27 point 5.
TASKS = {
    "athena-ctas-join": "1.1", "feature-store-ingest-order": "1.1", "feature-store-online": "1.1",
    "skew-and-categorical-encoding": "1.2", "class-imbalance-smote": "1.3", "pii-redaction-text": "1.3",
    "anomaly-detection-algorithm": "2.1", "builtin-algorithm-match": "2.1", "bayesian-tuning": "2.2",
    "custom-container-training-order": "2.2", "layer-split-across-gpus": "2.2", "overfitting-remedies": "2.2",
    "recall-metric": "2.3", "async-large-payloads": "3.1", "case-demand-inference-match": "3.1",
    "multi-model-endpoint": "3.1", "endpoint-autoscaling": "3.2", "blue-green-canary-order": "3.3",
    "canary-traffic-shifting": "3.3", "case-demand-pipeline-order": "3.3", "pipeline-condition-step": "3.3",
    "data-drift-monitor": "4.1", "model-monitor-types-match": "4.1", "spot-training-cost": "4.2",
    "api-audit-cloudtrail": "4.3", "least-privilege-role": "4.3", "training-security-controls-match": "4.3",
    "vpc-kms-training": "4.3",
}


def _sample_copy(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "bank", tmp_path / "bank")
    (tmp_path / "qlint.toml").write_text('bank = "bank"\n\n[rules.B015]\nmin-bank = 20\n', encoding="utf-8")
    return tmp_path


def test_the_sample_questions_name_the_tasks_they_assess():
    named = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")).get("tasks")
             for p in (REPO / "bank" / "mla-c01").glob("*/*.yaml") if p.parent.name != "cases"}
    assert named == {stem: [tid] for stem, tid in TASKS.items()}


def test_a_task_statement_no_question_names_is_reported_on_its_line(tmp_path):
    root = _sample_copy(tmp_path)
    only = root / "bank" / "mla-c01" / "data-preparation" / "skew-and-categorical-encoding.yaml"  # the one 1.2
    only.write_text(only.read_text(encoding="utf-8").replace('tasks: ["1.2"]', 'tasks: ["1.1"]'), encoding="utf-8")
    code, out = _check(root, "--select", "B015,G001", "bank")
    lines = [line for line in out.splitlines() if " B015 " in line]
    assert code == 1 and len(lines) == 1, out  # and no G001: the tags are the guide's tasks
    assert lines[0].startswith("bank/exams/mla-c01.yaml:") and "task 1.2 (Transform data" in lines[0]
    assert "has 0 questions" in lines[0]


def test_the_sample_bank_covers_every_task_and_the_markdown_report_shows_it(tmp_path):
    root = _sample_copy(tmp_path)
    assert _check(root, "--select", "B015,G001", "bank")[0] == 0
    (root / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")  # 28 questions: under min-bank
    root.joinpath("bank", "mla-c01", "data-preparation", "skew-and-categorical-encoding.yaml").unlink()
    assert _check(root, "--select", "B015", "bank")[0] == 0
    code, out = _check(root, "--output-format", "markdown", "bank")
    assert "### Task statement coverage" in out
    row = next(line for line in out.splitlines() if line.startswith("| MLA-C01 | 1.2 "))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1:4] == ["1.2 Transform data and perform feature engineering", "data-preparation", "0"]
    assert cells[4] == f"{27 * 0.28 / 3:.1f}"  # 27 questions left, 28% over three tasks
