"""The docstrings' cross-references name objects that exist: a reader who follows
``:func:`perceptron_dual_predict``` finds it (a renamed function once left its old name in two
docstrings)."""

import builtins
import importlib
import inspect
import pkgutil
import re

import pytest

import kernels_ref

REFERENCE = re.compile(r":(?:func|class|meth|attr|mod|data|exc|obj):`~?([\w.]+)`")
OTHER_LIBRARIES = ("numpy", "np", "scipy", "sklearn", "cvxpy", "matplotlib")
MODULES = [
    importlib.import_module(m.name)
    for m in pkgutil.walk_packages(kernels_ref.__path__, "kernels_ref.")
    if not m.name.endswith("__main__")  # the command line: importing it would run it
]


def _documented(module):
    """The module, and its classes and functions (with their methods), with their docstrings."""
    yield module, None
    for _, obj in inspect.getmembers(module):
        if getattr(obj, "__module__", None) != module.__name__:
            continue
        yield obj, obj if inspect.isclass(obj) else None
        if inspect.isclass(obj):
            for _, member in inspect.getmembers(obj):
                if inspect.isfunction(member) or isinstance(member, property):
                    yield member, obj


def _resolves(path, module, cls):
    parts = path.split(".")
    if parts[0] in OTHER_LIBRARIES or hasattr(builtins, path):
        return True
    if parts[0] == "kernels_ref":
        bases = [kernels_ref]
        parts = parts[1:]
    else:  # relative, as Sphinx reads it: the class, the module, the package
        bases = [b for b in (cls, module, kernels_ref) if b is not None]
    for base in bases:
        target = base
        for part in parts:
            target = getattr(target, part, None)
            if target is None:
                break
        if target is not None:
            return True
    return False


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_every_cross_reference_in_a_docstring_names_an_existing_object(module):
    dead = [
        (getattr(obj, "__qualname__", module.__name__), ref)
        for obj, cls in _documented(module)
        for ref in REFERENCE.findall(inspect.getdoc(obj) or "")
        if not _resolves(ref, module, cls)
    ]
    assert not dead, f"references to objects that do not exist: {dead}"
