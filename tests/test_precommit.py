"""The pre-commit hook as other repositories use it, run through the real pre-commit.

The hook tests pin a tagless clone of this repository's working tree (uncommitted edits included) at
its commit; pre-commit clones it, builds a virtualenv and pip-installs qlint from it, as a
consumer's pre-commit would, so they also prove a non-editable install finds its schemas. They
share one pre-commit home, so that environment is built once; they need PyPI (for qlint's
dependencies) and take 15-60 s.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile

from pathlib import Path

import pytest
import yaml

from conftest import BANK, REPO, standalone_sample
from yaml_ls_client import MISSING, check_scaffold_in_editor

PRE_COMMIT = [sys.executable, "-m", "pre_commit"]
GOOD = BANK / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml"
QUESTIONS = "bank/mla-c01/model-development"


def pre_commit(*args, cwd, home, timeout=600) -> subprocess.CompletedProcess:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never", "NO_COLOR": "1"}
    env.pop("GITHUB_ACTIONS", None)  # the hook's output format must not depend on where the tests run
    return subprocess.run(PRE_COMMIT + list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def test_manifest_and_config_validate(tmp_path):
    for command, path in (("validate-manifest", ".pre-commit-hooks.yaml"), ("validate-config", ".pre-commit-config.yaml")):
        proc = pre_commit(command, path, cwd=REPO, home=tmp_path)
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_hook_settings():
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert list(hooks) == ["qlint", "qlint-format"]
    hook = hooks["qlint"]
    assert hook["entry"] == "qlint check" and hook["language"] == "python"
    assert hook["require_serial"] is True and hook.get("pass_filenames", True) is True
    fmt = hooks["qlint-format"]
    assert fmt["entry"] == "qlint format" and fmt["language"] == "python" and fmt["types"] == ["yaml"]
    assert fmt.get("pass_filenames", True) is True and "args" not in fmt  # rewrite, not --check
    for h in (hook, fmt):
        files = re.compile(h["files"])
        assert files.search("bank/mla-c01/x/q.yaml") and files.search("bank/exams/mla-c01.yml")
        assert not files.search("notes/q.yaml") and not files.search("bank/README.md")


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """One PRE_COMMIT_HOME for the module: pre-commit builds the environment of a hook repository
    and rev once (a pip install) and reuses it, as on an author's machine. (`pre-commit try-repo`
    builds a new one in a temporary store on every call, which made these tests minutes long.)"""
    return tmp_path_factory.mktemp("pre-commit-home")


def _git(*args: str, cwd: Path, data: bytes | None = None) -> bytes:
    who = ["-c", "user.name=qlint", "-c", "user.email=qlint@example.invalid"]
    return subprocess.run(["git", *who, *args], cwd=cwd, input=data, check=True, capture_output=True).stdout


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> Path:
    """A clone of this repository without tags (as every clone of main is) holding its working tree
    as it is (uncommitted edits and new files included, as try-repo's shadow repository would),
    committed. Every hook test points `repo:` at it, pinned at that commit's sha."""
    clone = tmp_path_factory.mktemp("qlint-hooks") / "qlint"
    _git("clone", "-q", "--no-tags", str(REPO), str(clone), cwd=REPO)
    diff = _git("diff", "HEAD", "--binary", cwd=REPO)
    if diff:
        _git("apply", "--whitespace=nowarn", cwd=clone, data=diff)
    for name in filter(None, _git("ls-files", "--others", "--exclude-standard", "-z", cwd=REPO).split(b"\0")):
        target = clone / name.decode()
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name.decode(), target)
    _git("add", "-A", cwd=clone)
    _git("commit", "-q", "--allow-empty", "-m", "working tree", cwd=clone)
    return clone


def head(repo: Path) -> str:
    return _git("rev-parse", "HEAD", cwd=repo).decode().strip()


def run_hook(root: Path, repo: Path, hook: str, *files: str, home: Path) -> subprocess.CompletedProcess:
    """`pre-commit run HOOK --files ...` in `root` with a config that pins `repo` at its HEAD's sha."""
    config = {"repos": [{"repo": str(repo), "rev": head(repo), "hooks": [{"id": hook}]}]}
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    _git("add", ".pre-commit-config.yaml", cwd=root)
    return pre_commit("run", hook, "--files", *files, cwd=root, home=home)


@pytest.fixture(scope="module")
def consumer(tmp_path_factory, home):
    """A bank repository with a good question, a bad one, and a bad YAML file outside bank/."""
    root = tmp_path_factory.mktemp("consumer")
    folder = root / QUESTIONS
    folder.mkdir(parents=True)
    (root / "bank" / "exams").mkdir()
    (root / "notes").mkdir()
    shutil.copy(BANK / "exams" / "mla-c01.yaml", root / "bank" / "exams")
    (folder / "good.yaml").write_text(standalone_sample(), encoding="utf-8")
    bad = standalone_sample().replace("id: mla-c01-dev-layer-split-gpus", "id: mla-c01-dev-bad")
    bad = bad.replace("text: Data parallelism\n    correct: false", "text: Data parallelism\n    correct: true")
    (folder / "bad.yaml").write_text(bad, encoding="utf-8")
    (root / "notes" / "other.yaml").write_text(bad, encoding="utf-8")  # would fail if the hook looked at it
    # good and bad are deliberate near-copies; the bank's near-duplicate rule is not under test here
    (root / "qlint.toml").write_text('ignore = ["near-duplicate"]\n', encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    return root, home


@pytest.mark.slow
def test_hook_fails_the_bad_file_and_skips_files_outside_the_bank(consumer, hook_repo):
    root, home = consumer
    proc = run_hook(root, hook_repo, "qlint", f"{QUESTIONS}/good.yaml", f"{QUESTIONS}/bad.yaml", "notes/other.yaml",
                    home=home)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert re.search(r"^qlint\.+Failed$", out, re.M), out
    assert re.search(rf"^{QUESTIONS}/bad\.yaml:\d+:\d+: K002 .+ \(key-count\)$", out, re.M), out
    assert "good.yaml:" not in out and "other.yaml" not in out
    assert re.search(r"^Found \d+ problems \(\d+ errors\) in 1 of 2 files\.$", out, re.M), out  # notes/ skipped


@pytest.mark.slow
def test_hook_passes_the_good_file(consumer, hook_repo):
    root, home = consumer
    proc = run_hook(root, hook_repo, "qlint", f"{QUESTIONS}/good.yaml", "notes/other.yaml", home=home)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert re.search(r"^qlint\.+Passed$", out, re.M), out


@pytest.fixture(scope="module")
def format_consumer(tmp_path_factory, home):
    """A bank repository with a canonical question and a messy copy of it (keys out of order, odd spacing)."""
    root = tmp_path_factory.mktemp("format-consumer")
    folder = root / QUESTIONS
    folder.mkdir(parents=True)
    (root / "bank" / "exams").mkdir()
    shutil.copy(BANK / "exams" / "mla-c01.yaml", root / "bank" / "exams")
    canonical = standalone_sample()
    messy = canonical.replace("format: 1\nid: mla-c01-dev-layer-split-gpus\n", "id:   mla-c01-dev-layer-split-gpus\nformat: 1\n")
    messy = messy.replace("tags: [distributed-training, gpu-memory]", "tags:    # two tags\n- distributed-training\n- gpu-memory")
    assert messy.count("\n") > canonical.count("\n")
    (folder / "canonical.yaml").write_text(canonical, encoding="utf-8")
    (folder / "messy.yaml").write_text(messy, encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    return root, home, canonical


@pytest.mark.slow
def test_format_hook_rewrites_the_messy_file_and_leaves_the_canonical_one(format_consumer, hook_repo):
    root, home, canonical = format_consumer
    folder = root / QUESTIONS
    before = (folder / "canonical.yaml").read_bytes()
    proc = run_hook(root, hook_repo, "qlint-format", f"{QUESTIONS}/canonical.yaml", f"{QUESTIONS}/messy.yaml", home=home)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out  # what pre-commit says for a fixer that changed files
    assert re.search(r"^qlint format\.+Failed$", out, re.M) and "files were modified by this hook" in out, out
    assert (folder / "canonical.yaml").read_bytes() == before
    fixed = (folder / "messy.yaml").read_text(encoding="utf-8")
    assert fixed.startswith("# yaml-language-server") and "format: 1\nid: mla-c01-dev-layer-split-gpus\n" in fixed
    assert fixed == canonical.replace("gpu-memory]", "gpu-memory]  # two tags")  # the comment survives
    _git("add", "-A", cwd=root)  # the author stages the fix, as pre-commit asks
    again = run_hook(root, hook_repo, "qlint-format", f"{QUESTIONS}/messy.yaml", home=home)
    assert again.returncode == 0 and re.search(r"^qlint format\.+Passed$", again.stdout, re.M), again.stdout + again.stderr


@pytest.mark.slow
def test_wheel_ships_the_schemas(tmp_path):
    """src/qlint/schemas is a symlink to schema/: the built wheel must hold the files themselves."""
    source = tmp_path / "src"
    shutil.copytree(REPO, source, symlinks=True,
                    ignore=shutil.ignore_patterns(".venv", ".git", "*.egg-info", "build", "dist", "__pycache__", ".*cache"))
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(source)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    (wheel,) = (tmp_path / "dist").glob("qlint_exams-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for schema in sorted(p.name for p in (REPO / "schema").glob("*.json")):
        assert f"qlint/schemas/{schema}" in names, f"{schema} missing from the wheel"


def test_the_projects_own_hook_passes_on_the_sample_bank():
    """What `pre-commit run qlint-bank` runs here (a `language: unsupported` hook runs its entry as is)."""
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    (hook,) = [h for repo in config["repos"] for h in repo["hooks"] if h["id"] == "qlint-bank"]
    argv = hook["entry"].split()
    assert (REPO / argv[0]).exists(), f"{argv[0]} is missing: run `make test`, which creates the .venv"
    proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("All checks passed"), proc.stdout + proc.stderr
    assert re.compile(hook["files"]).search("bank/mla-c01/model-development/x.yaml")
    assert re.compile(hook["files"]).search("src/qlint/rules/core.py") and hook["pass_filenames"] is False


def _readme_snippet() -> dict:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", readme, re.S) if "hooks:" in b and "rev:" in b]
    return yaml.safe_load(block)


def test_readme_pre_commit_snippet_pins_a_commit_every_clone_has():
    """Issue 28, point 6: the README pinned `rev: v0.2.0`, a tag no clone has (only commits on main
    are published). It pins a full sha of a commit of main, which every clone of main holds."""
    (repo,) = _readme_snippet()["repos"]
    rev = str(repo["rev"])
    assert re.fullmatch(r"[0-9a-f]{40}", rev), f"the README pins {rev!r}: pin a full commit sha of main"
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    proc = subprocess.run(["git", "merge-base", "--is-ancestor", rev, "HEAD"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, f"{rev} is not a commit of this checkout's history: {proc.stderr}"
    hooks = {h["id"] for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert {h["id"] for h in repo["hooks"]} <= hooks


@pytest.mark.slow
def test_readme_pre_commit_snippet_works_as_written(consumer, home, tmp_path):
    """The README's snippet as written, with only the repository URL pointed at a `git clone
    --no-tags` of this repository (its rev is a commit of main, so the clone has it)."""
    root = tmp_path / "consumer"
    shutil.copytree(consumer[0], root, ignore=shutil.ignore_patterns(".git"))
    clone = tmp_path / "qlint"
    _git("clone", "-q", "--no-tags", str(REPO), str(clone), cwd=tmp_path)
    assert _git("tag", "-l", cwd=clone) == b""
    config = _readme_snippet()
    config["repos"][0]["repo"] = clone.as_uri()
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    proc = pre_commit("run", "qlint", "--files", f"{QUESTIONS}/good.yaml", cwd=root, home=home)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and re.search(r"^qlint\.+Passed$", out, re.M), out
    assert "mutable reference" not in out  # a pinned commit, not a branch
    proc = pre_commit("run", "qlint", "--files", f"{QUESTIONS}/bad.yaml", cwd=root, home=home)
    assert proc.returncode == 1 and " K002 " in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.slow
def test_init_new_check_then_a_commit_blocked_by_pre_commit(hook_repo, home, tmp_path):
    """Issue 28, point 7, with only what the README says: pip install qlint-exams from a git URL
    (a tagless clone of this repository), then in an empty folder `qlint init`, `qlint new`,
    `qlint check`, `git init`, `pre-commit install` and `git commit`: the fresh question, still
    full of TODOs, blocks the commit; without it the commit goes through. yaml-language-server
    resolves the scaffold's schema on the way (when tests/yaml_ls is installed)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=120)
    url = f"qlint-exams @ git+{hook_repo.as_uri()}@{head(hook_repo)}"
    # as the Makefile does: Debian's venv brings pip 23.2, whose URL parser refuses git+file:///
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--upgrade", "pip"],
                   check=True, capture_output=True, timeout=300)
    proc = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", url],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    qlint = str(venv / "bin" / "qlint")
    bank = tmp_path / "my-bank"
    bank.mkdir()
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never", "NO_COLOR": "1"}
    env.pop("GITHUB_ACTIONS", None)

    def sh(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run(list(argv), cwd=bank, env=env, capture_output=True, text=True, timeout=600)

    assert sh("git", "init", "-q").returncode == 0
    made = sh(qlint, "init", "--exam", "ABC-C01")
    assert made.returncode == 0, made.stderr
    config = yaml.safe_load((bank / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert config["repos"] == [{"repo": hook_repo.as_uri(), "rev": head(hook_repo), "hooks": [{"id": "qlint"}]}]
    assert sh(qlint, "new", "--exam", "ABC-C01", "--domain", "domain-1").returncode == 0
    if MISSING is None:  # the editor's schema completion works on the file as written
        check_scaffold_in_editor(bank, bank / "bank" / "abc-c01" / "domain-1" / "new-question.yaml")
    checked = sh(qlint, "check")
    assert checked.returncode == 1 and " F002 " in checked.stdout, checked.stdout + checked.stderr
    installed = subprocess.run(PRE_COMMIT + ["install"], cwd=bank, env=env, capture_output=True, text=True, timeout=120)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    who = ["-c", "user.name=qlint", "-c", "user.email=qlint@example.invalid"]
    sh("git", "add", "-A")
    blocked = sh("git", *who, "commit", "-q", "-m", "first question")
    out = blocked.stdout + blocked.stderr
    assert blocked.returncode == 1 and re.search(r"^qlint\.+Failed$", out, re.M), out
    assert re.search(r"^bank/abc-c01/domain-1/new-question\.yaml:\d+:\d+: F002 ", out, re.M), out
    assert sh("git", "rev-parse", "-q", "--verify", "HEAD").returncode != 0  # nothing was committed
    sh("git", "rm", "-q", "--cached", "bank/abc-c01/domain-1/new-question.yaml")
    passed = sh("git", *who, "commit", "-q", "-m", "the bank without its draft")
    out = passed.stdout + passed.stderr
    assert passed.returncode == 0 and re.search(r"^qlint\.+Passed$", out, re.M), out
