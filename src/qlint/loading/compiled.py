"""fastjsonschema's validators, compiled once per schema and kept sealed for this user.

Turning a schema into a validator costs ~55 ms a run (fastjsonschema writes Python source, then
Python compiles it); a one-file pre-commit run takes about half a second. The compiled code is
kept as `marshal` bytes in the user's own folder beside the cache key (loading/sealed.py),
never in a repository's `.qlint_cache/`: a sealed file is loaded only with a valid HMAC under
the user's key over its name and bytes, and its name is a hash of everything the code is made
from (the schema, fastjsonschema's version, Python's bytecode magic), so it is exactly what
compiling would give. Anything else (missing, torn, planted, a read-only or absent home) is
compiled in-process as before.
"""

from __future__ import annotations

import copy
import hashlib
import importlib.util
import json
import marshal
import sys
import types
from typing import Any, Callable

import fastjsonschema

from qlint.loading import sealed

FOLDER = "validators"
FORMAT = 1  # bump when what is stored changes


def _name(kind: str, definition: dict[str, Any]) -> str:
    h = hashlib.blake2b(digest_size=16)
    for part in (str(FORMAT), fastjsonschema.VERSION, sys.version, importlib.util.MAGIC_NUMBER.hex(),
                 json.dumps(definition, sort_keys=True)):
        h.update(part.encode("utf-8") + b"\x00")
    return f"{kind}-{h.hexdigest()}.marshal"


def _run(entry: str, code: types.CodeType) -> Callable[[Any], Any]:
    namespace: dict[str, Any] = {}
    exec(code, namespace)  # noqa: S102  (code compiled here, or sealed by this user's key)
    validate = namespace.get(entry)
    if not isinstance(validate, types.FunctionType):
        raise ValueError(f"no function {entry}")
    return validate


def validator(kind: str, definition: dict[str, Any]) -> Callable[[Any], Any]:
    """fastjsonschema's validator of `definition` (a schema of qlint's own; `kind` names it)."""
    where = sealed.folder(FOLDER)
    name = _name(kind, definition)
    kept = sealed.read(where, name)
    if kept is not None:
        try:
            entry, code = marshal.loads(kept)  # sealed: bytes this user's qlint wrote
            if isinstance(entry, str) and isinstance(code, types.CodeType):
                return _run(entry, code)
        except Exception:  # noqa: BLE001 (a sealed file that does not load is compiled again)
            pass
    source = fastjsonschema.compile_to_code(copy.deepcopy(definition))  # the generator `compile` runs
    validate = fastjsonschema.compile(definition)  # this run's validator, as before
    try:
        keep = marshal.dumps((validate.__name__, compile(source, f"<qlint {kind} schema>", "exec")))
    except (SyntaxError, ValueError):
        return validate
    if sealed.write(where, name, keep):
        _prune(where, kind, name)
    return validate


def _prune(where: Any, kind: str, keep: str) -> None:
    """Validators of this schema compiled for an older schema text or another Python."""
    try:
        for old in where.glob(f"{kind}-*.marshal"):
            if old.name != keep:
                old.unlink()
    except OSError:
        pass
