"""Which OpenBLAS kernels numpy runs on, and another family to check the book under.

``python tests/blas_kernels.py`` prints the kernel family in use (``OPENBLAS_CORETYPE`` chooses
it in OpenBLAS builds with ``DYNAMIC_ARCH``, as in the numpy wheels). ``--other`` prints a family
different from the one in use for ``make test-portable``: the generic SSE kernels
(``Prescott``, available on every x86-64 CPU), or ``Nehalem`` where the default is already
generic; it fails if setting it does not change the kernels (numpy not on OpenBLAS, or a build
without ``DYNAMIC_ARCH``), so that a portable pass never runs on the default kernels unnoticed.
"""

import ctypes
import os
import subprocess
import sys
from pathlib import Path

import numpy as np


def corename():
    """Name of the OpenBLAS kernel family numpy uses, or None if numpy is not on OpenBLAS."""
    libs = Path(np.__file__).parent.parent / "numpy.libs"
    for path in sorted(libs.glob("lib*openblas*.so*")):
        lib = ctypes.CDLL(str(path))
        for symbol in (
            "scipy_openblas_get_corename64_",
            "openblas_get_corename64_",
            "openblas_get_corename",
        ):
            if hasattr(lib, symbol):
                function = getattr(lib, symbol)
                function.restype = ctypes.c_char_p
                return function().decode()
    return None


def corename_under(coretype):
    env = dict(os.environ, OPENBLAS_CORETYPE=coretype)
    out = subprocess.run([sys.executable, __file__], env=env, capture_output=True, text=True)
    return out.stdout.strip()


def main():
    if "--other" not in sys.argv[1:]:
        print(corename())
        return
    default = corename()  # under the environment this runs in
    for family in ("Prescott", "Nehalem"):
        chosen = corename_under(family)
        if chosen not in ("None", default):
            print(family)
            return
    sys.exit(f"cannot select OpenBLAS kernels other than those in use ({default}) here")


if __name__ == "__main__":
    main()
