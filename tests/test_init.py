"""`qlint init` (issue 28, point 7): a bank repository from an empty folder, with schema references
that resolve in it, checked by a real yaml-language-server; the distribution's name (point 5)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml

from qlint.authoring.bank_init import DISTRIBUTION, HookSource, precommit_text

from kit.authoring import make_project, run
from conftest import REPO
from yaml_ls_client import MISSING, check_scaffold_in_editor


def test_distribution_name_is_not_the_taken_one_and_the_readme_installs_it():
    """`pip install qlint` installs an unrelated PyPI project (issue 28, point 5): the distribution
    has its own name, and the README's install command names it."""
    name = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]
    assert name == DISTRIBUTION and name != "qlint"
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    installs = re.findall(r'^pip install "([\w-]+) @ git\+', readme, re.M)
    assert installs == [name]
    ci = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    assert re.findall(r'QLINT: "([\w-]+) @', ci) == [name, name]


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_init_then_new_then_check_in_an_empty_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "init", "--exam", "ABC-C01")
    assert code == 0, err
    files = _files(tmp_path)
    assert sorted(files) == [".gitignore", ".pre-commit-config.yaml", "bank/exams/abc-c01.yaml", "qlint.toml",
                             "schema/case.schema.json", "schema/config.schema.json", "schema/exam.schema.json",
                             "schema/question.schema.json"]
    for kind in ("question", "case", "exam", "config"):  # the schemas qlint checks with
        assert files[f"schema/{kind}.schema.json"] == (REPO / "schema" / f"{kind}.schema.json").read_bytes()
    config = yaml.safe_load(files[".pre-commit-config.yaml"])
    assert [h["id"] for r in config["repos"] for h in r["hooks"]] == ["qlint"]
    exam = files["bank/exams/abc-c01.yaml"].decode()
    assert exam.startswith("# yaml-language-server: $schema=../../schema/exam.schema.json\n")

    code, out, err = run(capsys, "new", "--exam", "ABC-C01", "--domain", "domain-1", "--type", "ordering")
    assert code == 0 and err == "", err
    question = tmp_path / "bank" / "abc-c01" / "domain-1" / "new-question.yaml"
    ref = re.match(r"# yaml-language-server: \$schema=(\S+)\n", question.read_text(encoding="utf-8")).group(1)
    assert ref == "../../../schema/question.schema.json" and (question.parent / ref).resolve().is_file()

    code, out, err = run(capsys, "check", "--no-cache")
    assert code == 1, out + err
    findings = [ln for ln in out.splitlines() if re.match(r"\S+:\d+:\d+: ", ln)]
    assert findings and all(" F002 " in ln for ln in findings), out  # only the placeholders to write
    assert re.search(r"in 1 of 2 files\.$", out, re.M), out  # the exam definition is read and clean

    before = _files(tmp_path)
    code, out, err = run(capsys, "init")  # again: keeps every file
    assert code == 0 and "created" not in out and _files(tmp_path) == before, out


def test_init_refuses_a_bad_exam_code_and_writes_nothing(capsys, tmp_path):
    code, _out, err = run(capsys, "init", str(tmp_path / "bank-repo"), "--exam", "abc c01")
    assert code == 2 and "exam code 'abc c01' must be capital letters" in err
    assert not (tmp_path / "bank-repo").exists()


def test_init_adds_the_schemas_to_an_existing_bank(capsys, tmp_path, monkeypatch):
    """An existing bank keeps its configuration and exam definitions; init adds what is missing."""
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = (tmp_path / "qlint.toml").read_bytes()
    code, out, err = run(capsys, "init")
    assert code == 0, err
    assert (tmp_path / "qlint.toml").read_bytes() == before and "kept qlint.toml (it exists)" in out
    assert sorted(p.name for p in (tmp_path / "bank" / "exams").iterdir()) == ["mla-c01.yaml"]
    assert (tmp_path / "schema" / "question.schema.json").is_file()


def test_new_never_writes_a_path_into_the_installation(capsys, tmp_path, monkeypatch):
    """Without schema/ in the project, `qlint new` used to write the absolute path of the installed
    package's schema; now the reference is the project's own schema/, and a note says init makes it."""
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "new", "--exam", "MLA-C01", "--domain", "model-development")
    assert code == 0, err
    text = (tmp_path / "bank" / "mla-c01" / "model-development" / "new-question.yaml").read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../../schema/question.schema.json", first
    assert "schema/ is missing" in err and "qlint init" in err


def test_precommit_file_pins_the_commit_pip_recorded():
    pinned = yaml.safe_load(precommit_text(HookSource("https://example.org/qlint.git", "a" * 40)))
    assert pinned["repos"] == [{"repo": "https://example.org/qlint.git", "rev": "a" * 40, "hooks": [{"id": "qlint"}]}]
    (local,) = yaml.safe_load(precommit_text(None))["repos"]
    assert local["repo"] == "local" and local["hooks"][0]["entry"] == "qlint check"


# --- the schema reference, resolved by a real yaml-language-server over stdio ---------------------

@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
def test_yaml_language_server_resolves_the_scaffolds_schema(capsys, tmp_path, monkeypatch):
    """`qlint init` + `qlint new`, then the file opened in yaml-language-server as an editor would."""
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "init", "--exam", "ABC-C01")[0] == 0
    assert run(capsys, "new", "--exam", "ABC-C01", "--domain", "domain-1")[0] == 0
    check_scaffold_in_editor(tmp_path, tmp_path / "bank" / "abc-c01" / "domain-1" / "new-question.yaml")
