r"""Check your own implementation: the course's exercises, judged against the reference.

Each exercise is a function a student writes, with a fixed signature (:func:`exercise` shows
it). :func:`check` calls the student's function on problems drawn by hypothesis from small to
large, with a fixed seed, and judges each answer by what the mathematics guarantees:

- against the package's own implementation (:func:`reference`) when the answer is unique, to
  a tolerance stated in the report;
- after normalising a convention (the signs of eigenvectors, the order of components) when it
  is unique up to that convention;
- by certificate when it is not unique (a dual with ties, SVR, a degenerate intercept):
  feasibility, the optimal objective and the KKT conditions
  (:func:`kernels_ref.svm.kkt_violation`).

A failure is shrunk by hypothesis to the smallest problem on which the function still fails;
the :class:`Report` shows that problem, what was expected, what came back, the condition that
failed in the course's words and, where the symptom points to one, the likely mistake.

A function that raises, returns the wrong type or shape or NaN, modifies its arguments or runs
longer than the time limit (:data:`TIME_LIMIT` seconds a call) is reported as such. From the
command line, ``python -m kernels_ref.exercises student.py`` (or a notebook, or a folder of
them) checks every function named after an exercise, each file in a child process.

This module needs hypothesis (``pip install 'kernels-ref[exercises]'``); it is imported on
demand, ``from kernels_ref import exercises``.

Examples
--------
>>> from kernels_ref import exercises
>>> exercises.names()[:3]
('gaussian_gram', 'center_gram', 'squared_distance_to_barycentre')
>>> import numpy as np
>>> def gaussian_gram(X, Z, sigma):  # the factor 2 of 2 sigma^2 forgotten
...     d2 = ((X[:, None, :] - Z[None, :, :]) ** 2).sum(axis=-1)
...     return np.exp(-d2 / sigma**2)
>>> print(exercises.check("gaussian_gram", gaussian_gram).line())
gaussian_gram: FAILED on 2 points: exp(-|x - z|^2 / sigma^2): the factor 2 of 2 sigma^2 is missing
"""

from .._validation import function, integer, positive, rule, validated
from ._bounds import EXERCISES as _BOUNDS
from ._core import MAX_EXAMPLES, TIME_LIMIT, Exercise, Problem, Report, run_check
from ._kernels import EXERCISES as _KERNELS
from ._perceptron import EXERCISES as _PERCEPTRON
from ._regression import EXERCISES as _REGRESSION
from ._svm import EXERCISES as _SVM
from ._unsupervised import EXERCISES as _UNSUPERVISED

__all__ = [
    "MAX_EXAMPLES",
    "TIME_LIMIT",
    "Exercise",
    "Problem",
    "Report",
    "check",
    "exercise",
    "names",
    "reference",
]

#: The exercises in the order of the course.
_EXERCISES = {
    ex.name: ex
    for ex in sorted(
        (*_KERNELS, *_PERCEPTRON, *_SVM, *_BOUNDS, *_REGRESSION, *_UNSUPERVISED),
        key=lambda ex: ex.chapter[:4],  # chNN; within a chapter, the order of its module
    )
}


def _name(value, name, args):
    """The rule of an exercise's name: one of :func:`names`."""
    if not isinstance(value, str):
        raise ValueError(
            f"{name} must be the name of an exercise, a str such as 'gaussian_gram'; got "
            f"{type(value).__name__}. The names: {', '.join(_EXERCISES)}"
        )
    if value not in _EXERCISES:
        raise ValueError(
            f"{name} = {value!r} is not an exercise; the exercises are: {', '.join(_EXERCISES)}"
        )
    return value


@validated()
def names():
    """The names of the exercises, in the order of the course.

    Returns
    -------
    tuple of str
    """
    return tuple(_EXERCISES)


@validated(name=rule(_name, "name"))
def exercise(name):
    """The exercise ``name``: its signature, statement, tolerance and chapter.

    ``print(exercise(name))`` shows what to implement.

    Parameters
    ----------
    name : str
        One of :func:`names`.

    Returns
    -------
    Exercise
    """
    return _EXERCISES[name]


@validated(name=rule(_name, "name"))
def reference(name):
    """The package's own implementation of exercise ``name``, with the exercise's signature.

    Parameters
    ----------
    name : str
        One of :func:`names`.

    Returns
    -------
    callable
    """
    return _EXERCISES[name].reference


@validated(
    name=rule(_name, "name"),
    function=function(),
    time_limit=positive(),
    max_examples=integer(low=1),
)
def check(name, function, *, time_limit=TIME_LIMIT, max_examples=MAX_EXAMPLES):
    """Check a student's implementation of exercise ``name``.

    Parameters
    ----------
    name : str
        One of :func:`names`.
    function : callable
        The student's function, with the exercise's signature.
    time_limit : float > 0
        Seconds a single call may take; a longer call ends the check (reported).
    max_examples : int >= 1
        Problems tried before the function passes.

    Returns
    -------
    Report
        ``passed``; for a failure, the smallest failing problem, the condition and the likely
        mistake, what was expected and what came back. ``print(report)`` shows it all,
        ``report.line()`` one line.
    """
    return run_check(_EXERCISES[name], function, time_limit=time_limit, max_examples=max_examples)
