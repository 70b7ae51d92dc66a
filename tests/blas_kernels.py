"""Which OpenBLAS kernels numpy runs on, and the other families to check the book under.

``python tests/blas_kernels.py`` prints the kernel family in use (``OPENBLAS_CORETYPE`` chooses
it in OpenBLAS builds with ``DYNAMIC_ARCH``, as in the numpy wheels). ``--others`` prints, one a
line, every family this CPU can run whose kernels differ from the one in use and from each
other, for ``make test-portable``: the generic SSE kernels (``Prescott``, on every x86-64 CPU),
``Nehalem``, the AVX kernels (``Sandybridge``), the AVX2 and FMA kernels (``Haswell``) and the
AVX-512 ones (``SkylakeX``). They round differently: FMA rounds a product and a sum once, the
wider vectors sum in another order. A family the CPU cannot run falls back to one it can, and
is dropped when that one is already listed. It fails if no other family takes effect (numpy not
on OpenBLAS, or a build without ``DYNAMIC_ARCH``), so that a portable pass never runs on the
default kernels unnoticed.
"""

import ctypes
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

#: The x86-64 families of OpenBLAS's dynamic builds, oldest first (others, such as Zen or
#: Cooperlake, run the kernels of one of these).
FAMILIES = ("Prescott", "Nehalem", "Sandybridge", "Haswell", "SkylakeX")


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


def others():
    """The families to set, each giving kernels unlike the default's and the others'."""
    seen, chosen = {str(corename())}, []
    for family in FAMILIES:
        name = corename_under(family)
        if name not in seen and name != "None":
            seen.add(name)
            chosen.append(family)
    return chosen


def main():
    if "--others" not in sys.argv[1:]:
        print(corename())
        return
    chosen = others()
    if not chosen:
        sys.exit(f"cannot select OpenBLAS kernels other than those in use ({corename()}) here")
    print("\n".join(chosen))


if __name__ == "__main__":
    main()
