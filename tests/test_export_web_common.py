"""What every web/LMS export shares: same bank -> same bytes, images inside the bank only,
folders written without destroying anything else, and the command line a user runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from kit.export import (refused, formats, banks, export, exported, image_project, load_questions,  # noqa: F401
                            tree_bytes)
from conftest import REPO

FORMATS = formats(packaged=False)  # every registered exporter that writes files or folders, not a package
OUTPUT = {fmt: f"out-{fmt}" for fmt in FORMATS}  # exporters take any output name


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_export_twice_gives_identical_bytes(tmp_path, banks, exported, fmt):
    first, _ = exported(fmt, "generated")
    again = tmp_path / OUTPUT[fmt]
    export(fmt, *banks["generated"], again)
    a, b = tree_bytes(first), tree_bytes(again)
    assert a.keys() - {".qlint-export"} and len(a) == len(b)
    assert list(a.values()) == list(b.values())


# One interpreter per hash seed runs `qlint export` for every format (the CLI's own entry point),
# so the seed is what differs between the two runs, not how many processes start.
EXPORT_ALL = ("import sys\nfrom qlint.cli import main\n"
              "codes = [main(['export', '-f', f, '-o', o]) for f, o in zip(sys.argv[1::2], sys.argv[2::2])]\n"
              "sys.exit(max(codes))\n")


@pytest.mark.slow
def test_cli_output_does_not_depend_on_hash_seed_or_run(tmp_path):
    """Two separate processes with different hash seeds write the same bytes for every format."""
    outs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        folder = tmp_path / f"run{seed}"
        args = [a for fmt in FORMATS for a in (fmt, str(folder / OUTPUT[fmt]))]
        proc = subprocess.run([sys.executable, "-c", EXPORT_ALL, *args], cwd=REPO, env=env, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        for fmt in FORMATS:
            assert re.search(rf"^Exported \d+ questions as {fmt}\b", proc.stdout, re.M), proc.stdout
        outs.append(tree_bytes(folder))
    assert outs[0] == outs[1] and len(outs[0]) > 40


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_image_path_leaving_the_bank_is_refused(tmp_path, fmt):
    root, _ = image_project(tmp_path, ref="../../../outside.png")
    assert (root / "bank" / "mla-c01" / "model-development" / "../../../outside.png").resolve().is_file()
    target = tmp_path / OUTPUT[fmt]
    with refused(r"layer-split-across-gpus\.yaml:\d+:\d+: image '\.\./\.\./\.\./outside\.png' leaves the bank"):
        export(fmt, *load_questions(root), target)
    assert not target.exists()


def test_cli_refuses_a_leaving_path_with_exit_2(tmp_path):
    root, _ = image_project(tmp_path, ref="../../../outside.png")
    proc = subprocess.run([sys.executable, "-m", "qlint", "export", "-f", "html", "-o", str(tmp_path / "site")],
                          cwd=root, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "leaves the bank" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_images_are_copied_beside_the_pages(tmp_path, fmt):
    root, data = image_project(tmp_path)
    out = tmp_path / "out"
    export(fmt, *load_questions(root), out)
    assert (out / "media" / "mla-c01" / "model-development" / "img" / "gpu.png").read_bytes() == data
    page = (out / "mla-c01" / "model-development" / f"mla-c01-dev-layer-split-gpus.{'md' if fmt == 'markdown' else 'html'}")
    assert "../../media/mla-c01/model-development/img/gpu.png" in page.read_text(encoding="utf-8")


def test_folder_targets_never_overwrite_foreign_files_and_drop_stale_pages(tmp_path, banks):
    questions, exams, root = banks["sample"]
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(ValueError, match="not written by qlint export"):
        export("html", questions, exams, root, foreign)
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]

    out = tmp_path / "site"
    export("html", questions, exams, root, out)
    gone = questions[-1]
    page = out / gone.exam.lower() / gone.domain / f"{gone.id}.html"
    assert page.is_file()
    export("html", questions[:-1], exams, root, out)
    assert not page.exists() and (out / "index.html").is_file()
    with pytest.raises(ValueError, match="different export"):
        export("markdown", questions, exams, root, out)


def test_single_file_targets_refuse_a_folder_and_folder_targets_a_file(tmp_path, banks):
    with pytest.raises(ValueError, match="is a folder"):
        export("moodle", *banks["sample"], tmp_path)
    existing = tmp_path / "notes.md"
    existing.write_text("keep me", encoding="utf-8")
    with pytest.raises(ValueError, match="is a file"):
        export("markdown", *banks["sample"], existing)
    assert existing.read_text(encoding="utf-8") == "keep me"


def test_cli_lists_filters_and_reports(tmp_path):
    run = lambda *a: subprocess.run([sys.executable, "-m", "qlint", "export", *a], cwd=REPO, capture_output=True,  # noqa: E731
                                    text=True, timeout=300)
    proc = run("-f", "gift", "-o", str(tmp_path / "d.gift"), "--domain", "model-development")
    assert proc.returncode == 0 and "Exported 6 questions as gift" in proc.stdout  # its ordering question left out
    assert proc.stderr.count("GIFT has no place for") == 1
    proc = run("-f", "moodle", "-o", str(tmp_path / "x.xml"), "--tag", "no-such-tag")
    assert proc.returncode == 2 and "no questions match" in proc.stderr
