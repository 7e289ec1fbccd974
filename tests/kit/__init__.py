"""The test kit: every helper the test files share, one small module per concern, imported as
`from kit.export import ...` (tests/ is on the path). Test files import only this package and
conftest, never each other (tests/test_architecture.py checks it).

    authoring       small projects for the authoring commands (format, fix, shuffle, new, import)
    export          a bank loaded as `qlint export` does, exporters run, packages read back
    qti_readback    QTI packages read back through the documented mapping only
    xsd             the official QTI schemas as session fixtures
    gift_reference  a GIFT reader that follows Moodle's import
    moodle_reference  a Moodle XML reader for match, ordering and description
    roundtrip       Hypothesis strategies and the export-then-import helper
    reports         fixed diagnostics and schemas for the report tests
    browser         headless Chromium through Playwright
    analyze         the item-analysis rules at their default options
    lifecycle       throwaway projects of planted questions for the lifecycle and guide tests
    lsp             a real LSP client (pytest-lsp) driving `qlint server` over stdio
    translation     the two-language copy of the sample bank (hand-written Spanish fixtures)
"""
