"""Retired questions (`status: retired`): never exported, whatever --status asks for."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
from pathlib import Path

from qlint.cli import main as qlint_main

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "bank" / "mla-c01" / "monitoring-security" / "api-audit-cloudtrail.yaml"


def test_a_retired_question_is_never_exported(tmp_path):
    shutil.copytree(REPO / "bank" / "exams", tmp_path / "bank" / "exams")
    text = SAMPLE.read_text(encoding="utf-8").replace("related: [mla-c01-ops-least-privilege-role]\n", "")
    folder = tmp_path / "bank" / "q"
    folder.mkdir()
    (folder / "current.yaml").write_text(text, encoding="utf-8")
    old = text.replace("id: mla-c01-ops-cloudtrail-audit", "id: mla-c01-ops-cloudtrail-audit-old")
    old = old.replace("status: published\n", "status: retired\nreplaced_by: mla-c01-ops-cloudtrail-audit\n")
    (folder / "old.yaml").write_text(old, encoding="utf-8")
    (tmp_path / "qlint.toml").write_text('bank = "bank"\n', encoding="utf-8")
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            check = qlint_main(["check", "--no-cache", "--select", "S001,B014", "bank"])
            code = qlint_main(["export", "--format", "json", "--output", "out.json",
                               "--status", "published,retired", "--force", "bank"])  # --force: B006 finds the copy
    finally:
        os.chdir(here)
    assert check == 0 and code == 0
    exported = json.dumps(json.loads((tmp_path / "out.json").read_text(encoding="utf-8")))
    assert "mla-c01-ops-cloudtrail-audit-old" not in exported
    assert "mla-c01-ops-cloudtrail-audit" in exported
