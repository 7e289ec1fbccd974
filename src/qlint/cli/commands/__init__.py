"""One module per command; each registers itself with `qlint.cli.command`.

`INDEX` names each command's module and its one-line help, which is all `qlint --help` shows:
a run imports and configures only the command it runs (the others pull in NumPy, the exporters,
the language server ...). A new command module is added here too; tests/test_cli_lazy.py checks
that the index and the registered commands agree.
"""

INDEX: dict[str, tuple[str, str]] = {  # command -> (module, help)
    "analyze": ("analyze", "Item analysis of learners' responses (CSV from Canvas, Moodle or the generic format)."),
    "check": ("check", "Lint question files (default: the bank folder)."),
    "coverage": ("coverage", "Questions per domain and task statement against the blueprint and N practice exams."),
    "export": ("export", "Export questions to QTI, Canvas, Moodle, GIFT, Markdown, HTML or JSON."),
    "format": ("format", "Rewrite files in the canonical layout (key order, text style, indentation)."),
    "import": ("importing", "Import questions from another format (page, gift, ...) into qlint YAML files."),
    "init": ("init", "Set up a bank repository: configuration, an exam definition, schemas, pre-commit."),
    "new": ("new", "Scaffold a question file with every required field and guidance comments."),
    "review": ("review", "Sign questions off as a reviewer, or mark published questions live."),
    "rule": ("rule", "Show a rule's documentation."),
    "server": ("server", "Run the language server over stdio (findings while typing, fixes, hover)."),
    "shuffle": ("shuffle", "Reorder options reproducibly so the bank's key positions are balanced."),
}
