"""Learning-platform formats: Canvas (QTI 1.2 with Canvas's extensions), Moodle XML and GIFT."""
