"""V005 out-of-scope-service: the exam guide's in-scope and out-of-scope lists."""

from __future__ import annotations

from kit.lifecycle import _codes, _project, _question, _run

from qlint.rules.lifecycle import _in_scope

GUIDE = """guide:
  url: https://example.test/guide
  in_scope: [Amazon SageMaker AI, AWS Glue, Amazon Comprehend, Amazon Rekognition]
  out_of_scope: [Amazon Chime, AWS Wickr]
"""


def _with_lists(root):
    exam = root / "bank" / "exams" / "mla-c01.yaml"
    exam.write_text(_replace_guide(exam.read_text(encoding="utf-8")), encoding="utf-8")


def _replace_guide(text: str) -> str:
    start = text.index("\nguide:\n") + 1
    end = text.index("\n\n", start)
    return text[:start] + GUIDE.rstrip("\n") + text[end:]


def test_products_are_covered_by_their_own_entry_or_the_service_they_are_part_of():
    scope = ("Amazon SageMaker AI", "AWS Glue")
    assert _in_scope("Amazon SageMaker AI Model Monitor", scope)
    assert _in_scope("AWS Glue", scope) and not _in_scope("AWS Glue DataBrew Extra", ("AWS Glue Data",))
    assert not _in_scope("Amazon Forecast", scope)


def test_out_of_scope_names_and_unlisted_keys_are_reported(tmp_path):
    root = _project(tmp_path, {
        "listed": _question("listed", "Amazon SageMaker AI with the DeepAR algorithm"),
        "unlisted-key": _question("unlisted-key", "Amazon Forecast"),
        "out-distractor": _question("out-distractor", "AWS Glue", "AWS Wickr"),
        "plain": _question("plain", "A time-series model trained on the sales history"),
    })
    _with_lists(root)
    found = _codes(_run(root, "--select", "V005", "bank")[1])
    assert found == {"unlisted-key": ["V005"], "out-distractor": ["V005"]}


def test_an_exam_without_lists_is_not_read(tmp_path):
    root = _project(tmp_path, {"unlisted-key": _question("unlisted-key", "Amazon Forecast")})
    assert _codes(_run(root, "--select", "V005", "bank")[1]) == {}


def test_a_product_name_ends_at_a_full_stop_and_before_the_next_vendor_name():
    from qlint.rules.lifecycle import _PRODUCT

    names = [m.group(0).rstrip(" .") for m in _PRODUCT.finditer(
        "Use Amazon S3 and Amazon Rekognition. Then AWS Identity and Access Management for Amazon Lookout for Vision.")]
    assert names == ["Amazon S3", "Amazon Rekognition", "AWS Identity and Access Management", "Amazon Lookout for Vision"]


def test_an_unlisted_product_joined_to_a_listed_one_is_reported(tmp_path):
    root = _project(tmp_path, {"joined": _question("joined", "AWS Glue and Amazon Forecast")})
    _with_lists(root)
    found = _codes(_run(root, "--select", "V005", "bank")[1])
    assert found == {"joined": ["V005"]}
