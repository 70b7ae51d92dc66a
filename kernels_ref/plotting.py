"""Pictures of a classifier in the plane, for the chapters and for a student's own notebook.

The functions draw on a Matplotlib ``Axes`` they are given, so that this module imports nothing
beyond NumPy: Matplotlib is needed only by whoever creates the axes.
"""

from __future__ import annotations

import numpy as np

__all__ = ["plot_classifier"]

_REGIONS = ["#f6d5d5", "#d5e3f6"]  # light red where f < 0, light blue where f > 0


def plot_classifier(
    ax, X, y, decision, *, support=None, title="", lim=(-3.0, 4.0), n_grid=300, size=None
):
    r"""Draw labelled points in the plane, the boundary :math:`f(x) = 0` and the margins
    :math:`f(x) = \pm 1` of a decision function.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes to draw on.
    X : array of shape (n, 2)
        The points; ``y`` their labels in {-1, +1}.
    decision : callable
        Maps an array of shape (m, 2) to the m values of :math:`f`, for example
        ``lambda Z: svm_predict(res, linear_kernel(Z, X))``.
    support : array of indices or booleans, optional
        Points to circle (the support vectors).
    title : str
        The axes' title.
    lim : (float, float)
        The square window, the same on both axes.
    n_grid : int
        Grid points per axis at which :math:`f` is evaluated.
    size : float, optional
        The marker size of the points (Matplotlib's default if None).
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    grid = np.linspace(lim[0], lim[1], n_grid)
    G1, G2 = np.meshgrid(grid, grid)
    F = np.asarray(decision(np.c_[G1.ravel(), G2.ravel()]), dtype=float).reshape(G1.shape)
    ax.contourf(G1, G2, F, levels=[-np.inf, 0, np.inf], colors=_REGIONS, alpha=0.6)
    ax.contour(G1, G2, F, levels=[-1, 0, 1], colors="k", linestyles=["--", "-", "--"])
    ax.scatter(*X[y > 0].T, c="tab:blue", marker="o", s=size, label="$y = +1$")
    ax.scatter(*X[y < 0].T, c="tab:red", marker="s", s=size, label="$y = -1$")
    if support is not None:
        ax.scatter(*X[support].T, s=220, fc="none", ec="k", label="support vectors")
    ax.plot([], [], "k-", label="$f(x) = 0$")
    ax.plot([], [], "k--", label=r"$f(x) = \pm 1$")
    ax.set(xlim=lim, ylim=lim, xlabel="$x_1$", ylabel="$x_2$", title=title)
    ax.set_aspect("equal")
    return ax
