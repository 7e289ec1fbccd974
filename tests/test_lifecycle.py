"""The lifecycle catalogue (project/lifecycle.py) and the V rules read against it: sources,
statuses by date, the project's own entries, the date of the check, a planted set."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from qlint.project import lifecycle
from qlint.rules.lifecycle import mentions

from kit.lifecycle import _codes, _project, _question, _run

REPO = Path(__file__).resolve().parent.parent


def test_every_fact_of_the_shipped_catalogue_names_its_source_page():
    raw = json.loads((REPO / "src" / "qlint" / "project" / "lifecycle.json").read_text(encoding="utf-8"))
    cat = lifecycle.shipped()
    assert len(cat.services) == len(raw["entries"]) >= 15
    for service in cat.services:
        assert service.events
        for event in service.events:
            assert event.source.startswith("https://"), service.name
    for entry in raw["entries"]:
        if entry.get("replaced_by"):
            assert entry["replaced_by_source"].startswith("https://"), entry["name"]


@pytest.mark.parametrize("broken, message", [
    ({"status": "closed"}, "every fact needs its source"),
    ({"status": "closed", "source": "http://example.com"}, "every fact needs its source"),
    ({"status": "gone", "source": "https://x.test"}, "is not one of"),
    ({"status": "closed", "source": "https://x.test", "date": "30/07/2026"}, "YYYY-MM-DD"),
])
def test_an_entry_without_a_source_or_with_a_bad_fact_is_refused(broken, message):
    with pytest.raises(lifecycle.CatalogueError, match=message):
        lifecycle.parse({"format": 1, "entries": [{"name": "Amazon X", "events": [broken]}]}, "test.json")


def test_status_follows_the_date_of_the_check():
    equipment = lifecycle.shipped().get("Amazon Lookout for Equipment")
    assert equipment.status(dt.date(2026, 10, 6)) == "available"
    assert equipment.status(dt.date(2026, 10, 7)) == "end-of-support"
    opsworks = lifecycle.shipped().get("AWS OpsWorks")
    assert opsworks.status(dt.date(2024, 1, 1)) == "closed"  # closed first, ended later
    assert opsworks.status(dt.date(2024, 5, 26)) == "end-of-support"


ORDINARY = [
    "The team must forecast the demand for the next quarter.",
    "Monitor the endpoint and clarify the requirement with the data owner.",
    "Attach a debugger to the training script to pinpoint the cause.",
    "Build a data pipeline; use cloud search and single sign-on for staff.",
    "Amazon SageMaker and Elasticsearch clusters; the Amazon Chime SDK adds video calls.",
    "Amazon Forecasting tools and OpsWorksLike names are not the services.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_uses_of_the_same_words_name_no_service(text):
    assert [m for m in mentions(text, lifecycle.shipped()) if not m.service.ambiguous] == []


def test_a_planted_set_is_caught_whole_and_ordinary_uses_stay_clean(tmp_path):
    on = dt.date(2026, 12, 2)
    cat = lifecycle.shipped()
    planted: dict[str, tuple[dict, str]] = {}
    for s in cat.services:
        if not s.verified:
            continue
        status = s.status(on)
        for i, name in enumerate(s.names):
            slug = f"{s.name.lower().replace(' ', '-')}-{i}"
            if status == "end-of-support":
                planted[f"key-{slug}"] = (_question(f"key-{slug}", name), "V001")
                planted[f"distractor-{slug}"] = (_question(f"distractor-{slug}", "Amazon SageMaker AI", name), "V003")
            elif status in ("closed", "maintenance"):
                planted[f"key-{slug}"] = (_question(f"key-{slug}", name), "V002")
        if not s.ambiguous:
            for i, old in enumerate(s.former):
                slug = f"former-{s.name.lower().replace(' ', '-')}-{i}"
                planted[slug] = (_question(slug, "Amazon SageMaker AI", stem=f"Which role does {old} play here?"), "V004")
    assert len(planted) >= 40
    ordinary = {f"ordinary-{i}": _question(f"ordinary-{i}", "Amazon SageMaker AI", stem=text)
                for i, text in enumerate(ORDINARY)}
    root = _project(tmp_path, {**{k: v[0] for k, v in planted.items()}, **ordinary})
    code, out = _run(root, "--select", "V", "--date", on.isoformat(), "bank")
    found = _codes(out)
    missed = [name for name, (_, want) in planted.items() if found.get(name) != [want]]
    assert missed == [], missed
    assert not [name for name in ordinary if name in found]
    assert code == 1


def test_the_date_of_the_check_comes_from_the_flag_or_the_configuration(tmp_path):
    root = _project(tmp_path, {"equipment": _question("equipment", "Amazon Lookout for Equipment")})
    assert _codes(_run(root, "--select", "V001", "--date", "2026-10-06", "bank")[1]) == {}
    assert _codes(_run(root, "--select", "V001", "--date", "2026-10-07", "bank")[1]) == {"equipment": ["V001"]}
    (root / "qlint.toml").write_text('bank = "bank"\ndate = "2026-10-06"\n', encoding="utf-8")
    assert _codes(_run(root, "--select", "V001", "bank")[1]) == {}
    code, _ = _run(root, "--select", "V001", "--date", "next week", "bank")
    assert code == 2


def test_a_project_adds_its_own_entries_under_the_bank(tmp_path):
    root = _project(tmp_path, {"own": _question("own", "Amazon Widget Service")})
    assert _codes(_run(root, "--select", "V001", "bank")[1]) == {}
    (root / "bank" / "lifecycle.json").write_text(json.dumps({"format": 1, "entries": [
        {"name": "Amazon Widget Service", "events": [
            {"status": "end-of-support", "date": "2020-01-01", "source": "https://example.test/widgets"}]}]}),
        encoding="utf-8")
    assert _codes(_run(root, "--select", "V001", "bank")[1]) == {"own": ["V001"]}


def test_an_unreadable_project_catalogue_stops_the_check_with_its_place(tmp_path, capsys):
    root = _project(tmp_path, {"own": _question("own", "Amazon Forecast")})
    (root / "bank" / "lifecycle.json").write_text('{"format": 1, "entries": [\n', encoding="utf-8")
    code, out = _run(root, "--select", "V", "bank")
    assert code == 2 and out == ""
    assert "lifecycle.json:2:1: not valid JSON" in capsys.readouterr().err


def _reference_mentions(text, cat):
    """The reading the V rules had: one alternation of every name, longest first."""
    import re
    names = {}
    for s in cat.services:
        if s.verified:
            names.update({n: (s, False) for n in s.names})
            names.update({n: (s, True) for n in s.former if n not in names})
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=lambda n: (-len(n), n)))
    out = []
    for m in re.finditer(rf"(?<![\w-])(?:{alternatives})(?![\w-])", text):
        service, former = names[m.group(0)]
        if not any(text.startswith(other, m.start()) for other in service.excludes):
            out.append((service.name, m.group(0), former, m.start()))
    return out


def test_mentions_read_what_one_alternation_of_every_name_reads():
    from hypothesis import given, settings, strategies as st

    cat = lifecycle.shipped()
    names = sorted({n for s in cat.services for n in (*s.names, *s.former)})
    pieces = st.sampled_from(names + ["Amazon", "AWS", "the", "for", "-", "s", "x", ".", " ", "Kinesis Data",
                                      "SageMakerX", "Amazon SageMaker AI", "é"])

    @settings(max_examples=400, deadline=None)
    @given(st.lists(pieces, max_size=12))
    def check(parts):
        text = "".join(p if i % 2 else p + " " for i, p in enumerate(parts))
        got = [(m.service.name, m.name, m.former, m.start) for m in mentions(text, cat)]
        assert got == _reference_mentions(text, cat), text

    check()
