"""Helpers of the lifecycle and guide tests: a throwaway project of planted questions, checked
through the command line as a user runs it."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
from pathlib import Path

import yaml

from qlint.cli import main as qlint_main

REPO = Path(__file__).resolve().parents[2]


def check_in(root: Path, *args: str) -> tuple[int, str]:
    """`qlint check --no-cache --jobs 1 ARGS` run from `root`: exit code and stdout."""
    out, here = io.StringIO(), os.getcwd()
    os.chdir(root)
    try:
        with contextlib.redirect_stdout(out):
            code = qlint_main(["check", "--no-cache", "--jobs", "1", *args])
    finally:
        os.chdir(here)
    return code, out.getvalue()


def _run(root: Path, *args: str) -> tuple[int, str]:
    return check_in(root, "--output-format", "json", *args)


def _question(qid: str, key: str, distractor: str = "Amazon Comprehend", stem: str = "") -> dict:
    return {
        "format": 1, "id": qid, "exam": "MLA-C01", "domain": "model-development", "type": "single",
        "status": "published",
        "stem": stem or "A team must forecast the demand and monitor the endpoint. Which service should it use?",
        "options": [
            {"id": "o0", "text": key, "correct": True, "rationale": "It meets the requirement the stem states."},
            {"id": "o1", "text": distractor, "correct": False, "rationale": "It answers another kind of question."},
            {"id": "o2", "text": "Amazon Rekognition", "correct": False, "rationale": "It analyses images, not numbers."},
        ],
        "explanation": "Clarify the requirement first, then pick the service that meets it.",
        "references": [{"title": "Amazon Kinesis Data Firehose (as published)", "url": "https://docs.aws.amazon.com/firehose/"}],
    }


def _project(tmp_path: Path, questions: dict[str, dict], config: str = "") -> Path:
    shutil.copytree(REPO / "bank" / "exams", tmp_path / "bank" / "exams")
    (tmp_path / "bank" / "q").mkdir()
    for name, data in questions.items():
        (tmp_path / "bank" / "q" / f"{name}.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    (tmp_path / "qlint.toml").write_text('bank = "bank"\n' + config, encoding="utf-8")
    return tmp_path


def _codes(out: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for d in json.loads(out)["diagnostics"]:
        found.setdefault(Path(d["path"]).stem, []).append(d["code"])
    return found
