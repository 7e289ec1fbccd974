"""qlint: lint, format and export certification-exam question banks."""

__version__ = "0.2.0"
