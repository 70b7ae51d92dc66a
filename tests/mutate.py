"""Mutation testing of the package: do the tests of a module notice a wrong formula?

``python tests/mutate.py [module ...] [--per-module N] [--seed S]`` makes small changes to the
code of each module of ``kernels_ref`` — an operator flipped (``+``/``-``, ``*``/``/``), a
comparison changed (``<``/``<=``, ``<``/``>``, ``==``/``!=``), a sign dropped, a constant
changed, ``and``/``or`` swapped, two arguments of a call swapped — samples ``N`` of them per
module (seeded), and runs the module's own tests (its doctests and ``tests/test_<module>.py``)
against each, in a copy of the repository, with a time limit. A mutant is *killed* when the
tests fail (or time out), and *survives* when they pass: then either the tests miss that
formula, or the change is equivalent (it computes the same thing) — each survivor is printed
with its location for a reader to judge.

This is a tool for contributors (``make mutation``), not part of ``make test``: one run takes
minutes per module.
"""

import argparse
import ast
import copy
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The tests of each module, beyond its doctests and tests/test_<module>.py.
EXTRA_TESTS = {
    "svm": ["tests/test_svm_vs_cvxpy.py"],
    "feature_space": ["tests/test_clustering.py"],
    "representer": ["tests/test_ridge.py"],
    "ridge": ["tests/test_representer.py"],
    "_validation": ["tests/test_bad_input.py"],
    # the engineered SMO's rooms are tested with the solver
    "_solver": ["tests/test_smo.py"],
    "_qmatrix": ["tests/test_smo.py"],
    "_finish": ["tests/test_smo.py"],
    "_settings": ["tests/test_smo.py"],
}

SWAPS = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.And: ast.Or,
    ast.Or: ast.And,
}


def _is_docstring(node, parent):
    return (
        isinstance(parent, (ast.Module, ast.FunctionDef, ast.ClassDef))
        and parent.body
        and parent.body[0] is node
    )


def mutation_points(tree):
    """List of ``(path, kind, description)``: where and how the tree can be changed."""
    points = []
    for path, node in _walk(tree, ()):
        line = getattr(node, "lineno", "?")
        if isinstance(node, ast.BinOp) and type(node.op) in SWAPS:
            points.append((path, "binop", f"line {line}: {type(node.op).__name__} flipped"))
        elif isinstance(node, ast.BoolOp):
            points.append((path, "boolop", f"line {line}: {type(node.op).__name__} swapped"))
        elif isinstance(node, ast.Compare):
            for k, op in enumerate(node.ops):
                if type(op) in SWAPS:
                    points.append(
                        (path, ("compare", k), f"line {line}: {type(op).__name__} changed")
                    )
                if isinstance(op, (ast.Lt, ast.Gt, ast.LtE, ast.GtE)):
                    points.append((path, ("reverse", k), f"line {line}: comparison reversed"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            points.append((path, "neg", f"line {line}: minus sign dropped"))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, (int, float))
            and not isinstance(node.value, bool)
        ):
            points.append((path, "const", f"line {line}: constant {node.value!r} changed"))
        elif isinstance(node, ast.Call) and len(node.args) >= 2:
            points.append((path, "swapargs", f"line {line}: first two arguments swapped"))
    return points


def _walk(node, path):
    """Every expression node below function bodies, with its path of (field, index)."""
    for field, value in ast.iter_fields(node):
        children = value if isinstance(value, list) else [value]
        for k, child in enumerate(children):
            if not isinstance(child, ast.AST):
                continue
            if isinstance(child, ast.Expr) and _is_docstring(child, node):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom, ast.Assert)):
                continue
            if isinstance(child, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in child.targets
            ):
                continue
            sub = (*path, (field, k if isinstance(value, list) else None))
            if isinstance(child, ast.expr):
                yield sub, child
            yield from _walk(child, sub)


def _get(tree, path):
    node = tree
    for field, k in path:
        node = getattr(node, field) if k is None else getattr(node, field)[k]
    return node


def mutate(tree, point):
    """A mutated copy of ``tree``."""
    path, kind, _ = point
    tree = copy.deepcopy(tree)
    node = _get(tree, path)
    if kind == "binop" or kind == "boolop":
        node.op = SWAPS[type(node.op)]()
    elif kind[0] == "compare":
        node.ops[kind[1]] = SWAPS[type(node.ops[kind[1]])]()
    elif kind[0] == "reverse":
        reverse = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}
        node.ops[kind[1]] = reverse[type(node.ops[kind[1]])]()
    elif kind == "neg":
        parent_path, (field, k) = path[:-1], path[-1]
        parent = _get(tree, parent_path)
        replacement = node.operand
        if k is None:
            setattr(parent, field, replacement)
        else:
            getattr(parent, field)[k] = replacement
    elif kind == "const":
        v = node.value
        node.value = v + 1 if isinstance(v, int) else (v * 2 if v else 1.0)
    elif kind == "swapargs":
        node.args[0], node.args[1] = node.args[1], node.args[0]
    return ast.fix_missing_locations(tree)


def run_tests(workdir, module, timeout):
    tests = [f"kernels_ref/{module}.py"]
    own = f"tests/test_{module.lstrip('_')}.py"
    tests += [t for t in [own, *EXTRA_TESTS.get(module, [])] if (workdir / t).exists()]
    # the derandomised profile: the same examples for every mutant, and a reproducible score
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", HYPOTHESIS_PROFILE="ci")
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
    cmd += ["--doctest-modules", *tests]
    try:
        out = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    return "survived" if out.returncode == 0 else "killed"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="module names (default: all)")
    parser.add_argument("--per-module", type=int, default=15)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()
    modules = args.modules or sorted(
        p.stem for p in (ROOT / "kernels_ref").glob("*.py") if p.stem not in ("__init__",)
    )
    rng = random.Random(args.seed)
    total = {"killed": 0, "survived": 0, "timeout": 0}
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) / "repo"
        skip = shutil.ignore_patterns(".venv", "_build", ".git", ".hypothesis")
        shutil.copytree(ROOT, workdir, ignore=skip)
        for module in modules:
            source_path = workdir / "kernels_ref" / f"{module}.py"
            original = source_path.read_text()
            tree = ast.parse(original)
            points = mutation_points(tree)
            if run_tests(workdir, module, args.timeout) != "survived":
                print(f"{module:15} its tests fail without any mutation: skipped")
                continue
            sample = rng.sample(points, min(args.per_module, len(points)))
            counts = {"killed": 0, "survived": 0, "timeout": 0}
            survivors = []
            for point in sample:
                source_path.write_text(ast.unparse(mutate(tree, point)))
                outcome = run_tests(workdir, module, args.timeout)
                counts[outcome] += 1
                if outcome == "survived":
                    survivors.append(point[2])
            source_path.write_text(original)
            killed = counts["killed"] + counts["timeout"]
            print(f"{module:15} {killed}/{len(sample)} killed ({len(points)} mutation points)")
            for description in survivors:
                print(f"    survived: {description}")
            for key in total:
                total[key] += counts[key]
            sys.stdout.flush()
    n = sum(total.values())
    print(f"total: {total['killed'] + total['timeout']}/{n} killed")


if __name__ == "__main__":
    main()
