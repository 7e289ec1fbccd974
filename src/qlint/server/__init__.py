"""`qlint server`: findings while typing, over the Language Server Protocol (pygls).

The server is a thin layer over the engine `qlint check` runs: the same configuration, rule
selection, per-file check (`lint.check.check_file` on the unsaved text), bank run and
suppression comments (`project.py`); this package only converts positions and messages
(`convert.py`), offers fixes (`actions.py`), answers hover, completion and go to definition
(`lookup.py`) and speaks the protocol (`app.py`).
"""
