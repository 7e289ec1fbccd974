"""The seed page (../shared/seeds/) imported with `qlint import --from page`, and its reworded
fixture, lint with no false errors (issue 12 point 6): no key-agreement finding, no error."""

from __future__ import annotations

from pathlib import Path

from qlint.engine import check_file, load_exams, make_settings
from qlint.project.config import load_config

from authoring_helpers import make_project, run
from conftest import REPO, require_shared

SEED = ("seeds", "000_29ab6b21403c29f5.txt")
KEY_AGREEMENT = {"K003", "K004", "K010", "K011", "K012"}


def _diagnostics(root: Path, path: Path):
    settings = make_settings(load_config(root), select=["ALL"])
    load_exams(settings)
    return check_file(str(path), settings).diagnostics


def test_imported_seed_page_has_no_false_errors(tmp_path, monkeypatch, capsys):
    page = require_shared(*SEED)
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, _out, err = run(capsys, "import", "--from", "page", str(page), "--domain", "model-development")
    assert code == 0, err
    (path,) = [p for p in (tmp_path / "bank").rglob("*.yaml") if "exams" not in p.parts]
    found = _diagnostics(tmp_path, path)
    # the trap names data parallelism and the key equally (a contrast), and a distractor's
    # "would be the correct choice when ..." describes another scenario: neither is a flaw
    assert not [d for d in found if d.code in KEY_AGREEMENT], [d.message for d in found]
    assert not [d for d in found if str(d.severity) == "error"], [f"{d.code} {d.message}" for d in found]


def test_seed_like_fixture_has_no_false_errors():
    found = _diagnostics(REPO, REPO / "tests" / "fixtures" / "seed_like.yaml")
    assert not [d for d in found if d.code in KEY_AGREEMENT], [d.message for d in found]
    assert not [d for d in found if str(d.severity) == "error"], [f"{d.code} {d.message}" for d in found]
