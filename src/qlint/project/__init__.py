"""The project around the files: configuration, file discovery, exam definitions."""
