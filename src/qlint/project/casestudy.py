"""The case study a question names (`case: <id>`), read from the files: what the content hash of
a case question needs besides the question's own file, wherever it is computed (the W rules,
`qlint review sign` and `live`, `export --require-review`, the review summaries).

The case is the file with that id in a `cases/` folder beside the question's folder or beside
one above it, up to the question's bank (bank/<exam>/cases/ for bank/<exam>/<domain>/q.yaml); for
a question outside every bank, the two folders the check also looks in. The first such file in
path order wins, as for the bank rules (B001 reports a second file with the same id).
"""

from __future__ import annotations

import os
from typing import Any, Mapping

from qlint.loading.fast import load_fast
from qlint.model import Case
from qlint.loading.reader import decode, read_source
from qlint.project.banks import CASES_FOLDER, bank_of
from qlint.project.config import Config
from qlint.project.discovery import YAML_SUFFIXES

_LOOSE_LEVELS = 2  # outside a bank: the question's folder and the one above it (as `qlint check`)
# path -> ((mtime_ns, size), data or None): a case file is read once per version, also in a
# long-running process (the language server) where it may change between checks
_read: dict[str, tuple[tuple[int, int], Any]] = {}


def _folders(path: str, config: Config) -> list[str]:
    """The folders whose `cases/` may hold the question's case, nearest first."""
    here = os.path.dirname(os.path.abspath(path))
    bank = bank_of(config, here + os.sep + os.path.basename(path))
    top = str(bank) if bank is not None and (here + os.sep).startswith(str(bank).rstrip(os.sep) + os.sep) else None
    out: list[str] = []
    while True:
        out.append(here)
        if (top is None and len(out) >= _LOOSE_LEVELS) or here == top or os.path.dirname(here) == here:
            return out
        here = os.path.dirname(here)


def _data(path: str, config: Config, loaded: Mapping[str, Any] | None) -> Any:
    if loaded is not None and os.path.abspath(path) in loaded:  # read already by the caller's run
        return loaded[os.path.abspath(path)]
    try:
        info = os.stat(path)
    except OSError:
        return None
    sig = (info.st_mtime_ns, info.st_size)
    known = _read.get(path)
    if known is not None and known[0] == sig:
        return known[1]
    try:
        data = load_fast(decode(read_source(path, config.root, config.limits)), config.limits)
    except Exception:  # unreadable or not YAML: the check reports the file itself; no case here
        data = None
    if len(_read) >= 4096:
        _read.clear()
    _read[path] = (sig, data)
    return data


def find_case(path: str | None, case_id: Any, config: Config, loaded: Mapping[str, Any] | None = None) -> Case | None:
    """The case study `case_id` (its file and data) for the question file `path`, or None (no
    path, no such case file, or one that cannot be read). `loaded`: absolute path -> data of
    case files the caller has read already (an export's lint), used instead of reading them."""
    if not path or not isinstance(case_id, str) or not case_id:
        return None
    for folder in _folders(path, config):
        cases = os.path.join(folder, CASES_FOLDER)
        try:
            with os.scandir(cases) as it:
                names = sorted(e.path for e in it if e.name.endswith(YAML_SUFFIXES) and not e.name.startswith(".")
                               and e.is_file())
        except OSError:  # no cases folder here (the common case)
            continue
        for name in names:
            data = _data(name, config, loaded)
            if isinstance(data, dict) and data.get("id") == case_id:
                return Case(name, data)
    return None


def case_of(path: str | None, data: Any, config: Config, loaded: Mapping[str, Any] | None = None) -> Case | None:
    """The case study a question's data names, found from its file (see `find_case`)."""
    return find_case(path, data.get("case"), config, loaded) if isinstance(data, dict) else None
