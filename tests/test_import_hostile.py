"""Hostile input for `qlint import --from qti21 | moodle` (issue 8): entity bombs, external
entities, zip slip, zip bombs and package paths that leave the package. Each is refused with a
clear message and exit 2, nothing is expanded or echoed, and nothing is written anywhere."""

from __future__ import annotations

import os
import time
import zipfile
from pathlib import Path

import pytest

from kit.authoring import make_project, qti21_package_files, run

SECRET = "qlint-secret-d41d8cd9"  # the content of a file the hostile inputs try to read

LAUGHS = "".join(
    f'  <!ENTITY lol{i} "{("&lol%d;" % (i - 1)) * 10}">\n' for i in range(1, 10)
).replace("&lol0;", "lol")
BILLION_LAUGHS = f"""<?xml version="1.0"?>
<!DOCTYPE quiz [
{LAUGHS}]>
<quiz><question type="multichoice"><name><text>&lol9;</text></name></question></quiz>
"""


def external_entity(target: str, root: str = "quiz") -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE {root} [<!ENTITY leak SYSTEM "{target}">]>
<{root}><question type="multichoice"><name><text>&leak;</text></name>
<questiontext format="html"><text>&leak;</text></questiontext></question></{root}>
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    return tmp_path


def files_under(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def refused(capsys, project: Path, fmt: str, source: str, *needles: str) -> str:
    before = files_under(project)
    start = time.monotonic()
    code, out, err = run(capsys, "import", "--from", fmt, source)
    assert time.monotonic() - start < 20  # refused up front, not after expanding anything
    assert code == 2, err
    assert out == ""
    for needle in needles:
        assert needle in err, err
    assert SECRET not in err and "lollol" not in err
    assert files_under(project) == before  # nothing written, nothing extracted
    return err


def test_billion_laughs_is_refused_without_expanding(capsys, project):
    (project / "laughs.xml").write_text(BILLION_LAUGHS, encoding="utf-8")
    err = refused(capsys, project, "moodle", "laughs.xml", "laughs.xml:2:1: I002 the XML declares a DOCTYPE")
    assert "Traceback" not in err


@pytest.mark.parametrize("target", ["file://{secret}", "{secret}", "file:///etc/passwd", "http://127.0.0.1:9/x"])
def test_external_entities_are_never_read(capsys, project, target):
    (project / "leak.xml").write_text(external_entity(target.format(secret=project / "secret.txt")), encoding="utf-8")
    err = refused(capsys, project, "moodle", "leak.xml", "leak.xml:2:1: I002 the XML declares a DOCTYPE")
    assert "root:" not in err  # no line of /etc/passwd


def test_hostile_xml_inside_a_qti_package(capsys, project, tmp_path):
    package = project / "pkg"
    (package / "items").mkdir(parents=True)
    manifest = ('<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"><resources><resource identifier="i" '
                'type="imsqti_item_xmlv2p1" href="items/q.xml"/></resources></manifest>')
    (package / "imsmanifest.xml").write_text(manifest, encoding="utf-8")
    (package / "items" / "q.xml").write_text(external_entity(f"file://{project / 'secret.txt'}", "assessmentItem"), encoding="utf-8")
    refused(capsys, project, "qti21", "pkg", "pkg/items/q.xml:2:1: I002 the XML declares a DOCTYPE")
    (package / "imsmanifest.xml").write_text(BILLION_LAUGHS.replace("quiz", "manifest"), encoding="utf-8")
    refused(capsys, project, "qti21", "pkg", "pkg/imsmanifest.xml:2:1: I002 the XML declares a DOCTYPE")


def test_entities_without_a_doctype_are_not_expanded(capsys, project):
    """An undeclared entity reference is a well-formedness error, never a lookup."""
    (project / "undeclared.xml").write_text("<quiz><question type='multichoice'><name><text>&leak;</text></name></question></quiz>",
                                            encoding="utf-8")
    refused(capsys, project, "moodle", "undeclared.xml", "not well-formed XML")


def write_zip(path: Path, files: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            info = zipfile.ZipInfo(name)  # taken as written: zipfile would not clean '..' either way
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)


@pytest.mark.parametrize("evil", ["../escaped.txt", "items/../../escaped.txt", "/tmp/qlint-absolute.txt", "..\\escaped.txt",
                                  "C:/escaped.txt"])
def test_zip_slip_is_refused_before_anything_is_read(capsys, project, tmp_path, monkeypatch, evil):
    files = qti21_package_files(capsys, tmp_path, monkeypatch)
    monkeypatch.chdir(project)
    files[evil] = SECRET.encode()
    write_zip(project / "slip.zip", files)
    refused(capsys, project, "qti21", "slip.zip", f"zip entry {evil!r} points outside the package", "nothing was read")
    assert not (tmp_path / "escaped.txt").exists() and not Path("/tmp/qlint-absolute.txt").exists()


def test_zip_bomb_is_refused_from_its_directory(capsys, project, tmp_path, monkeypatch):
    files = qti21_package_files(capsys, tmp_path, monkeypatch)
    monkeypatch.chdir(project)
    write_zip(project / "bomb.zip", files)
    with zipfile.ZipFile(project / "bomb.zip", "a", zipfile.ZIP_DEFLATED) as zf, zf.open("images/zeros.png", "w", force_zip64=True) as fh:
        chunk = bytes(1 << 20)
        for _ in range(300):  # 300 MiB of zeros: about 300 KB compressed
            fh.write(chunk)
    assert os.path.getsize(project / "bomb.zip") < 2_000_000
    refused(capsys, project, "qti21", "bomb.zip", "zip entry 'images/zeros.png' unpacks to 314,572,800 bytes",
            "(a zip bomb?); nothing was read")


def test_zip_that_lies_about_its_sizes_is_refused(capsys, project, tmp_path, monkeypatch):
    """Declared small, holding more: reading stops at the declared size and the CRC check fails."""
    files = qti21_package_files(capsys, tmp_path, monkeypatch)
    monkeypatch.chdir(project)
    real = files["imsmanifest.xml"]
    files["imsmanifest.xml"] = real + b"<!--" + bytes(1 << 20) + b"-->"
    write_zip(project / "liar.zip", files)
    data = bytearray((project / "liar.zip").read_bytes())
    size = len(files["imsmanifest.xml"]).to_bytes(4, "little")
    assert data.count(size) == 2  # the local header and the central directory
    data[:] = data.replace(size, len(real).to_bytes(4, "little"))
    (project / "liar.zip").write_bytes(bytes(data))
    refused(capsys, project, "qti21", "liar.zip", "zip entry 'imsmanifest.xml' cannot be read")


@pytest.mark.parametrize("href", ["../secret.txt", "items/../../secret.txt", "/etc/passwd", "file:///etc/passwd",
                                  "http://example.org/item.xml", "%2e%2e/secret.txt"])
def test_manifest_href_outside_the_package_is_refused(capsys, project, href):
    package = project / "pkg"
    package.mkdir()
    manifest = (f'<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"><resources><resource identifier="i" '
                f'type="imsqti_item_xmlv2p1" href="{href}"><file href="{href}"/></resource></resources></manifest>')
    (package / "imsmanifest.xml").write_text(manifest, encoding="utf-8")
    refused(capsys, project, "qti21", "pkg", f"imsmanifest.xml: href {href!r} points outside the package; refused")


def test_a_symlink_out_of_a_package_folder_is_refused(capsys, project):
    package = project / "pkg"
    (package / "items").mkdir(parents=True)
    manifest = ('<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"><resources><resource identifier="i" '
                'type="imsqti_item_xmlv2p1" href="items/q.xml"/></resources></manifest>')
    (package / "imsmanifest.xml").write_text(manifest, encoding="utf-8")
    os.symlink(project / "secret.txt", package / "items" / "q.xml")
    refused(capsys, project, "qti21", "pkg", "'items/q.xml' leaves")


def test_an_image_path_outside_the_package_is_reported_not_read(capsys, project, tmp_path, monkeypatch):
    files = qti21_package_files(capsys, tmp_path, monkeypatch)
    monkeypatch.chdir(project)
    item = "items/mla-c01-dev-layer-split-gpus.xml"
    files[item] = files[item].replace(b"<p>Which distributed", b'<p><img src="../../secret.txt" alt="x"/> Which distributed')
    write_zip(project / "img.zip", files)
    line = files[item][:files[item].index(b"qlint-stem")].count(b"\n") + 1  # reported at the stem's line
    code, _out, err = run(capsys, "import", "--from", "qti21", "img.zip")
    assert code == 1
    assert f"img.zip/{item}:{line}:1: I001 could not map: image '../../secret.txt' points outside the package; its path was kept" in err
    assert SECRET not in err
    written = [p for p in (project / "bank").rglob("*") if p.is_file() and p.suffix != ".yaml"]
    assert written == []
