"""`qlint new`: scaffold a question file in the right folder."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from qlint.authoring.changes import create
from qlint.cli import EXIT_ERROR, EXIT_OK, command
from qlint.cli.commands._authoring import project
from qlint.paths import display_path
from qlint.printable import printable
from qlint.files import UnsafePathError

if TYPE_CHECKING:  # the scaffold (and the formatter under it) loads only when `qlint new` runs
    from qlint.authoring.scaffold import Spec


class _Ask:
    """Prompts on stderr, answers from stdin (a terminal, or a pipe in scripts and tests)."""

    def __init__(self, stdin=sys.stdin, stderr=sys.stderr) -> None:
        self.stdin, self.stderr = stdin, stderr

    def __call__(self, prompt: str, default: str = "", choices: list[str] | None = None) -> str:
        while True:
            shown = f" [{default}]" if default else ""
            self.stderr.write(f"{prompt}{shown}: ")
            self.stderr.flush()
            line = self.stdin.readline()
            if not line:
                raise EOFError
            answer = line.strip() or default
            if choices and answer.isdigit() and 1 <= int(answer) <= len(choices):
                answer = choices[int(answer) - 1]
            if not choices or answer in choices:
                return answer
            self.stderr.write(f"  choose one of: {', '.join(choices)}\n")


def interview(spec: Spec, exams, ask: _Ask) -> None:
    from qlint.authoring.scaffold import default_id
    spec.exam = ask("Exam code", spec.exam or (sorted(exams)[0] if exams else ""), sorted(exams) or None)
    exam = exams[spec.exam]
    for i, d in enumerate(exam.domains, 1):
        ask.stderr.write(f"  {i}. {d.id}  ({d.name})\n")
    spec.domain = ask("Domain (number or id)", spec.domain, exam.domain_ids)
    spec.type = ask("Type", spec.type, ["single", "multiple", "ordering", "matching"])
    if spec.type == "multiple":
        spec.choose = int(ask("How many to choose", str(spec.choose or 2), [str(n) for n in range(2, 10)]))
    else:
        spec.choose = None
    spec.id = ask("Question id", spec.id or default_id(spec))
    spec.difficulty = ask("Difficulty", spec.difficulty, ["easy", "medium", "hard"])
    spec.stem = ask("Stem (one line; edit the file for more)", spec.stem)
    spec.trap = ask("Common exam trap", spec.trap)
    if spec.type not in ("single", "multiple"):
        return  # steps or pairs: the file's comments say how to write them
    n = spec.option_count
    keyed = spec.choose or 1 if spec.type == "multiple" else 1
    spec.options = [ask(f"Option {i + 1}{' (keyed)' if i < keyed else ''}", f"TODO option {i + 1}") for i in range(n)]


@command("new", "Scaffold a question file with every required field and guidance comments.",
         "Create bank/<exam>/<domain>/<name>.yaml with every required field, TODO placeholders and\n"
         "comments saying what each field needs. Never overwrites a file.")
def configure(p: argparse.ArgumentParser):
    p.add_argument("--exam", default="", metavar="CODE", help="exam code, e.g. MLA-C01 (must have an exam definition)")
    p.add_argument("--domain", default="", metavar="ID", help="domain id (or name) from the exam definition")
    p.add_argument("--type", default="single", choices=["single", "multiple", "ordering", "matching"],
                   help="question type (default: single)")
    p.add_argument("--case", default="", metavar="ID", help="the question belongs to this case study (writes 'case: ID')")
    p.add_argument("--case-study", action="store_true",
                   help="create a case study file (bank/<exam>/cases/<id>.yaml) instead of a question")
    p.add_argument("--choose", type=int, default=None, metavar="N", help="multiple: how many options to choose")
    p.add_argument("--id", default="", metavar="ID", help="question id (default: <exam>-<domain>-new-question)")
    p.add_argument("--difficulty", default="medium", choices=["easy", "medium", "hard"])
    p.add_argument("--interactive", "-i", action="store_true", help="ask for the fields on the terminal")
    return run


def run(args: argparse.Namespace) -> int:
    from qlint.authoring.scaffold import (ScaffoldError, Spec, case_target_path, check_id, default_id, render,
                                          render_case, target_path, validate_spec)

    settings = project()
    if settings is None:
        return EXIT_ERROR
    config = settings.config
    spec = Spec(args.exam, args.domain, args.type, args.choose, args.id, args.difficulty, case=args.case)
    try:
        if args.case_study and (args.interactive or args.case or args.choose or args.type != "single"):
            raise ScaffoldError("--case-study takes --exam, --domain and --id only")
        if args.interactive:
            interview(spec, settings.exams, _Ask())
        elif not (args.exam and args.domain):
            raise ScaffoldError("--exam and --domain are required (or use --interactive)")
        validate_spec(spec, settings.exams)
        spec.id = spec.id or (default_id(spec).replace("-new-question", "-new-case") if args.case_study else default_id(spec))
        check_id(spec.id)
        if args.case_study:
            target = case_target_path(spec, config)
            create(str(target), render_case(spec, target, config))
        else:
            target = target_path(spec, config)
            create(str(target), render(spec, target, config))
    except (ScaffoldError, UnsafePathError) as exc:
        print(f"qlint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except OSError as exc:  # it exists, a full disk, no permission: nothing was created
        where = f"{display_path(str(exc.filename))}: " if exc.filename else ""
        print(f"qlint: error: {where}{exc.strerror or exc}; nothing written", file=sys.stderr)
        return EXIT_ERROR
    except (EOFError, KeyboardInterrupt):
        print("\nqlint: cancelled; nothing written", file=sys.stderr)
        return EXIT_ERROR
    print(f"created {printable(display_path(str(target)))}")
    from qlint.authoring.scaffold import project_schema

    if not project_schema(config).is_file():  # the $schema line names the project's schema/, missing here
        print(f"qlint: note: {printable(display_path(str(project_schema(config).parent)))}/ is missing, so editors "
              "cannot complete the fields yet; `qlint init` writes it", file=sys.stderr)
    return EXIT_OK
