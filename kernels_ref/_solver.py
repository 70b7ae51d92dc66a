r"""SMO's loop in named steps: the counterpart of LIBSVM's ``Solver`` (chapter 7).

:func:`_iterate` is ``Solver::Solve``'s loop: shrink (:meth:`_ActiveSet.shrink`), select a
pair (:func:`_select_pair`, or :func:`_select_pair_nu` for the two-constraint variant of the
:math:`\nu`-SVM), update it (:func:`_update_pair`). :class:`_ActiveSet` holds the working
copies of the variables that shrinking has left active. One iteration is a fixed, small number
of vectorised NumPy calls on the active variables: the row :math:`\tilde K_{i\cdot}` is read
from ``K`` (``K`` is symmetric, so a row is also a column) and nothing of size
:math:`n \times n` is formed. Shrinking (Joachims 1999; Chang & Lin 2011, §5.1) removes
variables that stay at a bound; when the active set has shrunk enough its Gram block is copied
once into a contiguous array. The gradient of the removed variables is reconstructed by one
product when they come back, and at the end, so the returned gradient and violation are exact.
"""

import numpy as np

from ._qmatrix import _abs_product, _scores, _submatrix

INF = float("inf")


#: LIBSVM's safeguard for a non-positive curvature a_ij = K_ii + K_jj - 2 K_ij (Fan et al. 2005),
#: relative to the largest diagonal entry when it exceeds 1 (:func:`_tau`).
TAU = 1e-12


def _tau(diag):
    r""":math:`\tau = 10^{-12}\max(1, \max_t |\tilde K_{tt}|)`: LIBSVM's :math:`10^{-12}`
    for Gram matrices of unit scale, and above the round-off of
    :math:`a_{it} = \tilde K_{ii} + \tilde K_{tt} - 2\tilde K_{it}` (about
    :math:`10^{-15}\max_t \tilde K_{tt}`) for any scale, so that :math:`a_{it} + \tau > 0`
    in floating point (an unscaled polynomial kernel has entries of :math:`10^6` and more)."""
    return TAU * max(1.0, float(np.max(np.abs(diag))))


def _working_sets(alpha, y, C):
    r""":math:`I_{up}` (may move in the direction :math:`y_t`) and :math:`I_{low}` (in the
    direction :math:`-y_t`) as masks: :func:`~kernels_ref.smo.working_sets` without its input
    checks."""
    pos = y > 0
    below = alpha < C
    above = alpha > 0
    return (pos & below) | (~pos & above), (~pos & below) | (pos & above)


def _optimality_gap(v, up, low):
    r""":math:`m - M = \max_{I_{up}} v_t - \min_{I_{low}} v_t`:
    :func:`~kernels_ref.smo.optimality_gap` without its input checks."""
    m = np.max(v, where=up, initial=-np.inf)
    M = np.min(v, where=low, initial=np.inf)
    return float(m - M)


def _gap(v, up, low, pos, two_constraints):
    """m - M, or the largest of the two per-class values for the two-constraint variant."""
    if not two_constraints:
        return _optimality_gap(v, up, low)
    return max(_optimality_gap(v, up & pos, low & pos), _optimality_gap(v, up & ~pos, low & ~pos))


class _ActiveSet:
    """The active variables: working copies of alpha, y, C, v restricted to them.

    ``alpha`` is the caller's full vector, written back by :meth:`write_back`. The rows of the
    active block are ``Ka[t]``: rows of ``K`` itself while every variable is active, rows of a
    compact copy of the block once the active set has shrunk enough to pay for the copy.
    The working-set masks are stored as additive terms used by the loop:
    ``pen_up`` is 0 on I_up and -inf elsewhere (``argmax(v + pen_up)`` is the i of WSS 2) and
    ``den`` holds the part of a_it / 2 that depends on t on I_low and +inf elsewhere (so that
    the score b^2 / a of a t outside I_low is 0). With a constant diagonal (Gaussian kernel)
    ``den`` is the whole of (K_ii + K_tt) / 2 and the loop saves one operation.

    ``two`` selects the two-constraint variant (the ν-SVM); ``tol`` sets the first rung of the
    ladder of unshrinking thresholds, ``threshold``, that :func:`_iterate` walks down;
    ``copy_ratio`` is the cost of an SMO iteration per active variable over that of copying an
    entry (:class:`~kernels_ref.smo.CostModel`: 4 ns / 10 ns), which :meth:`shrink` weighs.
    """

    def __init__(self, K, y, p, C, alpha, *, two=False, tol=1.0, copy_ratio=0.4):
        self.K, self.y_all, self.p, self.C_all, self.alpha = K, y, p, C, alpha
        self.diag = np.asarray(K.diagonal(), dtype=float)
        self.n = len(y)
        # Started at 0 with every bound infinite, alpha stays in the cone {a >= 0, y.a = 0}: a
        # negative a^T Q a then proves the objective unbounded below along t * alpha, t > 0.
        self.cone = bool(np.all(np.isinf(C)) and not np.any(alpha))
        self.kmax = float(np.max(np.abs(self.diag)))
        self.tau = _tau(self.diag)
        self.unit = bool(np.all(self.diag == self.diag[0]))
        self.two, self.copy_ratio = two, copy_ratio
        self.threshold = max(10.0 * tol, 1e-2)  # unshrink when m - M first falls below it
        self.fresh = True  # v computed afresh from alpha, not by updates
        self._set(np.arange(self.n), K, _scores(K, y, p, alpha))

    def _set(self, index, Ka, v):
        self.index, self.Ka, self.v = index, Ka, v
        a, y, C = self.alpha[index], self.y_all[index], self.C_all[index]
        self.a, self.y, self.C = a.tolist(), y.tolist(), C.tolist()  # fast scalar access
        self.half = 0.5 * self.diag[index]
        self.pos = y > 0
        up, low = _working_sets(a, y, C)
        self.pen_up = np.where(up, 0.0, -np.inf)
        self.den_low = (self.diag[index] if self.unit else self.half) + 0.5 * self.tau
        self.den = np.where(low, self.den_low, np.inf)
        # Python floats for the scalar work of a step (a list item costs a third of an array's)
        self.half_list, self.den_low_list = self.half.tolist(), self.den_low.tolist()
        self.size = len(index)

    def array(self):
        return np.array(self.a)

    def write_back(self):
        self.alpha[self.index] = self.a

    def restore(self):
        """Make every variable active again, with v computed from scratch."""
        self.write_back()
        self.reset()

    def reset(self):
        """Every variable active, v computed from scratch from ``alpha`` (after the finish
        wrote a new point into it)."""
        self.refresh(_scores(self.K, self.y_all, self.p, self.alpha))
        self.fresh = True

    def refresh(self, v, fresh=False):
        """Every variable active, with the scores ``v`` of the point in ``alpha`` (updated by
        the finish, or computed afresh if ``fresh``)."""
        self._set(np.arange(self.n), self.K, v)
        self.fresh = fresh

    def moved(self, index, dv):
        """alpha has moved (written by the finish): v of the variables ``index`` (all when
        None) falls by ``dv``, an update, not v afresh."""
        if index is None:
            self.v -= dv
        else:
            self.v[index] -= dv
        self.fresh = False

    def chunk_done(self, threshold, stale):
        """The end of a chunk of :func:`_iterate`: alpha written back, the ladder's next rung
        kept, and v no longer fresh if a pair moved since it was computed afresh."""
        self.write_back()
        self.threshold = threshold
        self.fresh = self.fresh and not stale

    def check_bounded(self):
        """Raise if the iterate certifies an unbounded objective (see ``cone``)."""
        if not self.cone:
            return
        a = self.array()
        q = float(a @ (-(np.array(self.y) * self.v) - self.p[self.index]))  # a^T Q a
        if q < -1e-9 * self.kmax * float(a.sum()) ** 2:
            raise _unbounded("an iterate alpha >= 0 with y.alpha = 0 has alpha^T Q alpha < 0")

    def roundoff(self):
        r"""The round-off level of :math:`v`: :math:`u\max_t (|\tilde K|\,\alpha)_t` (the
        size of the terms of :math:`(\tilde K (y \circ \alpha))_t` times the unit
        round-off :math:`u`), plus :math:`u \max_t |p_t|`."""
        u = np.finfo(float).eps / 2.0
        return u * (float(np.max(_abs_product(self.K, self.alpha))) + float(np.max(np.abs(self.p))))

    def objective(self):
        r"""The objective :math:`\tfrac12\alpha^\top(G + p)`, :math:`G = -y \circ v`
        (every variable active)."""
        return 0.5 * float(self.alpha @ (self.p - self.y_all * self.v))

    def gap(self, two):
        up, low = _working_sets(self.array(), np.array(self.y), np.array(self.C))
        return _gap(self.v, up, low, self.pos, two)

    def shrink(self, two, n_iter):
        """Remove the variables at a bound that cannot be in a violating pair any more.

        A variable only in I_up with v_t < M, or only in I_low with v_t > m (per class in the
        two-constraint variant), is removed (LIBSVM's ``be_shrunk``). The active block is
        copied only when the copy (proportional to the square of the new size) costs less
        than the work it saves if the solve goes on as long again as it has gone so far.
        """
        v, pos = self.v, self.pos
        up = self.pen_up == 0.0
        low = self.den < np.inf
        vu, vl = np.where(up, v, -np.inf), np.where(low, v, np.inf)
        if two:
            m = np.where(pos, vu[pos].max(initial=-np.inf), vu[~pos].max(initial=-np.inf))
            M = np.where(pos, vl[pos].min(initial=np.inf), vl[~pos].min(initial=np.inf))
        else:
            m, M = vu.max(), vl.min()
        keep = ~((up & ~low & (v < M)) | (low & ~up & (v > m)))
        n_keep = int(np.count_nonzero(keep))
        n_drop = self.size - n_keep
        if (
            n_keep < 2
            or n_drop < 0.1 * self.size
            or n_keep**2 > self.copy_ratio * n_drop * max(n_iter, 1000)
        ):
            return
        self.write_back()
        local = np.flatnonzero(keep)
        index = self.index[local]
        Ka = _submatrix(self.K, index) if self.size == self.n else self.Ka[np.ix_(local, local)]
        self._set(index, Ka, self.v[local])
        self.fresh = False


def _unbounded(detail):
    """The error of a dual that SMO finds unbounded below (only possible with C = +inf)."""
    return ValueError(
        "K: the dual objective is unbounded below along the iterates of SMO "
        f"({detail}): with infinite bounds C this happens when K is not positive "
        "semi-definite, or, for a hard margin, when the classes are not separable"
    )


def _iterate(act, tol, n_iter, max_iter, two, shrinking):
    """SMO iterations on the active set until it meets the stopping rule; return n_iter.

    LIBSVM's ``Solver::Solve`` loop: every ``period`` iterations shrink (or unshrink); then
    select a pair (:func:`_select_pair`, or :func:`_select_pair_nu` for the two-constraint
    variant) and update it (:func:`_update_pair`). The steps are closures over the working
    arrays of the active set, bound again when it changes: the hot loop reads locals, about a
    dozen vectorised calls per iteration on arrays of the active size and a few scalar
    operations on Python floats.
    """
    # Unshrink (all variables back, fresh gradient) when m - M first falls below each rung of
    # a ladder of thresholds: LIBSVM unshrinks once, at 10 tol; with small tolerances a
    # variable shrunk early may become violating long before that, and the solver would
    # converge on the wrong subproblem meanwhile.
    threshold = act.threshold  # max(10 tol, 1e-2) at the start of a run
    stale = False  # a pair moved since v was last computed afresh
    counter = period = min(act.n, 1000)
    rebind = True
    while n_iter < max_iter:
        if rebind:  # (re)bind the steps to the working arrays after a change of active set
            size = act.size
            buffers = np.empty(size), np.empty(size), np.empty(size)
            select = (_select_pair_nu if two else _select_pair)(act, tol, buffers)
            update = _update_pair(act, buffers)
            rebind = False
        counter -= 1
        if counter == 0:
            counter = period
            act.check_bounded()
            if shrinking:
                if threshold > tol and act.gap(two) <= threshold:
                    threshold = max(threshold / 100.0, tol) if threshold > 10.0 * tol else 0.0
                    if act.size < act.n:
                        act.restore()
                        rebind, stale = True, False
                        continue
                act.shrink(two, n_iter)
                rebind = act.size != size
                if rebind:
                    continue
        i, j, b = select()
        if j < 0:  # m - M <= tol on the active set
            if act.size == act.n:
                break
            act.restore()  # converged on the active set only: check all variables
            rebind, stale = True, False
            continue
        update(i, j, b)
        n_iter += 1
        stale = True
    act.chunk_done(threshold, stale)
    return n_iter


def _select_pair(act, tol, buffers):
    r"""The step "select a pair" (WSS 2 of Fan, Chen & Lin 2005) on the active set.

    Returns ``select()``, which gives :math:`(i, j, b_{ij})` with :math:`i = \arg\max_{I_{up}}
    v_t` and :math:`j` of the largest :math:`b_{it}^2 / a_{it}`, or :math:`j = -1` when
    :math:`m - M \le` ``tol`` on the active set (:func:`_pick_j`).
    """
    Ka, v, pen_up, den = act.Ka, act.v, act.pen_up, act.den
    half_l, unit = act.half_list, act.unit
    buf_b, buf_a, buf_s = buffers

    def select():
        np.add(v, pen_up, out=buf_s)  # v_t on I_up, -inf elsewhere
        i = int(buf_s.argmax())
        np.subtract(buf_s[i], v, out=buf_b)  # b_it = v_i - v_t
        np.subtract(den, Ka[i], out=buf_a)  # a_it / 2 on I_low, +inf elsewhere
        if not unit:
            np.add(buf_a, half_l[i], out=buf_a)
        j, b = _pick_j(buffers, den, tol)
        return i, j, b

    return select


def _select_pair_nu(act, tol, buffers):
    r"""The two-constraint variant of "select a pair" (LIBSVM's ``Solver_NU``): one
    :math:`i` per class, each :math:`t` scored against the :math:`i` of its class, so that the
    pair stays in one class and both class sums are kept."""
    Ka, v, pen_up, den, pos, half = act.Ka, act.v, act.pen_up, act.den, act.pos, act.half
    unit = act.unit
    buf_b, buf_a, buf_s = buffers

    def select():
        np.add(v, pen_up, out=buf_s)  # v_t on I_up, -inf elsewhere
        ip = int(np.where(pos, buf_s, -np.inf).argmax())
        ineg = int(np.where(pos, -np.inf, buf_s).argmax())
        # a class with no variable in I_up has m = -inf (argmax of all -inf is index 0,
        # which may lie in the other class: never pair across the classes)
        m_pos = buf_s[ip] if pos[ip] else -np.inf
        m_neg = buf_s[ineg] if not pos[ineg] else -np.inf
        np.subtract(np.where(pos, m_pos, m_neg), v, out=buf_b)
        np.subtract(den, np.where(pos, Ka[ip], Ka[ineg]), out=buf_a)
        if not unit:
            np.add(buf_a, np.where(pos, half[ip], half[ineg]), out=buf_a)
        j, b = _pick_j(buffers, den, tol)
        return (ip if pos[j] else ineg), j, b

    return select


def _pick_j(buffers, den, tol):
    r"""The :math:`j` of WSS 2 from :math:`b_{it}` and :math:`a_{it}/2` (in ``buffers``):
    :math:`(j, b_{ij})`, or :math:`(-1, m - M)` when :math:`m - M \le` ``tol``.

    A pair with :math:`0 < b_{ij} \le` ``tol`` < :math:`m - M` still decreases :math:`F`: it
    is taken, as in LIBSVM. With no positive score (:math:`K` not PSD) the maximal violating
    pair is taken instead (the first-order choice).
    """
    buf_b, buf_a, buf_s = buffers
    np.maximum(buf_b, 0.0, out=buf_b)  # keep b_it > 0
    np.divide(buf_b, buf_a, out=buf_s)
    buf_s *= buf_b  # b_it^2 / a_it, 0 outside I_low
    j = int(buf_s.argmax())
    b = buf_b.item(j)
    if b <= tol or not buf_s.item(j) > 0.0:
        low = den < np.inf
        gap = float(np.max(buf_b, where=low, initial=0.0))
        if gap <= tol:
            return -1, gap
        if not buf_s.item(j) > 0.0:
            j = int(np.where(low, buf_b, -1.0).argmax())
            b = buf_b.item(j)
    return j, b


def _update_pair(act, buffers):
    r"""The step "update the pair" on the active set: returns ``update(i, j, b)``.

    :math:`\alpha_i \mathrel{+}= y_i\delta`, :math:`\alpha_j \mathrel{-}= y_j\delta` with
    :math:`\delta = \min(b_{ij}/\bar a_{ij}, \bar C_i, \bar C_j)`, a variable that reaches
    its bound set to it exactly, :math:`v \leftarrow v - \delta(\tilde K_{i\cdot} -
    \tilde K_{j\cdot})`, and the masks of :math:`I_{up}`, :math:`I_{low}` of the pair. A
    non-finite step, a negative curvature with no bound in the way, or an overflow raise.
    """
    Ka, v, pen_up, den = act.Ka, act.v, act.pen_up, act.den
    a, ya, Ca = act.a, act.y, act.C
    half_l, den_low_l, tau = act.half_list, act.den_low_list, act.tau
    negative = -1e-9 * act.kmax  # a curvature below this is not round-off
    buf_a = buffers[1]

    def update(i, j, b):
        Ki, Kj = Ka[i], Ka[j]
        yi, yj, ai, aj = ya[i], ya[j], a[i], a[j]
        aij = 2.0 * (half_l[i] + half_l[j] - Ki.item(j))
        d = b / (aij if aij > tau else tau)
        room_i = Ca[i] - ai if yi > 0 else ai
        room_j = aj if yj > 0 else Ca[j] - aj
        if d >= room_i:
            d = room_i
        if d >= room_j:
            d = room_j
        if not d < INF or (aij < negative and room_i == INF and room_j == INF):
            # b_ij > 0 and a_ij < 0 (beyond round-off) with no bound in the way, or a NaN:
            # the objective decreases without bound along the line through the pair (i, j).
            # (a_ij = 0 is left to the caller: a hard margin's classes sharing a point.)
            raise _unbounded(f"curvature a_ij = {aij:.3g} < 0 along a pair")
        # a variable that reaches its bound is set to it exactly
        ai = (Ca[i] if yi > 0 else 0.0) if d == room_i else ai + yi * d
        aj = (0.0 if yj > 0 else Ca[j]) if d == room_j else aj - yj * d
        if not abs(ai) + abs(aj) < INF:  # overflow: alpha grows without bound
            raise _unbounded("alpha overflows")
        a[i], a[j] = ai, aj
        np.subtract(Ki, Kj, out=buf_a)
        np.multiply(buf_a, d, out=buf_a)
        np.subtract(v, buf_a, out=v)  # the closure's arrays are updated in place
        # the masks of the pair: I_up (alpha may move along y_t), I_low (along -y_t)
        below, above = ai < Ca[i], ai > 0.0
        pen_up[i] = 0.0 if (below if yi > 0 else above) else -INF
        den[i] = den_low_l[i] if (above if yi > 0 else below) else INF
        below, above = aj < Ca[j], aj > 0.0
        pen_up[j] = 0.0 if (below if yj > 0 else above) else -INF
        den[j] = den_low_l[j] if (above if yj > 0 else below) else INF

    return update
