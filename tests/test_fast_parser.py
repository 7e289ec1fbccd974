"""The fast path really uses libyaml when PyYAML has it (the pure parser is ~10x slower)."""

import yaml

from qlint.loading import fast


def test_fast_path_uses_libyaml_when_available():
    if yaml.__with_libyaml__:
        assert fast._Parser.__module__ == "yaml._yaml", fast._Parser
