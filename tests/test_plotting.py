"""kernels_ref.plotting draws the level sets it names, on the axes it is given."""

import numpy as np
import pytest

from kernels_ref.plotting import plot_classifier

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")


def test_the_boundary_and_margins_are_the_level_sets_of_f():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 3.0]])
    y = np.array([1, -1, 1])
    fig, ax = plt.subplots()
    plot_classifier(ax, X, y, lambda Z: Z[:, 1] - Z[:, 0], support=[0, 1], lim=(-2, 2))
    contour = next(
        c
        for c in ax.collections
        if getattr(c, "levels", None) is not None and list(c.levels) == [-1, 0, 1]
    )
    for level, segments in zip(contour.levels, contour.allsegs, strict=True):
        points = np.vstack(segments)
        assert np.allclose(points[:, 1] - points[:, 0], level, atol=1e-9)
    labels = ax.get_legend_handles_labels()[1]
    assert labels[:3] == ["$y = +1$", "$y = -1$", "support vectors"]
    plt.close(fig)
