"""The checker of kernels_ref.exercises: what every exercise shares.

The mathematics of each exercise (its reference passing, classic mistakes named, another
correct implementation passing) is tested in tests/test_exercises_<area>.py. Here: the
registry, the guarded call (a function that sleeps, raises, modifies its input, returns the
wrong type or NaN is reported, within the time limit, for every exercise), the report, and
reproducibility.
"""

import threading
import time

import numpy as np
import pytest

from kernels_ref import exercises

NAMES = exercises.names()

#: The fourteen exercises of the issue that defines the module, in the order of the course.
COURSE = {
    "gaussian_gram",
    "center_gram",
    "squared_distance_to_barycentre",
    "perceptron_primal",
    "perceptron_dual",
    "hard_margin_dual",
    "soft_margin_l1_dual",
    "smo_step",
    "intercept",
    "kernel_ridge",
    "svr_dual",
    "kernel_pca",
    "kernel_cca",
    "kernel_kmeans_step",
}


def test_the_course_is_covered():
    assert COURSE <= set(NAMES)
    assert len(NAMES) == len(set(NAMES))


@pytest.mark.parametrize("name", NAMES)
def test_each_exercise_states_its_signature_and_how_it_is_judged(name):
    ex = exercises.exercise(name)
    assert ex.signature.startswith(f"{name}(")
    assert ex.statement and ex.tolerance
    assert ex.name in str(ex) and ex.tolerance in str(ex)


@pytest.mark.parametrize("name", NAMES)
def test_the_reference_passes(name):
    report = exercises.check(name, exercises.reference(name))
    assert report.passed, str(report)
    assert report.problem is None and report.message is None
    assert bool(report) and "passed" in str(report)


def test_an_unknown_name_lists_the_names():
    with pytest.raises(ValueError, match=r"^name = 'svm' is not an exercise; .*gaussian_gram"):
        exercises.check("svm", print)
    with pytest.raises(ValueError, match=r"^name must be the name of an exercise"):
        exercises.reference(3)


def test_the_result_of_a_function_in_place_of_the_function():
    with pytest.raises(ValueError, match=r"^function must be callable"):
        exercises.check("gaussian_gram", np.zeros((2, 2)))


# --- the guarded call, for every exercise --------------------------------------------------------


def _sleeps(*args):
    time.sleep(60)


def _loops(*args):
    while True:
        pass


def _swallows(*args):  # an except Exception around the work does not swallow the limit
    while True:
        try:
            time.sleep(60)
        except Exception:
            pass


def _raises(*args):
    raise ZeroDivisionError("division by zero")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("slow", [_sleeps, _loops, _swallows])
def test_a_slow_function_is_stopped_at_the_limit(name, slow):
    start = time.perf_counter()
    report = exercises.check(name, slow, time_limit=0.2)
    assert time.perf_counter() - start < 5.0  # the limit, then no shrinking
    assert not report.passed
    assert report.timed_out and report.condition == "the time limit"
    assert "longer than the limit of 0.2 s" in report.message


def test_the_limit_holds_outside_the_main_thread():
    box = {}
    thread = threading.Thread(
        target=lambda: box.setdefault(
            "r", exercises.check("gaussian_gram", _sleeps, time_limit=0.2)
        )
    )
    thread.start()
    thread.join(10)
    assert not thread.is_alive()
    assert box["r"].condition == "the time limit"


@pytest.mark.parametrize("name", NAMES)
def test_a_function_that_raises_is_reported(name):
    report = exercises.check(name, _raises)
    assert not report.passed
    assert report.message == "the function raised ZeroDivisionError: division by zero"


def test_a_failure_is_shrunk_to_the_smallest_problem():
    reference = exercises.reference("gaussian_gram")

    def fails_from_three_rows(X, Z, sigma):
        if len(X) >= 3:
            raise IndexError("three rows")
        return reference(X, Z, sigma)

    report = exercises.check("gaussian_gram", fails_from_three_rows)
    X, Z, sigma = report.problem.args.values()
    assert (len(X), len(Z), sigma) == (3, 1, 1.0)
    assert not np.any(Z) and X.shape == (3, 2)


@pytest.mark.parametrize("name", NAMES)
def test_a_function_that_writes_into_its_input_is_reported(name):
    reference = exercises.reference(name)

    def writes(*args):
        answer = reference(*args)
        for arg in args:
            if isinstance(arg, np.ndarray) and arg.size:
                arg.flat[0] += 1.0
                break
        return answer

    report = exercises.check(name, writes)
    assert not report.passed
    assert "modified its argument" in report.message and ".copy()" in report.message


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    ("answer", "words"),
    [("K", "got a str"), (None, "got None"), ({"a": 1}, "got a dict")],
)
def test_an_answer_of_the_wrong_type_is_reported(name, answer, words):
    report = exercises.check(name, lambda *args: answer)
    assert not report.passed
    assert words in report.message


@pytest.mark.parametrize("name", NAMES)
def test_nan_is_reported(name):
    reference = exercises.reference(name)

    def nan_in(*args):
        answer = reference(*args)
        if isinstance(answer, tuple):
            return (np.full_like(np.asarray(answer[0], dtype=float), np.nan), *answer[1:])
        return np.full_like(np.asarray(answer, dtype=float), np.nan)

    report = exercises.check(name, nan_in)
    assert not report.passed
    assert "nan" in report.message.lower()


# --- the report ----------------------------------------------------------------------------------


def _gram_no_two(X, Z, sigma):
    d2 = ((X[:, None, :] - Z[None, :, :]) ** 2).sum(axis=-1)
    return np.exp(-d2 / sigma**2)


def test_a_report_is_reproducible():
    first = exercises.check("gaussian_gram", _gram_no_two)
    again = exercises.check("gaussian_gram", _gram_no_two)
    assert str(first) == str(again) and first.examples == again.examples


def test_a_report_shows_problem_expected_and_returned():
    report = exercises.check("gaussian_gram", _gram_no_two)
    text = str(report)
    assert text.startswith("gaussian_gram: FAILED")
    for part in ("smallest failing problem", "expected:", "returned:", "Judged:", "Time limit:"):
        assert part in text
    assert all(len(line) <= 88 for line in text.splitlines())
    assert report.line().startswith("gaussian_gram: FAILED on ")
    assert "the factor 2 of 2 sigma^2 is missing" in report.line()
    # the shown problem rebuilds the failure: the reference and the function disagree on it
    X, Z, sigma = report.problem.args.values()
    assert not np.allclose(
        _gram_no_two(X, Z, sigma), exercises.reference("gaussian_gram")(X, Z, sigma)
    )


def test_shown_values_never_show_round_off():
    from kernels_ref.exercises._core import _text

    assert _text(np.array([1.0, -1e-17, 0.1 + 0.2])) == "[1, 0, 0.3]"
    assert _text(-0.0) == "0"
    assert [_text(x) for x in (10.00001, 999.99996, 0.25, 1234.5678)] == [
        "10",
        "1000",
        "0.25",
        "1234.6",
    ]
    assert _text(np.array([[0.0, 2.0], [-1.0, 0.5]])) == "[[0, 2], [-1, 0.5]]"


def test_a_callers_own_alarm_survives_a_check():
    import signal

    fired = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(True))
    signal.setitimer(signal.ITIMER_REAL, 30.0)
    try:
        exercises.check("gaussian_gram", exercises.reference("gaussian_gram"), max_examples=3)
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert 20.0 < remaining <= 30.0 and not fired
