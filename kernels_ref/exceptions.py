"""Exceptions and warnings raised by :mod:`kernels_ref`.

Bad input raises :class:`ValueError` (or one of its subclasses below) naming the offending
argument, or :class:`TypeError` for a flag that is not a bool or a result object of the wrong
type; a result that is returned but deserves attention (a Gram matrix that is not positive
semi-definite, a solver stopped by its iteration limit) is signalled by a warning.
"""

__all__ = [
    "ConvergenceWarning",
    "DataConversionWarning",
    "NotFittedError",
    "NotPSDWarning",
    "NotSeparableError",
]


class NotSeparableError(ValueError):
    """The hard-margin problem has no solution: the data are not separable in feature space."""


class ConvergenceWarning(UserWarning):
    """An iterative method stopped at its iteration limit before meeting its tolerance."""


class NotPSDWarning(UserWarning):
    """A Gram matrix has a clearly negative eigenvalue: the "kernel" is not positive definite."""


class NotFittedError(ValueError, AttributeError):
    """An estimator of :mod:`kernels_ref.estimators` was used before ``fit``.

    A subclass of both :class:`ValueError` and :class:`AttributeError`, like scikit-learn's
    ``sklearn.exceptions.NotFittedError``, so that code written for scikit-learn catches it.
    """


class DataConversionWarning(UserWarning):
    """An estimator received ``y`` as a column vector of shape ``(n, 1)`` and flattened it."""
