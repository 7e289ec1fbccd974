"""Writing question files: the YAML document model and its edits, the formatter, change
sets written safely, fixes, option shuffling and scaffolds for new questions."""
