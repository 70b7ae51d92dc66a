"""kernels-ref: a literate reference implementation of kernel methods.

Each module is one topic of the course and each function one formula; the docstrings give the
formula and the course text it comes from. Learners take Gram matrices (the kernel trick):
build them with :mod:`kernels_ref.kernels`, then pass ``K`` (and ``K_test`` of shape
``(n_test, n_train)`` for prediction).

Modules
-------
kernels        Kernels and Gram matrices, positive semi-definiteness.
feature_space  Feature maps, distances, centring, nearest centroid.
representer    The representer theorem: fits over a larger span, the orthogonal split, RKHS norms.
perceptron     The perceptron, primal and dual (kernel) forms; the perceptron criterion.
losses         Loss functions of the margin (classification) and of the residual (regression).
bounds         Mistake and generalisation bounds (Novikoff).
model_selection  Validation sets, k-fold cross-validation, grid searches, median heuristic.
svm            Support vector machines: hard margin, soft margins L1/L2, Vert's lambda form, nu-SVM.
smo            The SMO solver of every SVM dual (second-order working sets, shrinking).
ridge          Kernel ridge regression, ridge in the input space, Valle Vidal's Lagrangian form.
svr            Support vector regression (epsilon-insensitive), solved by SMO.
cvx            cvxpy reference solutions (primal and dual) of every SVM and SVR problem;
               imported on demand (``from kernels_ref import cvx``), as it loads cvxpy.
pca            Classical and kernel PCA, projection of new points.
cca            Linear and kernel canonical correlation analysis (regularised).
clustering     Kernel k-means and kernel k-nearest neighbours.
estimators     scikit-learn estimators over the learners above; imported on demand
               (``from kernels_ref import estimators``), as it loads scikit-learn.
exceptions     The dedicated exception and warnings.
plotting       A classifier drawn in the plane: its boundary, margins and support vectors.
report         Cross-checks that print what they found: values and the bound they agree to.
"""

from . import (
    bounds,
    cca,
    clustering,
    exceptions,
    feature_space,
    kernels,
    losses,
    model_selection,
    pca,
    perceptron,
    plotting,
    report,
    representer,
    ridge,
    smo,
    svm,
    svr,
)
from .exceptions import ConvergenceWarning, NotPSDWarning, NotSeparableError

__version__ = "0.1.0"

__all__ = [
    "ConvergenceWarning",
    "NotPSDWarning",
    "NotSeparableError",
    "bounds",
    "cca",
    "clustering",
    "exceptions",
    "feature_space",
    "kernels",
    "losses",
    "model_selection",
    "pca",
    "perceptron",
    "plotting",
    "report",
    "representer",
    "ridge",
    "smo",
    "svm",
    "svr",
]
