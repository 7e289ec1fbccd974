"""`qlint check --statistics` and `--show-source`, as a user reads them."""

from __future__ import annotations

import re
from collections import Counter

from qlint.cli import main

from conftest import BANK

SAMPLE = BANK / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml"
LINE = re.compile(r"^(?P<path>[^ :]+):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]\d{3}) .+ \((?P<name>[a-z0-9-]+)\)$")
STAT = re.compile(r"^ *(?P<n>\d+)  (?P<code>[A-Z]\d{3})  (?P<name>[a-z0-9-]+)$")


def flawed(tmp_path):
    text = SAMPLE.read_text(encoding="utf-8").replace("id: mla-c01-dev-layer-split-gpus", "id: options-case")
    text = text.replace("    rationale: |\n      Parallel tuning jobs each train a complete copy of the network with different\n"
                        "      settings; no job splits layers, so none of them fits in memory either.\n",
                        "    rationale: Incorrect.\n")
    text = re.sub(r"    right_when: \|\n(      .*\n)+", "", text)  # every distractor loses right_when: 3 x K005
    f = tmp_path / "q.yaml"
    f.write_text(text, encoding="utf-8")
    return f


def run(capsys, *argv):
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_statistics_count_findings_per_rule(capsys, in_repo, tmp_path):
    code, out = run(capsys, "check", "--select", "K", "--statistics", str(flawed(tmp_path)))
    lines = out.splitlines()
    found = Counter(m["code"] for m in map(LINE.match, lines) if m)
    stats = [STAT.match(ln) for ln in lines if STAT.match(ln)]
    assert code == 1 and found == Counter({"K005": 3, "K001": 1}), out
    assert [(int(m["n"]), m["code"], m["name"]) for m in stats] == [(3, "K005", "distractor-right-when"),
                                                                    (1, "K001", "option-rationale")]
    assert lines[-1].startswith("Found 4 problems")


def test_statistics_on_a_clean_run_prints_only_the_summary(capsys, in_repo):
    code, out = run(capsys, "check", "--statistics", str(SAMPLE))
    assert code == 0 and out.splitlines() == ["All checks passed (1 file checked)."]


def test_show_source_prints_the_offending_lines_with_a_caret(capsys, in_repo, tmp_path):
    f = flawed(tmp_path)
    code, out = run(capsys, "check", "--select", "K001", "--show-source", str(f))
    lines = out.splitlines()
    at = next(i for i, ln in enumerate(lines) if LINE.match(ln))
    m = LINE.match(lines[at])
    source_line = f.read_text(encoding="utf-8").splitlines()[int(m["line"]) - 1]
    assert lines[at + 1] == f"  {int(m['line']):>4} | {source_line}"
    assert lines[at + 2] == "       | " + " " * (int(m["col"]) - 1) + "^" * len("Incorrect.")


def test_show_source_covers_bank_findings_on_files_without_item_findings(capsys, in_repo, tmp_path):
    f = tmp_path / "copy.yaml"
    f.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")  # same id as the sample
    code, out = run(capsys, "check", "--select", "B001", "--show-source", str(f))
    lines = out.splitlines()
    assert code == 1 and LINE.match(lines[0])["code"] == "B001"
    assert lines[1] == "     3 | id: mla-c01-dev-layer-split-gpus" and lines[2].strip().startswith("| ") and "^" in lines[2]


def test_select_and_ignore_bank_and_meta_rules(capsys, in_repo, tmp_path):
    f = tmp_path / "copy.yaml"
    f.write_text(SAMPLE.read_text(encoding="utf-8") + "# qlint: disable-file K002\n", encoding="utf-8")
    code, out = run(capsys, "check", str(f))
    assert {m["code"] for m in map(LINE.match, out.splitlines()) if m} == {"B001", "B006", "M001"}
    code, out = run(capsys, "check", "--ignore", "duplicate-id,near-duplicate,M001", str(f))
    assert code == 0, out
    code, out = run(capsys, "check", "--select", "B", str(f))
    assert {m["code"] for m in map(LINE.match, out.splitlines()) if m} == {"B001", "B006"}
