"""The answer keys of the bank's questions: what responses are scored and mapped against."""

from __future__ import annotations

from dataclasses import replace

from qlint.itemanalysis.data import MAX_OPTIONS, ItemKey, Note
from qlint.loading.document import Document
from qlint.loading.errors import LoadError
from qlint.loading.schema import validate
from qlint.model import Question
from qlint.prose.soundness import data_errors
from qlint.project.banks import file_kind
from qlint.project.config import Config
from qlint.project.discovery import discover
from qlint.paths import display_path


def load_keys(config: Config, paths: list[str]) -> tuple[dict[str, ItemKey], list[Note]]:
    """id -> key of every schema-valid question under `paths` that an export could carry; files
    that cannot be used (unreadable, invalid, or with data errors such as two options under one
    id, which every exporter refuses: `prose.soundness`) are noted (`qlint check` says what is
    wrong with them) and their responses skipped."""
    files, problems = discover(paths)
    notes = [Note(f"{display_path(p)}:1:1", why) for p, why in problems]
    keys: dict[str, ItemKey] = {}
    for path in files:
        if file_kind(path, config) != "question":
            continue
        try:
            doc = Document.load(path, config.root, config.limits)
            data = doc.data
        except LoadError as exc:
            notes.append(Note(f"{display_path(path)}:{exc.line}:{exc.col}", f"not read ({exc.message}); run qlint check"))
            continue
        if validate("question", data):
            notes.append(Note(f"{display_path(path)}:1:1", "not a valid question (run qlint check); its responses are skipped"))
            continue
        q = Question(path, data)
        if q.id in keys:
            notes.append(Note(f"{display_path(path)}:1:1", f"id {q.id!r} is also used by {display_path(keys[q.id].path)}; "
                                                           "responses go to the first"))
            continue
        unsound = data_errors(q)  # what every exporter refuses: answers cannot be mapped to one option
        if unsound:
            line, col, _, _ = doc.locate(unsound[0].pointer)
            notes.append(Note(f"{doc.shown}:{line}:{col}",
                              f"{unsound[0].message} ({unsound[0].code}): no export carries this question, "
                              "so its responses are skipped"))
            continue
        key = ItemKey.of(q)
        if not key.keymask or key.n_options > MAX_OPTIONS:  # K002 / the schema say why
            why = (f"more than {MAX_OPTIONS} {'options' if key.is_choice else 'parts'}" if key.keymask
                   else "no option is marked correct" if key.is_choice else "no step is keyed")
            notes.append(Note(f"{display_path(path)}:1:1", f"{why}: its responses cannot be scored"))
            continue
        keys[q.id] = replace(key, lang=str(data.get("lang") or config.lang), source=str(data.get("translation_of") or ""))
    return keys, notes
