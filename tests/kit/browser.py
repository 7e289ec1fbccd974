"""The browser test kit: Debian's headless Chromium driven by Playwright, a module-scoped
`browser` fixture and a `Tab` that records console errors and requests. Under CI=true a missing
browser or Playwright fails the test; elsewhere it skips with the reason."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import REPO

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
ARTIFACTS = REPO / "artifacts"


def require_browser():
    reason = None
    try:
        from playwright.sync_api import sync_playwright  # noqa: F401
    except ImportError:
        reason = "Python Playwright is not installed (pip install -e '.[test]')"
    if reason is None and not os.access(CHROMIUM, os.X_OK):
        reason = f"{CHROMIUM} is missing (apt-get install -y chromium)"
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser test cannot run under CI: {reason}")
        pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


class Tab:
    """A page with everything it logs and requests recorded, for the assertions at the end."""

    def __init__(self, browser, width: int = 1000, height: int = 900) -> None:
        self.context = browser.new_context(offline=True, viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))

    def open(self, path: Path):
        self.page.goto(path.as_uri())
        return self.page

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors
        assert self.requests and all(u.startswith("file://") for u in self.requests), self.requests
