"""Web formats: the static HTML practice site, Markdown pages and the JSON document."""
