"""The stylesheet every QTI item links (`styles/qlint.css`): it keeps the one reveal inside the
window. @citolab/qti-components opens a modal feedback as a fixed, centred dialog with no maximum
height, so an ordering or matching reveal (a row per step or pair) was 985-1,085 px tall at
1366x768, its top and Close button off screen (issue 28). Players that ignore these rules lose
nothing; the selectors name only QTI elements and the dialog part that player exposes."""

from __future__ import annotations

STYLESHEET = "styles/qlint.css"

# Kept simple on purpose: citolab minifies an item stylesheet by dropping the spaces around ":",
# so no descendant combinator may come before a pseudo-class. Width: the dialog is placed with
# left: 50% and so shrank to half the window without one (195 px on a phone).
CSS = """\
/* qlint: the reveal fits the window; its text scrolls, the Close button stays in view. */
qti-modal-feedback::part(feedback) {
  box-sizing: border-box;
  width: min(46rem, calc(100vw - 1.5rem));
  max-height: calc(100vh - 1.5rem);
  overflow-y: auto;
}
qti-modal-feedback > qti-content-body {
  display: block;
  max-height: calc(100vh - 9rem);
  overflow-y: auto;
}
.qlint-row {
  margin: 0.4em 0;
}
.qlint-row p, .qlint-row div {
  margin: 0.2em 0;
}
"""
