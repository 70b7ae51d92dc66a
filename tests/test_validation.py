"""Tests of the shared validation helpers: one wording for every function."""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import kernels_ref
from kernels_ref import _validation as v
from kernels_ref.exceptions import NotPSDWarning


def test_check_labels_accepts_plus_minus_one_and_returns_floats():
    y = v.check_labels([1, -1, 1])
    assert y.dtype == float and np.array_equal(y, [1.0, -1.0, 1.0])


@pytest.mark.parametrize("y", [[0, 1], [1, 2, -1], [1, 1, 1], [-1.0, -1.0]])
def test_check_labels_rejects_other_values_and_single_class(y):
    with pytest.raises(ValueError, match=r"^y must contain"):
        v.check_labels(y)


def test_check_labels_checks_length():
    with pytest.raises(ValueError, match=r"^y must have 3 rows"):
        v.check_labels([1, -1], n=3)


def test_check_gram_rejects_non_square_and_non_symmetric():
    with pytest.raises(ValueError, match=r"^K must be square"):
        v.check_gram(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"^K must be symmetric"):
        v.check_gram([[1.0, 0.5], [0.4, 1.0]])


@pytest.mark.parametrize("value", [0.0, -1.0, np.nan, np.inf, "1", True])
def test_check_positive_rejects(value):
    with pytest.raises(ValueError, match=r"^C must"):
        v.check_positive(value, "C")


def test_check_positive_allows_inf_on_request():
    assert v.check_positive(np.inf, "C", allow_inf=True) == np.inf


def test_check_in_range_open_and_closed_ends():
    assert v.check_in_range(1.0, "nu", 0.0, 1.0, low_open=True) == 1.0
    with pytest.raises(ValueError, match=r"^nu must lie in \(0.0, 1.0\]"):
        v.check_in_range(0.0, "nu", 0.0, 1.0, low_open=True)


def test_check_integer_rejects_bool_and_float():
    for value in (True, 2.0, "3"):
        with pytest.raises(ValueError, match=r"^k must be an integer"):
            v.check_integer(value, "k")
    assert v.check_integer(np.int64(3), "k", low=1) == 3


def test_check_same_n():
    with pytest.raises(ValueError, match=r"^X and y must have the same number of rows"):
        v.check_same_n(np.ones((2, 1)), np.ones(3), "X", "y")


def test_check_gram_warns_for_a_matrix_that_is_not_psd():
    from kernels_ref.exceptions import NotPSDWarning

    with pytest.warns(NotPSDWarning, match="K1 is not positive semi-definite"):
        v.check_gram([[1.0, 2.0], [2.0, 1.0]], name="K1")


def test_check_gram_accepts_singular_psd_matrices_without_warning():
    import warnings

    from kernels_ref.kernels import gaussian_kernel

    X = np.repeat(np.random.default_rng(0).normal(size=(30, 2)), 2, axis=0)  # duplicate points
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v.check_gram(gaussian_kernel(X, sigma=3.0))
        v.check_gram(np.zeros((3, 3)))


def test_check_gram_psd_test_does_not_depend_on_units():
    import warnings

    X = np.array([[1e-160], [2e-160], [3e-160]])  # a rank-one Gram matrix of subnormal numbers
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v.check_gram(X @ X.T)
        v.check_gram(1e300 * np.ones((3, 3)))


def test_check_gram_above_the_full_test_size_still_catches_a_negative_2x2_minor():
    from kernels_ref.exceptions import NotPSDWarning

    n = v.FULL_PSD_TEST_MAX_N + 1
    K = np.eye(n)
    K[0, n - 1] = K[n - 1, 0] = 2.0  # the minor [[1, 2], [2, 1]] has determinant -3
    with pytest.warns(NotPSDWarning, match="K is not positive semi-definite"):
        v.check_gram(K)


def test_check_gram_symmetry_test_spans_several_tiles():
    K = np.eye(600)
    K[10, 590] = 1e-3
    with pytest.raises(ValueError, match="K must be symmetric"):
        v.check_gram(K)
    assert v.check_gram(np.asfortranarray(np.eye(600))).flags.c_contiguous


def test_check_nu_states_the_feasible_range():
    y = np.array([1.0] * 2 + [-1.0] * 8)
    assert v.check_nu(0.4, y) == 0.4
    with pytest.raises(ValueError, match=r"nu <= 2 min\(n\+, n-\)/n = 0.4 \(n\+ = 2, n- = 8\)"):
        v.check_nu(0.5, y)
    for bad in (0.0, 1.5, np.nan):
        with pytest.raises(ValueError, match=r"^nu must lie in \(0.0, 1.0\]"):
            v.check_nu(bad, y)


# --- what counts as an array of real numbers ------------------------------------------------


@pytest.mark.parametrize(
    "a, why",
    [
        ([[1.0 + 1e-3j, 0.0]], "complex"),
        (np.array([[1.0, 2.0]], dtype=complex), "complex"),  # even with zero imaginary parts
        ([["1", "2"]], "real numbers"),
        ([[1.0, "a"]], "real numbers"),
        (np.array([[1.0, "2"]], dtype=object), "real numbers"),
        (np.array([[1.0, 2j]], dtype=object), "real numbers"),
        (np.array([[1.0, None]], dtype=object), "real numbers"),
        (np.array([[True, False]]), "boolean"),
        (np.array([[1.0, True]], dtype=object), "real numbers"),
        (None, "real numbers"),
        ([[1.0, 2.0], [3.0]], "real numbers"),
    ],
)
def test_check_array_rejects_what_is_not_an_array_of_real_numbers(a, why):
    with pytest.raises(ValueError, match=rf"^A must .*{why}"):
        v.check_array(a, "A")


def test_check_array_accepts_integers_and_other_float_types_as_float64():
    for a in ([[1, 2]], np.array([[1, 2]], dtype=np.int8), np.array([[1, 2]], dtype=np.float32)):
        out = v.check_array(a, "A")
        assert out.dtype == np.float64 and np.array_equal(out, [[1.0, 2.0]])
    assert np.array_equal(v.check_array(np.array([[1, 2.5]], dtype=object), "A"), [[1.0, 2.5]])


@pytest.mark.parametrize("y", [["1", "-1"], np.array(["1", "-1"]), [True, False], [1j, -1j]])
def test_check_labels_rejects_strings_booleans_and_complex(y):
    with pytest.raises(ValueError, match=r"^y must"):
        v.check_labels(y)


@pytest.mark.parametrize("value", ["1", 1 + 0j, 1j, True, np.bool_(True), None, [1.0], np.nan])
def test_check_real_rejects_non_real_values(value):
    with pytest.raises(ValueError, match=r"^c must"):
        v.check_real(value, "c")


@pytest.mark.parametrize("check", [v.check_positive, v.check_real])
def test_scalar_checks_accept_numpy_scalars_and_0d_arrays(check):
    for value in (np.float32(2.0), np.int64(2), np.array(2.0), 2):
        assert check(value, "c") == 2.0 and type(check(value, "c")) is float


@pytest.mark.parametrize("value", ["1", 1j, True, np.inf, -np.inf, np.nan])
def test_check_in_range_rejects_non_real_and_non_finite(value):
    with pytest.raises(ValueError, match=r"^nu must"):
        v.check_in_range(value, "nu", 0.0, 1.0)


# --- one positive semi-definiteness rule ------------------------------------------------------


def _with_min_eigenvalue(ratio, scale, n=6, seed=0):
    """A symmetric matrix with max|K_ij| = scale (roughly) and lambda_min = -ratio * max|K_ij|."""
    Q, _ = np.linalg.qr(np.random.default_rng(seed).normal(size=(n, n)))
    eig = np.linspace(0.0, 1.0, n)
    K = (Q * eig) @ Q.T
    K = 0.5 * (K + K.T)
    K -= ratio * np.max(np.abs(K)) * np.eye(n)
    return scale * K


@pytest.mark.parametrize("scale", [1e-12, 1.0, 1e12])
@pytest.mark.parametrize("ratio, psd", [(1e-6, False), (1e-8, False), (1e-11, True), (0.0, True)])
def test_is_psd_and_check_gram_apply_one_relative_rule(scale, ratio, psd):
    import warnings

    from kernels_ref.exceptions import NotPSDWarning
    from kernels_ref.kernels import is_psd

    K = _with_min_eigenvalue(ratio, scale)
    assert is_psd(K) is psd
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        v.check_gram(K)
    assert [w.category for w in caught] == ([] if psd else [NotPSDWarning])


def test_is_psd_does_not_depend_on_units():
    from kernels_ref.kernels import is_psd

    K = np.array([[1.0, 2.0], [2.0, 1.0]])  # eigenvalues -1 and 3
    assert not is_psd(K) and not is_psd(1e-12 * K) and not is_psd(1e12 * K)
    assert is_psd(1e-12 * np.ones((2, 2)))


def test_psd_threshold_is_relative_to_the_largest_entry():
    assert v.psd_threshold(2.0, 3) == pytest.approx(2.0 * v.PSD_RTOL)
    assert v.psd_threshold(2.0, 3, rtol=0.5) == pytest.approx(1.0)
    assert v.psd_threshold(0.0, 4) == 4 * np.finfo(float).smallest_subnormal


# --- the 2 x 2 minor test above FULL_PSD_TEST_MAX_N -------------------------------------------


def _count_not_psd(K):
    import warnings

    from kernels_ref.exceptions import NotPSDWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        v.check_gram(K)
    return sum(issubclass(w.category, NotPSDWarning) for w in caught)


@pytest.fixture
def small_full_test(monkeypatch):
    """FULL_PSD_TEST_MAX_N = 40, so that the minor test runs on small matrices (fast)."""
    monkeypatch.setattr(v, "FULL_PSD_TEST_MAX_N", 40)
    monkeypatch.setattr(v, "_TILE", 16)  # several tiles
    return 41


@pytest.mark.parametrize("diag", [0.5, 1e-2, 1e-6, 3.0])
@pytest.mark.parametrize("where", [(0, 40), (3, 17), (20, 21), (39, 40)])
def test_minor_test_catches_a_negative_minor_with_any_diagonal(small_full_test, diag, where):
    n = small_full_test
    K = diag * np.eye(n)
    i, j = where
    K[i, j] = K[j, i] = 1.01 * diag  # the minor [[d, 1.01 d], [1.01 d, d]] has eigenvalue -0.01 d
    assert _count_not_psd(K) == 1
    K[i, j] = K[j, i] = diag  # singular minor, PSD
    assert _count_not_psd(K) == 0


def test_minor_test_catches_a_negative_diagonal_entry(small_full_test):
    K = np.eye(small_full_test)
    K[7, 7] = -1e-6
    assert _count_not_psd(K) == 1


@pytest.mark.parametrize("scale", [1e-160, 1e-150, 1e-3, 1.0, 1e3, 1e150])
@pytest.mark.parametrize("d", [1, 3])
def test_minor_test_accepts_a_rank_one_linear_gram_matrix(small_full_test, scale, d):
    t = np.random.default_rng(d).normal(size=small_full_test) * scale
    X = np.outer(t, np.arange(1.0, d + 1.0))
    assert _count_not_psd(X @ X.T) == 0
    assert _count_not_psd(np.outer(t, t)) == 0


def test_minor_test_at_the_real_size():
    n = v.FULL_PSD_TEST_MAX_N + 1
    t = np.random.default_rng(0).normal(size=n) * 1e-2  # diagonal below 1
    assert _count_not_psd(np.outer(t, t)) == 0
    K = 0.25 * np.eye(n)
    K[5, n - 2] = K[n - 2, 5] = 0.26
    assert _count_not_psd(K) == 1


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize(
    ("where", "mirror"),
    [((3, 37), False), ((37, 3), False), ((3, 37), True), ((20, 20), False), ((40, 2), False)],
)
def test_a_non_finite_entry_in_any_tile_is_reported_as_such(small_full_test, bad, where, mirror):
    # The one-pass scan reads the largest entry from the upper tiles only: a NaN or an
    # infinity in a lower tile must still be found (through the comparison with its mirror),
    # and a NaN must not be lost behind a larger entry of a later tile.
    K = np.eye(small_full_test)
    K[where] = bad
    if mirror:
        K[where[::-1]] = bad
    K[40, 40] = 5.0  # a later tile with a larger entry
    with pytest.raises(ValueError, match=r"^K contains NaN or infinite values"):
        v.check_gram(K)


def test_an_off_diagonal_entry_larger_than_the_diagonal_is_held_to_the_rule(small_full_test):
    # The minors are first tested with the threshold of the diagonal (for a PSD matrix the
    # largest entry is on it); an entry above every diagonal one is non-PSD by the full rule.
    K = 1e-3 * np.eye(small_full_test)
    K[2, 30] = K[30, 2] = 1.0
    assert _count_not_psd(K) == 1


# --- symmetry, anywhere in K --------------------------------------------------------------------


@given(st.integers(0, 699), st.integers(0, 699), st.sampled_from([1e-3, -1e-6, 1e3]))
def test_an_asymmetric_entry_anywhere_is_detected(i, j, bump):
    if i == j:
        j = (i + 345) % 700  # off the diagonal
    K = np.eye(700)
    K[i, j] += bump
    with pytest.raises(ValueError, match=r"^K must be symmetric"):
        v.check_gram(K, psd=False)


def test_an_asymmetric_entry_in_a_far_off_diagonal_tile_is_detected():
    for i, j in [(300, 590), (590, 300), (0, 699), (699, 0), (127, 128), (128, 127)]:
        K = np.eye(700)
        K[i, j] += 1e-3
        with pytest.raises(ValueError, match=r"^K must be symmetric"):
            v.check_gram(K)


def test_check_bool_accepts_only_booleans():
    assert v.check_bool(np.bool_(True), "flag") is True
    for value in (1, 0, "yes", None, np.array([True])):
        with pytest.raises(TypeError, match=r"^flag must be a bool"):
            v.check_bool(value, "flag")


def test_check_instance_names_the_argument_the_type_and_the_origin():
    with pytest.raises(TypeError, match=r"^res must be of type dict \(from a fit\), got NoneType"):
        v.check_instance(None, dict, "res", "a fit")
    assert v.check_instance({}, dict, "res", "a fit") == {}


@pytest.mark.parametrize("value", [0, -1, 1.0, "5", True, None])
def test_check_max_iter_is_an_integer_of_at_least_one(value):
    with pytest.raises(ValueError, match=r"^max_iter must"):
        v.check_max_iter(value)
    assert v.check_max_iter(None, default=7) == 7 and v.check_max_iter(1) == 1


@pytest.mark.parametrize("scale", [1e-12, 1.0, 1e12])
def test_the_symmetry_test_is_relative_to_the_scale_of_k(scale):
    K = scale * np.array([[1.0, 2.0], [2.0 + 1e-6, 1.0]])
    with pytest.raises(ValueError, match=r"^K must be symmetric"):
        v.check_gram(K, psd=False)
    v.check_gram(scale * np.array([[1.0, 2.0], [2.0 * (1 + 1e-14), 1.0]]), psd=False)


def test_the_not_psd_warning_points_at_the_caller_of_the_package():
    import warnings

    from kernels_ref.exceptions import NotPSDWarning
    from kernels_ref.pca import kernel_pca
    from kernels_ref.svm import soft_margin_l1

    K = np.array([[1.0, 0.9, 0.0], [0.9, 1.0, 0.9], [0.0, 0.9, 1.0]])  # lambda_min < 0
    for call in (
        lambda: soft_margin_l1(K, [1.0, -1.0, 1.0], 1.0),
        lambda: kernel_pca(K, n_components=1),
    ):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        (warning,) = [w for w in caught if w.category is NotPSDWarning]
        assert warning.filename == __file__


@pytest.mark.parametrize("ratio, warns", [(0.5, False), (1.5, True)])
def test_the_psd_rule_is_an_eigenvalue_below_minus_1e_9_times_the_largest_entry(ratio, warns):
    # K = diag(1, -ratio * 1e-9): its smallest eigenvalue is -ratio * 1e-9 * max|K|
    K = np.diag([1.0, -ratio * 1e-9])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        v.check_gram(K)
    assert any(issubclass(w.category, NotPSDWarning) for w in caught) == warns


# --- the declarations: one table of rules per public function --------------------------------

#: The modules whose public functions declare their arguments: all but the estimators (which
#: validate with scikit-learn's helpers and _parameter_constraints), the exceptions (which
#: has no function), and the two that present results rather than compute them: report (its
#: arguments are a check's own numbers, refused by name when they are not numbers) and plotting
#: (it draws on the Matplotlib axes it is given).
UNDECLARED = {"estimators", "exceptions", "plotting", "report"}
DECLARED_MODULES = sorted(
    name for name in kernels_ref.__all__ if name[0].islower() and name not in UNDECLARED
)


def _public_functions():
    import importlib
    import inspect

    for name in DECLARED_MODULES:
        module = importlib.import_module(f"kernels_ref.{name}")
        for attr in module.__all__:
            func = getattr(module, attr)
            if inspect.isfunction(func):
                yield f"{name}.{attr}", func


@pytest.mark.parametrize(("name", "func"), list(_public_functions()), ids=lambda x: str(x))
def test_every_public_function_declares_its_arguments_and_checks_none_by_hand(name, func):
    import inspect
    import re

    assert hasattr(func, "rules"), f"{name} has no @validated declaration"
    assert list(inspect.signature(func).parameters) == list(
        inspect.signature(func.__wrapped__).parameters
    )
    body = inspect.getsource(func.__wrapped__)
    body = body[body.index("def ") :]
    assert re.search(r"\bcheck_\w+\(", body) is None, f"{name} checks an argument by hand"


def test_the_signature_and_docstring_are_the_functions():
    import inspect

    from kernels_ref.kernels import gaussian_kernel

    sig = inspect.signature(gaussian_kernel)
    assert str(sig) == "(X, Y=None, *, sigma=1.0)"
    assert gaussian_kernel.__doc__.startswith("Gaussian (RBF) kernel")
    assert gaussian_kernel.__name__ == "gaussian_kernel"
    assert gaussian_kernel.__module__ == "kernels_ref.kernels"


def test_a_declaration_must_cover_exactly_the_parameters():
    with pytest.raises(TypeError, match=r"f: parameters and rules differ on \['b'\]"):

        @v.validated(a=v.positive())
        def f(a, b):
            return a

    with pytest.raises(TypeError, match=r"g: parameters and rules differ on \['c'\]"):

        @v.validated(a=v.positive(), c=v.positive())
        def g(a):
            return a


def test_rules_run_in_their_order_and_see_the_checked_arguments_before_them():
    seen = {}

    def spy(value, name, args):
        seen.update(args)
        return value

    @v.validated(K=v.gram(), y=v.labels(rows="K"), z=v.rule(spy))
    def f(y, K, z=None):
        return K, y

    K, y = f([1, -1], [[1, 0], [0, 1]])
    assert K.dtype == float and y.dtype == float  # the function gets the checked values
    assert isinstance(seen["K"], np.ndarray) and isinstance(seen["y"], np.ndarray)
    with pytest.raises(ValueError, match=r"^y must have 2 rows"):
        f([1, -1, 1], [[1, 0], [0, 1]])


def test_optional_rules_pass_none_through_and_check_anything_else():
    @v.validated(n=v.integer(low=1, optional=True))
    def f(n=None):
        return n

    assert f() is None and f(3) == 3
    with pytest.raises(ValueError, match=r"^n must lie in \[1, inf\]"):
        f(0)


def test_the_box_rule_is_shared_by_svm_and_smo():
    # One rule of C for the SVM duals and SMO: a number or one per variable, +inf allowed.
    from kernels_ref import smo, svm

    assert svm.kkt_violation.rules["C"].kind == smo.smo.rules["C"].kind == "pos_inf"
    alpha, y = np.array([0.5, 0.5]), np.array([1.0, -1.0])
    K = np.eye(2)
    for C in (np.inf, 1.0, [1.0, np.inf]):
        svm.kkt_violation(alpha, K, y, C)
        smo.working_sets(alpha, y, C)
    for bad in ([1.0], [1.0, 0.0], "1", [1.0, np.nan]):
        for call in (
            lambda C: svm.kkt_violation(alpha, K, y, C),
            lambda C: smo.working_sets(alpha, y, C),
        ):
            with pytest.raises(ValueError, match=r"^C must"):
                call(bad)
