r"""The second-order finish of SMO (chapter 7, "Why SMO crawls, and a second-order finish").

SMO is a first-order method: on an ill-conditioned problem (an unscaled polynomial kernel, a
raw low-rank linear kernel, a large :math:`C`) :math:`m - M` falls linearly at a slow rate.
Between chunks of SMO, :class:`_Finisher` guesses the active set from the iterate and solves
the problem on its face, the KKT system of the free block (:class:`_Face`: a Newton step, the
objective being quadratic). Its point ends the run only if :math:`m - M \le \varepsilon` on all
variables, the certificate of SMO's own stopping rule; otherwise SMO resumes from it.
"""

import numpy as np

from ._linalg import block_inverses, solve_cholesky
from ._qmatrix import AugmentedGram, _columns_product, _submatrix
from ._settings import Settings
from ._solver import _working_sets

#: A primal-dual step longer than NULL_STEP times the largest multiplier or bound went along a
#: null direction of the face (:meth:`_Face.newton`): the guess is hopeless. A fact of the
#: problem's scale rather than a tuning: no solution is that far from the box.
NULL_STEP = 1e3

#: The shift of a face's factorisation, :math:`\mu = ` SHIFT times the largest diagonal entry:
#: :math:`K_{FF} + \mu I` is positive definite whatever the rank of :math:`K_{FF}`, and about
#: a million times the round-off of its entries, so the factor is accurate; the refinement of
#: :meth:`_Face.newton` removes the shift's effect on the solution.
SHIFT = 1e-10

#: The refinement of a face's solve stops when the residual of v is below tol / REFINE_TO: the
#: error of m - M that the residual causes is then well within tol.
REFINE_TO = 8.0


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

    Cost. An attempt may spend its allowance (:meth:`attempt`), or a few more while
    it makes progress (:meth:`_over`), and its primal-dual guesses as much again; one that
    fails hands the point, better than SMO's, back to SMO for twice the allowance
    (:meth:`chunk`) and doubles the allowance: the time of the attempts that fail is a bounded
    share of SMO's, and a problem on which SMO crawls reaches the finish after a bounded share
    of the crawl. An attempt that ends at the round-off level of v, above tol, ends the run
    there (:meth:`_face_optimum`). A free block that is not PSD ends the finish for the run.
    """

    def __init__(self, act, tol, settings=None):
        self.act, self.tol = act, tol
        self.s = Settings() if settings is None else settings
        self.ns = self.s.cost  # the cost model, in ns
        self.enabled = True
        self.stalled = False  # the run ends at the round-off level of v, above tol
        self.roundoff = None  # that level
        self.rank_above = 0  # a rank a free block was found to exceed (:meth:`_cross`)
        self.spent = 0.0  # cost of the crossovers of the attempt, in ns
        self.allowance = max(2.0 * self._entry_cost(max(len(_free_set(act)), 100)), 1e6)  # ns
        self.cost = self.limit = 0.0  # the attempt's cost so far and its limit, in ns
        self.extensions = 0  # allowances added to the limit for the attempt's progress
        self.start = np.inf  # the attempt's violation m - M at its start
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
        self.smo_cost += iterations * self._iteration_cost()

    def _iteration_cost(self):
        """An SMO iteration on the current active set."""
        return self.ns.iteration + self.ns.per_variable * self.act.size

    def _over(self):
        """Whether the attempt has spent its limit. The limit grows by one allowance (at most
        ``extensions`` times) while the attempt makes progress: it has lowered the objective at
        least as fast, per ns of the cost model, as SMO's iterations since the last attempt, or
        (in the primal-dual phase) its last guess changed fewer variables than any before.
        Such an attempt fails, if it fails, only for its budget, and its point would go back to
        SMO for twice the allowance.
        """
        if self.cost <= self.limit:
            return False
        faster = self.gain * self.smo_cost >= self.smo_gain * self.cost
        if self.extensions < self.s.extensions and (faster or self.progress):
            self.limit += self.allowance
            self.extensions += 1
            return False
        return True

    def _rank_search(self, f, share=None):
        """The largest rank the crossover looks for on a face of f variables (:meth:`_cross`),
        ``share`` of f (``cross_share`` by default), or None when it does not look: a small
        face, or one whose block is already known to be of a larger rank (the rank of the Gram
        matrix does not change during the run)."""
        share = self.s.cross_share if share is None else share
        r_max = min(int(share * f), self.s.cross_rank_max)
        return r_max if f >= self.s.small_face and r_max > self.rank_above else None

    def _face_cost(self, f):
        """A face of f variables: gather and factor its block."""
        return self.ns.gather * f**2 + self.ns.flop * f**3 / 3.0  # Cholesky

    def _entry_cost(self, f):
        """An attempt's first face, with the product by K that gives v afresh before it, and
        the crossover's search for the block's rank (:meth:`_cross`) when it looks."""
        r_max = self._rank_search(f)
        search = 0.0 if r_max is None else self._search_cost(r_max)
        return search + self._face_cost(f) + self._fresh_cost()

    def _search_cost(self, r_max):
        """The crossover's search for a rank up to r_max: a column of the factor, and a row of
        K, per rank."""
        return self.ns.cross * r_max + self.ns.gather * r_max * self.act.n

    def _round_cost(self, f):
        """A round of a face of f variables: the refined solve of :meth:`_Face.newton` and the
        step."""
        return self.ns.round_fixed + self.ns.round * f**2

    def _fresh_cost(self):
        """v afresh (:func:`~kernels_ref._qmatrix._scores`): the rows of the nonzero multipliers,
        or all of K."""
        n = self.act.n
        nonzero = np.count_nonzero(self.act.alpha)
        return self.ns.product * n * (nonzero if 2 * nonzero <= n else n)

    def chunk(self):
        """SMO iterations worth twice the allowance of the next attempt, at least ``chunk_min``
        (and then the allowance is half their cost)."""
        per_iteration = self._iteration_cost()
        iterations = max(int(2.0 * self.allowance / per_iteration), self.s.chunk_min)
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
        r"""The round-off level of v (:meth:`~kernels_ref._solver._ActiveSet.roundoff`, two
        products by |K|), or a bound on it when the bound is below tol (then the level plays no
        part); its cost is counted:
        :math:`|\tilde K_{ts}| \le \max_t \tilde K_{tt}` for a PSD matrix."""
        act = self.act
        u = np.finfo(float).eps / 2.0
        bound = u * (act.kmax * float(act.alpha.sum()) + float(np.max(np.abs(act.p))))
        if bound <= self.tol:
            return bound
        self.cost += 2.0 * self.ns.product * act.n**2  # charged as two products by all of K
        return act.roundoff()

    def _cross(self, free, grown=False):
        """The free set after the crossover of a large rank-deficient face (its variables that
        :func:`_crossover` left inside the box), or as it is. Once a free block is found to
        have a rank above r, the crossover is tried only on faces large enough to look for a
        larger rank: the rank of the Gram matrix does not change during the run.

        It is tried on SMO's free set, the first face of an attempt, for a rank up to
        ``cross_share`` of the face, and on a face ``grown`` by the primal method with the
        variables it released, up to ``cross_grown_share``, when the method factors it anew
        (also when the face shrank past ``small_face`` fixed variables). On a kernel of low
        rank these faces grow to many times the rank, and the method's steps fix their
        variables one or a few per round. Up to half a grown face, the crossover would also
        send variables just released, which violate their condition by a little, to the
        opposite bound: hence the smaller share there."""
        f, act = len(free), self.act
        r_max = self._rank_search(f, self.s.cross_grown_share if grown else None)
        if r_max is None:
            return free
        self.spent += self._search_cost(r_max)
        G = _low_rank(act, free, r_max)
        if G is None:
            self.rank_above = r_max
            return free
        try:
            moved = _crossover(act, free, G, self.tol)
        except np.linalg.LinAlgError:  # a basis of its simplex turned singular: no move
            moved = None
        self.spent += self.ns.cross * (f if moved is None else moved.sum())
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
        is certified with v afresh.

        The phase has its own budget, one allowance (and extensions while it progresses), so
        that a phase that gives up leaves the attempt's budget to the primal method. Returns
        the violation m - M (v afresh) of the point it ends at, in the box and with an
        objective below the start's; or None, with the starting point put back, when it gave
        up (after ``guess_rounds`` rounds, a second stretch without a new low, a hopeless
        guess, or when its budget runs out).
        """
        act = self.act
        start_alpha, start_v = act.alpha.copy(), act.v.copy()
        stretch = _Stretch(self._roundoff(), self.tol, self.s.guess_patience)  # (charged here)
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
        moved, kept = None, None
        for _ in range(self.s.guess_rounds):
            f = len(free)
            if f == 0 or not self._charge_round(f):
                break
            try:
                face = _Face(act, free)
            except np.linalg.LinAlgError:
                break
            # the constraints' right-hand sides: minus the moves to the bounds of each group
            c = None if moved is None else np.array([m for m, g in moved if np.any(g[free])])
            e, _ = face.newton(act.v[free], tol, c, self._refine())
            if not np.max(np.abs(e)) <= NULL_STEP * scale:  # a null direction of K_FF
                self._hopeless()
                break
            outside = self._whole_step(free, e)
            inside = not np.any(outside)
            violation = self._afresh() if inside else None
            released, wrong = _violators(act, free, stretch.threshold, amounts=True)
            if inside and act.objective() <= start_objective:
                kept = alpha.copy(), act.v.copy(), violation
                if violation <= tol or not np.any(wrong > stretch.last):
                    break
            changes = np.count_nonzero(outside) + len(released)
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
            moved = [(-jumped[g[jump]].sum(), g) for g in groups]
        return kept

    def _charge_round(self, f):
        """Charge a primal-dual round on a face of f variables, its factorisation included,
        unless the budget is spent: then nothing is charged and False is returned."""
        cost = self._face_cost(f) + self._round_cost(f) + self.ns.rows * self.act.n * f
        self.cost += cost
        if self._over():
            self.cost -= cost
            return False
        return True

    def _whole_step(self, free, e):
        """Move the variables ``free`` by ``y * e``, wherever that leaves them: which are out of
        the box."""
        act = self.act
        alpha, y, C = act.alpha, act.y_all, act.C_all
        alpha[free] += y[free] * e
        act.moved(None, _columns_product(act.K, free, e))
        _balance_extras(act, float(e.sum()))
        return (alpha[free] < 0.0) | (alpha[free] > C[free])

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
        self.cost += self.ns.rows * act.n * len(jump)
        return jumped

    def _afresh(self):
        """v afresh at the point of ``act`` (its cost counted), and m - M from it."""
        self.act.reset()
        self.cost += self._fresh_cost()
        return self.act.gap(self.act.two)

    def _refine(self):
        """The refinement steps of the next solve of a face's KKT system (counted)."""
        self.solves += 1
        return self.s.refine_steps

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
        self.start = violation
        self.smo_gain = self.smo_from - act.objective()  # SMO's since the last attempt
        self.fresh_alpha, self.fresh_v = act.alpha.copy(), act.v.copy()
        self.level, self.stall = None, False

    def _guess_now(self):
        """Whether this attempt makes primal-dual guesses (see :meth:`_hopeless`)."""
        if self.skip:
            self.skip -= 1
            return False
        return self.s.guess_rounds > 0

    def _found(self, violation):
        """The primal-dual phase ended at a point of the box, v afresh, at ``violation``."""
        self.fresh_alpha, self.fresh_v = self.act.alpha.copy(), self.act.v.copy()
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
                if grown:  # by the variables released (or shrunk past small_face)
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
                if len(face.fixed_index) > self.s.small_face:  # cheaper to factor anew
                    free, face = face.free[~face.fixed], None
                continue
            violation = self._minimiser()
            if violation <= tol or self._over():
                break
            # half of tol on either side of the threshold: m - M <= tol at the face minimiser
            released = _violators(act, face.free[~face.fixed], max(0.5 * tol, self._level()))
            if len(released) == 0:  # optimal on this face, to the level of v
                return self._face_optimum(violation)
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
            return _Face(self.act, free)
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
        self.cost += self.ns.rows * act.n * len(moved)
        gap = act.gap(act.two)
        if gap <= tol or gap <= self.s.stall_levels * self._level():
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
        afresh decides; above tol and within ``stall_levels`` of the level, the attempt has
        stalled at what v can tell."""
        tol = self.tol
        if not self.act.fresh:
            violation = self._afresh()
            if violation <= tol:
                return violation
        level = self._level()
        if tol < level and violation <= self.s.stall_levels * level:
            self.stall, self.roundoff = True, level
        return violation

    def _end(self, violation):
        """The end of an attempt at ``violation``: v afresh if the finish moved alpha, the
        allowance doubled if it failed, and whether the run stops at the round-off level."""
        act, tol = self.act, self.tol
        if not act.fresh:  # the finish moved alpha: v afresh, and the violation from it
            violation = self._afresh()
        self.smo_from, self.smo_cost = act.objective(), 0.0
        if violation > tol:
            self.allowance *= 2.0
        self.stalled = self.stall and violation > tol  # the run stops at the round-off level
        return violation


class _Stretch:
    """A stretch of primal-dual guesses (:meth:`_Finisher._guesses`): while the number of
    changes of a guess reaches new lows, a bounded variable is freed when it violates its
    condition by more than the round-off level of v (freeing the many that do by little keeps
    the faces large and the guesses converging); after ``guess_patience`` rounds without a new low,
    only by more than ``last`` = max(tol / 2, that level), and the faces shrink; after as many
    again, the phase gives up."""

    def __init__(self, roundoff, tol, patience):
        self.patience = patience
        self.threshold = roundoff  # a bounded variable that violates by more is freed
        self.last = max(0.5 * tol, roundoff)  # the threshold of the last stretch
        self.fewest = np.inf  # the fewest changes of a guess so far
        self.waited = 0  # rounds since then
        self.endgame = False  # in the last stretch

    def count(self, changes):
        """Count a guess of ``changes`` changes: "new low", "wait", "tighten" (the last
        stretch begins: free only by more than ``last``) or "give up"."""
        if changes < self.fewest:
            self.fewest, self.waited = changes, 0
            return "new low"
        self.waited += 1
        if self.waited <= self.patience:
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


#: The numerical rank of a face's block (:func:`_low_rank`): a residual diagonal entry below
#: RANK_REL times the largest counts as zero, ten times below the shift SHIFT of the face's
#: factorisation, which treats such directions as flat already.
RANK_REL = 1e-11


def _low_rank(act, free, r_max):
    r"""A factor :math:`G` (f x r) with :math:`K_{FF} \approx GG^\top`: the Cholesky
    factorisation with diagonal pivoting stopped when the largest residual diagonal entry is
    below :data:`RANK_REL` times the largest diagonal entry (Fine & Scheinberg 2001); None when
    the rank exceeds ``r_max``."""
    d = act.diag[free].copy()
    stop = RANK_REL * max(float(d.max()), np.finfo(float).tiny)
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
    the true :math:`K`) below :data:`FLAT` times its first-order decrease :math:`v_F^\top e`,
    so that it lowers the objective. Returns the mask of
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
        k, ratio = _ratio_test(e[basis], dB, lo[basis], hi[basis])
        t = min(room, ratio)
        if not t < np.inf:
            return None  # a flat direction without a bound: the finish cannot use it
        e[j] += s * t
        e[basis] += t * dB
        if room <= ratio:
            e[j] = hi[j] if s > 0.0 else lo[j]
            done[j] = True
        else:
            leaving = basis[k]
            e[leaving] = hi[leaving] if dB[k] > 0.0 else lo[leaving]
            done[leaving], in_basis[leaving], in_basis[j] = True, False, True
            basis[k] = j
            reduced = None
    if not np.any(done) or not _flat_move(act, free, e, done, hi):
        return None
    return done


def _ratio_test(eB, dB, loB, hiB):
    """The basic variable that meets its bound first along ``dB`` from ``eB``, and the step
    at which it does (inf when none does)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(dB > 0.0, (hiB - eB) / dB, np.where(dB < 0.0, (loB - eB) / dB, np.inf))
    k = int(np.argmin(ratio))
    return k, float(ratio[k])


#: A move of the crossover is flat when its curvature is below FLAT times its first-order
#: decrease: then it lowers the objective (a diagonal added to a low-rank K, as in the L2
#: margin's K + I / C, is not flat).
FLAT = 0.1


def _flat_move(act, free, e, done, hi):
    """Make the crossover's move ``e`` of the variables ``free`` (those ``done`` exactly at
    their bound) if it is flat, computed with the true K; whether it was made."""
    alpha, C, y = act.alpha, act.C_all, act.y_all
    yF, CF = y[free], C[free]
    full = np.zeros(act.n)
    full[free] = e
    Ke = act.K @ full
    if not 0.5 * float(e @ Ke[free]) < FLAT * float(act.v[free] @ e):
        return False
    new = alpha[free] + yF * e
    at_hi = done & ((e == hi) == (yF > 0))
    alpha[free] = np.clip(np.where(done, np.where(at_hi, CF, 0.0), new), 0.0, CF)
    _balance_extras(act, float(e.sum()))
    act.moved(None, Ke)
    return True


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

    The solves are with the Cholesky factor of :math:`K_{FF} + \mu I`,
    :math:`\mu = 10^{-10}\max_t K_{tt}` (:data:`SHIFT`), which is positive definite even
    when :math:`K_{FF}` is singular (a low-rank kernel); a solve is two blocked triangular
    solves. Raises ``LinAlgError`` when :math:`K_{FF}` is not PSD beyond :math:`\mu`.
    """

    def __init__(self, act, free):
        self.free = free
        f = len(free)
        self.KFF = _submatrix(act.K, free)
        self.mu = SHIFT * max(float(self.KFF.diagonal().max()), act.kmax)
        if not self.mu > 1e-300:  # K of no scale (every point at the origin): nothing to solve
            raise np.linalg.LinAlgError("K_FF is zero")
        H = self.KFF.copy()
        H.flat[:: f + 1] += self.mu
        self.L = np.linalg.cholesky(H)
        self.inverses = block_inverses(self.L)
        self.rows = _constraint_rows(act, free)
        self.W_rows = self.solve(self.rows.T)
        self.fixed = np.zeros(f, dtype=bool)
        self.fixed_index, self.W_fixed = [], np.zeros((f, 0))

    def solve(self, B):
        r""":math:`(K_{FF} + \mu I)^{-1} B` with the factor, for B of shape (f,) or (f, k)."""
        return solve_cholesky(self.L, B, self.inverses)

    def fix(self, j):
        self.fixed[j] = True
        self.fixed_index.extend(j.tolist())
        self.W_fixed = np.hstack([self.W_fixed, self.solve(self._units(j))])

    def _units(self, j):
        """The unit vectors of the face's variables j, as columns."""
        units = np.zeros((len(self.free), len(j)))
        units[j, np.arange(len(j))] = 1.0
        return units

    def newton(self, vF, tol, c=None, steps=Settings.refine_steps):
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
            if residual <= tol / REFINE_TO or residual > 0.5 * best:
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
