r"""Exercises of chapter 1: Gram matrices, centring, distances in feature space."""

import numpy as np
from hypothesis import strategies as st

from ..kernels import gaussian_kernel
from ._core import Exercise, Problem
from ._judging import array_output, as_array, compare, points

# --- the Gaussian Gram matrix ------------------------------------------------------------------


def gaussian_gram(X, Z, sigma):
    r""":math:`K_{ij} = \exp(-\|x_i - z_j\|^2 / (2\sigma^2))` (:func:`kernels_ref.kernels.gaussian_kernel`)."""
    return gaussian_kernel(X, Z, sigma=sigma)


@st.composite
def _gram_problems(draw):
    X = as_array(draw(points(1, 6, unique=False)))
    Z = as_array(draw(points(1, 6, unique=False)))
    sigma = draw(st.sampled_from([1.0, 2.0, 0.5]))
    return Problem(args={"X": X, "Z": Z, "sigma": sigma}, shown={"X": X, "Z": Z, "sigma": sigma},
                   size=len(X) + len(Z), note="")  # fmt: skip


def _squared_distances(problem):
    X, Z = problem.args["X"], problem.args["Z"]
    return ((X[:, None, :] - Z[None, :, :]) ** 2).sum(axis=-1)


def _gaussian_of(problem, distances, width):
    with np.errstate(all="ignore"):
        return np.exp(-distances / width)


def _matches(got, candidate):
    return np.all(np.isfinite(candidate)) and np.allclose(got, candidate, rtol=1e-8, atol=1e-12)


GAUSSIAN_SYMPTOMS = (
    (
        "exp(-|x - z|^2 / sigma^2): the factor 2 of 2 sigma^2 is missing",
        lambda pb, got, exp: _matches(got, exp**2),
    ),
    (
        "exp(-|x - z|^2 / (2 sigma)): sigma is not squared",
        lambda pb, got, exp: _matches(
            got, _gaussian_of(pb, _squared_distances(pb), 2 * pb.args["sigma"])
        ),
    ),
    (
        "exp(-|x - z| / (2 sigma^2)): the distance is not squared",
        lambda pb, got, exp: _matches(
            got, _gaussian_of(pb, np.sqrt(_squared_distances(pb)), 2 * pb.args["sigma"] ** 2)
        ),
    ),
    (
        "exp(+|x - z|^2 / (2 sigma^2)): the minus sign is missing",
        lambda pb, got, exp: _matches(got, 1.0 / exp),
    ),
    (
        "exp(-<x, z> / (2 sigma^2)): the inner product in place of the squared distance",
        lambda pb, got, exp: _matches(
            got,
            _gaussian_of(pb, pb.args["X"] @ pb.args["Z"].T, 2 * pb.args["sigma"] ** 2),
        ),
    ),
)

GAUSSIAN_GRAM = Exercise(
    name="gaussian_gram",
    signature="gaussian_gram(X, Z, sigma) -> K",
    statement=(
        "X of shape (n, d) and Z of shape (m, d): the Gram matrix K of shape (n, m), "
        "K[i, j] = exp(-|x_i - z_j|^2 / (2 sigma^2)), sigma > 0."
    ),
    tolerance="each entry within 1e-9 of the reference (entries are in [0, 1])",
    chapter="ch01_kernel_trick",
    reference=gaussian_gram,
    problems=_gram_problems,
    output=array_output(lambda pb: (len(pb.args["X"]), len(pb.args["Z"])), "K"),
    judge=lambda pb, got, exp: compare(
        pb, got, exp, 1e-9, "K[i, j] = exp(-|x_i - z_j|^2 / (2 sigma^2))", GAUSSIAN_SYMPTOMS
    ),
)

EXERCISES = (GAUSSIAN_GRAM,)
