"""`qlint shuffle`: balance the bank's key positions with the fewest seeded moves."""

from __future__ import annotations

import argparse
import sys

from qlint.bank.entry import BankEntry
from qlint.bank.statistics import key_balance
from qlint.authoring.changes import Change, publish
from qlint.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, command
from qlint.cli.commands._authoring import add_mode_flags, mode_of, project, refuse_batch
from qlint.authoring.changes import internal_error
from qlint.lint.engine import load_document
from qlint.loading.errors import LoadError
from qlint.loading.reader import decode, read_source
from qlint.loading.schema import validate
from qlint.model import LETTERS, Question
from qlint.project.discovery import discover
from qlint.paths import display_path


def _balance_line(questions: list[Question]) -> str:
    parts = []
    for b in key_balance([BankEntry.of(q.path, q.data) for q in questions]):
        counts = " ".join(f"{LETTERS[i]}:{n}" for i, n in enumerate(b.counts))
        parts.append(f"{b.k} options: {counts} (chi-square p={b.p_value:.2f})")
    return "; ".join(parts) or "no single-answer questions"


def load_questions(paths: list[str], config, errors: list[str]) -> dict[str, tuple[bytes, str, Question]]:
    """path -> (bytes, text, Question) for the schema-valid question files under `paths`; the bytes
    are what the text came from, so a file edited since then is not overwritten."""
    from qlint.authoring.formatter import kind_of  # the YAML editor's modules load only for this command

    files, problems = discover(paths)
    errors += [f"{display_path(m)}:1:1: Y010 {why}" for m, why in problems]
    out = {}
    for f in files:
        if kind_of(f, config) != "question":
            continue
        try:
            raw = read_source(f, config.root, config.limits)
            text, data = load_document(f, config, decode(raw))
        except LoadError as exc:
            errors.append(f"{display_path(f)}:{exc.line}:{exc.col}: {exc.code} {exc.message}")
            continue
        if validate("question", data):
            errors.append(f"{display_path(f)}:1:1: schema errors: run 'qlint check {display_path(f)}' (not shuffled)")
            continue
        out[f] = (raw, text, Question(f, data))
    return out


@command("shuffle", "Reorder options reproducibly so the bank's key positions are balanced.",
         "Balance the bank's key positions by moving the keys of as few of the chosen questions as it\n"
         "takes (which ones, and where to, drawn from the seed); a balanced bank is left as it is.\n"
         "Keys stay keyed, pinned options and 'shuffle: false' questions stay put, and questions whose\n"
         "text cites options by letter are reported instead.")
def configure(p: argparse.ArgumentParser):
    p.add_argument("paths", nargs="*", metavar="PATH", help="question files or folders (default: the configured bank)")
    p.add_argument("--seed", type=int, required=True, metavar="N", help="random seed: the same seed gives the same orders")
    add_mode_flags(p, "shuffled")
    return run


def run(args: argparse.Namespace) -> int:
    from qlint.authoring.shuffling import plan, position_in, reordered
    from qlint.authoring.yamldoc import parse
    from qlint.authoring.yamledit import EditError, reorder

    settings = project(with_exams=False)
    if settings is None:
        return EXIT_ERROR
    config = settings.config
    errors: list[str] = []
    selected = load_questions(args.paths or [str(config.bank_dir)], config, errors)
    bank_errors: list[str] = []
    keys = {display_path(p) for p in selected}
    context = [q for p, (_r, _t, q) in load_questions([str(config.bank_dir)], config, bank_errors).items()
               if display_path(p) not in keys] if config.bank_dir.is_dir() else []
    plans = plan([q for _r, _t, q in selected.values()], context, args.seed)
    changes, findings, after, internal = [], [], [], []
    for pl in plans:
        path = pl.question.path
        raw, text, _q = selected[path]
        if pl.refs:
            doc = parse(text, pl.question.data)
            for ref in pl.refs:
                line, col = position_in(doc, ref.pointer, ref.offset)
                findings.append(f"{display_path(path)}:{line}:{col}: refers to an option by letter ({ref.found!r}); "
                                "question not shuffled: name the option instead")
        if not pl.order or pl.order == sorted(pl.order):
            after.append(pl.question)
            continue
        try:
            new = reorder(text, "/options", pl.order, config)
        except EditError as exc:
            errors.append(f"{display_path(path)}:1:1: not shuffled: {exc}")
            after.append(pl.question)
            continue
        except Exception as exc:  # a bug: a half-shuffled bank would be unbalanced, so write nothing
            internal.append(internal_error(display_path(path), "shuffling", exc))
            continue
        changes.append(Change(display_path(path), raw, new))
        after.append(reordered(pl.question, pl.order))
    if internal:
        return refuse_batch(internal)
    mode = mode_of(args)
    changed, failed = publish(changes, mode, sys.stdout, sys.stderr, verb="shuffled", root=config.root)
    for line in findings + errors:
        print(line, file=sys.stderr)
    before_all = context + [q for _r, _t, q in selected.values()]
    print(f"key positions before: {_balance_line(before_all)}", file=sys.stderr)
    print(f"key positions after:  {_balance_line(context + after)}", file=sys.stderr)
    verb = "would be shuffled" if mode != "write" else "shuffled"
    changed = 0 if failed else changed  # a failed write writes nothing
    print(f"{changed} file{'s' if changed != 1 else ''} {verb} (seed {args.seed}); "
          f"{sum(1 for p in plans if p.kept)} question(s) kept as they are.", file=sys.stderr)
    if errors or failed:
        return EXIT_ERROR
    return EXIT_FINDINGS if findings or (changed and mode != "write") else EXIT_OK
