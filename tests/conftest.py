"""Shared fixtures: the repository root, the sample bank, and the official schemas in ../shared."""

from __future__ import annotations

import gc
import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import Phase, settings

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))  # synthbank: the one generator of synthetic banks

# Property tests run a fixed, bounded set of examples on every run (derandomize), wait on no
# deadline (a loaded machine is no bug) and report a failure as found, without minutes of
# shrinking: a landing is never blocked by an example nobody has seen. Exploring is a choice:
# `pytest --hypothesis-profile=explore` draws ten times as many new examples and shrinks what fails
# (a failure found that way becomes an @example).
settings.register_profile("default", derandomize=True, deadline=None, print_blob=True,
                          phases=(Phase.explicit, Phase.reuse, Phase.generate))
settings.register_profile("ci", settings.get_profile("default"))
settings.register_profile("explore", derandomize=False, deadline=None, max_examples=1000)
settings.load_profile("default")


def examples(budget: int) -> int:
    """A property test's example count: `budget`, scaled by the profile (ten times under explore)."""
    return max(1, budget * settings().max_examples // 100)


def pytest_unconfigure(config):
    """Every test has run: keep what the session still holds out of the last collections.

    After a pytest-xdist worker reports its tests finished, the controller asks it to stop, and
    execnet sends the worker a SIGINT when it has not stopped 5 s later. Its last work is pytest's
    clean-up, whose gc.collect() walks everything the session left (generated banks, exports
    cached for the session): on a loaded machine that passed 5 s, the SIGINT landed in the first
    Python code a collection runs, Hypothesis's gc callback, and `make test` ended a green run with
    its KeyboardInterrupt traceback ("Exception ignored in: gc_callback"). Frozen objects are not
    collected: the clean-up then walks only what it made itself."""
    gc.freeze()


def pytest_collection_modifyitems(items):
    # Slow wherever they are: tests in a real browser, and tests run on the 1,000-question bank.
    for item in items:
        params = getattr(item, "callspec", None)
        if "browser" in getattr(item, "fixturenames", ()) or (params and params.params.get("bank") == "generated"):
            item.add_marker(pytest.mark.slow)


BANK = REPO / "bank"


SAMPLE = BANK / "mla-c01" / "model-development" / "layer-split-across-gpus.yaml"


def standalone_sample() -> str:
    """The sample question as a file alone in a project: its `related` ids point nowhere there."""
    text = SAMPLE.read_text(encoding="utf-8")
    return "\n".join("related: []" if line.startswith("related:") else line for line in text.split("\n"))


def random_sets(seed: int, count: int = 300) -> list[frozenset[int]]:
    """Shingle sets of many sizes over a small vocabulary, a third of them near copies of
    earlier ones (a few members dropped and added): the hard cases for similarity bounds."""
    rng = random.Random(seed)
    sets: list[frozenset[int]] = []
    for _ in range(count):
        if sets and rng.random() < 0.3:
            base = set(rng.choice(sets))
            base -= set(rng.sample(sorted(base), min(len(base), rng.randint(0, 3))))
            base |= {rng.randrange(400) for _ in range(rng.randint(0, 3))}
            sets.append(frozenset(base))
        else:
            sets.append(frozenset(rng.randrange(400) for _ in range(rng.randint(1, 60))))
    return sets


def script(name: str):
    """scripts/<name>.py as a module, loaded once (registered first: dataclasses need that)."""
    import importlib.util
    import sys

    if name not in sys.modules:
        package = REPO / "scripts" / name
        if package.is_dir():  # scripts/corpora is a package: its modules import each other
            spec = importlib.util.spec_from_file_location(name, package / "__init__.py",
                                                          submodule_search_locations=[str(package)])
        else:
            spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def shared_dir() -> Path:
    """`QLINT_SHARED` if set, else `../shared` beside the project root."""
    return Path(os.environ.get("QLINT_SHARED", REPO.parent / "shared"))


# Said by every test that skips without it, and by the README's Development section.
SHARED_REASON = ("this test needs the project's shared test data (official QTI/SARIF schemas, the seed page, "
                 "real question corpora), which CI places at ../shared beside the clone and which is not part "
                 "of the repository; set QLINT_SHARED to a copy of that folder (README: Development)")


def require_shared(*parts: str) -> Path:
    """A path under ../shared: a failure under CI=true when missing, a clear skip elsewhere."""
    path = shared_dir().joinpath(*parts)
    if not path.exists():
        message = f"{path} is missing: {SHARED_REASON}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture
def in_repo(monkeypatch):
    """Run with the repository as working directory, so its configuration and exams apply."""
    monkeypatch.chdir(REPO)
    return REPO
