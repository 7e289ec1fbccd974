"""Inert exports: an image that could run code in a learner's browser (a scripted SVG, an HTML
file named .png) is reported by `qlint check` as S007 at the reference, and every exporter
refuses it, naming file:line:col, with nothing written, even under --force."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from kit.export import image_project, load_questions, export, png, refused
from qlint.cli import main
from qlint.exporters import EXPORTERS

SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">{}</svg>'
ATTACKS = {
    "script": (SVG.format("<script>alert(document.cookie)</script>"), "a <script> element"),
    "onload": ('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>',
               "an event handler (onload=)"),
    "onclick-nested": (SVG.format('<g><rect width="1" height="1" onClick="alert(1)"/></g>'), "an event handler (onclick=)"),
    "javascript-href": (SVG.format('<a xlink:href="  JavaScript:alert(1)"><text>x</text></a>'), "a script URL"),
    "external-href": (SVG.format('<image href="https://tracker.example/pixel.png" width="1" height="1"/>'),
                      "an external reference"),
    "external-use": (SVG.format('<use href="other.svg#shape"/>'), "an external reference"),
    "file-url": (SVG.format('<image xlink:href="file:///etc/passwd"/>'), "an external reference"),
    "data-url": (SVG.format('<image href="data:image/svg+xml;base64,PHN2Zy8+"/>'), "an external reference"),
    "foreign-object": (SVG.format('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>'),
                       "a <foreignObject> element"),
    "css-import": (SVG.format("<style>@import url(https://evil.example/x.css);</style>"), "@import"),
    "css-url": (SVG.format('<rect style="fill: url(https://evil.example/x)"/>'), "CSS that loads"),
    "stylesheet-pi": ('<?xml version="1.0"?>\n<?xml-stylesheet href="https://evil.example/x.css"?>\n'
                      + SVG.format(""), "a processing instruction"),
    "entity-bomb": ('<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY a "lollollollollollollollollollol">\n'
                    + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">\n' for i in range(8))
                    + "]>\n" + SVG.format("<text>&i;</text>"), "a DOCTYPE"),
    "not-xml": (SVG.format("<rect>"), "XML that does not parse"),
}
CLEAN = SVG.format('<defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs>'
                   '<rect width="10" height="10" fill="url(#g)"/><use xlink:href="#g"/><style>rect { stroke: red }</style>')
FORMATS = EXPORTERS.names()  # every format: those that copy images refuse them, GIFT too (it warns about images)
OUTPUT = {"gift": "q.gift", "moodle": "q.xml", "json": "q.json", "jsonl": "q.jsonl"}
QUESTION = "bank/mla-c01/model-development/layer-split-across-gpus.yaml"


def _project(tmp: Path, name: str, data: bytes) -> Path:
    root, _ = image_project(tmp, ref=f"img/{name}")
    (root / "bank" / "mla-c01" / "model-development" / "img" / name).write_bytes(data)
    return root


def _ref_position(root: Path, ref: str) -> str:
    """line:col of the first reference to `ref` in the question file (the stem)."""
    for n, line in enumerate((root / QUESTION).read_text(encoding="utf-8").splitlines(), 1):
        if ref in line:
            return f"{n}:{line.index(ref) + 1}"
    raise AssertionError(ref)


def _out(tmp: Path, fmt: str) -> Path:
    return tmp / "out" / OUTPUT.get(fmt, fmt)


@pytest.fixture(scope="module", params=sorted(ATTACKS))
def attack(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(request.param)
    svg, why = ATTACKS[request.param]
    root = _project(tmp, "figure.svg", svg.encode("utf-8"))
    return root, why, load_questions(root)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_exporter_refuses_an_active_svg(attack, fmt, tmp_path):
    root, why, loaded = attack
    target = _out(tmp_path, fmt)
    start = time.perf_counter()
    with refused(r"layer-split-across-gpus\.yaml:\d+:\d+: image 'img/figure\.svg' has ") as info:
        export(fmt, *loaded, target)
    assert time.perf_counter() - start < 10  # the entity bomb is never expanded
    assert why in str(info.value)
    assert not (tmp_path / "out").exists()


def test_check_reports_s007_at_the_reference(attack, monkeypatch, capsys):
    root, why, _ = attack
    monkeypatch.chdir(root)
    assert main(["check", QUESTION, "--no-cache", "--select", "S007"]) == 1
    out = capsys.readouterr().out
    assert f"{QUESTION}:{_ref_position(root, 'img/figure.svg')}: S007 image 'img/figure.svg' has " in out
    assert why in out and "(unsafe-image)" in out


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_export_refuses_even_with_force(tmp_path, monkeypatch, capsys, fmt):
    root = _project(tmp_path, "figure.svg", ATTACKS["script"][0].encode())
    monkeypatch.chdir(root)
    target = _out(tmp_path, fmt)
    for extra in ([], ["--force"]):
        assert main(["export", "-f", fmt, "-o", str(target), *extra]) == 2
        err = capsys.readouterr().err
        assert "image 'img/figure.svg' has a <script> element" in err and "Traceback" not in err
        assert not (tmp_path / "out").exists()
    # under --force the exporter itself refuses, at the reference in the question file
    assert re.search(r"layer-split-across-gpus\.yaml:\d+:\d+: E001 image 'img/figure\.svg' has a <script> element", err)


@pytest.mark.parametrize("name, data, kind", [
    ("page.png", b"<html><script>alert(1)</script></html>", "PNG"),
    ("photo.jpg", png(), "JPEG"),
    ("anim.gif", b"<svg onload='alert(1)'/>", "GIF"),
    ("pic.webp", b"RIFF\x00\x00\x00\x00WEBX", "WebP"),
])
def test_a_raster_image_must_be_what_its_name_says(tmp_path, monkeypatch, capsys, name, data, kind):
    root = _project(tmp_path, name, data)
    monkeypatch.chdir(root)
    assert main(["check", QUESTION, "--no-cache", "--select", "S007"]) == 1
    assert f"image 'img/{name}' has content that is not {kind}" in capsys.readouterr().out
    assert main(["export", "-f", "html", "-o", str(tmp_path / "out" / "site"), "--force"]) == 2
    assert f"content that is not {kind}" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_an_unknown_file_type_is_refused(tmp_path, monkeypatch, capsys):
    root = _project(tmp_path, "page.html", b"<html><script>alert(1)</script></html>")
    monkeypatch.chdir(root)
    assert main(["check", QUESTION, "--no-cache", "--select", "S007"]) == 1
    assert "image 'img/page.html' has a file type qlint does not ship as an image" in capsys.readouterr().out


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_plain_svg_still_exports(tmp_path, monkeypatch, capsys, fmt):
    root = _project(tmp_path, "figure.svg", CLEAN.encode())
    monkeypatch.chdir(root)
    assert main(["check", QUESTION, "--no-cache", "--select", "S007"]) == 0
    target = _out(tmp_path, fmt)
    assert main(["export", "-f", fmt, "-o", str(target), "--no-zip"]) == 0, capsys.readouterr().err
    written = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    if fmt in ("html", "markdown", "qti21", "qti30", "canvas"):  # formats that copy image files
        assert any(p.name == "figure.svg" and p.read_bytes() == CLEAN.encode() for p in written)


def test_the_results_cache_never_hides_an_image_changed_since(tmp_path, monkeypatch, capsys):
    """The cache keys a result by the question's bytes; S007 also reads the image, so a question
    with images is checked afresh: a script added to the SVG alone is found on the next run."""
    root = _project(tmp_path, "figure.svg", CLEAN.encode())
    monkeypatch.chdir(root)
    args = ["check", QUESTION, "--select", "S007", "--cache-dir", str(tmp_path / "cache")]
    assert main(args) == 0 and main(args) == 0
    (root / "bank" / "mla-c01" / "model-development" / "img" / "figure.svg").write_bytes(ATTACKS["script"][0].encode())
    capsys.readouterr()
    assert main(args) == 1
    assert "image 'img/figure.svg' has a <script> element" in capsys.readouterr().out
