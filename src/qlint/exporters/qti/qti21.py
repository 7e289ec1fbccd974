"""`qti21`: an IMS QTI 2.1 content package (items, one test per exam, imsmanifest.xml)."""

from __future__ import annotations

from qlint.exporters import ExportJob, ExportResult, exporter
from qlint.exporters.qti._package import QTI21, export


@exporter("qti21", "IMS QTI 2.1 content package: items with per-option and modal feedback, a test per exam", packaged=True, xml=True)
def write(job: ExportJob) -> ExportResult:
    return export(job, QTI21)
