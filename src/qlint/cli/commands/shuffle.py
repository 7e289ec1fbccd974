"""`qlint shuffle`: balance the bank's key positions with the fewest seeded moves. The pipeline is
`qlint.authoring.shuffle_bank`; this command parses, calls it, writes, reports and exits."""

from __future__ import annotations

import argparse
import sys

from qlint.authoring.changes import publish
from qlint.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, command
from qlint.cli.commands._authoring import add_mode_flags, mode_of, project, refuse_batch
from qlint.cli.commands._report import add_output_format, known_format, report


@command("shuffle", "Reorder options reproducibly so the bank's key positions are balanced.",
         "Balance the bank's key positions by moving the keys of as few of the chosen questions as it\n"
         "takes (which ones, and where to, drawn from the seed); a balanced bank is left as it is.\n"
         "Keys stay keyed, pinned options and 'shuffle: false' questions stay put, and questions whose\n"
         "text cites options by letter are reported instead.")
def configure(p: argparse.ArgumentParser):
    p.add_argument("paths", nargs="*", metavar="PATH", help="question files or folders (default: the configured bank)")
    p.add_argument("--seed", type=int, required=True, metavar="N", help="random seed: the same seed gives the same orders")
    add_mode_flags(p, "shuffled")
    add_output_format(p)
    return run


def run(args: argparse.Namespace) -> int:
    from qlint.authoring.shuffle_bank import shuffle_bank  # the YAML editor loads only for this command

    if not known_format(args.output_format):
        return EXIT_ERROR
    settings = project(with_exams=False)
    if settings is None:
        return EXIT_ERROR
    config = settings.config
    outcome = shuffle_bank(args.paths or [str(config.bank_dir)], config, args.seed)
    if outcome.internal:
        return refuse_batch(outcome.internal)
    mode = mode_of(args)
    changed, failed = publish(outcome.changes, mode, sys.stdout, verb="shuffled", root=config.root)
    changed = 0 if failed else changed  # a failed write writes nothing
    if outcome.errors or failed:
        code = EXIT_ERROR
    else:
        code = EXIT_FINDINGS if outcome.diagnostics or (changed and mode != "write") else EXIT_OK
    report(outcome.diagnostics + failed, args.output_format, len(outcome.changes), code)
    print(f"key positions before: {outcome.before}", file=sys.stderr)
    print(f"key positions after:  {outcome.after}", file=sys.stderr)
    verb = "would be shuffled" if mode != "write" else "shuffled"
    print(f"{changed} file{'s' if changed != 1 else ''} {verb} (seed {args.seed}); "
          f"{outcome.kept} question(s) kept as they are.", file=sys.stderr)
    if outcome.other_types:
        print(f"{outcome.other_types} ordering or matching question(s) not shuffled: an ordering question's steps "
              "are listed in key order, and players shuffle steps, prompts and responses themselves.", file=sys.stderr)
    return code
