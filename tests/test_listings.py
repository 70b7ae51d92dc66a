"""Package listings (``book/_ext/listings.py``): the code, with the docstring's summary as caption.

Small Sphinx projects, built with the HTML and the LaTeX builders, show a function with a
multi-line docstring; the functions of the extension are checked on the package's own sources.
"""

import io
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import listings  # noqa: E402

MODULE = '''"""A module."""


def helper(x):
    """A helper."""
    return x


def area(a, b):
    """Area :math:`a b` of a rectangle, see
    :func:`helper`.

    Longer text: :math:`a > 0`.

    Parameters
    ----------
    a : float
    """
    s = a * b  # line 20 of the file
    return helper(s)


def _private(a):
    """Private, :math:`a^2`."""
    return a * a
'''

INDEX = """Listings
========

.. literalinclude:: pkg/geometry.py
   :pyobject: area
   :linenos:
   :emphasize-lines: 2

.. literalinclude:: pkg/geometry.py
   :pyobject: _private

.. literalinclude:: pkg/geometry.py
   :pyobject: helper
   :docstring: full

.. automodule:: pkg.geometry
   :members:
"""


def build(tmp_path, builder, index=INDEX):
    from sphinx.application import Sphinx

    (tmp_path / "pkg").mkdir(exist_ok=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "geometry.py").write_text(MODULE)
    (tmp_path / "index.rst").write_text(index)
    (tmp_path / "conf.py").write_text(
        f"import sys\nsys.path[:0] = [{str(tmp_path)!r}, {str(ROOT / 'book' / '_ext')!r}]\n"
        "extensions = ['sphinx.ext.autodoc', 'listings']\n"
    )
    out = tmp_path / "_build" / builder
    warnings = io.StringIO()
    doctrees = tmp_path / "_build" / "doctrees"
    app = Sphinx(tmp_path, tmp_path, out, doctrees, builder, status=None, warning=warnings)
    app.build()
    # a second application in the same process registers Sphinx's nodes again: not ours
    app.warnings = [w for w in warnings.getvalue().splitlines() if "already registered" not in w]
    return app, out


def test_html_listing_shows_the_code_and_the_summary_typeset_with_a_link(tmp_path):
    app, out = build(tmp_path, "html")
    assert app.statuscode == 0 and not app.warnings
    page = (out / "index.html").read_text(encoding="utf-8")
    assert ":math:" not in page and ":func:" not in page
    captions = re.findall(r'<div class="code-block-caption">(.*?)</div>', page, re.S)
    assert len(captions) == 2  # docstring: full has none
    area, private = captions
    # the name links to the API entry; the summary's mathematics is typeset, its role a link
    assert 'href="#pkg.geometry.area"' in area and '<span class="pre">area</span>' in area
    assert r'<span class="math notranslate nohighlight">\(a b\)</span>' in area
    assert 'href="#pkg.geometry.helper"' in area and "of a rectangle, see" in area
    assert "Longer text" not in area
    # a private function has no API entry: its module's
    assert 'href="#module-pkg.geometry"' in private and r"\(a^2\)" in private
    blocks = re.findall(r'<div class="highlight"><pre>(.*?)</pre>', page, re.S)
    code = re.sub(r"<[^>]+>", "", blocks[0])
    lines = code.strip("\n").split("\n")
    # line numbers count the lines shown; the emphasised line is the second shown
    assert [re.match(r"\s*(\d+)", line)[1] for line in lines] == ["1", "2", "3"]
    assert lines[1].endswith("s = a * b  # line 20 of the file")
    assert '<span class="hll">' in blocks[0].split("\n")[1]
    assert "Parameters" not in code and '"""' not in code
    assert '"""A helper."""' in re.sub(r"<[^>]+>", "", blocks[2])  # docstring: full


def test_latex_listing_has_the_same_caption_and_code(tmp_path):
    app, out = build(tmp_path, "latex")
    assert app.statuscode == 0 and not app.warnings
    tex = next(out.glob("*.tex")).read_text(encoding="utf-8")
    assert ":math:" not in tex and "Longer text" not in tex.split("begin{fulllineitems}")[0]
    captions = re.findall(r"\\sphinxSetupCaptionForVerbatim\{(.*)\}", tex)
    assert len(captions) == 2
    assert r"\(a b\)" in captions[0] and "of a rectangle, see" in captions[0]
    assert r"\hyperref[\detokenize{index:pkg.geometry.area}]" in captions[0]
    verbatim = tex.split(r"\begin{sphinxVerbatim}")[1].split(r"\end{sphinxVerbatim}")[0]
    assert "Parameters" not in verbatim and "line 20 of the file" in verbatim


def test_lineno_match_is_refused_and_the_rest_of_the_page_builds(tmp_path):
    index = INDEX.split("\n\n.. literalinclude")[0] + (
        "\n\n.. literalinclude:: pkg/geometry.py\n   :pyobject: area\n   :lineno-match:\n"
    )
    app, out = build(tmp_path, "html", index)
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "line 20 of the file" not in page
    assert len(app.warnings) == 1 and "lineno-match cannot number" in app.warnings[0]


def test_without_docstring_keeps_the_code_and_its_line_ends():
    found = listings.definitions(MODULE)["area"]
    assert found.summary == "Area :math:`a b` of a rectangle, see :func:`helper`."
    lines = MODULE.splitlines(keepends=True)[found.first - 1 : found.last]
    kept = listings.without_docstring(lines, found)
    assert kept == [
        "def area(a, b):\n",
        "    s = a * b  # line 20 of the file\n",
        "    return helper(s)\n",
    ]
    assert listings.definitions(MODULE)["helper"].docstring == (5, 5)
    stub = listings.definitions('def f():\n    """Only this."""\n')["f"]
    assert listings.without_docstring(["def f():", '    """Only this."""'], stub) == [
        "def f():",
        "    ...",
    ]


def test_summaries_as_markdown_and_what_the_renderer_refuses():
    assert listings.markdown(r"Sum :math:`\sum_i x_i` of ``x`` by :func:`~a.b.total`, *") == (
        r"Sum $\sum_i x_i$ of `x` by `total`, \*"
    )
    with pytest.raises(ValueError, match="unknown role"):
        listings.inline_tokens(":ref:`label`")
    with pytest.raises(ValueError, match="does not read"):
        listings.inline_tokens("a `default role`")


def test_every_summary_of_the_package_is_rendered():
    for path in sorted((ROOT / "kernels_ref").glob("*.py")):
        for found in listings.definitions(path.read_text(encoding="utf-8")).values():
            tokens = listings.inline_tokens(found.summary)
            assert "".join(t.text for t in tokens if t.kind == "text").count("`") == 0


def test_the_package_breaks_lines_only_at_newlines():
    # Sphinx reads a listing's lines with str.splitlines, which also breaks at a form feed or a
    # Unicode line separator, but finds a :pyobject: by the tokenizer's lines: one stray control
    # character (a "\frac" whose backslash was lost) shifts every listing below it in the file.
    for path in sorted((ROOT / "kernels_ref").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) == len(text.split("\n")) - text.endswith("\n"), path.name
