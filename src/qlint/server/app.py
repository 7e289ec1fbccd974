"""The language server: documents in, diagnostics, fixes, hover, completion and definitions out.

One thread: every check runs on the event loop, so a burst of edits is debounced (the last one
wins) and checks never race on the working folder. Any failure is logged and the server keeps
serving; it never ends on a bad buffer.
"""

from __future__ import annotations

import asyncio
import logging
import os
import traceback
from pathlib import Path
from typing import Any, Callable

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from qlint import __version__
from qlint.lint.selection import SelectionError
from qlint.project.config import CONFIG_FILES, ConfigError, find_config
from qlint.paths import is_within
from qlint.server import actions, lookup
from qlint.server.convert import SOURCE, YAML_SUFFIXES, file_path, lines_of, to_lsp
from qlint.server.project import ConfigLoader, Project

log = logging.getLogger("qlint.server")
DEBOUNCE_SECONDS = 0.15  # a check per pause in typing, not per keystroke


class QlintServer(LanguageServer):
    def __init__(self, load_config: ConfigLoader, cache_dir: Path | None = None, debounce: float = DEBOUNCE_SECONDS,
                 project_cache: bool = False):
        super().__init__("qlint", __version__)
        self.load_config = load_config
        self.cache_dir = cache_dir  # the results cache the bank index is built through
        self.project_cache = project_cache  # ... else each project's .qlint_cache, as `qlint check`
        self.debounce = debounce
        self.projects: dict[Path, Project | str] = {}  # project start folder -> project, or why not
        self.pending: dict[str, asyncio.Task] = {}  # uri -> the debounced check waiting to run

    # --- projects ----------------------------------------------------------------------------

    def start_of(self, path: str) -> Path:
        """Where the project of `path` is looked up: its configuration's folder; without one, the
        workspace folder holding the file (as `qlint check` run there), else the file's folder."""
        folder = Path(path).parent
        try:
            source, _ = find_config(folder)
        except ConfigError:
            source = None
        if source is not None:
            return source.parent
        roots = [to_fs_path(f.uri) for f in self.workspace.folders.values()] + [self.workspace.root_path]
        inside = [Path(r) for r in roots if r and is_within(path, Path(r))]
        return max(inside, key=lambda p: len(p.parts)) if inside else folder

    def project_for(self, path: str) -> Project | str:
        start = self.start_of(path)
        known = self.projects.get(start)
        if known is None:
            try:
                known = Project.open(start, self.load_config)
            except (ConfigError, SelectionError, ValueError) as exc:
                known = str(exc)
                self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Error, f"qlint: {exc}"))
            self.projects[start] = known
        return known

    def ensure_index(self, project: Project) -> None:
        if not project.indexed:
            cache = self.cache_dir or (project.root / ".qlint_cache" if self.project_cache else None)
            changed = project.build_index(cache)
            for path in changed:
                self.publish_path(path, project)

    def reload(self) -> None:
        """Configuration or exam definitions changed: read them again, recheck every open file."""
        self.projects.clear()
        for uri in list(self.workspace.text_documents):
            self.publish(uri, index=True)

    # --- diagnostics -------------------------------------------------------------------------

    def diagnostics_of(self, uri: str) -> tuple[list[lsp.Diagnostic], int | None]:
        doc = self.workspace.get_text_document(uri)
        path = file_path(uri)
        if path is None:
            return [], doc.version
        project = self.project_for(path)
        lines = lines_of(doc.source)
        if isinstance(project, str):
            first = project.splitlines()[0] if project else "configuration error"
            return [lsp.Diagnostic(lsp.Range(lsp.Position(0, 0), lsp.Position(0, len(lines[0]))),
                                   f"qlint cannot check this file: {first}", lsp.DiagnosticSeverity.Error,
                                   code="config", source=SOURCE)], doc.version
        found, _ = project.check(path, doc.source)
        encoding = self.workspace.position_encoding
        return [to_lsp(d, lines, encoding) for d in found], doc.version

    def publish(self, uri: str, index: bool = False) -> None:
        try:
            if index and (path := file_path(uri)) is not None:
                project = self.project_for(path)
                if isinstance(project, Project):
                    self.ensure_index(project)
                    if not project.in_bank(path):  # a loose file: its bank run, as `qlint check FILE`
                        _, result = project.check(path, self.workspace.get_text_document(uri).source)
                        project.loose_bank(path, result)
            diagnostics, version = self.diagnostics_of(uri)
        except Exception as exc:  # a qlint bug: say so in the log and on the file, keep serving
            self.report(f"checking {uri} failed", exc)
            diagnostics, version = [lsp.Diagnostic(lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
                                                   f"qlint failed on this file: {type(exc).__name__}: {exc}; "
                                                   "please report it", lsp.DiagnosticSeverity.Error,
                                                   code="X001", source=SOURCE)], None
        self.send(uri, diagnostics, version)

    def send(self, uri: str, diagnostics: list[lsp.Diagnostic], version: int | None = None) -> None:
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, diagnostics, version))

    def publish_path(self, path: str, project: Project) -> None:
        """Diagnostics of a file a bank run concerns: its buffer if open, else its text on disk."""
        uri = from_fs_path(path) or ""
        if uri in self.workspace.text_documents:
            self.publish(uri)
            return
        if path not in project.index:
            self.send(uri, [])
            return
        r = project.index[path]
        lines = lines_of(r.text)
        encoding = self.workspace.position_encoding
        self.send(uri, [to_lsp(d, lines, encoding) for d in project.on_disk(path)])

    def later(self, uri: str) -> None:
        """Check `uri` once the edits pause (debounced): a newer edit cancels the older wait."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()

        async def run() -> None:
            await asyncio.sleep(self.debounce)
            self.pending.pop(uri, None)
            self.publish(uri)

        self.pending[uri] = asyncio.get_running_loop().create_task(run())

    def saved(self, uri: str, text: str | None) -> None:
        """A file was saved: it joins the index as saved, the bank rules run again, and every
        file whose bank findings changed gets its diagnostics anew."""
        path = file_path(uri)
        if path is None:
            return
        if os.path.basename(path) in CONFIG_FILES or self.is_exam(path):
            self.reload()
            return
        project = self.project_for(path)
        if not isinstance(project, Project):
            return
        self.ensure_index(project)
        if project.in_bank(path):
            project.update(path, text)
            changed = project.run_bank()
        else:
            doc = self.workspace.get_text_document(uri)
            _, result = project.check(path, doc.source)
            project.loose_bank(path, result)
            changed = set()
        self.publish(uri)
        for other in changed - {os.path.abspath(path)}:
            self.publish_path(other, project)

    def is_exam(self, path: str) -> bool:
        project = self.projects.get(self.start_of(path))
        return isinstance(project, Project) and is_within(path, project.config.exams_dir)

    def changed_on_disk(self, changes: list[lsp.FileEvent]) -> None:
        touched: dict[int, tuple[Project, set[str]]] = {}
        for change in changes:
            path = to_fs_path(change.uri) if change.uri.startswith("file:") else None
            if path is None:
                continue
            path = os.path.abspath(path)
            if os.path.basename(path) in CONFIG_FILES or self.is_exam(path):
                self.reload()
                return
            if not path.endswith(YAML_SUFFIXES):
                continue
            project = self.project_for(path)
            if not isinstance(project, Project) or not project.indexed:
                continue
            if change.uri in self.workspace.text_documents and change.type != lsp.FileChangeType.Deleted:
                continue  # the editor's didSave brought it already
            project.update(path, None)
            touched.setdefault(id(project), (project, set()))[1].add(os.path.abspath(path))
        for project, paths in touched.values():
            changed = project.run_bank() | paths
            for path in changed:
                self.publish_path(path, project)

    def report(self, what: str, exc: BaseException) -> None:
        text = "".join(traceback.format_exception(exc))
        log.error("%s: %s", what, text)
        self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, f"qlint: {what}: {text}"))

    def guarded(self, what: str, func: Callable[[], Any], default: Any = None) -> Any:
        try:
            return func()
        except Exception as exc:
            self.report(what, exc)
            return default


def make_server(load_config: ConfigLoader, cache_dir: Path | None = None,
                debounce: float = DEBOUNCE_SECONDS, project_cache: bool = False) -> QlintServer:
    server = QlintServer(load_config, cache_dir, debounce, project_cache)

    @server.feature(lsp.INITIALIZED)
    def initialized(ls: QlintServer, params: lsp.InitializedParams) -> None:
        dynamic = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
        if dynamic and dynamic.dynamic_registration:
            watchers = [lsp.FileSystemWatcher(glob_pattern=g) for g in
                        ("**/*.yaml", "**/*.yml", "**/pyproject.toml", "**/qlint.toml")]
            ls.client_register_capability(lsp.RegistrationParams([lsp.Registration(
                "qlint-watch", lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                lsp.DidChangeWatchedFilesRegistrationOptions(watchers))]))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: QlintServer, params: lsp.DidOpenTextDocumentParams) -> None:
        uri = params.text_document.uri
        path = file_path(uri)
        project = ls.project_for(path) if path else None
        if isinstance(project, Project) and not project.indexed:
            ls.publish(uri)  # the file's own findings first: building the bank index takes a while
        ls.publish(uri, index=True)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: QlintServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.later(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=True))
    def did_save(ls: QlintServer, params: lsp.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        waiting = ls.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        text = params.text if params.text is not None else ls.workspace.get_text_document(uri).source
        ls.guarded(f"saving {uri}", lambda: ls.saved(uri, text))

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: QlintServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        waiting = ls.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        ls.send(uri, [])

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: QlintServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        ls.guarded("reading changed files", lambda: ls.changed_on_disk(params.changes))

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.SourceFixAll]))
    def code_action(ls: QlintServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
        return ls.guarded("code actions", lambda: actions.code_actions(ls, params), None)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: QlintServer, params: lsp.HoverParams) -> lsp.Hover | None:
        return ls.guarded("hover", lambda: lookup.hover(ls, params), None)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "[", ",", "-"]))
    def completion(ls: QlintServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        return ls.guarded("completion", lambda: lookup.completion(ls, params), None)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: QlintServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        return ls.guarded("definition", lambda: lookup.definition(ls, params), None)

    return server


def serve(load_config: ConfigLoader, cache_dir: Path | None = None, per_project_cache: bool = False) -> int:
    """Serve over stdin and stdout until the client says exit."""
    debounce = float(os.environ.get("QLINT_SERVER_DEBOUNCE", DEBOUNCE_SECONDS))
    make_server(load_config, cache_dir, debounce, per_project_cache).start_io()
    return 0
