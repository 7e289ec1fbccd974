"""The official QTI schemas in ../shared/schemas, compiled once per test session by two independent
engines (libxml2 through lxml, and the pure-Python xmlschema). Import the fixtures into a test module:
`from kit.xsd import qti21_xsd, qti30_xsd, cp21_xsd, cp30_xsd`.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest
import xmlschema
from lxml import etree

from conftest import require_shared


@dataclass
class Schema:
    name: str
    libxml: etree.XMLSchema
    xs: xmlschema.XMLSchema

    def errors(self, data: bytes, engines: tuple[str, ...] = ("lxml", "xmlschema")) -> list[str]:
        """Every engine's first complaint about `data` (empty: valid for all engines asked)."""
        out = []
        if "lxml" in engines:
            doc = etree.parse(io.BytesIO(data))
            if not self.libxml.validate(doc):
                out.append(f"lxml: {self.libxml.error_log.last_error}")
        if "xmlschema" in engines:
            # xmlschema parses the bytes itself, so the two checks share no parser either.
            err = next(iter(self.xs.iter_errors(io.BytesIO(data))), None)
            if err is not None:
                out.append(f"xmlschema: {err.reason} at {err.path}")
        return out


def _compile(name: str, *parts: str) -> Schema:
    path = require_shared("schemas", "qti", *parts)
    return Schema(name, etree.XMLSchema(etree.parse(str(path))), xmlschema.XMLSchema(str(path)))


@pytest.fixture(scope="session")
def qti21_xsd() -> Schema:
    return _compile("QTI 2.1", "v2p1", "imsqti_v2p1.xsd")


@pytest.fixture(scope="session")
def qti30_xsd() -> Schema:
    return _compile("QTI 3.0 (SBAC profile)", "v3p0", "imsqti_asiv3p0_sbacv1p0_v1p0.xsd")


@pytest.fixture(scope="session")
def cp21_xsd() -> Schema:
    return _compile("QTI 2.1 package manifest", "cp", "qtiv2p1_imscpv1p2_v1p0.xsd")


@pytest.fixture(scope="session")
def cp30_xsd() -> Schema:
    return _compile("QTI 3.0 package manifest", "cp", "imsqtiv3p0_imscpv1p2_v1p0.xsd")
