"""Bank rules judge the bank the checked files belong to (issue 17 point 9): `qlint check
other-repo/bank` run from this repository compares that bank with itself, never with bank/ here."""

from __future__ import annotations

import re
import shutil

from kit.authoring import run
from conftest import BANK

BANK_CODES = re.compile(r": (B\d{3}) ")


def _other_repo(tmp_path, bank_name="bank", config=""):
    root = tmp_path / "other-repo"
    shutil.copytree(BANK, root / bank_name)
    if config:
        (root / "qlint.toml").write_text(config, encoding="utf-8")
    return root


def test_another_repositorys_bank_is_not_compared_with_this_one(in_repo, tmp_path, capsys):
    other = _other_repo(tmp_path)
    code, out, err = run(capsys, "check", "--no-cache", str(other / "bank"))
    assert code == 0, out + err  # today: every question a B001/B006 twin of this repository's
    assert out.startswith("All checks passed (30 files checked)"), out  # its exam file read as an exam


def test_one_file_of_another_bank_is_compared_with_its_own_bank(in_repo, tmp_path, capsys):
    other = _other_repo(tmp_path)
    folder = other / "bank" / "mla-c01" / "model-development"
    twin = folder / "overfitting-remedies.yaml"
    twin.write_text(re.sub(r"(?m)^id: .*$", "id: mla-c01-dev-layer-split-gpus", twin.read_text(encoding="utf-8")),
                    encoding="utf-8")
    code, out, err = run(capsys, "check", "--no-cache", "--select", "B001", str(folder / "layer-split-across-gpus.yaml"))
    assert code == 1, out + err
    (line,) = [ln for ln in out.splitlines() if " B001 " in ln]
    assert "is also used by " in line and line.endswith("overfitting-remedies.yaml (duplicate-id)"), line
    assert str(other) in line.split("is also used by ")[1]  # the other bank's file, not bank/ here


def test_a_configured_bank_elsewhere_is_its_own_bank(in_repo, tmp_path, capsys):
    other = _other_repo(tmp_path, "questions", 'bank = "questions"\nexams = "questions/exams"\n')
    one = other / "questions" / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml"
    code, out, err = run(capsys, "check", "--no-cache", str(one))
    assert code == 0 and not BANK_CODES.findall(out), out + err
    # its related ids resolve in its own bank (B002 would fire if it were judged alone)
    (one.parent / "overfitting-remedies.yaml").unlink()
    code, out, err = run(capsys, "check", "--no-cache", str(one))
    assert BANK_CODES.findall(out) == ["B002"], out


def test_a_loose_file_is_still_compared_with_the_bank_qlint_runs_for(in_repo, tmp_path, capsys):
    """A draft outside any bank (here a copy in a temporary folder) belongs to no other bank: the
    configured one is its context, so its duplicate is caught before it moves in."""
    loose = tmp_path / "draft.yaml"
    shutil.copy(BANK / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml", loose)
    code, out, err = run(capsys, "check", "--no-cache", "--select", "B001", str(loose))
    assert code == 1 and " B001 " in out and "bank/mla-c01/model-development/layer-split-across-gpus.yaml" in out, out


def test_a_file_of_another_project_outside_its_bank_is_in_no_bank(in_repo, tmp_path, capsys):
    other = _other_repo(tmp_path, config='bank = "bank"\n')
    (other / "notes").mkdir()
    loose = other / "notes" / "draft.yaml"
    shutil.copy(BANK / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml", loose)
    code, out, err = run(capsys, "check", "--no-cache", "--select", "B001,B006", str(loose))
    assert code == 0, out + err  # neither this repository's bank nor the other project's
