"""Sign-off and frozen items (issue 29 points 2, 3 and 5): `qlint review sign` / `live`, the
[review] policy, the W rules with git history, and `qlint export --require-review`.

The planted set: a copy of the sample bank signed by two reviewers (and partly live) is clean;
then seeded edits plant stale sign-offs, self-reviews, missing roles and edits of live questions,
and every one is reported with nothing else, and `export --require-review` refuses exactly them.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from qlint.authoring.yamledit import set_scalar
from qlint.cli.config import load_config
from qlint.loading.fast import load_fast
from qlint.loading.limits import Limits
from qlint.project.contenthash import content_hash

from conftest import REPO
from kit.browser import Tab, browser  # noqa: F401  (the shared browser fixture)
from rulecases import qlint

POLICY = '[review]\nroles = ["technical", "editorial"]\nreviewers = 2\nauthor = "ana"\n'


def project(tmp_path: Path, policy: str = POLICY) -> Path:
    shutil.copytree(REPO / "bank", tmp_path / "bank")
    (tmp_path / "qlint.toml").write_text('bank = "bank"\nexams = "bank/exams"\n' + policy, encoding="utf-8")
    return tmp_path


def questions(root: Path) -> list[Path]:
    return sorted(p for p in (root / "bank" / "mla-c01").rglob("*.yaml") if "cases" not in p.parts)


def data(path: Path) -> dict:
    return load_fast(path.read_text(encoding="utf-8"), Limits())


def findings(root: Path, *args: str) -> tuple[int, list[dict]]:
    code, out = qlint(root, "check", "--output-format", "json", "--no-cache", "--jobs", "1", *args)
    return code, json.loads(out)["diagnostics"]


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                   check=True, capture_output=True)


# --- the writer -------------------------------------------------------------------------------

def test_sign_appends_a_bound_entry_and_keeps_every_other_byte(tmp_path):
    root = project(tmp_path)
    path = questions(root)[0]
    before = path.read_text(encoding="utf-8").replace("\nexplanation:", "\n# a comment the writer keeps\nexplanation:")
    before += "# a last comment\n"
    path.write_text(before, encoding="utf-8")
    code, _ = qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", "--date", "2026-06-01", str(path))
    assert code == 0
    after = path.read_text(encoding="utf-8")
    assert after.startswith(before.removesuffix("# a last comment\n"))  # only lines added, at the end
    assert after.endswith("# a last comment\n")
    assert data(path)["reviews"] == [{"reviewer": "ben", "role": "technical", "date": "2026-06-01",
                                      "hash": content_hash(data(path))}]
    assert qlint(root, "format", "--check", str(path))[0] == 0  # already in the canonical layout
    # a second reviewer is appended; the same reviewer and role again renews the entry in place
    qlint(root, "review", "sign", "--role", "editorial", "--reviewer", "Cy Dee", "--date", "2026-06-02", str(path))
    qlint(root, "review", "sign", "--role", "technical", "--reviewer", "BEN", "--date", "2026-06-03", str(path))
    reviews = data(path)["reviews"]
    assert [(r["reviewer"], r["role"], r["date"]) for r in reviews] == [("ben", "technical", "2026-06-03"),
                                                                       ("Cy Dee", "editorial", "2026-06-02")]
    assert "# a comment the writer keeps" in path.read_text(encoding="utf-8")
    code, found = findings(root, str(path))
    assert [d["code"] for d in found] == [] and code == 0


def test_sign_renews_a_stale_sign_off(tmp_path):
    root = project(tmp_path, '[review]\nroles = ["technical"]\n')
    path = questions(root)[0]
    qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", str(path))
    path.write_text(set_scalar(path.read_text(encoding="utf-8"), "/stem", data(path)["stem"] + " Now?",
                               load_config(root)), encoding="utf-8")
    assert [d["code"] for d in findings(root, str(path))[1]] == ["W004"]
    qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", str(path))
    assert findings(root, str(path))[1] == []
    assert len(data(path)["reviews"]) == 1


def test_refusals_write_nothing_at_all(tmp_path, capsys):
    root = project(tmp_path)
    first, second = questions(root)[:2]
    flow = second.read_text(encoding="utf-8") + "reviews: []\n"
    second.write_text(flow, encoding="utf-8")
    original = first.read_text(encoding="utf-8")
    code, _ = qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", str(first), str(second))
    err = capsys.readouterr().err
    assert code == 2 and "A005" in err and "block list" in err
    assert first.read_text(encoding="utf-8") == original and second.read_text(encoding="utf-8") == flow
    code, _ = qlint(root, "review", "sign", "--role", "technical", "--reviewer", " Ana ", str(first))
    assert code == 2 and "is the question's author" in capsys.readouterr().err
    assert first.read_text(encoding="utf-8") == original
    for args in (["sign", "--reviewer", "ben"], ["sign", "--role", "Tech nical", "--reviewer", "ben"],
                 ["sign", "--role", "technical"], ["live", "--role", "technical"], ["sign", "--role", "technical",
                                                                                    "--reviewer", "ben", "--date", "June"]):
        assert qlint(root, "review", *args, str(first))[0] == 2, args
    assert first.read_text(encoding="utf-8") == original


def test_sign_keeps_crlf_line_ends(tmp_path):
    root = project(tmp_path)
    path = questions(root)[0]
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", str(path))[0] == 0
    raw = path.read_bytes()
    assert b"reviews:" in raw and raw.count(b"\n") == raw.count(b"\r\n")


def test_live_freezes_published_questions_only(tmp_path, capsys):
    root = project(tmp_path, "")
    published = next(p for p in questions(root) if data(p)["status"] == "published")
    other = next(p for p in questions(root) if data(p)["status"] != "published")
    assert qlint(root, "review", "live", "--date", "2026-06-01", str(other))[0] == 2
    assert "only a published question goes live" in capsys.readouterr().err
    assert qlint(root, "review", "live", "--date", "2026-06-01", str(published))[0] == 0
    assert data(published)["live"] == {"date": "2026-06-01", "hash": content_hash(data(published))}
    assert qlint(root, "review", "live", str(published))[0] == 0  # live already: unchanged
    text = published.read_text(encoding="utf-8")
    published.write_text(set_scalar(text, "/explanation", data(published)["explanation"] + " More.",
                                    load_config(root)), encoding="utf-8")
    assert [d["code"] for d in findings(root, str(published))[1]] == ["W005"]
    assert qlint(root, "review", "live", str(published))[0] == 2  # would hide the change under the old id
    assert "live question is frozen" in capsys.readouterr().err


@pytest.mark.parametrize("table, key", [("[review]\nreviewers = -1\n", "review.reviewers"),
                                        ("[review]\nrole = [\"technical\"]\n", "review"),
                                        ("[review]\nroles = [\"Tech\"]\n", "review.roles")])
def test_a_bad_policy_is_a_configuration_error(tmp_path, capsys, table, key):
    root = project(tmp_path, table)
    code, _ = qlint(root, "check", str(questions(root)[0]))
    err = capsys.readouterr().err
    assert code == 2 and "qlint.toml:4:" in err and key in err, err


# --- history ------------------------------------------------------------------------------------

def test_a_stale_sign_off_names_the_fields_changed_since_the_approved_commit(tmp_path):
    root = project(tmp_path)
    path = questions(root)[0]
    for role, who in (("technical", "ben"), ("editorial", "cy")):
        qlint(root, "review", "sign", "--role", role, "--reviewer", who, str(path))
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "signed")
    q = data(path)
    text = path.read_text(encoding="utf-8")
    text = set_scalar(text, "/options/1/rationale", q["options"][1]["rationale"] + " Also slower.", load_config(root))
    path.write_text(text, encoding="utf-8")
    git(root, "commit", "-qam", "reworded")  # the approved version is one commit back
    _, found = findings(root, "--select", "W", str(path))
    assert [d["code"] for d in found] == ["W004", "W004"]
    assert all(f"changed since: options[{q['options'][1]['id']}].rationale" in d["message"] for d in found), found


# --- the planted set ----------------------------------------------------------------------------

def _edit(path: Path, pointer: str, value, root: Path) -> None:
    path.write_text(set_scalar(path.read_text(encoding="utf-8"), pointer, value, load_config(root)), encoding="utf-8")


def _rationale_pointer(q: dict) -> str:
    field = next(f for f in ("options", "steps", "prompts") if q.get(f))
    i = next(i for i, part in enumerate(q[field]) if part.get("rationale"))
    return f"/{field}/{i}/rationale"


def test_planted_review_problems_are_all_reported_and_exactly_refused(tmp_path):
    root = project(tmp_path)
    bank = root / "bank"
    assert qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", "--date", "2026-06-01", str(bank))[0] == 0
    assert qlint(root, "review", "sign", "--role", "editorial", "--reviewer", "cy", "--date", "2026-06-02", str(bank))[0] == 0
    published = [p for p in questions(root) if data(p)["status"] == "published"]
    rng = random.Random(29)
    chosen = rng.sample(published, 16)
    live = chosen[:6]  # three of them are edited below
    assert qlint(root, "review", "live", "--date", "2026-06-03", *map(str, live))[0] == 0
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "the clean copy")

    code, clean = findings(root, "--select", "W", str(bank))
    assert (code, clean) == (0, [])  # nothing on the clean copy
    assert qlint(root, "export", "--format", "json", "-o", str(tmp_path / "clean.json"), "--require-review")[0] == 0

    expected: dict[str, set[str]] = {}
    for path in live[:3]:  # an edit of meaning of a live question: frozen, and both sign-offs stale
        _edit(path, "/stem", data(path)["stem"].rstrip() + " Explain the choice.", root)
        expected[path.name] = {"W005", "W004"}
    for path in chosen[6:10]:  # a word of a rationale changed after both sign-offs
        q = data(path)
        pointer = _rationale_pointer(q)
        old = q
        for part in pointer.strip("/").split("/"):
            old = old[int(part)] if isinstance(old, list) else old[part]
        _edit(path, pointer, old.replace(" ", " not ", 1), root)
        expected[path.name] = {"W004"}
    for path in chosen[10:13]:  # the author signed the editorial review
        _edit(path, "/reviews/1/reviewer", "Ana", root)
        expected[path.name] = {"W002", "W001", "W003"}
    for path in chosen[13:16]:  # the editorial sign-off is missing (both sign off as technical)
        _edit(path, "/reviews/1/role", "technical", root)
        expected[path.name] = {"W001"}
    git(root, "commit", "-qam", "the planted edits")

    code, found = findings(root, "--select", "W", str(bank))
    got: dict[str, set[str]] = {}
    for d in found:
        got.setdefault(Path(d["path"]).name, set()).add(d["code"])
    assert code == 1 and got == expected
    stale = [d for d in found if d["code"] == "W004" and Path(d["path"]).name in {p.name for p in chosen[6:10]}]
    assert len(stale) == 8 and all("rationale" in d["message"] and "changed since" in d["message"] for d in stale)

    out = tmp_path / "planted.json"
    code, text = qlint(root, "export", "--format", "json", "-o", str(out), "--require-review", "--force",
                       "--output-format", "json")
    refused = {Path(d["path"]).name for d in json.loads(text)["diagnostics"] if d["code"] == "E001"}
    assert code == 2 and refused == set(expected) and not out.exists()


# --- reports ------------------------------------------------------------------------------------

def _review_rows(markdown: str) -> dict[str, list[str]]:
    section = markdown.split("### Review status", 1)[1]
    rows = [ln.strip("|").split("|") for ln in section.splitlines() if ln.startswith("| MLA-C01") or ln.startswith("| **all")]
    return {cells[1].strip() or "all": [c.strip().strip("*") for c in cells[2:]] for cells in rows}


def test_markdown_summary_counts_review_status_per_domain(tmp_path):
    root = project(tmp_path, '[review]\nroles = ["technical"]\n')
    folder = root / "bank" / "mla-c01" / "data-preparation"
    assert qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", str(folder))[0] == 0
    signed = sorted(p for p in folder.glob("*.yaml") if data(p)["status"] == "published")
    _edit(signed[0], "/stem", data(signed[0])["stem"].rstrip() + " Why?", root)
    statuses = {}
    for p in questions(root):
        q = data(p)
        statuses.setdefault(q["domain"], []).append(q["status"])
    _, out = qlint(root, "check", "--output-format", "markdown", "--no-cache", str(root / "bank"))
    rows = _review_rows(out)
    prep = statuses["data-preparation"]
    assert rows["data-preparation"] == [str(len(signed) - 1), "1", "0", str(len(prep) - len(signed))]
    for domain, sts in statuses.items():
        if domain != "data-preparation":  # nothing signed there: every published question is missing its sign-off
            published = sts.count("published")
            assert rows[domain] == ["0", "0", str(published), str(len(sts) - published)], domain
    assert rows["all"] == [str(len(signed) - 1), "1", str(sum(s.count("published") for d, s in statuses.items()
                                                              if d != "data-preparation")),
                           str(sum(len(s) - s.count("published") for s in statuses.values()))]


def test_no_review_section_without_a_policy_or_sign_offs(tmp_path):
    root = project(tmp_path, "")
    _, out = qlint(root, "check", "--output-format", "markdown", "--no-cache", str(root / "bank"))
    assert "Review status" not in out


def test_html_site_shows_the_same_review_status_as_the_summary(tmp_path):
    import re

    root = project(tmp_path, '[review]\nroles = ["technical"]\n')
    folder = root / "bank" / "mla-c01" / "model-development"
    assert qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", str(folder))[0] == 0
    first = sorted(folder.glob("*.yaml"))[0]
    _edit(first, "/explanation", data(first)["explanation"].rstrip() + " More.", root)
    _, out = qlint(root, "check", "--output-format", "markdown", "--no-cache", str(root / "bank"))
    summary = _review_rows(out)
    site = tmp_path / "site"
    assert qlint(root, "export", "--format", "html", "-o", str(site), "--force", "--status", "draft,review,published")[0] == 0
    page = (site / "index.html").read_text(encoding="utf-8")
    table = page.split('<table class="review-status"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><th scope=\"row\">([^<]*)</th><td>([^<]*)</td>((?:<td>\d+</td>){4})</tr>", table)
    names = {d["id"]: d["name"] for d in load_fast((root / "bank" / "exams" / "mla-c01.yaml").read_text(), Limits())["domains"]}
    got = {("all" if exam == "All" else next(k for k, v in names.items() if v == name)): re.findall(r"\d+", counts)
           for exam, name, counts in rows}
    assert got == summary and summary["model-development"][1] == "1"


def test_sign_after_live_puts_reviews_before_live(tmp_path):
    root = project(tmp_path, "")
    path = next(p for p in questions(root) if data(p)["status"] == "published")
    assert qlint(root, "review", "live", str(path))[0] == 0
    assert qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", str(path))[0] == 0
    keys = [ln.split(":")[0] for ln in path.read_text(encoding="utf-8").splitlines() if ln[:1].isalpha()]
    assert keys[-2:] == ["reviews", "live"]
    assert qlint(root, "format", "--check", str(path))[0] == 0


def test_review_table_reads_in_a_browser_at_phone_width(browser, tmp_path):  # noqa: F811 (the browser fixture)
    root = project(tmp_path, '[review]\nroles = ["technical"]\n')
    assert qlint(root, "export", "--format", "html", "-o", str(tmp_path / "site"), "--force")[0] == 0
    tab = Tab(browser, width=375, height=740)
    page = tab.open(tmp_path / "site" / "index.html")
    table = page.locator("table.review-status")
    assert table.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # the table scrolls, not the page
    headers = page.evaluate("Array.from(document.querySelectorAll('table.review-status thead th')).map(t => t.scope)")
    assert headers == ["col"] * 6
    assert page.locator("table.review-status tbody tr").count() == 5  # four domains and the total
    tab.close()


def test_live_with_responses_freezes_only_what_learners_answered(tmp_path, capsys):
    root = project(tmp_path, "")
    single = [p for p in questions(root) if data(p)["status"] == "published" and data(p)["type"] == "single"]
    a, b, c = single[:3]
    rows = ["respondent,question,selected"]
    for who in ("r1", "r2", "r3"):
        rows += [f"{who},{data(p)['id']},{data(p)['options'][0]['id']}" for p in (a, b)]
    rows.append(f"r1,{data(c)['id']},{data(c)['options'][0]['id']}")  # one respondent only
    csv = tmp_path / "responses.csv"
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    bank = str(root / "bank")
    code, _ = qlint(root, "review", "live", "--responses", str(csv), "--min-respondents", "3", bank)
    assert code == 0
    assert sorted(p.name for p in questions(root) if "live" in data(p)) == sorted([a.name, b.name])
    assert qlint(root, "review", "live", "--responses", str(csv), "--min-respondents", "3", str(c))[0] == 2
    assert "too few learners answered it" in capsys.readouterr().err and "live" not in data(c)
    assert qlint(root, "review", "live", "--responses", str(tmp_path / "missing.csv"), bank)[0] == 2
    assert qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", "--responses", str(csv), bank)[0] == 2


def test_history_follows_a_renamed_file_and_says_stale_when_no_version_matches(tmp_path):
    root = project(tmp_path)
    path = questions(root)[0]
    qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", str(path))
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "signed")
    moved = path.with_name("renamed.yaml")
    git(root, "mv", str(path), str(moved))
    _edit(moved, "/stem", data(moved)["stem"].rstrip() + " Which one?", root)
    git(root, "commit", "-qam", "renamed and reworded")
    _, found = findings(root, "--select", "W004", str(moved))
    assert len(found) == 1 and "changed since: stem" in found[0]["message"], found
    text = moved.read_text(encoding="utf-8")
    fake = "sha256:" + "ab" * 32
    moved.write_text(text.replace(data(moved)["reviews"][0]["hash"], fake), encoding="utf-8")
    _, found = findings(root, "--select", "W004", str(moved))
    assert len(found) == 1 and "the approved text is not in the file's git history" in found[0]["message"]


# --- case studies: the scenario is part of each of its questions' content -----------------------

def _case_questions(root: Path) -> tuple[Path, list[Path]]:
    case = root / "bank" / "mla-c01" / "cases" / "demand-forecast.yaml"
    cid = data(case)["id"]
    return case, [p for p in questions(root) if data(p).get("case") == cid]


def test_editing_a_case_scenario_makes_its_questions_sign_offs_and_freezes_stale(tmp_path):
    root = project(tmp_path, "")
    case, members = _case_questions(root)
    assert len(members) == 2
    for p in members:
        assert qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", str(p))[0] == 0
    assert qlint(root, "review", "live", *map(str, members))[0] == 0
    assert findings(root, "--select", "W", str(root / "bank"))[1] == []
    files = [str(case), *map(str, members)]  # the case study and its questions, the rest unsigned
    assert qlint(root, "export", "--format", "json", "-o", str(tmp_path / "ok.json"), "--require-review", *files)[0] == 0
    # a layout-only edit of the case file (a comment, the scenario re-wrapped) changes nothing
    text = case.read_text(encoding="utf-8")
    wrapped = text.replace("The ML team retrains\n  the forecasting", "The ML team\n  retrains the forecasting")
    assert wrapped != text
    case.write_text("# reviewed in June\n" + wrapped, encoding="utf-8")
    assert findings(root, "--select", "W", str(root / "bank"))[1] == []
    # a changed fact of the scenario: each of its questions' sign-off and freeze is stale
    case.write_text(wrapped.replace("600 stores", "60 stores"), encoding="utf-8")
    code, found = findings(root, "--select", "W", str(root / "bank"))
    assert code == 1
    assert sorted((Path(d["path"]).name, d["code"]) for d in found) == sorted(
        (p.name, c) for p in members for c in ("W004", "W005"))
    assert all("its case study" in d["message"] for d in found if d["code"] == "W004"), found
    out = tmp_path / "refused.json"
    code, text = qlint(root, "export", "--format", "json", "-o", str(out), "--require-review", "--force", "--output-format", "json",
                       *files)
    assert code == 2 and {Path(d["path"]).name for d in json.loads(text)["diagnostics"] if d["code"] == "E001"} == {
        p.name for p in members}
    # signing again binds the sign-off to the new scenario (the freeze stays stale: it is frozen)
    for p in members:
        assert qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", str(p))[0] == 0
    assert {d["code"] for d in findings(root, "--select", "W", str(root / "bank"))[1]} == {"W005"}


def test_a_cached_check_sees_an_edit_of_the_case_scenario(tmp_path):
    """The W rules' result for a case question reads its case file: never served from the cache."""
    root = project(tmp_path, "")
    case, members = _case_questions(root)
    assert qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", str(members[0]))[0] == 0
    args = ("check", "--select", "W", "--output-format", "json", str(members[0]))
    assert qlint(root, *args)[0] == 0
    case.write_text(case.read_text(encoding="utf-8").replace("600 stores", "60 stores"), encoding="utf-8")
    code, out = qlint(root, *args)
    assert code == 1 and [d["code"] for d in json.loads(out)["diagnostics"]] == ["W004"]


def test_a_stale_case_question_names_its_changed_fields_when_only_the_question_changed(tmp_path):
    root = project(tmp_path, "")
    _, members = _case_questions(root)
    path = members[0]
    assert qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", str(path))[0] == 0
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "signed")
    _edit(path, "/stem", data(path)["stem"].rstrip() + " Explain.", root)
    _, found = findings(root, "--select", "W", str(path))
    assert [d["code"] for d in found] == ["W004"] and "changed since: stem" in found[0]["message"], found


def test_a_stale_case_question_names_the_scenario_when_the_case_changed(tmp_path):
    root = project(tmp_path, "")
    case, members = _case_questions(root)
    assert qlint(root, "review", "sign", "--role", "technical", "--reviewer", "ben", *map(str, members))[0] == 0
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "signed")
    case.write_text(case.read_text(encoding="utf-8").replace("600 stores", "60 stores"), encoding="utf-8")
    git(root, "commit", "-qam", "fewer stores")
    _, found = findings(root, "--select", "W", *map(str, members))
    assert [d["code"] for d in found] == ["W004", "W004"]
    assert all("of its case study; changed since: case.scenario" in d["message"] for d in found), found
