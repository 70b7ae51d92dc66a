r"""The tuning of the engineered SMO (chapter 7): one frozen object, each value with its source.

:class:`Settings` holds every constant of the solver's engineering that is a choice rather than
a fact of the mathematics, :class:`CostModel` the times on which the second-order finish bases
its decisions. The textbook algorithm (:func:`kernels_ref.smo.smo_textbook`) needs none of them.
A value's source is one of: a paper, a measurement (with the script that regenerates it), the
rows of ``benchmarks/`` it was chosen on, or a judgement. ``benchmarks/ablation.py`` measures
each mechanism with and without it.
"""

from dataclasses import dataclass, field

__all__ = ["CostModel", "Settings"]


@dataclass(frozen=True)
class CostModel:
    """What SMO's iterations and the finish's work cost, in nanoseconds.

    The finish decides when to make an attempt and when to give one up by this model, never by
    a clock, so that a run's path does not depend on the machine's speed or load (it may on
    the rounding of its BLAS kernels, as any floating-point computation); only the ratios
    matter. Source
    of every field: measured with one BLAS thread on a 2-core x86-64 machine;
    ``benchmarks/cost_model.py`` measures them again on the machine it runs on and prints them
    beside these.

    Attributes
    ----------
    iteration, per_variable : float
        An SMO iteration: a fixed part, and a part per active variable (about ten vectorised
        calls on arrays of the active size).
    copy : float
        An entry of the active block that shrinking copies into a contiguous array.
    product : float
        An entry of K in a product :math:`Kw` (v afresh).
    rows : float
        An entry of the rows of K in a product by some of its rows.
    gather : float
        An entry of a square block gathered from K.
    flop : float
        A floating-point operation of a factorisation.
    round, round_fixed : float
        A round of a face (its refined solve and the step): per entry of its block, and fixed.
    cross : float
        A step of the crossover's simplex, or a column of its pivoted Cholesky factor.
    """

    iteration: float = 8000.0
    per_variable: float = 4.0
    copy: float = 10.0
    product: float = 0.5
    rows: float = 1.5
    gather: float = 5.0
    flop: float = 0.05
    round: float = 3.0
    round_fixed: float = 3e5
    cross: float = 1e4


@dataclass(frozen=True)
class Settings:
    """The tuning of SMO's engineering: shrinking's copy and the second-order finish.

    Pass ``settings=Settings(...)`` to :func:`kernels_ref.smo.smo` to change one; a value of
    0 turns its mechanism off. Every combination ends where SMO alone ends,
    to ``tol``: only the time it takes changes.

    Attributes
    ----------
    cost : CostModel
        The times the finish weighs its work and SMO's with. Source: a measurement
        (``benchmarks/cost_model.py``).
    chunk_min : int
        The fewest SMO iterations between two attempts of the finish. Source: a judgement (an
        attempt costs at least a product by K, a few hundred iterations' worth).
    extensions : int
        The allowances an attempt that makes progress may add to its budget (0: none). Source:
        ``benchmarks/ablation.py`` (without them the ill-conditioned and C-SVM suites take 39 %
        and 20 % longer).
    guess_rounds : int
        The rounds of the primal-dual guesses that start an attempt (0: none). Source: a
        judgement (a guess that converges repeats within a few rounds); without the guesses the
        C-SVM suite of ``benchmarks/ablation.py`` takes 49 % longer.
    guess_patience : int
        Rounds in a row without a new fewest number of changes before the guesses tighten
        their threshold, and then give up. Source: a judgement.
    refine_steps : int
        The most rounds of iterative refinement of a face's solve (1: no refinement). Source:
        a judgement (a few rounds reach round-off); without it, in ``benchmarks/ablation.py``,
        the ill-conditioned suite makes 9 % more iterations and three more of its calls end at
        the round-off level above tol.
    small_face : int
        A face of fewer variables is not searched for a low rank, and a factored face with
        more fixed variables than this is factored anew. Source: a judgement.
    cross_share, cross_grown_share : float
        The largest rank the crossover looks for, as a share of SMO's free set and of a face the
        primal method grew (0: no crossover there). Source: the ill-conditioned rows of
        ``benchmarks/ill_conditioned.py`` (at a half on grown faces, two C-SVMs took twice the
        iterations); without the crossover the ill-conditioned and SVR suites of
        ``benchmarks/ablation.py`` take 22 % longer, and without it on grown faces 40 % (an SVR
        call, 1.8 s -> 15.6 s).
    cross_rank_max : int
        The largest rank the crossover looks for (each column of its factor reads a row of
        K). Source: ``benchmarks/ablation.py`` (without it the SVR and C-SVM suites make 20 %
        and 13 % more SMO iterations).
    stall_levels : float
        Within this many times the round-off level of v, m - M is at what v can tell: a face
        minimiser there is certified with v afresh, and a run that gets no lower stops there
        (above tol, with a warning). Source: the L2 margins of an unscaled cubic kernel in
        ``benchmarks/ill_conditioned.py``, whose face minimisers end at 7 to 10 times the level.
    """

    cost: CostModel = field(default_factory=CostModel)
    chunk_min: int = 250
    extensions: int = 4
    guess_rounds: int = 30
    guess_patience: int = 3
    refine_steps: int = 6
    small_face: int = 64
    cross_share: float = 0.5
    cross_grown_share: float = 0.25
    cross_rank_max: int = 200
    stall_levels: float = 16.0
