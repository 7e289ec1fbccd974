"""`qti30`: an IMS QTI 3.0 content package (the qti21 structure in QTI 3.0 names and namespaces)."""

from __future__ import annotations

from qlint.exporters import ExportJob, ExportResult, exporter
from qlint.exporters.qti._package import QTI30, export


@exporter("qti30", "IMS QTI 3.0 content package: items with per-option and modal feedback, a test per exam", packaged=True, xml=True)
def write(job: ExportJob) -> ExportResult:
    return export(job, QTI30)
