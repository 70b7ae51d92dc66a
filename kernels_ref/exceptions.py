"""Exceptions and warnings raised by :mod:`kernels_ref`.

Bad input raises :class:`ValueError` (or one of its subclasses below) naming the offending
argument, or :class:`TypeError` for a flag that is not a bool or a result object of the wrong
type; a result that is returned but deserves attention (a Gram matrix that is not positive
semi-definite, a solver stopped by its iteration limit) is signalled by a warning.
"""

__all__ = [
    "ConvergenceWarning",
    "NotPSDWarning",
    "NotSeparableError",
    "TrivialCorrelationWarning",
]


class NotSeparableError(ValueError):
    """The hard-margin problem has no solution: the data are not separable in feature space."""


class ConvergenceWarning(UserWarning):
    """An iterative method stopped at its iteration limit before meeting its tolerance."""


class NotPSDWarning(UserWarning):
    """A Gram matrix has a clearly negative eigenvalue: the "kernel" is not positive definite."""


class TrivialCorrelationWarning(UserWarning):
    """Unregularised kernel CCA on Gram matrices whose ranges meet: some canonical correlations
    are 1 whatever the data (all of them when the Gram matrices have full rank)."""
