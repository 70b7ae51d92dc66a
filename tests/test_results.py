"""The short repr of the result dataclasses (kernels_ref/_results.py)."""

import dataclasses
import inspect

import numpy as np

import kernels_ref
from kernels_ref import cvx
from kernels_ref._results import ShortRepr
from kernels_ref.kernels import gaussian_kernel
from kernels_ref.svm import soft_margin_l1


def result_classes():
    modules = [getattr(kernels_ref, name) for name in kernels_ref.__all__] + [cvx]
    return {
        obj
        for module in modules
        if inspect.ismodule(module)
        for name, obj in inspect.getmembers(module, dataclasses.is_dataclass)
        if inspect.isclass(obj) and name.endswith("Result")
        if obj.__module__.startswith("kernels_ref")
    }


def test_every_result_dataclass_has_the_short_repr():
    classes = result_classes()
    assert len(classes) >= 12
    for cls in classes:
        assert issubclass(cls, ShortRepr) and cls.__repr__ is ShortRepr.__repr__, cls


def test_a_fit_of_300_points_prints_on_one_short_line():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    text = repr(soft_margin_l1(gaussian_kernel(X), y, 1.0))
    assert "\n" not in text and len(text) < 300
    assert text.startswith("SVMResult(alpha=<array (300,) float64>, b=")
    assert "converged=True" in text and "kkt_violation=" in text and "n_iter=" in text


def test_arrays_of_any_shape_are_summarised():
    @dataclasses.dataclass(frozen=True, repr=False)
    class Fit(ShortRepr):
        A: np.ndarray
        s: np.ndarray
        k: int
        name: str

    text = repr(Fit(np.ones((4, 3)), np.array(2.5), 7, "x"))
    assert text == "Fit(A=<array (4, 3) float64>, s=<array () float64>, k=7, name='x')"


def test_every_result_dataclass_is_frozen():
    for cls in result_classes():
        assert cls.__dataclass_params__.frozen, cls


def test_every_prediction_takes_the_result_then_k_test():
    from kernels_ref import cca, clustering, feature_space, pca, perceptron, ridge, svm, svr

    predictions = [
        feature_space.nearest_centroid_predict,
        perceptron.perceptron_dual_predict,
        svm.svm_predict,
        ridge.kernel_ridge_predict,
        svr.svr_predict,
        pca.kernel_pca_transform,
        cca.kernel_cca_transform,
        clustering.kernel_knn_predict,
    ]
    for predict in predictions:
        names = list(inspect.signature(predict).parameters)
        assert names[:2] == ["result", "K_test"], (predict.__name__, names)
