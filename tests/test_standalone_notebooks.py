"""The downloadable notebooks: MyST markup converted to what plain Jupyter shows well.

``book/_ext/standalone_notebooks.py`` rewrites the ``_sources`` copies of the chapters after an
HTML build. Its conversion, ``standalone(nb, resolve)``, is tested here without Sphinx: on small
notebooks made by hand (one per directive and role), and on every chapter with a resolver that
answers without a build (no MyST markup may be left, the code cells must not change).
"""

import importlib.util
import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
CHAPTERS = sorted(BOOK.glob("*.ipynb"))

sys.path.insert(0, str(BOOK / "_ext"))  # the extensions import each other, as in the build
_spec = importlib.util.spec_from_file_location(
    "standalone_notebooks", BOOK / "_ext" / "standalone_notebooks.py"
)
sn = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sn)
Ref = sn.Ref

# What MyST writes and plain Jupyter does not read.
MYST = re.compile(
    r"```+\{|:::+\{|\{[\w:.+-]+\}`|\{cite|\{eq\}|\{prf:|\{ref\}|\{numref\}|\{doc\}"
    r"|^\s*\([^()\s]+\)=\s*$|\$\$\s*\([^()\s]+\)\s*$",
    re.MULTILINE,
)

MODULE = '''"""A module."""

import functools


def first(x):
    """The first."""
    return x  # the end


# a comment between two functions


@functools.cache
def second(x, y):
    z = x + y

    return z


class Box:
    def size(self):
        if True:
            return 1
        # a trailing comment inside the method


def third(x, y):
    """Sum :math:`x + y` of ``x`` and
    :func:`first` of ``y``.

    More on :math:`x`: gone from the listing.

    Parameters
    ----------
    x : float
    """
    z = x + y  # the code
    return z


def stub():
    """Only a docstring."""
'''


class FakeResolver:
    """Answers without a build: numbers by order of first request, fixed titles and texts."""

    def __init__(self, files=None):
        self.files = files or {}
        self.numbers = {}

    def _number(self, label):
        return self.numbers.setdefault(label, f"9.{len(self.numbers) + 1}")

    def include(self, path):
        if path in self.files:
            return path.removeprefix("../"), self.files[path]
        return path.removeprefix("../"), (BOOK / path).resolve().read_text(encoding="utf-8")

    def api(self, path, name):
        if name.startswith("_"):
            return None
        module = path.removeprefix("../").removesuffix(".py").replace("/", ".")
        page = f"../../book/api/{module.rpartition('.')[2]}.html#{module}.{name}"
        return Ref(f"{module}.{name}", page, None, page)

    def page(self, path):
        name, _, anchor = path.partition("#")
        if not name.endswith((".md", ".ipynb")):
            return None
        return f"../../book/{name.rsplit('.', 1)[0]}.html" + (f"#{anchor}" if anchor else "")

    def equation(self, label):
        n = self._number(label)
        return Ref(n, "other.ipynb" if label.startswith("other") else None, n)

    def proof(self, label):
        kind = "Lemma" if "lem" in label else "Theorem"
        return Ref(f"{kind} {self._number(label)}")

    def exercise(self, label):
        return Ref(f"Exercise {self._number(label)}")

    def figure(self, label):
        n = self._number(label)
        return Ref(f"Fig. {n}", None, n)

    def numref(self, label):
        return self.figure(label)

    def ref(self, label):
        if label == "missing":
            return None
        if label == "sec-m":  # a section of this notebook
            return Ref("The case $C = 0$", None, None, f"book/here.html#{label}")
        return Ref("A section in $\\mathbb R^d$", "ch05_other.ipynb")

    def doc(self, target):
        return Ref("Kernel ridge regression", target + ".ipynb")

    def cite(self, role, target):
        names = ", ".join(key.strip().title() for key in target.split(","))
        return f"{names} [2004]" if role == "t" else f"[{names}, 2004]"

    def references(self, keys):
        return [f"{key.title()}. *A text*. 2004." for key in keys]


def notebook(*cells):
    """An nbformat 4.5 notebook of ("markdown" | "code", source[, metadata]) cells."""
    made = []
    for i, (kind, source, *metadata) in enumerate(cells):
        cell = {"cell_type": kind, "id": f"cell-{i}", "metadata": metadata[0] if metadata else {}}
        cell["source"] = source.splitlines(keepends=True)
        if kind == "code":
            cell |= {"execution_count": None, "outputs": []}
        made.append(cell)
    return {"cells": made, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def prose(markdown):
    """Markdown without its fenced code blocks (the package's docstrings hold reST roles)."""
    return re.sub(r"^(`{3,})[^`\n]*\n.*?^\1\s*$", "", markdown, flags=re.M | re.S)


def markdown_of(nb):
    return "\n\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def convert(source, resolver=None):
    """The Markdown of a one-cell notebook after conversion (References cell included)."""
    out = sn.standalone(notebook(("markdown", source)), resolver or FakeResolver())
    nbformat.validate(nbformat.from_dict(out))
    return markdown_of(out)


# ---- literalinclude


def test_literalinclude_shows_the_code_after_a_caption_with_the_docstring_summary():
    files = {"../pkg/mod.py": MODULE}
    include = "```{literalinclude} ../pkg/mod.py\n:language: python\n:pyobject: %s\n```"
    first = convert(include % "first", FakeResolver(files))
    assert first == (
        "[`first`](../../book/api/mod.html#pkg.mod.first) — The first.\n\n"
        "```python\ndef first(x):\n    return x  # the end\n```\n\n(pkg/mod.py, `first`)"
    )
    third = convert(include % "third", FakeResolver(files))
    assert third == (
        "[`third`](../../book/api/mod.html#pkg.mod.third) — Sum $x + y$ of `x` and `first` of"
        " `y`.\n\n```python\ndef third(x, y):\n    z = x + y  # the code\n    return z\n```"
        "\n\n(pkg/mod.py, `third`)"
    )
    second = convert(include % "second", FakeResolver(files))
    decorated = "@functools.cache\ndef second(x, y):\n    z = x + y\n\n    return z"
    assert second.startswith(
        f"[`second`](../../book/api/mod.html#pkg.mod.second)\n\n```python\n{decorated}\n```"
    )
    method = convert(include % "Box.size", FakeResolver(files))
    assert "```python\n    def size(self):" in method and "trailing comment" not in method
    assert "Parameters" not in third and "gone" not in third
    kept = convert(
        "```{literalinclude} ../pkg/mod.py\n:pyobject: third\n:docstring: full\n```",
        FakeResolver(files),
    )
    assert kept.startswith('```python\ndef third(x, y):\n    """Sum') and "Parameters" in kept
    assert "—" not in kept and kept.endswith("(pkg/mod.py, `third`)")
    private = convert(
        include % "_stub", FakeResolver({"../pkg/mod.py": MODULE.replace("stub", "_stub")})
    )
    assert private == (
        "`_stub` — Only a docstring.\n\n```python\ndef _stub():\n    ...\n```\n\n"
        "(pkg/mod.py, `_stub`)"
    )


def test_literalinclude_start_end_and_dedent_as_sphinx_applies_them():
    lines = MODULE.splitlines()
    options = {"pyobject": "second", "start-at": '"z = x"', "dedent": "4"}
    options["start-at"] = sn._unquote(options["start-at"])
    assert sn.included_lines(MODULE, options) == ["z = x + y", "", "return z"]
    options = {"pyobject": "Box", "start-after": "def size", "end-before": "return 1"}
    assert sn.included_lines(MODULE, options) == ["        if True:"]
    assert sn.included_lines(MODULE, {}) == lines
    with pytest.raises(ValueError, match="not found"):
        sn.included_lines(MODULE, {"pyobject": "fourth"})
    with pytest.raises(ValueError, match="not supported"):
        sn.included_lines(MODULE, {"lines": "1-3"})
    partial = convert(
        '```{literalinclude} ../pkg/mod.py\n:pyobject: second\n:start-at: "z = x"\n```',
        FakeResolver({"../pkg/mod.py": MODULE}),
    )
    assert partial.endswith("(pkg/mod.py, part of `second`)")


def _literalincludes():
    for path in CHAPTERS:
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            text = "".join(cell["source"])
            if cell["cell_type"] != "markdown":
                continue
            pattern = r"^```\{literalinclude\} (\S+)\n((?::[\w-]+:.*\n)*)"
            for match in re.finditer(pattern, text, re.M):
                options = dict(re.findall(r"^:([\w-]+):\s*(.*)$", match[2], re.M))
                yield pytest.param(match[1], options, id=f"{path.stem}-{options.get('pyobject')}")


@pytest.mark.parametrize(("path", "options"), list(_literalincludes()))
def test_every_literalinclude_of_the_book_shows_the_lines_the_book_shows(path, options):
    import listings

    options = {key: sn._unquote(value) for key, value in options.items()}
    sphinx_options = dict(options)
    if "dedent" in sphinx_options:
        sphinx_options["dedent"] = int(sphinx_options["dedent"])

    class Config:
        source_encoding = "utf-8"

    filename = str((BOOK / path).resolve())
    text, _ = listings._Reader(filename, sphinx_options, Config()).read()
    source = Path(filename).read_text(encoding="utf-8")
    assert sn.included_lines(source, options) == text.splitlines()


# ---- directives


def test_theorem_with_label_and_title_is_a_numbered_bold_header_between_rules():
    text = convert(
        "Before.\n\n```{prf:theorem} Representer\n:label: thm-rep\n\nEvery minimiser is\n"
        "$$\nf = \\sum_i \\alpha_i k(x_i, \\cdot).\n$$\n```\n\nAfter."
    )
    assert text == (
        "Before.\n\n---\n\n**Theorem 9.1 (Representer).** Every minimiser is\n$$\n"
        "f = \\sum_i \\alpha_i k(x_i, \\cdot).\n$$\n\n---\n\nAfter."
    )


def test_proof_reads_proof_then_ends_with_a_square():
    assert convert("```{prf:proof}\nBy induction.\n```") == "*Proof.* By induction. ∎"
    ending_in_math = convert("```{prf:proof}\nHence\n\n$$\na = b.\n$$\n```")
    assert ending_in_math == "*Proof.* Hence\n\n$$\na = b.\n$$\n\n∎"


def test_algorithm_starting_in_bold_and_lemma_without_title():
    text = convert(
        "```{prf:algorithm} SMO\n:label: alg-smo\n\n**Inputs** $K$\n\n1. repeat\n```\n\n"
        "```{prf:lemma}\n:label: lem-a\n\nA fact.\n```"
    )
    assert "**Theorem 9.1 (SMO).**\n\n**Inputs** $K$\n\n1. repeat" in text
    assert "**Lemma 9.2.** A fact." in text
    assert text.count("---") == 3  # two blocks in a row share the rule between them


def test_exercise_and_its_solution_in_a_details_block():
    text = convert(
        "```{exercise} Why $i$ is kept\n:label: ex-i\n\nShow it.\n```\n\n"
        "````{solution} ex-i\n:class: dropdown\n\nLike this:\n\n```python\nx = 1  # {eq}`a`\n```\n"
        "````"
    )
    assert "**Exercise 9.1 (Why $i$ is kept).** Show it." in text
    assert (
        "<details>\n<summary><strong>Solution to Exercise 9.1 (Why $i$ is kept)</strong></summary>"
        "\n\nLike this:\n\n```python\nx = 1  # {eq}`a`\n```\n\n</details>"
    ) in text


def test_a_solution_title_is_escaped_html_around_its_mathematics():
    text = convert(
        "```{exercise} `f` & $a < b$ < c\n:label: ex-a\n\nQ.\n```\n\n"
        "```{solution} ex-a\n:class: dropdown\n\nA.\n```"
    )
    title = "Solution to Exercise 9.1 (<code>f</code> &amp; $a < b$ &lt; c)"
    assert f"<summary><strong>{title}</strong></summary>" in text


def test_solution_without_dropdown_is_a_bold_header():
    text = convert("```{exercise}\n:label: ex-a\n\nQ.\n```\n\n```{solution} ex-a\n\nA.\n```")
    assert "**Exercise 9.1.** Q." in text and "**Solution to Exercise 9.1.** A." in text


def test_admonition_math_and_code_directives():
    text = convert(
        ":::{note}\nA $note$.\n:::\n\n```{math}\n:label: eq-m\na = b\n```\n\n"
        "```{code-block} python\nx = 1\n```"
    )
    assert "**Note.** A $note$." in text
    assert "$$\na = b\n\\tag{9.1}\n$$" in text
    assert "```python\nx = 1\n```" in text


def test_unknown_directives_and_roles_are_shown_as_text_and_reported():
    nb = sn.standalone(
        notebook(("markdown", "```{glue:figure} fig\n\nCaption.\n```\n\n{term}`SVM` {foo}`bar`.")),
        FakeResolver(),
    )
    assert nb["metadata"]["standalone_unknown"] == ["{foo}", "{glue:figure}"]
    assert not MYST.search(prose(markdown_of(nb)))


# ---- roles and targets


def test_equations_get_their_number_as_a_tag_and_eq_shows_it():
    text = convert("$$\nx = 1\n$$ (eq-x)\n\n$$ y $$ (eq-y)\n\nBy {eq}`eq-x` and {eq}`other-z`.")
    assert text == (
        "$$\nx = 1\n\\tag{9.1}\n$$\n\n$$ y \\tag{9.2} $$\n\nBy (9.1) and [(9.3)](other.ipynb)."
    )


def test_citations_as_the_html_shows_them_and_a_references_cell():
    nb = sn.standalone(
        notebook(
            ("markdown", "As {cite:t}`vert2004` says {cite:p}`rousseau2022,vert2004`(§2)."),
            ("code", "x = 1"),
        ),
        FakeResolver(),
    )
    text = "".join(nb["cells"][0]["source"])
    assert text == r"As Vert2004 \[2004\] says \[Rousseau2022, Vert2004, 2004\](§2)."
    assert [c["cell_type"] for c in nb["cells"]] == ["markdown", "code", "markdown"]
    assert "".join(nb["cells"][-1]["source"]) == (
        "## References\n\n- Vert2004. *A text*. 2004.\n- Rousseau2022. *A text*. 2004."
    )


def test_references_to_theorems_sections_figures_and_pages():
    text = convert(
        "(sec-here)=\n## Loss functions\n\n(sec-math)=\n### The case $C = 0$\n\n"
        "{prf:ref}`thm-a`, {prf:ref}`the lemma <lem-b>`, {ref}`sec-here`, {ref}`sec-math`, "
        "{ref}`sec-elsewhere`, {ref}`missing`, {numref}`fig-a`, {numref}`Figure {number} <fig-b>`,"
        " {doc}`ch09_kernel_ridge`."
    )
    assert text == (
        "## Loss functions\n\n### The case $C = 0$\n\n"
        "Theorem 9.1, the lemma, [Loss functions](#Loss-functions), The case $C = 0$, "
        "[A section in $\\mathbb R^d$](ch05_other.ipynb), missing, Fig. 9.3, Figure 9.4,"
        " [Kernel ridge regression](ch09_kernel_ridge.ipynb)."
    )


def test_code_spans_and_code_blocks_are_left_alone():
    source = "Write `` {eq}`x` `` or `{cite}`.\n\n```python\n# {prf:ref}`a`\n(label)=\n```"
    assert convert(source) == source


# ---- cells


def test_code_cells_are_untouched_and_a_caption_follows_its_figure():
    figure = {"mystnb": {"figure": {"caption": "Bounds, see {eq}`eq-b`.", "name": "fig-b"}}}
    hidden = {"tags": ["remove-cell"]}
    nb = notebook(
        ("code", "import numpy as np", hidden),
        ("markdown", "(lbl)=\n"),
        ("code", "plot()", figure),
    )
    nb["cells"][2]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["x\n"]}]
    before = json.dumps(nb, sort_keys=True)
    out = sn.standalone(nb, FakeResolver())
    assert json.dumps(nb, sort_keys=True) == before  # the input is not modified
    assert [c["id"] for c in out["cells"]] == ["cell-0", "cell-2", "cell-2-caption"]
    assert out["cells"][0] == nb["cells"][0] and out["cells"][1] == nb["cells"][2]
    assert "".join(out["cells"][2]["source"]) == "**Fig. 9.1.** Bounds, see (9.2)."
    nbformat.validate(nbformat.from_dict(out))


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_every_chapter_converts_to_plain_jupyter_markdown(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = sn.standalone(nb, FakeResolver())
    nbformat.validate(nbformat.from_dict(out))
    assert "standalone_unknown" not in out["metadata"]
    text = markdown_of(out)
    assert not MYST.findall(prose(text))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert [c for c in out["cells"] if c["cell_type"] == "code"] == code
    includes = sum("".join(c["source"]).count("{literalinclude}") for c in nb["cells"])
    pointers = re.findall(r"^\(kernels_ref/\w+\.py(, (part of )?`[\w.]+`)?\)$", text, re.M)
    assert len(pointers) == includes
    # each listing after its caption, the docstrings' reST as Markdown
    captions = re.findall(r"^(\[`[\w.]+`\]\(\S+\)|`_[\w.]+`)( — .*)?\n\n```python$", text, re.M)
    assert len(captions) == includes
    assert ":math:" not in text and ":func:" not in text


def test_the_book_registers_the_extension():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    path = config["sphinx"]["local_extensions"]["standalone_notebooks"]
    assert (ROOT / path / "standalone_notebooks.py").is_file()


# ---- what a notebook needs


def fake_package(extras=None, modules=None):
    """A package "pkg" (distribution "pkg-dist") whose module ``solver`` imports cvxpy."""
    modules = modules or {
        "pkg": "from . import core\n",
        "pkg.core": "import math\n\nimport numpy as np\n",
        "pkg.solver": (
            "from .core import x\n\ntry:\n    import cvxpy\nexcept ImportError:\n    x = 0"
        ),
        "pkg.plain": "from pkg.core import x\n",
    }
    if extras is None:
        extras = {
            "solver": ["cvxpy>=1.5", "clarabel>=0.10"],
            "docs": ["matplotlib>=3.7", "scikit-learn>=1.8"],
            "bench": ["scikit-learn>=1.8"],
        }
    return sn.Package(
        name="pkg-dist",
        module="pkg",
        source=lambda name: (
            modules.get(name.removesuffix(".__init__"))
            if not name.endswith(".__init__") or name == "pkg.__init__"
            else None
        ),
        python=">=3.10",
        dependencies=["numpy>=1.24"],
        extras=extras,
        distributions={"sklearn": "scikit-learn"},
    )


def needs(*sources, package=None):
    return sn.requirements(notebook(*(("code", s) for s in sources)), package or fake_package())


def test_requirements_read_off_the_imports_of_the_code_cells():
    # the standard library and the package's own dependencies are not listed
    assert needs("import itertools\nfrom math import pi") == ([], [])
    assert needs("import numpy as np\nfrom pkg.plain import f") == (["pkg-dist"], [])
    # a module of the package that imports cvxpy: the extra named like it
    assert needs("from pkg import solver") == (["pkg-dist[solver]"], ["cvxpy"])
    assert needs("import pkg.solver as s") == (["pkg-dist[solver]"], ["cvxpy"])
    # cvxpy imported directly is also what the extra "solver" (a module's name) holds
    assert needs("import cvxpy as cp\n", "%matplotlib inline\nimport matplotlib.pyplot as plt") == (
        ["pkg-dist[solver]", "matplotlib>=3.7"],
        ["cvxpy", "matplotlib"],
    )
    # scikit-learn: no extra named like the import ("bench" and "docs" are not), so itself
    assert needs("from sklearn.svm import SVC\nfrom pkg import plain") == (
        ["pkg-dist", "scikit-learn>=1.8"],
        ["scikit-learn"],
    )
    with_extra = fake_package(extras={"sklearn": ["scikit-learn>=1.8"], "bench": ["scikit-learn"]})
    assert needs("import sklearn", package=with_extra) == (["pkg-dist[sklearn]"], ["scikit-learn"])
    # an unknown distribution: its import name, without version
    assert needs("import yaml") == (["yaml"], ["yaml"])


def test_a_relative_import_inside_the_package_is_followed():
    modules = {"pkg": "", "pkg.a": "from . import b\n", "pkg.b": "from .c import f\n"}
    modules["pkg.c"] = "import cvxpy\n"
    package = fake_package(modules=modules, extras={"c": ["cvxpy"]})
    assert needs("from pkg.a import g", package=package) == (["pkg-dist[c]"], ["cvxpy"])


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_every_chapter_declares_what_its_code_imports(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    package = sn.installed_package("kernels-ref")
    out = sn.standalone(nb, FakeResolver(), package)
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    # the title, the note, the commented %pip line, then the chapter's cells
    kinds = [c["cell_type"] for c in out["cells"][:3]]
    assert kinds == ["markdown", "markdown", "code"]
    assert re.fullmatch(r"# [^\n]+", "".join(out["cells"][0]["source"]))
    assert "".join(out["cells"][1]["source"]).startswith("**Requirements.**")
    pip = "".join(out["cells"][2]["source"])
    assert pip.startswith("# %pip install ")
    declared = set(re.findall(r'"([^"]+)"', pip))
    # scikit-learn, cvxpy and hypothesis come with the package's extras named after the modules
    # that import them, not on their own
    extras = [
        e
        for e, used in (
            ("cvx", r"import cvx|cvxpy"),
            ("exercises", r"import exercises|kernels_ref\.exercises"),
            ("sklearn", "sklearn"),
        )
        if re.search(used, code)
    ]
    expected = {f"kernels-ref[{','.join(extras)}]" if extras else "kernels-ref"}
    if "matplotlib" in code:
        expected.add("matplotlib>=3.7")
    assert declared == expected
    nbformat.validate(nbformat.from_dict(out))
    # every other cell is there, code cells unchanged
    original = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert [c for c in out["cells"][3:] if c["cell_type"] == "code"] == original


def test_the_title_comes_before_the_set_up_cell_and_the_note_after_it():
    nb = notebook(
        ("code", "import numpy as np", {"tags": ["remove-cell"]}),
        ("markdown", "# A chapter\n\nIts introduction."),
        ("code", "from pkg import solver"),
    )
    out = sn.standalone(nb, FakeResolver(), fake_package())
    sources = ["".join(c["source"]) for c in out["cells"]]
    assert sources[0] == "# A chapter"
    assert sources[1].startswith("**Requirements.** This notebook imports `pkg` and `cvxpy`")
    assert sources[2] == '# %pip install "pkg-dist[solver]"'
    assert sources[3:] == ["import numpy as np", "Its introduction.", "from pkg import solver"]
    assert [c["id"] for c in out["cells"]] == [
        "cell-1-title",
        "requirements",
        "requirements-install",
        "cell-0",
        "cell-1",
        "cell-2",
    ]
    nbformat.validate(nbformat.from_dict(out))
    untitled = sn.standalone(notebook(("code", "import math")), FakeResolver(), fake_package())
    assert len(untitled["cells"]) == 1  # nothing to install, nothing said


# ---- links to the book


def test_links_go_to_the_published_pages_or_to_the_built_book_beside_the_download():
    uri, source = "book/ch04_maximal_margin.html#eq-margin", "book/ch05_soft_margins.ipynb"
    assert sn.page_link(uri, source) == "../../book/ch04_maximal_margin.html#eq-margin"
    assert sn.page_link("index.html", "book/api/svm.md") == "../../../index.html"
    published = sn.page_link(uri, source, "https://example.org/kernels-ref/")
    assert published == "https://example.org/kernels-ref/book/ch04_maximal_margin.html#eq-margin"


def test_the_books_base_url_reaches_sphinx():
    from jupyter_book.config import yaml_to_sphinx

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert yaml_to_sphinx(config)[0].get("html_baseurl", "") == config["html"].get("baseurl", "")
    config["html"]["baseurl"] = "https://example.org/kernels-ref/"
    assert yaml_to_sphinx(config)[0]["html_baseurl"] == "https://example.org/kernels-ref/"


def test_markdown_links_to_pages_of_the_book_and_sections_without_an_anchor():
    text = convert(
        "See [the errata](errata.md), [a part](api/svm.md#top), [the web](https://x.org/a.md),"
        " ![a figure](fig.png) and [here](#top).\n\n(sec-m)=\n## The case $C = 0$\n\n"
        "{ref}`sec-m`, {ref}`the case <sec-m>`."
    )
    assert text.startswith(
        "See [the errata](../../book/errata.html), [a part](../../book/api/svm.html#top), "
        "[the web](https://x.org/a.md), ![a figure](fig.png) and [here](#top)."
    )
    # a heading with mathematics has no anchor Jupyter agrees on: the book's section
    assert text.endswith(
        "[The case $C = 0$](book/here.html#sec-m), [the case](book/here.html#sec-m).",
    ), text


# ---- a downloaded notebook in a fresh environment


@pytest.mark.fresh_venv
@pytest.mark.parametrize("chapter", ["ch05_soft_margins", "appendix_sklearn"])
def test_a_downloaded_notebook_runs_with_exactly_what_it_declares(chapter, tmp_path):
    """A new virtual environment gets what the notebook's %pip line names (kernels-ref from
    this repository) and what running a notebook takes (nbclient, ipykernel), nothing else;
    the notebook then runs to the end, its asserts included. Chapter 5 needs cvxpy and
    matplotlib, the appendix scikit-learn. pip's cache is reused."""
    import os
    import subprocess

    nb = json.loads((BOOK / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    out = sn.standalone(nb, FakeResolver(), sn.installed_package("kernels-ref"))
    line = next(c for c in out["cells"] if "".join(c["source"]).startswith("# %pip install"))
    declared = re.findall(r'"([^"]+)"', "".join(line["source"]))
    assert declared[0].startswith("kernels-ref")
    wanted = [str(ROOT) + declared[0].removeprefix("kernels-ref"), *declared[1:]]
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "VIRTUAL_ENV", "JUPYTER", "CONDA"))
    }
    env |= {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    # no kernel of the user's: the environment's own
    env["JUPYTER_DATA_DIR"] = str(tmp_path / "jupyter")
    venv = tmp_path / "venv"
    run = dict(env=env, cwd=tmp_path, capture_output=True, text=True)
    done = subprocess.run([sys.executable, "-m", "venv", str(venv)], **run)
    assert done.returncode == 0, done.stderr
    python = str(venv / "bin" / "python")
    install = [python, "-m", "pip", "install", "--quiet", *wanted, "nbclient", "ipykernel"]
    done = subprocess.run(install, **run)
    assert done.returncode == 0, done.stderr
    path = tmp_path / f"{chapter}.ipynb"
    nbformat.write(nbformat.from_dict(out), path)
    execute = [str(venv / "bin" / "jupyter-execute"), "--timeout=600", str(path)]
    done = subprocess.run(execute, **run)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
