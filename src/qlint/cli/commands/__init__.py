"""One module per command; each registers itself with `qlint.cli.command`."""
