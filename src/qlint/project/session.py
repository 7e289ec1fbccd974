"""A project session: the configuration and each bank's exam definitions, loaded once.

Exam files are read and validated here (never linted: the lint checks them like any file, from
the Documents read here), so every command and pipeline gets the same exams from one read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from qlint.loading.document import Document
from qlint.loading.errors import LoadError
from qlint.loading.schema import validate
from qlint.paths import absolute_path, real_path
from qlint.project.banks import bank_folders, exams_folder
from qlint.project.config import Config
from qlint.project.discovery import discover
from qlint.project.exams import Exam


@dataclass
class Session:
    config: Config
    exams: dict[str, Exam] = field(default_factory=dict)  # the configured bank's, by code
    bank_exams: dict[Path, dict[str, Exam]] = field(default_factory=dict)  # other banks', by bank folder
    exam_files: dict[str, Document | LoadError] = field(default_factory=dict)  # real path -> read, or why not
    _folders: set[Path] = field(default_factory=set)  # exams folders already read

    @classmethod
    def open(cls, config: Config, files: list[str] | tuple[str, ...] = ()) -> "Session":
        """The configured bank's exams, and those of every other bank `files` belong to."""
        session = cls(config)
        session.add(files)
        return session

    def add(self, files: list[str] | tuple[str, ...] = ()) -> list[str]:
        """Read the exams of the configured bank (once) and of the banks `files` belong to;
        the exam files read by this call, as found."""
        config = self.config
        cwd = os.getcwd() + os.sep
        read = self._read(config.exams_dir, self.exams)
        for bank in bank_folders(config, [absolute_path(f, cwd) for f in files]):
            if bank != config.bank_dir:
                read += self._read(exams_folder(config, bank), self.bank_exams.setdefault(bank, {}))
        return read

    def _read(self, folder: Path, exams: dict[str, Exam]) -> list[str]:
        if folder in self._folders:
            return []
        self._folders.add(folder)
        files, _ = discover([str(folder)]) if folder.is_dir() else ([], [])
        for f in files:
            try:
                doc = Document.load(f, self.config.root, self.config.limits)
            except LoadError as exc:
                self.exam_files[real_path(f)] = exc
                continue
            self.exam_files[real_path(f)] = doc
            if doc.data is not None and not validate("exam", doc.data):  # a text finding (F003) still defines it
                exam = Exam.from_data(doc.data, f)
                exams[exam.code] = exam
        return files

    def document(self, path: str) -> Document | LoadError | None:
        """The exam file at `path` as this session read it; None if it read no such file."""
        return self.exam_files.get(real_path(path)) if self.exam_files else None
