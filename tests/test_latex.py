"""The PDF's Python side (latex/): bookmarks of headings with math, table columns, the log check;
and the HTML book's link to the PDF (book/_ext/book_html.py).

``make pdf`` builds the whole PDF (minutes, with a TeX installation); these tests check the
pieces that decide what it prints without TeX.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

LATEX = Path(__file__).resolve().parent.parent / "latex"


def _module(name: str):
    spec = importlib.util.spec_from_file_location(name, LATEX / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


latex = _module("kernelsref_latex")
check_log = _module("check_log")


@pytest.mark.parametrize(
    ("source", "bookmark"),
    [
        (r"u_i", "u{ᵢ}"),
        (r"R^2/\rho^2", r"R{²}/\rho{²}"),
        (r"(HH^\top + I)^{-1}y", "(HH{ᵀ} + I){⁻¹}y"),
        (r"\alpha_ix_i", r"\alpha{ᵢ}x{ᵢ}"),
        (r"\hat\beta_0", r"\hat\beta{₀}"),
        # No Unicode subscript P or l: the script stays a script.
        (r"L_P", r"L\_{P}"),
        (r"I_{low}", r"I\_{low}"),
        (r"\alpha^*", r"\alpha{*}"),
        # The space after a command name, which TeX would swallow, is kept.
        (r"\xi = C", r"\xi{} = C"),
        (r"\log(4\delta)", r"\log(4\delta)"),
    ],
)
def test_bookmark_text(source, bookmark):
    assert latex.bookmark_text(source) == bookmark


def test_bookmark_text_leaves_no_script_character():
    for source in [r"\sum_{i=1}^n \alpha_i^2", r"x_{ij}^{(k)}", r"\mathbb R^{n \times d}"]:
        text = latex.bookmark_text(source)
        # hyperref drops a bare _ or ^ (category 7 or 8); \_ and \textasciicircum are text.
        bare = text.replace(r"\_", "").replace(r"\textasciicircum", "")
        assert "_" not in bare and "^" not in bare, text


def test_math_width_counts_operators_and_matrix_columns():
    width = latex._math_width
    assert width("n + 2") > width("n2") + 1
    # A matrix is as wide as a row, with its column gap and delimiters.
    matrix = width(r"\begin{pmatrix} K & K \\ K & K\end{pmatrix}")
    assert matrix > width("KK") + 2
    assert matrix < width("KKKK") + 4
    # A fraction is as wide as its wider part.
    assert width(r"\frac{1}{2\lambda n}") == width(r"2\lambda n")


def test_column_fractions_hold_text_and_padding():
    from docutils import nodes

    def row(*cells):
        return nodes.row("", *[nodes.entry("", nodes.paragraph(text=c)) for c in cells])

    rows = [row("short", "a much longer cell of several words " * 3), row("x", "y")]
    fractions = latex._column_fractions(rows, 2, latex.FONT_PT)
    assert sum(fractions) == pytest.approx(1.0)
    # Each column's share covers its padding, which the column specification takes off again.
    padding = latex.CELL_PADDING_PT / latex.LINE_WIDTH_PT
    text_pt = [(f - padding) * latex.LINE_WIDTH_PT for f in fractions]
    assert text_pt[0] >= len("short") * latex.CHAR_EM * latex.FONT_PT
    assert text_pt[1] > text_pt[0]


LOG = r"""
Overfull \hbox (2.10652pt too wide) in paragraph at lines 11425--11427
[]|$[] []
 []

Overfull \hbox (15.89824pt too wide) in paragraph at lines 299--301
[]\TU/FreeMono(0)/m/n/10 n_validation \TU/FreeSerif(0)/m/n/10 (kernels_ref.model_selection
 []

Overfull \vbox (7.10033pt too high) detected at line 9714
 []

Missing character: There is no ᵢ in font FreeSerif/I:mode=node;script=DFLT;language=dflt;!

Package hyperref Warning: Token not allowed in a PDF string (Unicode):
(hyperref)                removing `math shift' on input line 14048.

LaTeX Warning: Label(s) may have changed. Rerun to get cross-references right.
"""


def test_check_log_reports_each_defect_once():
    found = check_log.defects(LOG, max_overfull=3.0)
    assert len(found) == 4
    assert found[0].startswith(r"Overfull \hbox (15.89824pt") and "n_validation" in found[0]
    assert found[1].startswith("Missing character")
    assert "line 14048" in found[2]
    assert found[3].startswith("LaTeX Warning: Label(s)")


def test_check_log_threshold_and_exit_status(tmp_path):
    assert len(check_log.defects(LOG, max_overfull=20.0)) == 3
    assert check_log.defects("Overfull \\hbox (2.9pt too wide) in paragraph\n[]x\n\n", 3.0) == []
    clean = tmp_path / "clean.log"
    clean.write_text("Output written on kernels-ref.pdf (400 pages).\n", encoding="utf-8")
    assert check_log.main([str(clean)]) == 0
    dirty = tmp_path / "dirty.log"
    dirty.write_text(LOG, encoding="utf-8")
    assert check_log.main([str(dirty)]) == 1


# The HTML book's link to the PDF (book/_ext/book_html.py).
book_html_spec = importlib.util.spec_from_file_location(
    "book_html", LATEX.parent / "book" / "_ext" / "book_html.py"
)
book_html = importlib.util.module_from_spec(book_html_spec)
book_html_spec.loader.exec_module(book_html)


def _html_app(build: Path, pdf: bool):
    from types import SimpleNamespace

    (build / "html").mkdir(parents=True)
    if pdf:
        (build / "latex").mkdir()
        (build / "latex" / book_html.PDF_NAME).write_bytes(b"%PDF-1.5\n")
    app = SimpleNamespace(
        outdir=str(build / "html"),
        config=SimpleNamespace(),
        builder=SimpleNamespace(format="html"),
    )
    book_html._note_pdf(app, app.config)
    return app


def _download_menu(app, pagename="book/ch07_smo"):
    depth = pagename.count("/")
    context = {
        "pathto": lambda name, resource: "../" * depth + name,
        "header_buttons": [{"label": "download-buttons", "buttons": [{"text": ".ipynb"}]}],
    }
    book_html._offer_pdf(app, pagename, "page.html", context, None)
    return context["header_buttons"][0]["buttons"]


def test_html_offers_the_pdf_only_when_built(tmp_path):
    with_pdf = _html_app(tmp_path / "with", pdf=True)
    entries = _download_menu(with_pdf)
    assert [entry["text"] for entry in entries] == [".ipynb", "Book (.pdf)"]
    assert entries[-1]["url"] == "../kernels-ref.pdf"
    book_html._copy_pdf(with_pdf, None)
    assert (tmp_path / "with" / "html" / "kernels-ref.pdf").is_file()

    without = _html_app(tmp_path / "without", pdf=False)
    assert [entry["text"] for entry in _download_menu(without)] == [".ipynb"]
    book_html._copy_pdf(without, None)
    assert not (tmp_path / "without" / "html" / "kernels-ref.pdf").exists()
