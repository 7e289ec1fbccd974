"""Reading question files: bytes -> text -> plain data, with positions on demand."""
