"""The short ``repr`` of every result dataclass of the package."""

import dataclasses

import numpy as np


class ShortRepr:
    """Mixin for a frozen result dataclass (declared with ``repr=False``): one line, with each
    array summarised by its shape and dtype instead of printed, and every other field as it is.

    Examples
    --------
    >>> @dataclasses.dataclass(frozen=True, repr=False)
    ... class Fit(ShortRepr):
    ...     alpha: np.ndarray
    ...     b: float
    ...     converged: bool
    >>> Fit(np.zeros(300), -0.25, True)
    Fit(alpha=<array (300,) float64>, b=-0.25, converged=True)
    """

    #: Properties shown first, before the fields (e.g. the choice of a grid search, by name).
    _repr_first: tuple = ()

    def __repr__(self):
        parts = [f"{name}={getattr(self, name)!r}" for name in self._repr_first]
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, np.ndarray):
                shape = "(" + ", ".join(map(str, value.shape)) + ("," if value.ndim == 1 else "")
                text = f"<array {shape}) {value.dtype}>"
            elif isinstance(value, float):
                text = f"{value:.6g}"
            else:
                text = repr(value)
            parts.append(f"{field.name}={text}")
        return f"{type(self).__name__}({', '.join(parts)})"
