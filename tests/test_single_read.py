"""One run reads each file once: `check` (bank rules, --show-source, cache cold and warm),
`export` and `format` read every question and exam file through one Document (issue 25)."""

from __future__ import annotations

import builtins
import collections
import io
import os
import shutil

import pytest

from qlint.cli import main

from conftest import BANK


@pytest.fixture
def project(tmp_path, monkeypatch):
    """The sample bank, plus a twin of one question (a bank finding, B006, on both), a question
    with item findings and one that does not parse."""
    shutil.copytree(BANK, tmp_path / "bank")
    folder = tmp_path / "bank" / "mla-c01" / "model-development"
    source = folder / "layer-split-across-gpus.yaml"
    text = source.read_text(encoding="utf-8")
    (folder / "twin.yaml").write_text(text.replace("id: mla-c01-dev-layer-split-gpus", "id: mla-c01-dev-twin"),
                                      encoding="utf-8")
    (folder / "broken.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def reads(monkeypatch):
    """Real path -> how many times a YAML file was opened for reading."""
    counts: collections.Counter[str] = collections.Counter()
    real_open = builtins.open

    def counting(file, mode="r", *args, **kwargs):
        if isinstance(file, (str, os.PathLike)) and "r" in mode and "+" not in mode \
                and str(file).endswith((".yaml", ".yml")):
            counts[os.path.realpath(file)] += 1
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting)
    monkeypatch.setattr(io, "open", counting)
    return counts


def twice(counts):
    return {os.path.relpath(p): n for p, n in counts.items() if n > 1}


@pytest.mark.parametrize("argv", [
    ["check", "--no-cache", "--show-source", "bank"],
    ["check", "--no-cache", "--show-source", "bank/mla-c01/model-development/twin.yaml"],
    ["check", "--no-cache", "--show-source", "--output-format", "sarif", "bank/mla-c01/model-development"],
], ids=["whole-bank", "one-file", "one-folder-sarif"])
def test_check_reads_each_file_once(project, reads, capsys, argv):
    assert main(argv + ["--jobs", "1"]) in (1, 2)  # broken.yaml (Y001) makes a run of the bank 2
    out = capsys.readouterr().out
    assert "B006" in out and "twin.yaml" in out
    assert reads and not twice(reads)


def test_check_with_the_cache_reads_each_file_once_cold_and_warm(project, reads, capsys):
    argv = ["check", "--show-source", "--jobs", "1", "--cache-dir", str(project / ".cache"),
            "bank/mla-c01/model-development/twin.yaml"]
    for run in ("cold", "warm"):
        reads.clear()
        assert main(argv) in (1, 2), run
        assert "B006" in capsys.readouterr().out, run
        assert not twice(reads), run


def test_export_reads_each_file_once(project, reads, capsys):
    (project / "bank" / "mla-c01" / "model-development" / "broken.yaml").unlink()
    code = main(["export", "--format", "qti21", "--output", str(project / "out.zip"), "--force", "bank"])
    capsys.readouterr()
    assert code in (0, 1)
    assert reads and not twice(reads)


def test_format_reads_each_file_once(project, reads, capsys):
    assert main(["format", "--check", "bank"]) in (1, 2)
    capsys.readouterr()
    assert reads and not twice(reads)


def test_bank_findings_reuse_the_locator_of_the_item_findings(project, capsys, monkeypatch):
    """A file with item and bank findings is composed for positions once (the Document's
    locator), not once for each kind of finding."""
    import qlint.loading.document as document

    twin = project / "bank" / "mla-c01" / "model-development" / "twin.yaml"
    text = twin.read_text(encoding="utf-8")
    twin.write_text(text.replace("text: Data parallelism\n    correct: false", "text: Data parallelism\n    correct: true"),
                    encoding="utf-8")
    composed: collections.Counter[str] = collections.Counter()

    class Counting(document.Locator):
        def __init__(self, text: str) -> None:
            composed[text] += 1
            super().__init__(text)

    monkeypatch.setattr(document, "Locator", Counting)
    assert main(["check", "--no-cache", "--jobs", "1", str(twin.relative_to(project))]) == 1
    out = capsys.readouterr().out
    assert "B006" in out and "K0" in out  # a bank finding and an item finding (two keys)
    assert composed[twin.read_text(encoding="utf-8")] == 1
