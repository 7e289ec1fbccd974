"""Item analysis: what learners' answers say about each question (`qlint analyze`).

`data` holds the response matrix and the answer keys read from the bank; `read_*` turn an LMS's
export into that matrix; `stats` computes the classical test theory statistics (numpy, one pass
per option); `findings` runs the response rules (`qlint.rules.responses`) and places their
findings on the questions' YAML lines; `html` draws the static report.
"""
