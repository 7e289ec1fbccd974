"""IMS QTI packages: 2.1 and 3.0 from one builder (`_package`), one dialect each."""
