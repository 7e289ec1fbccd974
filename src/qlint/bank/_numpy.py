"""NumPy, loaded one way for all of qlint: `from qlint.bank._numpy import np`.

OpenBLAS (in NumPy's wheels) starts one thread per core when it loads, each with its own buffer:
about 40 MB of address space a thread, so a 64-core CI runner reserves gigabytes, and under a
200 MB address-space limit a 20,000-file check died inside OpenBLAS ("Memory allocation still
failed after 10 retries"), exit 1 with no report. qlint's NumPy work is sorting and small
matrix-vector products, which extra BLAS threads do not speed up, so the BLAS libraries are
loaded with one thread unless the user chose a count (any of the variables below set). The
variables are read when the library loads and are put back right after, so processes qlint
starts see the environment as it was. Any module of qlint that needs NumPy imports it from here
(tests/test_numpy_loading.py checks that none imports it directly).
"""

from __future__ import annotations

import os

# OpenBLAS reads the first three (in this order), MKL and BLIS their own, macOS Accelerate VECLIB
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                    "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")


def _load():
    before = {v: os.environ.get(v) for v in THREAD_VARIABLES}
    chosen = any(before.values())  # an empty variable chooses nothing (OpenBLAS ignores it too)
    if not chosen:
        os.environ.update({v: "1" for v in THREAD_VARIABLES})
    try:
        import numpy
    finally:
        if not chosen:
            for v, value in before.items():
                if value is None:
                    os.environ.pop(v, None)
                else:
                    os.environ[v] = value
    return numpy


np = _load()
