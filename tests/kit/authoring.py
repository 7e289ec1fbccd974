"""Small projects in a temporary folder for the authoring commands (format, fix, shuffle, new, import)."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from qlint.cli import main
from qlint.cli.config import load_config
from qlint.lint.engine import check_file, load_exams, make_settings

from conftest import BANK, REPO

EXAM = BANK / "exams" / "mla-c01.yaml"


def make_project(root: Path, config: str = "") -> Path:
    """root/qlint.toml, root/bank/exams/mla-c01.yaml; returns the bank folder."""
    (root / "bank" / "exams").mkdir(parents=True)
    shutil.copy(EXAM, root / "bank" / "exams" / "mla-c01.yaml")
    (root / "qlint.toml").write_text('bank = "bank"\nexams = "bank/exams"\n' + config, encoding="utf-8")
    return root / "bank"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def question_yaml(qid: str, key: int = 0, n: int = 4, rationale_extra: str = "", extra: str = "",
                  pinned_last: bool = False) -> str:
    """A lint-clean single-answer question whose key sits at position `key`."""
    names = ["Model parallelism", "Data parallelism", "Hyperparameter search", "Gradient checkpointing",
             "Pipeline stages", "Mixed precision"][:n]
    key_name = names[key] if key < n else names[0]
    lines = [
        "# yaml-language-server: $schema=../../../schema/question.schema.json",
        "format: 1", f"id: {qid}", "exam: MLA-C01", "domain: model-development", "type: single", "status: draft",
        extra.rstrip("\n") if extra else None,
        "", "stem: |",
        "  A transformer with 70 billion weights exceeds one GPU's memory. Which strategy lets the team",
        "  train it?",
        "", "options:",
    ]
    for i, name in enumerate(names):
        oid = name.lower().replace(" ", "-")
        if i:
            lines.append("")
        lines += [f"  # about {oid}", f"  - id: {oid}", f"    text: {name}", f"    correct: {'true' if i == key else 'false'}"]
        if pinned_last and i == n - 1:
            lines.append("    pinned: true")
        lines.append(f"    rationale: The {oid} choice is discussed here for the team's memory limit.{rationale_extra if i == 1 else ''}")
    lines += ["", "explanation: |", f"  {key_name} is the answer here.", ""]
    return "\n".join(ln for ln in lines if ln is not None)


def qti21_package_files(capsys, tmp_path: Path, monkeypatch) -> dict[str, bytes]:
    """The files of a real qti21 export of the sample bank, to build hostile packages from."""
    monkeypatch.chdir(REPO)
    out = tmp_path / "real.zip"
    code, _out, err = run(capsys, "export", "--format", "qti21", "--output", str(out))
    assert code == 0, err
    with zipfile.ZipFile(out) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


# --- what an import wrote, compared ---------------------------------------------------------


def schema_errors(root: Path, path: Path) -> list[str]:
    settings = make_settings(load_config(root), select=["S"])
    load_exams(settings)
    return [f"{d.line}:{d.col} {d.code} {d.message}" for d in check_file(str(path), settings).diagnostics]


def imported_text(value: str | None) -> str | None:
    return value.rstrip("\n") if isinstance(value, str) else value  # rendering drops a final newline


def steps_of(data: dict) -> list[tuple]:
    return [(imported_text(s["text"]), s.get("correct", True), imported_text(s.get("rationale")), imported_text(s.get("right_when")))
            for s in data["steps"]]


def pairs_of(data: dict) -> tuple[list[tuple], list[tuple]]:
    text = {r["id"]: r["text"] for r in data["responses"]}
    return ([(imported_text(p["text"]), text[p["match"]], imported_text(p.get("rationale"))) for p in data["prompts"]],
            [(imported_text(r["text"]), imported_text(r.get("rationale"))) for r in data["responses"]])
