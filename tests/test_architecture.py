"""The code's shape, checked in every test run: the layer contract (.importlinter, run by
import-linter), no import cycle between qlint's packages, every package placed in a layer, and
ruff on the project's own code (configured in pyproject.toml)."""

from __future__ import annotations

import ast
import configparser
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SRC = REPO / "src"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(args, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)


def test_layer_contracts_hold():
    lint_imports = Path(sys.executable).with_name("lint-imports")
    cmd = [str(lint_imports)] if lint_imports.exists() else [sys.executable, "-c",
                                                             "from importlinter.cli import lint_imports_command as c; c()"]
    proc = _run(*cmd, "--no-cache")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout


def test_ruff_finds_nothing():
    proc = _run(sys.executable, "-m", "ruff", "check", "--no-cache", "src", "tests", "scripts", "benchmarks")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _unit(module: str) -> str:
    """The package (or top-level module) a module belongs to: qlint.lint.engine -> lint."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else module


def _runtime_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import, in functions too, except those under `if TYPE_CHECKING:` (types only)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for b in node.body for n in ast.walk(b)}
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in skip]


def _modules(src: Path, root: str) -> dict[str, tuple[Path, bool]]:
    """module name -> (file, is a package's __init__), for every module under src/root."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted((src / root).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        is_init = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_init else parts)] = (path, is_init)
    return found


def module_graph(src: Path, root: str = "qlint") -> dict[str, set[str]]:
    """module -> qlint modules it imports (in functions too; `from pkg import mod` names mod),
    computed from the source with ast (relative imports resolved)."""
    modules = _modules(src, root)
    graph: dict[str, set[str]] = {}
    for module, (path, is_init) in modules.items():
        if module == f"{root}.__main__" or module == root:
            continue
        graph.setdefault(module, set())
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = module.split(".") if is_init else module.split(".")[:-1]
                if node.level:
                    base = base[: len(base) - node.level + 1]
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                targets = [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in modules else prefix for a in node.names]
            graph[module] |= {t for t in targets if t.startswith(root + ".") and t != module}
    return graph


def package_graph(src: Path, root: str = "qlint") -> dict[str, set[str]]:
    """unit -> units it imports: the module graph folded to qlint's top-level packages."""
    graph: dict[str, set[str]] = {}
    for module, targets in module_graph(src, root).items():
        here = _unit(module)
        graph.setdefault(here, set()).update(_unit(t) for t in targets if _unit(t) != here)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one unit (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_cycle_between_packages():
    graph = package_graph(SRC)
    assert "lint" in graph and "cli" in graph  # the walk saw the tree
    assert cycles(graph) == [], "\n".join(f"{a} -> {' '.join(sorted(b))}" for a, b in sorted(graph.items()))


def test_no_cycle_between_modules():
    """No circle inside a package either, imports inside functions counted."""
    graph = module_graph(SRC)
    assert "qlint.exporters.qti.qti21" in graph and "qlint.importers.qti" in graph  # the walk saw the tree
    assert cycles(graph) == []


def test_module_cycle_check_sees_a_cycle_inside_a_package(tmp_path):
    pkg = tmp_path / "qlint"
    for name, text in {"__init__.py": "", "a/__init__.py": "", "a/x.py": "from qlint.a import y\n",
                       "a/y.py": "def f():\n    from . import x\n", "a/z.py": "from qlint.a.x import *\n"}.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(text)
    graph = module_graph(tmp_path)
    assert graph["qlint.a.z"] == {"qlint.a.x"}
    assert cycles(graph) == [["qlint.a.x", "qlint.a.y"]]
    assert cycles(package_graph(tmp_path)) == []  # the package-level check alone misses it


def test_cycle_check_sees_a_cycle(tmp_path):
    pkg = tmp_path / "qlint"
    for name, text in {"__init__.py": "", "a/__init__.py": "", "a/x.py": "from qlint.b import y\n",
                       "b/__init__.py": "", "b/y.py": "def f():\n    from ..a import x\n",
                       "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from qlint.a import x\n"}.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(text)
    graph = package_graph(tmp_path)
    assert graph["c"] == set()
    assert cycles(graph) == [["a", "b"]]


def test_every_package_has_a_layer():
    """A new package or top-level module must be placed in the contract, or nothing checks it."""
    parser = configparser.ConfigParser()
    parser.read(REPO / ".importlinter")
    layered = set()
    for line in parser["importlinter:contract:layers"]["layers"].split():
        layered |= {_unit(m) for m in line.replace("|", " ").replace(":", " ").split() if m.startswith("qlint.")}
    units = {p.stem if p.is_file() else p.name for p in (SRC / "qlint").iterdir()
             if (p.suffix == ".py" and p.stem not in ("__init__", "__main__")) or (p / "__init__.py").exists()}
    assert units - layered == set()



def test_readme_names_every_package_where_it_lives():
    """The README's "Where things live" table describes the layout as it is."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    table = readme.split("### Where things live", 1)[1].split("\n\n", 3)[2]
    packages = {p.name for p in (SRC / "qlint").iterdir() if (p / "__init__.py").exists()}
    modules = {p.name for p in (SRC / "qlint").glob("*.py") if p.stem not in ("__init__", "__main__")}
    missing = {p for p in packages if f"`{p}/`" not in table} | {m for m in modules if f"`{m}`" not in table}
    assert missing == set()


# What a test file may import from tests/ besides the kit (tests/kit/) and conftest, and why each
# stays where it is rather than in the kit.
OUTSIDE_THE_KIT = {
    "rulecases": "the rule-case runner: every file in tests/cases and tests/bank_cases names it as its format",
    "hostile": "the hostile corpus and write-safety cases, also run as `python -m tests.hostile.writes` for docs/safety.md",
    "yaml_ls_client": "the yaml-language-server client, beside the npm project it drives (tests/yaml_ls/)",
}


def local_imports_outside_the_kit(tests: Path) -> set[tuple[str, str]]:
    """(importing file, module) for every import, by a test file or a kit module, of a module of
    `tests` that is neither the kit nor conftest nor in OUTSIDE_THE_KIT: a test file that imports
    another runs that file's module-level setup and couples the two; a helper outside the kit is
    one a newcomer does not find."""
    local = {p.stem for p in tests.glob("*.py")} | {p.name for p in tests.iterdir() if p.is_dir() and any(p.glob("*.py"))}
    allowed = {"kit", "conftest", *OUTSIDE_THE_KIT}
    found = set()
    for path in sorted(tests.glob("test_*.py")) + sorted((tests / "kit").glob("*.py")):
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                continue  # `from . import x` inside the kit
            targets = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found |= {(path.relative_to(tests).as_posix(), t) for t in targets
                      if t.split(".")[0] in local and t.split(".")[0] not in allowed}
    return found


def test_test_files_import_only_the_kit_and_conftest():
    tests = REPO / "tests"
    assert (tests / "kit" / "export.py").exists() and local_imports_outside_the_kit(tests) == set()
    assert {n for n in OUTSIDE_THE_KIT if not (tests / f"{n}.py").exists() and not (tests / n).is_dir()} == set()


def test_the_kit_guard_sees_a_helper_outside_the_kit_and_a_test_file_imported(tmp_path):
    (tmp_path / "kit").mkdir()
    for name, text in {"conftest.py": "", "kit/__init__.py": "", "kit/export.py": "import test_b\n",
                       "helpers.py": "", "test_a.py": "from kit.export import x\nfrom conftest import y\nimport helpers\n",
                       "test_b.py": "def f():\n    from test_a import z\n"}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert local_imports_outside_the_kit(tmp_path) == {("test_a.py", "helpers"), ("test_b.py", "test_a"),
                                                        ("kit/export.py", "test_b")}
