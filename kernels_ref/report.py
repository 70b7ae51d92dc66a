r"""Cross-checks that say what they found.

A chapter checks each result against an independent one (a closed form, cvxpy, an identity) and
prints what it found: the two values, and the bound to which they agree. The bound printed is
the tolerance the check asserts, never the measured difference: the difference is round-off,
which changes with the BLAS kernels and the thread count, while the tolerance is a fact on
every machine. A value is shown with no more significant digits than the tolerance supports, and
a value within the tolerance of zero is shown as ``0``, so that no sign or digit of round-off is
printed.

>>> print(agree("dual objective", 17.68541, 17.68549, 1e-5, against="cvxpy's"))
dual objective: 17.69, cvxpy's 17.69 (they agree to 1e-5, relative)
>>> print(at_most("largest KKT violation", 3.2e-11, 1e-8))
largest KKT violation <= 1e-8
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["agree", "at_most"]


def _numbers(x, name):
    """``x`` as a float array, or a ``TypeError`` that names the argument."""
    try:
        arr = np.asarray(x)
    except ValueError:  # a ragged nested list
        arr = np.empty(0, dtype=object)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be a number or an array of numbers, got {x!r}")
    return arr.astype(float)


def _tolerance(tol: float) -> str:
    """``1e-06`` written as a reader writes it: ``1e-6``; ``5e-07`` as ``5e-7``."""
    mantissa, exponent = f"{tol:.0e}".split("e")
    return f"{mantissa}e{int(exponent)}" if tol < 1e-3 else f"{tol:g}"


def _digits(magnitude, tol):
    """Significant digits of a number of this magnitude known to ``tol``: those above the
    uncertainty, from 1 to 4 (4 for an exact value)."""
    if tol <= 0:
        return 4
    return max(1, min(4, math.floor(math.log10(max(magnitude / tol, 1.0)) + 1e-9)))


def _text(value, tol, digits):
    """``value`` to ``digits`` significant digits, ``0`` within ``tol`` of zero (no sign of
    round-off)."""
    return "0" if abs(float(value)) <= tol else f"{float(value):.{digits}g}"


def agree(
    what: str, value, reference, tol: float, *, against: str = "the reference", relative=True
) -> str:
    """Assert that ``value`` equals ``reference`` to ``tol``, and say it in one sentence.

    The difference is relative to ``max |reference|`` when ``relative`` (the default), absolute
    otherwise. Scalars are shown; for arrays the sentence gives their number of entries and the
    bound on the largest difference. A failed check raises :class:`AssertionError` that gives
    the measured difference.

    >>> print(agree("alpha", np.array([0.5, 0.25]), np.array([0.5, 0.25]), 1e-8,
    ...             against="cvxpy", relative=False))
    alpha: the 2 entries agree with cvxpy to 1e-8
    """
    value, reference = _numbers(value, "value"), _numbers(reference, "reference")
    scale = float(np.max(np.abs(reference), initial=0.0)) if relative else 1.0
    gap = float(np.max(np.abs(value - reference), initial=0.0))
    if not gap <= tol * scale:  # also fails on NaN
        kind = "relative " if relative else ""
        raise AssertionError(
            f"{what}: {kind}difference {gap / scale if scale else gap:.3e} from {against}, "
            f"more than {_tolerance(tol)}"
        )
    kind = ", relative" if relative else ""
    if value.ndim == 0:
        # One number of digits for both values, from the reference and the tolerance (1/tol
        # when relative): the two texts then differ only if the values do.
        digits = _digits(abs(float(reference)), tol * scale)
        ours, theirs = (_text(v, tol * scale, digits) for v in (value, reference))
        return f"{what}: {ours}, {against} {theirs} (they agree to {_tolerance(tol)}{kind})"
    return f"{what}: the {value.size} entries agree with {against} to {_tolerance(tol)}{kind}"


def at_most(what: str, value: float, bound: float) -> str:
    """Assert that ``value <= bound`` and say it: ``"what <= bound"``.

    For a quantity that is round-off at the solution (a KKT violation, an asymmetry, a duality
    gap): its value changes from machine to machine, the bound does not.

    >>> print(at_most("duality gap", 1e-12, 1e-9))
    duality gap <= 1e-9
    """
    value, bound = float(_numbers(value, "value")), float(_numbers(bound, "bound"))
    if not value <= bound:
        raise AssertionError(f"{what} is {value:.3e}, more than {_tolerance(bound)}")
    return f"{what} <= {_tolerance(bound)}"
