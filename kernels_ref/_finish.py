r"""The second-order finish of SMO (chapter 7, "Why SMO crawls, and a second-order finish").

SMO is a first-order method: on an ill-conditioned problem (an unscaled polynomial kernel, a
raw low-rank linear kernel, a large :math:`C`) :math:`m - M` falls linearly at a slow rate.
Between chunks of SMO, :class:`_Finisher` guesses the active set from the iterate and solves
the problem on its face, the KKT system of the free block (:class:`_Face`: a Newton step, the
objective being quadratic). Its point ends the run only if :math:`m - M \le \varepsilon` on all
variables, the certificate of SMO's own stopping rule; otherwise SMO resumes from it.
"""

from dataclasses import dataclass

import numpy as np

from ._linalg import _TRIANGULAR_BLOCK, block_inverses, solve_cholesky, solve_lower
from ._qmatrix import AugmentedGram, _block, _columns_product, _submatrix
from ._solver import _working_sets


@dataclass(frozen=True)
class Mechanisms:
    """Which mechanisms of the second-order finish (:class:`_Finisher`) run: all by default.

    Each can be turned off on its own, to measure what it buys (``benchmarks/ablation.py``)
    and to test that the answer does not depend on it: every combination ends where SMO alone
    ends, to ``tol``.

    Attributes
    ----------
    primal_dual : bool
        The primal-dual guesses that start an attempt (:meth:`_Finisher._primal_dual`).
    crossover : bool
        The crossover of SMO's free set to a vertex on a low-rank face (:func:`_crossover`).
    crossover_grown : bool
        The crossover again on the faces the primal method grew.
    border : bool
        Bordering a factored face with the variables released, and sharing the factor between
        primal-dual rounds, instead of factoring anew (:meth:`_Face.extend`).
    extensions : bool
        The allowances added to an attempt that makes progress (:meth:`_Finisher._over`).
    eigh_faces : bool
        Small faces that may be of low rank factored by ``eigh`` rather than Cholesky.
    near_level_wait : bool
        At a tol within ten times the round-off level of v, wait for several rounds at that
        level before stopping there (otherwise stop at the first).
    refine : bool
        Iterative refinement of a face's solve (otherwise one solve).
    """

    primal_dual: bool = True
    crossover: bool = True
    crossover_grown: bool = True
    border: bool = True
    extensions: bool = True
    eigh_faces: bool = True
    near_level_wait: bool = True
    refine: bool = True


#: The cost model of the finish, in nanoseconds (measured with one BLAS thread on a 2-core
#: x86-64 machine; only the ratios matter): an SMO iteration costs ITER_NS plus ITER_NS_PER_VAR
#: per active variable (9.7 us at 700 active variables, 37 us at 4,200 with rows out of cache);
#: the finish reads the rows of K of the nonzero multipliers (GEMV_NS per entry) to recompute v
#: (:func:`_scores`), gathers a free block (GATHER_NS per entry), factors it (FLOP_NS per flop,
#: f^3 / 3 flops), and spends ROUND_NS per entry of the block, plus ROUND_FIXED_NS, on one round
#: of a face (the refined solve of :meth:`_Face.newton` and the step: 2.8 ms at f = 1,000,
#: 0.35 ms at f = 40).
ITER_NS, ITER_NS_PER_VAR = 8000.0, 4.0


GEMV_NS, GATHER_NS, FLOP_NS, ROUND_NS, ROUND_FIXED_NS = 0.5, 5.0, 0.05, 3.0, 3e5


#: A product by the rows of K of k variables (:func:`_columns_product`: the rows gathered, then
#: multiplied) costs ROWS_NS per entry, k n entries: 1.3 ns measured at n = 2,000 to 8,000 and
#: k = 300 to 1,000, where gathering a square block costs GATHER_NS per entry.
ROWS_NS = 1.5


#: Refinement steps of the solve of one face; variables fixed on a factored face before the
#: face is factored anew without them (the constraints e_j = 0 cost O(k^2 f) per solve).
FINISH_REFINE = 6


FIXED_MAX = 64


#: Rounds of the primal-dual phase of an attempt (:meth:`_Finisher._primal_dual`), and
#: rounds in a row without a new fewest number of changes of its guess before it gives up.
PDAS_MAX, PDAS_PATIENCE = 30, 3


#: A primal-dual step longer than PDAS_FAR times the largest multiplier or bound went along a
#: null direction of the face (:meth:`_Face.newton`): the guess is hopeless.
PDAS_FAR = 1e3


#: A primal-dual step that leaves the box by more than PDAS_GROWTH times the least excess of
#: the phase's points so far: the guesses diverge.
PDAS_GROWTH = 30.0


#: A guess that changes more than PDAS_WILD times as many variables as the face had (plus 64)
#: is far off: the phase gives up, as on a null direction.
PDAS_WILD = 8


#: The fewest SMO iterations before an attempt of the finish.
CHUNK_MIN = 250


#: Allowances that an attempt making progress may add to its limit (:meth:`_Finisher._over`):
#: it has cut m - M to EXTEND_GAP times its start, or lowers the objective faster than SMO.
EXTEND_MAX = 4


EXTEND_GAP = 1e-2


#: Attempts in a row that end at the round-off level of v (above a tol within ten times of
#: it) before the run stops there.
STALLS = 4


#: An attempt ends at the round-off level of v when no variable violates its condition by more
#: than the level and m - M is within STALL_LEVELS times it: the level estimates the round-off
#: of v alone, and the solve of an ill-conditioned face adds its own (its refinement stops when
#: the residual stops halving); on an L2 margin with an unscaled cubic kernel the face's
#: minimisers end at 7 to 10 times the level.
STALL_LEVELS = 16.0


#: Free blocks of up to this many variables are factored by ``eigh`` rather than Cholesky when
#: they may be of low rank: eigh costs about ten times more, but a solve with it is two products
#: where the blocked triangular solves cost about a millisecond, and an attempt on a
#: rank-deficient face may need dozens of solves. A block of CROSS_MIN variables or more found
#: to be of full rank (:meth:`_Finisher._cross`) is factored by Cholesky: a face of a
#: well-conditioned problem is usually solved in one or two solves.
EIGH_MAX = 400


class _Finisher:
    r"""The second-order finish of SMO: when SMO crawls, solve the KKT system on its face.

    From SMO's point, guess the active set: the variables at a bound stay there, the free ones
    :math:`F` move by :math:`\Delta\alpha_F = y_F \circ e`, where :math:`e` minimises the
    objective on the face (:class:`_Face`). The step :math:`te` goes to the minimiser along
    :math:`e` or stops at the first bound met: the variables that meet their bound are fixed
    there and the face shrinks (a primal active-set method; every step lowers the objective).
    When a step ends inside the box, :math:`v` is recomputed afresh and the point is accepted,
    ending the run, only if the KKT violation :math:`m - M` on **all** variables is at most
    ``tol``; otherwise the bounded variables that violate are freed and the method goes on.
    Before that primal method, an attempt makes primal-dual guesses (:meth:`_primal_dual`),
    which change many variables of the guess per solve where the primal method changes one.

    Cost. An attempt may spend its allowance (:meth:`attempt`), or up to EXTEND_MAX more while
    it makes progress (:meth:`_over`), and its primal-dual guesses as much again; one that
    fails hands the point, better than SMO's, back to SMO for twice the allowance
    (:meth:`chunk`) and doubles the allowance: the time of the attempts that fail is a bounded
    share of SMO's, and a problem on which SMO crawls reaches the finish after a bounded share
    of the crawl. An attempt that ends at the round-off level of v leaves the allowance as it
    is: the next attempts, which decide whether the run stops there, come as soon. A free block
    that is not PSD ends the finish for the run.
    """

    def __init__(self, act, tol, mechanisms=None):
        self.act, self.tol = act, tol
        self.on = Mechanisms() if mechanisms is None else mechanisms
        self.enabled = True
        self.stalled = False  # the run ends at the round-off level of v, above tol
        self.roundoff = None  # that level
        self.stalls = 0  # attempts in a row that ended there
        self.rank_above = 0  # a rank a free block was found to exceed (:meth:`_cross`)
        self.spent = 0.0  # cost of the crossovers of the attempt, in ns
        self.allowance = max(2.0 * self._entry_cost(max(len(_free_set(act)), 100)), 1e6)  # ns
        self.cost = self.limit = 0.0  # the attempt's cost so far and its limit, in ns
        self.extensions = 0  # allowances added to the limit for the attempt's progress
        self.start = self.best = np.inf  # the attempt's violation m - M at its start, its best
        self.gain = 0.0  # the objective's decrease by the attempt's steps (:func:`_face_step`)
        self.smo_gain = 0.0  # the objective's decrease by SMO since the last attempt
        self.fresh_alpha, self.fresh_v = act.alpha.copy(), act.v.copy()  # the last v afresh
        self.level = None  # the round-off level of v in the attempt, once computed
        self.stall = False  # the attempt stopped at that level, above tol
        self.progress = False  # the primal-dual phase's last round reached a new low
        self.hopeless = 0  # primal-dual phases that ended on a step along a null direction
        self.skip = 0  # attempts that skip the primal-dual phase
        self.smo_cost = 0.0  # the cost of SMO's iterations since the last attempt, in ns
        self.smo_from = act.objective()  # the objective there
        self.attempts = self.solves = 0  # attempts made, and solves of a face's KKT system

    def count(self, iterations):
        """Add the cost of SMO ``iterations`` on the current active set."""
        self.smo_cost += iterations * (ITER_NS + ITER_NS_PER_VAR * self.act.size)

    def _over(self):
        """Whether the attempt has spent its limit. The limit grows by one allowance (at most
        EXTEND_MAX times) while the attempt makes progress: it has cut the violation m - M to
        EXTEND_GAP times its value at the start or less, or it has lowered the objective at
        least as fast, per ns of the cost model, as SMO's iterations since the last attempt, or
        (in the primal-dual phase) its last guess changed fewer variables than any before.
        Such an attempt fails, if it fails, only for its budget, and its point would go back to
        SMO for twice the allowance: on a C-SVM of 8,000 points at C = 10, an attempt had cut
        m - M from 2.6e-2 to 1.4e-4 when its budget ran out, and SMO then needed 17,000
        iterations to get to where the next attempt ended the run; on a nu-SVM with a Gaussian
        kernel (n = 300, sigma = 3), attempts that each fixed one variable per round lowered
        the objective faster than SMO and were cut off, four times.
        """
        if self.cost <= self.limit:
            return False
        faster = self.gain * self.smo_cost >= self.smo_gain * self.cost
        progress = self.best <= EXTEND_GAP * self.start or faster or self.progress
        if self.on.extensions and self.extensions < EXTEND_MAX and progress:
            self.limit += self.allowance
            self.extensions += 1
            return False
        return True

    def _rank_search(self, f, share=None):
        """The largest rank the crossover looks for on a face of f variables (:meth:`_cross`),
        ``share`` of f (CROSS_RANK_SHARE by default), or None when it does not look: a small
        face, or one whose block is already known to be of a larger rank (the rank of the Gram
        matrix does not change during the run)."""
        r_max = min(int((CROSS_RANK_SHARE if share is None else share) * f), CROSS_RANK_MAX)
        return r_max if f >= CROSS_MIN and r_max > self.rank_above else None

    def _eigh(self, f):
        """Whether a face of f variables is factored by ``eigh`` (see :data:`EIGH_MAX`): not
        when it is large enough for the rank search and of full rank as far as it looked."""
        if not self.on.eigh_faces:
            return False
        return f <= EIGH_MAX and (f < CROSS_MIN or self._rank_search(f) is not None)

    def _face_cost(self, f):
        """A face of f variables: gather and factor its block."""
        flops = 4.0 * f**3 if self._eigh(f) else f**3 / 3.0  # eigh or Cholesky
        return GATHER_NS * f**2 + FLOP_NS * flops

    def _entry_cost(self, f):
        """An attempt's first face, with the product by K that gives v afresh before it. When
        the crossover will look for the block's rank first (:meth:`_cross`), the face is either
        of low rank, and the crossover leaves a small face, or of full rank, and Cholesky
        factors it: the cost is the search's and Cholesky's, not eigh's."""
        r_max = self._rank_search(f)
        if r_max is None:
            return self._face_cost(f) + self._fresh_cost()
        search = CROSS_NS * r_max + GATHER_NS * r_max * self.act.n
        return search + GATHER_NS * f**2 + FLOP_NS * f**3 / 3.0 + self._fresh_cost()

    def _round_cost(self, f):
        """A round of a face of f variables: the refined solve of :meth:`_Face.newton` and the
        step."""
        return ROUND_FIXED_NS + ROUND_NS * f**2

    def _extension_cost(self, f, k):
        """Bordering a Cholesky face of f variables with k (:meth:`_Face.extend`)."""
        flops = f**2 * (k + 4) + k**3 / 3.0 + _TRIANGULAR_BLOCK**2 * f  # (with block_inverses)
        return GATHER_NS * (f + k) * k + FLOP_NS * flops

    def _fresh_cost(self):
        """v afresh (:func:`_scores`): the rows of the nonzero multipliers, or all of K."""
        n = self.act.n
        nonzero = np.count_nonzero(self.act.alpha)
        return GEMV_NS * n * (nonzero if 2 * nonzero <= n else n)

    def chunk(self):
        """SMO iterations worth twice the allowance of the next attempt, at least CHUNK_MIN
        (and then the allowance is half their cost)."""
        per_iteration = ITER_NS + ITER_NS_PER_VAR * self.act.size
        iterations = max(int(2.0 * self.allowance / per_iteration), CHUNK_MIN)
        self.allowance = max(self.allowance, 0.5 * iterations * per_iteration)
        return iterations

    def affordable(self):
        """Whether the allowance covers the first face at SMO's current point; if not, the
        attempt is skipped as one that failed (the allowance doubles), and SMO goes on with its
        active set as it is (no unshrinking)."""
        cost = self._entry_cost(len(_free_set(self.act)))
        if cost <= self.allowance:
            return True
        self.allowance = max(2.0 * self.allowance, 1.5 * cost)
        return False

    def _roundoff(self):
        r"""The round-off level of v (:meth:`_ActiveSet.roundoff`, two products by |K|), or a
        bound on it when the bound is below tol (then the level plays no part); its cost is counted:
        :math:`|\tilde K_{ts}| \le \max_t \tilde K_{tt}` for a PSD matrix."""
        act = self.act
        u = np.finfo(float).eps / 2.0
        bound = u * (act.kmax * float(act.alpha.sum()) + float(np.max(np.abs(act.p))))
        if bound <= self.tol:
            return bound
        self.cost += 2.0 * GEMV_NS * act.n**2  # charged as two products by all of K
        return act.roundoff()

    def _cross(self, free, grown=False):
        """The free set after the crossover of a large rank-deficient face (its variables that
        :func:`_crossover` left inside the box), or as it is. Once a free block is found to
        have a rank above r, the crossover is tried only on faces large enough to look for a
        larger rank: the rank of the Gram matrix does not change during the run.

        It is tried on SMO's free set, the first face of an attempt, for a rank up to
        CROSS_RANK_SHARE of the face, and on a face ``grown`` by the primal method with the
        variables it released, up to CROSS_GROWN_SHARE, when the method factors it anew (not
        when it borders the factor; also when the face shrank past FIXED_MAX fixed
        variables: without it there, a C-SVM of the ill-conditioned families, n = 1000, took
        twice the SMO iterations, 17,147 -> 34,569). On a kernel of low rank these faces
        grow to many times the rank, and the method's steps fix their variables one or a few
        per round: on an SVR with a cubic kernel in 3-D (rank 20, n = 300, C = 1e4), faces
        of 135 to 151 variables on average, and three attempts that gave up after 273 of
        them. Up to half the face, the crossover also sends variables just released, which
        violate their condition by a little, to the opposite bound: two C-SVMs of the
        ill-conditioned families (n = 300) took twice the SMO iterations (4,181 -> 8,644)."""
        f, act = len(free), self.act
        r_max = self._rank_search(f, CROSS_GROWN_SHARE if grown else None)
        if r_max is None or not (self.on.crossover_grown if grown else self.on.crossover):
            return free
        self.spent += CROSS_NS * r_max + GATHER_NS * r_max * act.n
        G = _low_rank(act, free, r_max)
        if G is None:
            self.rank_above = r_max
            return free
        try:
            moved = _crossover(act, free, G, self.tol)
        except np.linalg.LinAlgError:  # a basis of its simplex turned singular: no move
            moved = None
        self.spent += CROSS_NS * (f if moved is None else moved.sum())
        return free if moved is None else free[~moved]

    def _primal_dual(self, free):
        r"""The primal-dual active-set phase of an attempt (Hintermüller, Ito & Kunisch
        2003): from the point of ``act`` and its free set, guess the active set, solve the
        face, guess again from the solution, until the guess repeats.

        Each round minimises the objective on the face of the free set ``free`` with every
        other variable at its bound (:meth:`_Face.newton`), takes the whole step, and makes
        the next guess: a free variable that left the box goes to the bound it passed, and a
        variable at a bound on the wrong side of the face's threshold is freed
        (:class:`_Stretch` says by how much). Where the primal method of :meth:`attempt`
        changes one variable per round, this one changes as many as the guess says. Its points
        leave the box and need not lower the objective, and it may cycle. A point in the box
        is certified with v afresh. The rounds share a factor where they can
        (:meth:`_next_face`): a round that changes k of f variables then costs O(f^2 k) where
        factoring the new face costs f^3 / 3.

        The phase has its own budget, one allowance (and extensions while it progresses), so
        that a phase that gives up leaves the attempt's budget to the primal method. Returns
        the violation m - M (v afresh) of the point it ends at, in the box and with an
        objective below the start's; or None, with the starting point put back, when it gave
        up (after PDAS_MAX rounds, a second stretch without a new low, a hopeless guess, or
        when its budget runs out).
        """
        act = self.act
        start_alpha, start_v = act.alpha.copy(), act.v.copy()
        stretch = _Stretch(self._roundoff(), self.tol)  # (charged to the attempt)
        budget = self.cost, self.limit, self.extensions
        self.cost, self.limit, self.extensions = 0.0, self.allowance, 0
        kept = self._guesses(free, act.objective(), stretch)
        self.progress = False
        if kept is None or not kept[2] < self.start:  # (no point that improves on the start)
            self.cost, self.limit, self.extensions = budget
            act.alpha[:] = start_alpha
            act.refresh(start_v)
            return None
        self.cost += budget[0]
        self.limit, self.extensions = budget[1:]
        act.alpha[:] = kept[0]
        act.refresh(kept[1], fresh=True)
        return kept[2]

    def _guesses(self, free, start_objective, stretch):
        """The rounds of :meth:`_primal_dual` from the free set ``free`` (:class:`_Stretch`):
        the last point in the box whose objective is at most ``start_objective``, as (alpha,
        v, m - M), or None."""
        act, tol = self.act, self.tol
        alpha, C = act.alpha, act.C_all
        groups = _groups(act) or []
        finite = C[C < np.inf]
        scale = max(float(alpha.max()), float(finite.max(initial=0.0)), np.finfo(float).tiny)
        face, moved, kept = None, None, None
        for _ in range(PDAS_MAX):
            f = len(free)
            if f == 0 or not self._charge_round(f, face is None):
                break
            if face is None:
                try:
                    face = _Face(act, free, self._eigh(f))
                except np.linalg.LinAlgError:
                    break
            # the constraints' right-hand sides: minus the moves to the bounds of each group
            c = None if moved is None else np.array([m for m, g in moved if np.any(g[face.free])])
            e, _ = face.newton(act.v[face.free], tol, c, self._refine())
            if not np.max(np.abs(e)) <= PDAS_FAR * scale:  # a null direction of K_FF
                self._hopeless()
                break
            outside, excess = self._whole_step(free, e[~face.fixed])  # (e = 0 if fixed)
            if stretch.diverges(excess):
                break
            inside = not np.any(outside)
            violation = self._afresh() if inside else None
            released, wrong = _violators(act, free, stretch.threshold, amounts=True)
            if inside and act.objective() <= start_objective:
                kept = alpha.copy(), act.v.copy(), violation
                if violation <= tol or not np.any(wrong > stretch.last):
                    break
            changes = np.count_nonzero(outside) + len(released)
            if changes > PDAS_WILD * f + 64:  # a guess far off the face it came from: hopeless
                self._hopeless()
                break
            verdict = stretch.count(changes)
            self.progress = verdict == "new low"
            if verdict == "give up":
                break
            if verdict == "tighten":
                released = released[wrong > stretch.threshold]
            jump = free[outside]
            jumped = self._jump(jump)
            free = np.union1d(free[~outside], released)
            if any(np.any(g[jump]) and not np.any(g[free]) for g in groups):
                break  # a constraint with no free variable left to make up for the jumps
            face = self._next_face(face, free, np.flatnonzero(outside), released)
            if face is not None:  # the same variables, in the order of the face
                free = face.free[~face.fixed]
            moved = [(-jumped[g[jump]].sum(), g) for g in groups]
        return kept

    def _charge_round(self, f, factor):
        """Charge a primal-dual round on a face of f variables (and its factorisation), unless
        the budget is spent: then nothing is charged and False is returned."""
        cost = self._round_cost(f) + ROWS_NS * self.act.n * f
        cost += self._face_cost(f) if factor else 0.0
        self.cost += cost
        if self._over():
            self.cost -= cost
            return False
        return True

    def _whole_step(self, free, e):
        """Move the variables ``free`` by ``y * e``, wherever that leaves them: which are out of
        the box, and by how much the farthest is (0 inside)."""
        act = self.act
        alpha, y, C = act.alpha, act.y_all, act.C_all
        alpha[free] += y[free] * e
        act.moved(None, _columns_product(act.K, free, e))
        _balance_extras(act, float(e.sum()))
        beyond = np.maximum(-alpha[free], alpha[free] - C[free])  # > 0: out of the box
        return beyond > 0.0, float(beyond.max())

    def _jump(self, jump):
        """Send the variables ``jump``, out of the box, to the bound they passed; return their
        moves times y (the next face's free variables make up for them in the constraints)."""
        act = self.act
        alpha, y, C = act.alpha, act.y_all, act.C_all
        bound = np.where(alpha[jump] > C[jump], C[jump], 0.0)
        jumped = y[jump] * (bound - alpha[jump])
        alpha[jump] = bound
        act.moved(None, _columns_product(act.K, jump, jumped))
        _balance_extras(act, float(jumped.sum()))
        self.cost += ROWS_NS * act.n * len(jump)
        return jumped

    def _afresh(self):
        """v afresh at the point of ``act`` (its cost counted), and m - M from it."""
        self.act.reset()
        self.cost += self._fresh_cost()
        return self.act.gap(self.act.two)

    def _next_face(self, face, free, jumped, released):
        r"""The face of the next primal-dual round, or None to factor ``free`` anew (also when
        ``face`` is None: a new :math:`\mu`).

        ``face`` itself when its factor can serve, as in the primal method of :meth:`attempt`:
        the variables ``jumped`` (positions among its moving ones) are fixed on it,
        :math:`e_j = 0`, and ``released`` border its factor (:meth:`_Face.extend`). Not for a
        face factored by ``eigh``, nor beyond FIXED_MAX fixed variables, nor when the new
        variables are more than half of ``free``, the next round's moving ones.
        """
        if face is None or face.L is None or len(face.fixed_index) + len(jumped) > FIXED_MAX:
            return None
        if not self.on.border:
            return None
        k = len(np.setdiff1d(released, face.free))
        if 2 * k > len(free):
            return None
        if len(jumped):  # a solve with the factor per fixed variable
            self.cost += FLOP_NS * 2.0 * len(face.free) ** 2 * len(jumped)
            face.fix(np.flatnonzero(~face.fixed)[jumped])
        if len(released):
            self.cost += self._extension_cost(len(face.free), k)
            try:
                face.extend(act=self.act, released=released)
            except np.linalg.LinAlgError:
                return None
        return face

    def _refine(self):
        """The refinement steps of the next solve of a face's KKT system (counted)."""
        self.solves += 1
        return FINISH_REFINE if self.on.refine else 1

    def _hopeless(self):
        """A primal-dual phase that ended hopeless: the next 2, 4, 8, ... attempts skip it."""
        self.hopeless += 1
        self.skip = 2**self.hopeless

    def attempt(self):
        """One attempt from the point of ``act`` (every variable active, v fresh), the
        algorithm box of chapter 7; returns the violation m - M of the point it leaves there
        (v recomputed afresh)."""
        act, tol = self.act, self.tol
        violation = act.gap(act.two)
        if violation <= tol:  # SMO's last step of the chunk ended the run
            return violation
        self._begin(violation)
        free = self._cross(_free_set(act))  # 1. the crossover of SMO's free set
        guess = len(free) and self._guess_now()
        found = self._primal_dual(free) if guess else None  # 2. the primal-dual guesses
        if found is not None:  # a point in the box, v afresh
            violation = self._found(found)
            free = _free_set(act)
        if violation > tol and len(free):
            violation = self._primal(free, violation)  # 3. the primal active-set method
        return self._end(violation)

    def _begin(self, violation):
        """The state of an attempt that starts at the violation m - M."""
        act = self.act
        self.attempts += 1
        self.cost, self.limit, self.extensions, self.gain = 0.0, self.allowance, 0, 0.0
        self.spent = 0.0
        self.start = self.best = violation
        self.smo_gain = self.smo_from - act.objective()  # SMO's since the last attempt
        self.fresh_alpha, self.fresh_v = act.alpha.copy(), act.v.copy()
        self.level, self.stall = None, False

    def _guess_now(self):
        """Whether this attempt makes primal-dual guesses (see :meth:`_hopeless`)."""
        if self.skip:
            self.skip -= 1
            return False
        return self.on.primal_dual

    def _found(self, violation):
        """The primal-dual phase ended at a point of the box, v afresh, at ``violation``."""
        self.fresh_alpha, self.fresh_v = self.act.alpha.copy(), self.act.v.copy()
        self.best = min(self.best, violation)
        return violation

    def _primal(self, free, violation):
        """Step 3 of the box, the primal active-set method, from the face of ``free``: solve,
        step to the minimiser or to the first bound met (which fixes the variables there),
        and at a minimiser of the face decide with v whether it is the solution or which
        bounded variables to free. Returns m - M where it stops."""
        act, tol = self.act, self.tol
        face, grown = None, False
        while len(free):
            if face is None:
                if grown:  # by the variables released (or shrunk past FIXED_MAX)
                    free = self._cross(free, grown=True)
                face, grown = self._factor(free), True
                if face is None:
                    break
            self.cost += self._round_cost(len(face.free))
            if self._over():
                break
            e, Ke = face.newton(act.v[face.free], tol, steps=self._refine())
            step, gain = _face_step(act, face, e, Ke)
            self.gain += gain
            if step is None:  # no descent, or unbounded along e (SMO will prove it)
                break
            if step:  # variables fixed at their bound: the face shrinks
                if len(face.fixed_index) > FIXED_MAX:  # cheaper to factor the smaller face
                    free, face = face.free[~face.fixed], None
                continue
            violation = self._minimiser()
            if violation <= tol or self._over():
                break
            # half of tol on either side of the threshold: m - M <= tol at the face minimiser
            released = _violators(act, face.free[~face.fixed], max(0.5 * tol, self._level()))
            if len(released) == 0:  # optimal on this face, to the level of v
                return self._face_optimum(violation)
            if not self._border(face, released):
                free, face = np.union1d(face.free[~face.fixed], released), None
        return violation

    def _factor(self, free):
        """The face of ``free``, factored, with the cost of its crossover; None when the
        budget is spent, or when K_FF is not PSD (which ends the finish for the run)."""
        self.cost += self.spent + self._face_cost(len(free))
        self.spent = 0.0
        if self._over():
            return None
        try:
            return _Face(self.act, free, self._eigh(len(free)))
        except np.linalg.LinAlgError:  # K_FF is not PSD
            self.enabled = False
            return None

    def _minimiser(self):
        """m - M at the minimiser of the face just reached: v on all variables by an update
        from the last v afresh (the rows of the variables moved since), and afresh only to
        certify a point that the update says is the solution, or is at the round-off level of
        v (where the update's own round-off may decide)."""
        act, tol = self.act, self.tol
        moved = np.flatnonzero(act.alpha != self.fresh_alpha)
        step = act.y_all[moved] * (act.alpha[moved] - self.fresh_alpha[moved])
        act.refresh(self.fresh_v - _columns_product(act.K, moved, step))
        self.cost += ROWS_NS * act.n * len(moved)
        gap = act.gap(act.two)
        self.best = min(self.best, gap)
        if gap <= tol or gap <= 8.0 * self._level():
            gap = self._afresh()
            self.fresh_alpha, self.fresh_v = act.alpha.copy(), act.v.copy()
        return gap

    def _level(self):
        """The round-off level of v in this attempt (computed once, when first needed)."""
        if self.level is None:
            self.level = self._roundoff()
        return self.level

    def _face_optimum(self, violation):
        """No bounded variable violates at the face's minimiser, to the level of v: m - M
        afresh decides; above tol and within STALL_LEVELS of the level, the attempt has
        stalled at what v can tell."""
        tol = self.tol
        if not self.act.fresh:
            violation = self._afresh()
            if violation <= tol:
                return violation
        level = self._level()
        if tol < level and violation <= STALL_LEVELS * level:
            self.stall, self.roundoff = True, level
        return violation

    def _border(self, face, released):
        """Whether the variables ``released`` border the face's Cholesky factor (the fixed
        ones stay fixed); otherwise the face is factored anew."""
        if not (self.on.border and face.L is not None and 2 * len(released) <= len(face.free)):
            return False
        self.cost += self._extension_cost(len(face.free), len(released))
        try:
            face.extend(self.act, released)
        except np.linalg.LinAlgError:  # not PSD beyond mu: factor anew, and decide
            return False
        return True

    def _end(self, violation):
        """The end of an attempt at ``violation``: v afresh if the finish moved alpha, the
        allowance doubled if it failed, and whether the run stops at the round-off level."""
        act, tol = self.act, self.tol
        if not act.fresh:  # the finish moved alpha: v afresh, and the violation from it
            act.reset()
            violation = act.gap(act.two)
        self.smo_from, self.smo_cost = act.objective(), 0.0
        if violation > tol and not self.stall:  # (at the level of v, SMO gets as many as before)
            self.allowance *= 2.0
        # The run stops at the round-off level of v at once when tol is far below it, after
        # STALLS attempts in a row otherwise: the level is an upper estimate, and SMO alone
        # may still get below a tol near it (it reaches 1e-12 at a level of 5e-12).
        self.stalls = self.stalls + 1 if self.stall and violation > tol else 0
        far = self.roundoff is not None and _far_below(tol, self.roundoff)
        self.stalled = self.stalls >= (1 if far or not self.on.near_level_wait else STALLS)
        return violation


class _Stretch:
    """A stretch of primal-dual guesses (:meth:`_Finisher._guesses`): while the number of
    changes of a guess reaches new lows, a bounded variable is freed when it violates its
    condition by more than the round-off level of v (freeing the many that do by little keeps
    the faces large and the guesses converging); after PDAS_PATIENCE rounds without a new low,
    only by more than ``last`` = max(tol / 2, that level), and the faces shrink; after as many
    again, the phase gives up. The steps that leave the box by more than PDAS_GROWTH times
    the least excess so far diverge."""

    def __init__(self, roundoff, tol):
        self.threshold = roundoff  # a bounded variable that violates by more is freed
        self.last = max(0.5 * tol, roundoff)  # the threshold of the last stretch
        self.fewest = np.inf  # the fewest changes of a guess so far
        self.waited = 0  # rounds since then
        self.least = np.inf  # the least excess of a point over the box so far
        self.endgame = False  # in the last stretch

    def diverges(self, excess):
        """Whether a step that leaves the box by ``excess`` (0 inside) shows divergence."""
        if excess > PDAS_GROWTH * self.least:
            return True
        if excess > 0.0:
            self.least = min(self.least, excess)
        return False

    def count(self, changes):
        """Count a guess of ``changes`` changes: "new low", "wait", "tighten" (the last
        stretch begins: free only by more than ``last``) or "give up"."""
        if changes < self.fewest:
            self.fewest, self.waited = changes, 0
            return "new low"
        self.waited += 1
        if self.waited <= PDAS_PATIENCE:
            return "wait"
        if self.endgame:
            return "give up"
        self.threshold, self.endgame, self.fewest, self.waited = self.last, True, np.inf, 0
        return "tighten"


def _face_step(act, face, e, Ke):
    r"""Move the free variables of ``face`` along the face's minimiser ``e`` to the minimiser
    along :math:`e`, :math:`t^* = v_F^\top e / e^\top K_{FF} e`, or to the first bound met
    before it, and fix the variables that meet a bound there. Returns whether any did (the
    face shrank; None when there is no step) and the decrease of the objective."""
    alpha, C, y = act.alpha, act.C_all, act.y_all
    index, vF = face.free, act.v[face.free]
    descent, curvature = float(vF @ e), float(e @ Ke)  # -g^T d and d^T Q d
    if not descent > 0.0:
        return None, 0.0
    d = y[index] * e
    end = np.where(d > 0.0, C[index], 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(d != 0.0, (end - alpha[index]) / d, np.inf)
    t_line = descent / curvature if curvature > 0.0 else np.inf
    t = min(float(ratio.min()), t_line)
    if not t < np.inf:
        return None, 0.0
    blocked = (ratio == t) & (t < t_line)
    alpha[index] = np.clip(np.where(blocked, end, alpha[index] + t * d), 0.0, C[index])
    _balance_extras(act, t * float(e.sum()))
    act.moved(index, t * Ke)
    if np.any(blocked):
        face.fix(np.flatnonzero(blocked))
    return bool(np.any(blocked)), t * descent - 0.5 * t * t * curvature


#: The crossover of the finish (:func:`_crossover`): faces of at least CROSS_MIN variables whose
#: block has numerical rank at most CROSS_RANK_SHARE of their size; the rank is sought up to
#: CROSS_RANK_MAX (each column of the factor reads one row of the Gram matrix); a residual
#: diagonal below CROSS_REL times the largest diagonal entry counts as zero.
CROSS_MIN, CROSS_RANK_SHARE, CROSS_RANK_MAX, CROSS_REL = 64, 0.5, 200, 1e-11


#: The largest rank looked for, as a share of the face, on the faces that the primal method
#: grew (:meth:`_Finisher._cross`).
CROSS_GROWN_SHARE = 0.25


#: The cost of a step of the crossover's simplex, or of a column of the factor, in ns.
CROSS_NS = 1e4


def _low_rank(act, free, r_max):
    r"""A factor :math:`G` (f x r) with :math:`K_{FF} \approx GG^\top`: the Cholesky
    factorisation with diagonal pivoting stopped when the largest residual diagonal entry is
    below :data:`CROSS_REL` times the largest diagonal entry (Fine & Scheinberg 2001); None when
    the rank exceeds ``r_max``."""
    d = act.diag[free].copy()
    stop = CROSS_REL * max(float(d.max()), np.finfo(float).tiny)
    G = np.zeros((len(free), r_max))
    for k in range(r_max + 1):
        j = int(np.argmax(d))
        if d[j] <= stop:
            return G[:, :k]
        if k == r_max:
            return None
        column = np.asarray(act.K[free[j]])[free] - G[:, :k] @ G[j, :k]
        G[:, k] = column / np.sqrt(d[j])
        d -= G[:, k] ** 2
    return None


def _crossover(act, free, G, tol):
    r"""Send most free variables of a rank-deficient face to a bound along directions that do
    not change :math:`K_{FF}e`: a bounded-variable simplex on the linear program

    .. math::

        \min_e\ -v_F^\top e \quad\text{subject to}\quad G^\top e = 0,\ Ae = 0,\
        lo \le e \le hi,

    from :math:`e = 0`. Along such directions the objective of the face is linear (up to the
    residual of :math:`K_{FF} \approx GG^\top`), so the quadratic program is flat there and its
    minimiser can be taken at a vertex of the flat part: at most as many free variables as
    :math:`G` has columns plus the constraints, where SMO's iterate may have hundreds. Each
    step moves one variable with a reduced cost above ``tol`` towards a bound until it or a
    basic variable meets one, and that variable stays there: at most f steps. The move is
    kept only if it is flat, its curvature :math:`\tfrac12 e^\top K_{FF} e` (computed with
    the true :math:`K`) below a tenth of its first-order decrease :math:`v_F^\top e`, so that
    it lowers the objective. Returns the mask of
    the variables it sent to a bound, or None when it made no move.
    """
    alpha, C, y = act.alpha, act.C_all, act.y_all
    yF, aF, CF = y[free], alpha[free], C[free]
    lo = np.where(yF > 0, -aF, aF - CF)
    hi = np.where(yF > 0, CF - aF, aF)
    M = np.vstack([G.T, _constraint_rows(act, free)])
    rows, basis = _independent(M)
    M = M[rows]
    cost = -act.v[free]
    e = np.zeros(len(free))
    done = np.zeros(len(free), dtype=bool)  # at a bound for good
    in_basis = np.zeros(len(free), dtype=bool)
    in_basis[basis] = True
    reduced = None
    for _ in range(len(free)):
        if reduced is None:  # the basis changed: the reduced costs anew
            MB = M[:, basis]
            reduced = cost - np.linalg.solve(MB.T, cost[basis]) @ M
            score = np.abs(reduced)
            score[in_basis | done] = 0.0
        j = int(np.argmax(score))
        if not score[j] > tol:
            break
        score[j] = 0.0
        s = -1.0 if reduced[j] > 0.0 else 1.0
        dB = -s * np.linalg.solve(MB, M[:, j])
        room = hi[j] - e[j] if s > 0.0 else e[j] - lo[j]
        eB = e[basis]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(
                dB > 0.0, (hi[basis] - eB) / dB, np.where(dB < 0.0, (lo[basis] - eB) / dB, np.inf)
            )
        k = int(np.argmin(ratio))
        t = min(room, float(ratio[k]))
        if not t < np.inf:
            return None  # a flat direction without a bound: the finish cannot use it
        e[j] += s * t
        e[basis] += t * dB
        if room <= ratio[k]:
            e[j] = hi[j] if s > 0.0 else lo[j]
            done[j] = True
        else:
            leaving = basis[k]
            e[leaving] = hi[leaving] if dB[k] > 0.0 else lo[leaving]
            done[leaving], in_basis[leaving], in_basis[j] = True, False, True
            basis[k] = j
            reduced = None
    if not np.any(done):
        return None
    full = np.zeros(act.n)
    full[free] = e
    Ke = act.K @ full
    # flat: the curvature along the move is a small part of its first-order decrease (a
    # diagonal added to a low-rank K, as in the L2 margin's K + I / C, is not flat)
    if not 0.5 * float(e @ Ke[free]) < 0.1 * float(act.v[free] @ e):
        return None
    new = aF + yF * e
    at_hi = done & ((e == hi) == (yF > 0))
    alpha[free] = np.clip(np.where(done, np.where(at_hi, CF, 0.0), new), 0.0, CF)
    _balance_extras(act, float(e.sum()))
    act.moved(None, Ke)
    return done


def _independent(M):
    """Rows of ``M`` that are linearly independent and as many columns on which they are
    (Gaussian elimination with complete pivoting; a pivot below 1e-12 of the largest entry
    ends it)."""
    R = np.array(M, dtype=float)
    rows, cols = [], []
    scale = float(np.max(np.abs(R), initial=0.0))
    for _ in range(min(R.shape)):
        i, j = np.unravel_index(int(np.argmax(np.abs(R))), R.shape)
        if not abs(R[i, j]) > 1e-12 * scale:
            break
        rows.append(int(i))
        cols.append(int(j))
        R -= np.outer(R[:, j] / R[i, j], R[i])
        R[i] = 0.0
    return np.array(rows, dtype=int), np.array(cols, dtype=int)


def _balance_extras(act, moved):
    """Keep y^T alpha after the variables of a face moved y^T alpha by ``moved``: the two extra
    variables of an :class:`AugmentedGram` absorb it (nothing to do otherwise)."""
    if isinstance(act.K, AugmentedGram):
        alpha = act.alpha
        s = alpha[-2] - alpha[-1] - moved
        alpha[-2], alpha[-1] = max(s, 0.0), max(-s, 0.0)


class _Face:
    r"""The free block of the finish, factored once, and the variables fixed on it since.

    A step :math:`e` of the free variables keeps the equality constraints, written as rows
    :math:`a^\top e = 0` (:func:`_constraint_rows`), and every variable fixed at a bound
    since the factorisation, :math:`e_j = 0`: fixing one costs one more solve with the factor,
    not a new factorisation.

    The solves are with :math:`K_{FF} + \mu I`, :math:`\mu = 10^{-10}\max_t K_{tt}`, which
    is positive definite even when :math:`K_{FF}` is singular (a low-rank kernel). With
    ``eigh`` the block is factored by ``eigh`` (:math:`K_{FF} = U\Lambda U^\top`; a solve is
    two products, :math:`U(\Lambda + \mu I)^{-1}U^\top b`, where a rank-deficient face needs
    dozens of solves), otherwise by Cholesky (a solve is two blocked triangular solves; see
    :data:`EIGH_MAX`). Either raises ``LinAlgError`` when :math:`K_{FF}` is not PSD beyond
    :math:`\mu`.
    """

    def __init__(self, act, free, eigh):
        self.free = free
        f = len(free)
        self.KFF = _submatrix(act.K, free)
        self.mu = 1e-10 * max(float(self.KFF.diagonal().max()), act.kmax)
        if not self.mu > 1e-300:  # K of no scale (every point at the origin): nothing to solve
            raise np.linalg.LinAlgError("K_FF is zero")
        if eigh:
            w, self.U = np.linalg.eigh(self.KFF)
            if not w[0] + self.mu >= 0.5 * self.mu:  # (and 1 / (w + mu) <= 2 / mu is finite)
                raise np.linalg.LinAlgError("K_FF is not positive semi-definite")
            self.scale = 1.0 / (w + self.mu)
            self.L = None
        else:
            H = self.KFF.copy()
            H.flat[:: f + 1] += self.mu
            self.L = np.linalg.cholesky(H)
            self.inverses = block_inverses(self.L)
        self.rows = _constraint_rows(act, free)
        self.W_rows = self.solve(self.rows.T)
        self.fixed = np.zeros(f, dtype=bool)
        self.fixed_index, self.W_fixed = [], np.zeros((f, 0))

    def extend(self, act, released):
        r"""Add the variables ``released`` to a face factored by Cholesky, keeping its factor:
        with :math:`N` the new variables, :math:`B = L^{-1}K_{FN}` and :math:`L_N` the
        Cholesky factor of :math:`K_{NN} + \mu I - B^\top B`, the factor of the bordered block
        is :math:`\begin{pmatrix} L & 0 \\ B^\top & L_N \end{pmatrix}`: :math:`O(f^2 k)` for k new
        variables, where factoring anew costs :math:`f^3 / 3`. A released variable that was
        fixed on the face since its factorisation is only unfixed. Raises ``LinAlgError``
        (the face is left as it was) when the new block is not PSD beyond :math:`\mu`."""
        again = np.isin(self.free, released)
        new = np.setdiff1d(released, self.free)
        if len(new):
            K_new = _block(act.K, new, self.free)
            B = solve_lower(self.L, K_new.T, self.inverses)
            K_nn = _submatrix(act.K, new)
            S = K_nn - B.T @ B
            S.flat[:: len(new) + 1] += self.mu
            L_new = np.linalg.cholesky(S)
            f = len(self.free)
            L = np.zeros((f + len(new), f + len(new)))
            L[:f, :f], L[f:, :f], L[f:, f:] = self.L, B.T, L_new
            self.L, self.inverses = L, block_inverses(L)
            self.KFF = np.block([[self.KFF, K_new.T], [K_new, K_nn]])
            self.free = np.concatenate([self.free, new])
            self.fixed = np.concatenate([self.fixed, np.zeros(len(new), dtype=bool)])
        self.fixed[np.flatnonzero(again)] = False
        self.fixed_index = [j for j in self.fixed_index if self.fixed[j]]
        self.rows = _constraint_rows(act, self.free)
        self.W_rows = self.solve(self.rows.T)
        self.W_fixed = self.solve(self._units(np.array(self.fixed_index, dtype=int)))

    def solve(self, B):
        r""":math:`(K_{FF} + \mu I)^{-1} B` with the factor, for B of shape (f,) or (f, k)."""
        if self.L is not None:
            return solve_cholesky(self.L, B, self.inverses)
        scale = self.scale if B.ndim == 1 else self.scale[:, None]
        return self.U @ (scale * (self.U.T @ B))

    def fix(self, j):
        self.fixed[j] = True
        self.fixed_index.extend(j.tolist())
        self.W_fixed = np.hstack([self.W_fixed, self.solve(self._units(j))])

    def _units(self, j):
        """The unit vectors of the face's variables j, as columns."""
        units = np.zeros((len(self.free), len(j)))
        units[j, np.arange(len(j))] = 1.0
        return units

    def newton(self, vF, tol, c=None, steps=FINISH_REFINE):
        r"""The minimiser :math:`e` of :math:`\tfrac12 e^\top K_{FF} e - v_F^\top e` subject
        to the constraints of the face, and :math:`K_{FF}e`.

        The constraints are :math:`a^\top e = c` for the constraint rows :math:`a` of the
        face (``c`` = 0 by default; the primal-dual phase moves variables to their bounds
        first, and the free ones make up for them) and :math:`e_j = 0` for the fixed ones.
        The KKT system :math:`K_{FF} e + A^\top\lambda = v_F`, :math:`Ae = c` is solved with
        the factor of :math:`K_{FF} + \mu I` (:math:`\mu = 10^{-10}\max_t K_{tt}`) and the
        Schur complement :math:`A(K_{FF} + \mu I)^{-1}A^\top` of the constraints, then
        refined on the residual of the unshifted system until it is below ``tol`` / 8 or
        stops halving. For a singular :math:`K_{FF}` the refinement converges to the solution
        nearest the starting point when there is one; when there is none (the objective
        decreases without bound along a null direction of :math:`K_{FF}` in the face), ``e``
        grows along that direction, and the step to the boundary stops it.
        """
        live = self.rows[:, ~self.fixed].any(axis=1)  # a row whose variables are all fixed
        n_fixed = len(self.fixed_index)
        A = np.zeros((int(live.sum()) + n_fixed, len(self.free)))
        A[: live.sum()] = self.rows[live]
        A[live.sum() + np.arange(n_fixed), self.fixed_index] = 1.0
        W = np.hstack([self.W_rows[:, live], self.W_fixed])
        S = A @ W  # positive definite: the rows of A are linearly independent
        target = np.zeros(len(A))  # A e = target: c on the live rows, 0 on the fixed ones
        if c is not None:
            target[: live.sum()] = c[live]
        e, lam = np.zeros(len(vF)), np.zeros(len(A))
        r1, r2 = vF.copy(), target.copy()
        best = np.inf
        for _ in range(steps):
            u = self.solve(r1)
            dl = np.linalg.solve(S, A @ u - r2) if len(A) else lam
            e += u - W @ dl
            lam += dl
            Ke = self.KFF @ e
            r1 = vF - Ke - A.T @ lam
            r2 = target - A @ e
            residual = float(np.max(np.abs(r1)))
            if residual <= tol / 8.0 or residual > 0.5 * best:
                break
            best = residual
        # The constraints exactly, not to round-off: a step of length 1e15 along a round-off
        # e (a face with no freedom left) would otherwise move y^T alpha.
        e[self.fixed] = 0.0
        for row, value in zip(self.rows[live].astype(bool), target[: live.sum()], strict=True):
            moving = row & ~self.fixed
            e[moving] -= (e[moving].sum() - value) / np.count_nonzero(moving)
        return e, self.KFF @ e


def _free_set(act):
    """Indices of the free variables 0 < alpha_t < C_t (without the extra variables of an
    :class:`AugmentedGram`)."""
    alpha, C = act.alpha, act.C_all
    real = act.n - 2 if isinstance(act.K, AugmentedGram) else act.n
    return np.flatnonzero((alpha[:real] > 0.0) & (alpha[:real] < C[:real]))


def _groups(act):
    """The variables of each equality constraint (masks), or None for an
    :class:`AugmentedGram`, whose two extra variables absorb :math:`y^\top\alpha`."""
    if isinstance(act.K, AugmentedGram):
        return None
    if act.two:
        return [act.y_all > 0, act.y_all < 0]
    return [np.ones(act.n, dtype=bool)]


def _constraint_rows(act, free):
    """The equality constraints on a step of the variables ``free``, as rows of ones: in the
    variables e = y * (step of alpha), y^T alpha and the two class sums are sums."""
    groups = _groups(act)
    if groups is None:
        return np.zeros((0, len(free)))
    rows = [g[free] for g in groups if np.any(g[free])]
    return np.array(rows, dtype=float).reshape(-1, len(free))


def _violators(act, free, tol, amounts=False):
    r"""The variables at a bound on the wrong side of the threshold of the face just solved
    (and, with ``amounts``, by how much each is).

    :math:`v` is constant, :math:`\lambda_g`, on the face's free variables of each
    constraint's group :math:`g` (0 without a constraint); a variable at a bound violates when
    it is in :math:`I_{up}` with :math:`v_t > \lambda_g + \varepsilon`, or in
    :math:`I_{low}` with :math:`v_t < \lambda_g - \varepsilon`.
    """
    v = act.v
    up, low = _working_sets(act.alpha, act.y_all, act.C_all)
    lam = np.zeros(act.n)  # the threshold of each variable's group
    groups = _groups(act)
    for g in groups or ():
        in_face = free[g[free]]
        if len(in_face):
            lam[g] = float(np.mean(v[in_face]))
        else:
            m = np.max(v, where=up & g, initial=-np.inf)
            lam[g] = 0.5 * (m + np.min(v, where=low & g, initial=np.inf))
    excess = np.maximum(np.where(up, v - lam, -np.inf), np.where(low, lam - v, -np.inf))
    excess[free] = -np.inf
    if groups is None:  # the two extra variables never violate
        excess[act.n - 2 :] = -np.inf
    bad = np.flatnonzero(excess > tol)
    return (bad, excess[bad]) if amounts else bad


def _far_below(tol, roundoff):
    """Whether tol is more than ten times below the round-off level of v: then a run that gets
    there stops at once (SMO alone may still get below a tol near the level)."""
    return tol < 0.1 * roundoff
