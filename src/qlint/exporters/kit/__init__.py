"""What every exporter shares: question text and media, where a value lives in its file, the XML
gate, case grouping, grades and feedback, and writing the output."""
