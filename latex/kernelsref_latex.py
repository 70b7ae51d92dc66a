"""LaTeX-only adjustments of the kernels-ref book, for ``make pdf``.

Jupyter Book's LaTeX extension (sphinx-jupyterbook-latex) turns the captions of ``_toc.yml`` into
``\\part`` headings. Three things then differ from the HTML book, and this extension puts them
right; it does nothing for the HTML builder.

- Numbers of theorems, definitions and exercises. The LaTeX extension sets
  ``numfig_secnum_depth = 2`` so that LaTeX restarts the figure and equation counters at each
  chapter under the parts; but sphinx-proof reads the same setting to number its blocks, which
  then become "Theorem 1.1.1" where the HTML book says "Theorem 1.1". The environment (which
  numbers the blocks) is built with the configured depth, and the LaTeX writer (which passes the
  counter reset to LaTeX) gets the extension's depth.
- Chapter numbers. In the HTML book only the chapters of numbered parts have numbers; in the PDF
  the chapters of the parts that are not numbered in ``_toc.yml`` (appendix, reference pages) have
  none either.
- sphinx-proof finds the chapter of a theorem by the chapter's title among the names of its
  section; a chapter with a section of the same title (chapter 12, "Kernel CCA") loses that name
  (docutils drops duplicate names) and its theorems their labels and numbers. The title is given
  back to the chapter's section.

It also typesets proofs as proofs (sphinx-proof gives them a box with an empty title bar), lays
out the tables whose widths the source leaves open (see ``TableLayout``), sets the lists of table
cells as bulleted paragraphs (``CellLists``), opens the book's first
page with its title (``RootPage``), and gives the PDF bookmarks of headings with mathematics a
text form of it (``BookmarkMath``).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.builders.latex import LaTeXBuilder
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import texescape

# Tables of more rows than this, or of at least this many columns, become longtables; those of
# many columns get a smaller font.
TABULARY_ROWS = 15
# A table of given column widths and more rows than this may break across pages.
BREAKABLE_ROWS = 4
WIDE_TABLE_COLUMNS = 6
# A column whose longest cell is shorter than this many characters does not wrap.
SHORT_COLUMN = 14
# To turn lengths of text into widths: the line of the PDF (A4 less the 2 cm margins set in
# _config.yml), the padding of a cell, the body and small fonts, the width of a character.
LINE_WIDTH_PT = 483.0
CELL_PADDING_PT = 12.0
FONT_PT, SMALL_FONT_PT = 10.0, 8.0
CHAR_EM = 0.45
# A symbol of math against a character of text (math italic, Greek letters, wider symbols), and
# what a symbol written as a command (\infty, \lambda, \sum) adds, in characters.
MATH_CHAR, COMMAND_EXTRA = 1.2, 0.5
HEADER_SCALE = 1.2
# A column of a share of the line width, ragged right.
RAGGED_COLUMN = r">{{\raggedright\arraybackslash}}p{{\dimexpr {:.3f}\linewidth-2\tabcolsep\relax}}"


def _remember_depth(app: Sphinx, config: Any) -> None:
    app.kernelsref_numfig_secnum_depth = config.numfig_secnum_depth


def _environment_depth(app: Sphinx) -> None:
    if isinstance(app.builder, LaTeXBuilder):
        app.kernelsref_writer_numfig_secnum_depth = app.config.numfig_secnum_depth
        app.config.numfig_secnum_depth = app.kernelsref_numfig_secnum_depth


def _writer_depth(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if isinstance(app.builder, LaTeXBuilder):
        app.config.numfig_secnum_depth = app.kernelsref_writer_numfig_secnum_depth


class ChapterTitleNames(SphinxPostTransform):
    """Give each included document's top section its title back among its names."""

    builders = ("latex",)
    default_priority = 800

    def run(self, **kwargs: Any) -> None:
        for start in self.document.findall(addnodes.start_of_file):
            docname = start.get("docname")
            if docname not in self.env.titles:
                continue
            section = next(iter(start.findall(nodes.section)), None)
            name = self.env.titles[docname].astext().lower()
            if section is not None and name not in section["names"]:
                section["names"].append(name)


class UnnumberedParts(SphinxPostTransform):
    """No chapter numbers in the parts that ``_toc.yml`` does not number."""

    builders = ("latex",)
    default_priority = 800

    def run(self, **kwargs: Any) -> None:
        sitemap = getattr(self.config, "external_site_map", None)
        if sitemap is None or not getattr(self.env, "jblatex_captions_to_parts", False):
            return
        numbered = {tree.caption: bool(tree.numbered) for tree in sitemap.root.subtrees}
        # The LaTeX extension makes each part a start_of_file named after the caption.
        for start in list(self.document.findall(addnodes.start_of_file)):
            caption = start.get("docname")
            if caption not in numbered or not isinstance(start.parent, nodes.compound):
                continue
            command = r"\kernelsrefnumbered" if numbered[caption] else r"\kernelsrefunnumbered"
            wrapper = start.parent
            wrapper.parent.insert(
                wrapper.parent.index(wrapper), nodes.raw("", command + "\n", format="latex")
            )


class ProofBlocks(SphinxPostTransform):
    """A proof as a plain block that opens with *Proof.* and closes with a square.

    sphinx-proof writes a proof as an admonition without a title, which LaTeX turns into a box
    with an empty title bar.
    """

    builders = ("latex",)
    default_priority = 800

    def run(self, **kwargs: Any) -> None:
        for proof in list(self.document.findall(_is_proof)):
            block = nodes.container(classes=["krproof"])
            block.extend(proof.children)
            proof.replace_self(block)
            first = next(iter(block.findall(nodes.paragraph)), None)
            if first is not None and first.children and isinstance(first[0], nodes.Text):
                head = str(first[0])
                if head.startswith("Proof. "):
                    rest = nodes.Text(head[len("Proof.") :])
                    first.replace(first[0], [nodes.emphasis("", "Proof."), rest])
            last = block.children[-1] if block.children else None
            qed = nodes.raw("", r"\kernelsrefqed", format="latex")
            if isinstance(last, nodes.paragraph):
                last += qed
            else:
                block += nodes.paragraph("", "", qed)


class CellLists(SphinxPostTransform):
    """A bullet list in a table cell as paragraphs that open with a bullet.

    LaTeX sets a cell of given width as a ``\\vtop`` whose top line is its first box; a list opens
    with vertical space, so a list at the top of a cell started a line below the rest of its row
    (the notation page). Paragraphs with a hanging bullet start on the row's first line.
    """

    builders = ("latex",)
    default_priority = 800

    def run(self, **kwargs: Any) -> None:
        for entry in self.document.findall(nodes.entry):
            for bullets in [c for c in entry.children if isinstance(c, nodes.bullet_list)]:
                paragraphs = []
                for item in bullets.children:
                    body = list(item.children)
                    if body and isinstance(body[0], nodes.paragraph):
                        body[0].insert(0, nodes.raw("", CELL_BULLET, format="latex"))
                    paragraphs.extend(body)
                bullets.replace_self(paragraphs)


#: The start of a paragraph of a cell's list: a bullet in a hanging indent of 1em.
CELL_BULLET = r"\hangindent1em\hangafter1\makebox[1em][l]{\textbullet}"


def _is_proof(node: nodes.Node) -> bool:
    """The admonition inside a sphinx-proof proof node."""
    return (
        isinstance(node, nodes.admonition)
        and "proof" in node["classes"]
        and type(node.parent).__name__ == "proof_node"
    )


class RootPage(SphinxPostTransform):
    r"""The book's first page opens with its title and ends with its text.

    Jupyter Book's LaTeX extension drops the title of the root document (the introduction after
    the table of contents) and keeps its headings as lines of large type, the last of which,
    "Contents", heads the table of contents that the PDF prints before it: the first page had no
    title and ended in an empty heading. The title heads the page (``\kernelsreftitle``,
    latex/kernelsref.sty) and is listed in the contents; a heading with nothing printed after it
    goes.
    """

    builders = ("latex",)
    default_priority = 800

    def run(self, **kwargs: Any) -> None:
        root = self.config.root_doc
        if self.app.project.path2doc(self.document.get("source", "")) != root:
            return
        section = next(
            (s for s in self.document.findall(nodes.section) if s.get("docname") == root), None
        )
        if section is None or root not in self.env.titles:
            return
        for header in list(section.findall(_is_root_header)):
            siblings = header.parent.children[header.parent.index(header) + 1 :]
            if not any(sibling.astext().strip() for sibling in siblings):
                header.parent.remove(header)
        title = texescape.escape(self.env.titles[root].astext(), self.config.latex_engine)
        heading = rf"\kernelsreftitle{{{title}}}"
        first = 1 if section.children and isinstance(section[0], nodes.title) else 0
        section.insert(first, nodes.raw("", heading + "\n", format="latex"))


def _is_root_header(node: nodes.Node) -> bool:
    """A heading of the root document, as Jupyter Book's LaTeX extension rewrites it."""
    return type(node).__name__ == "RootHeader"


class BookmarkMath(SphinxPostTransform):
    r"""A heading's mathematics in a PDF bookmark: a text form of it instead of nothing.

    hyperref spells the commands it knows (Greek letters, ``\sum``, ``\partial``; the preamble,
    latex/kernelsref.sty, adds the others the headings use) but drops the math shifts and the
    sub- and superscripts, with a warning each: "Erratum: log(4δ) in Chevaleyre's VC bound" lost
    its formula. Each formula of a section title is written as ``\texorpdfstring``: the formula in
    the text, and for the bookmark the same source with its scripts as Unicode characters.
    """

    builders = ("latex",)
    default_priority = 800

    def run(self, **kwargs: Any) -> None:
        for title in list(self.document.findall(nodes.title)):
            if not isinstance(title.parent, nodes.section):
                continue
            for math in list(title.findall(nodes.math)):
                source = math.astext()
                latex = (
                    rf"\texorpdfstring{{\protect\({source}\protect\)}}"
                    rf"{{{bookmark_text(source)}}}"
                )
                math.replace_self(nodes.raw("", latex, format="latex"))


# A sub- or superscript: ``_i``, ``^{-1}``, ``^\top``.
SCRIPT = re.compile(r"([_^])(?:\{([^{}]*)\}|(\\[A-Za-z]+|[^\s{}\\]))")
# Characters named in Unicode by another word than their own name's last.
SCRIPT_NAMES = {"+": "PLUS SIGN", "-": "MINUS", "=": "EQUALS SIGN", "(": "LEFT PARENTHESIS",
                ")": "RIGHT PARENTHESIS"}  # fmt: skip
# Scripts that read as themselves: a star, a prime; the transpose as a superscript T.
SCRIPT_AS_IS = {"*": "*", "'": "'", r"\prime": "'", r"\top": "T"}


def bookmark_text(source: str) -> str:
    r"""A formula's source with its sub- and superscripts as Unicode characters, for hyperref.

    ``\alpha_ix_i`` becomes ``\alpha{ᵢ}x{ᵢ}`` and ``(HH^\top)^{-1}`` becomes ``(HHᵀ)⁻¹``
    (hyperref then spells ``\alpha``); a script with a character that Unicode has no script of
    stays a script, ``I_{up}`` → ``I\_{up}``. The braces keep a command apart from the character
    after it.
    """

    def script(match: re.Match[str]) -> str:
        sub = match.group(1) == "_"
        body = match.group(2) if match.group(2) is not None else match.group(3)
        if not sub and body in SCRIPT_AS_IS and body != r"\top":
            return "{" + SCRIPT_AS_IS[body] + "}"
        chars = [_script_char(char, sub) for char in SCRIPT_AS_IS.get(body, body).replace(" ", "")]
        if chars and all(chars):
            return "{" + "".join(chars) + "}"
        return (r"\_" if sub else r"\textasciicircum ") + "{" + body + "}"

    # TeX would swallow the space after a command name: "\\xi = C" must not read "ξ= C".
    return re.sub(r"(\\[A-Za-z]+) ", r"\1{} ", SCRIPT.sub(script, source))


def _script_char(char: str, sub: bool) -> str:
    """The Unicode subscript or superscript of a digit, sign or Latin letter, or ``""``."""
    if not (char.isascii() and (char.isalnum() or char in SCRIPT_NAMES)):
        return ""
    word = SCRIPT_NAMES.get(char) or unicodedata.name(char).split()[-1]
    if sub:
        names = [f"SUBSCRIPT {word}"]
        names += [f"LATIN SUBSCRIPT SMALL LETTER {word}"] if char.islower() else []
    else:
        names = [f"SUPERSCRIPT {word}"]
        if char.islower():
            names += [f"SUPERSCRIPT LATIN SMALL LETTER {word}", f"MODIFIER LETTER SMALL {word}"]
        elif char.isupper():
            names += [f"MODIFIER LETTER CAPITAL {word}"]
    for name in names:
        try:
            return unicodedata.lookup(name)
        except KeyError:
            continue
    return ""


class TableLayout(SphinxPostTransform):
    """Column layouts of the tables whose widths the source leaves to Sphinx.

    Sphinx sets such a table with tabulary (justified columns of automatic widths) up to 30 rows,
    and as a longtable of one unbreakable line per cell beyond. Tabulary cannot break across
    pages, squeezes columns narrower than their words, and the narrow columns of the reference
    tables read badly justified. Here every such table gets ragged-right columns whose widths
    follow the length of their cells; one of many rows or many columns becomes a longtable, which
    breaks across pages, and one of many columns gets a smaller font.

    A table whose column widths the source gives (the errata, the notation) keeps them, but one
    of more than a few rows becomes a longtable too: Sphinx sets it in a tabular, which cannot
    break across pages and left half pages empty.
    """

    builders = ("latex",)
    default_priority = 800

    def run(self, **kwargs: Any) -> None:
        for table in list(self.document.findall(nodes.table)):
            index = table.parent.index(table)
            previous = table.parent[index - 1] if index > 0 else None
            tgroup = next(iter(table.findall(nodes.tgroup)), None)
            if tgroup is None:
                continue
            rows = [row for body in tgroup.findall(nodes.tbody) for row in body.children]
            if "colwidths-given" in table["classes"]:
                if len(rows) > BREAKABLE_ROWS and isinstance(table.parent, nodes.section):
                    table["classes"].append("longtable")
                continue  # the source chose the layout
            if isinstance(previous, addnodes.tabular_col_spec):
                continue  # the source chose the layout
            ncols = int(tgroup["cols"])
            if len(rows) > TABULARY_ROWS or ncols >= WIDE_TABLE_COLUMNS:
                table["classes"].append("longtable")
            font_pt = SMALL_FONT_PT if ncols >= WIDE_TABLE_COLUMNS else FONT_PT
            fractions = _column_fractions(list(tgroup.findall(nodes.row)), ncols, font_pt)
            spec = "".join(RAGGED_COLUMN.format(fraction) for fraction in fractions)
            # Sphinx applies a column specification to the next table it meets.
            colspec = addnodes.tabular_col_spec(spec=spec)
            if ncols >= WIDE_TABLE_COLUMNS:
                small = nodes.container(classes=["krwidetable"])
                table.replace_self(small)
                small += [colspec, table]
            else:
                table.parent.insert(index, colspec)


def _estimated_width(node: nodes.Node) -> tuple[float, float]:
    """Width of a cell's text on one line, and of its widest unbreakable piece, in characters.

    Math counts by its symbols, not by its LaTeX source; code is wider than text.
    """
    total, widest = 0.0, 0.0
    for child in node.findall(lambda n: isinstance(n, (nodes.Text, nodes.math))):
        if isinstance(child, nodes.math) or isinstance(child.parent, nodes.math):
            if isinstance(child, nodes.Text):
                continue  # counted with its math node
            width = _math_width(child.astext())
            total += width + 1
            widest = max(widest, width)
            continue
        factor = 0.6 / CHAR_EM if isinstance(child.parent, nodes.literal) else 1.0
        words = child.astext().split()
        total += factor * sum(len(word) + 1 for word in words)
        widest = max([widest] + [factor * len(word) for word in words])
    return total, widest


def _math_width(source: str) -> float:
    """Rough width of a formula in characters: its symbols (wider than letters of text, a symbol
    written as a command wider still), a fraction as its wider part, a matrix or an aligned block
    as one of its rows with the space between its columns and its delimiters; a binary operator
    or relation counts twice (the space around it), a comma once and a half."""
    blocks = max(source.count(r"\begin"), 1)
    matrices = len(re.findall(r"\\begin\{[pbvBV]?matrix\}", source))
    fraction = re.compile(r"\\[td]?frac\{([^{}]*)\}\{([^{}]*)\}")
    while fraction.search(source):
        source = fraction.sub(lambda m: max(m.group(1), m.group(2), key=len), source)
    source = re.sub(
        r"\\(left|right|[bB]ig+[lr]?|mathrm|mathbb|mathcal|mathbf|text|operatorname|begin|end"
        r"|[,;!]|q?quad)(\{[a-z*]*\})?",
        "",
        source,
    )
    rows = source.count(r"\\") / blocks + 1
    columns = source.count("&") / rows
    spacing = 2 * columns + 2 * matrices
    spacing += 0.5 * source.count(",") + len(
        re.findall(r"(?<=\S)\s*(?:[-+=<>]|\\[lg]e|\\to)\s*(?=\S)", source)
    )
    commands = len(re.findall(r"\\[A-Za-z]+", source))
    symbols = re.sub(r"[{}^_&\s]", "", re.sub(r"\\[A-Za-z]+", "x", source.replace(r"\\", "")))
    return MATH_CHAR * (len(symbols) + COMMAND_EXTRA * commands) / rows + spacing


def _column_fractions(rows: list[nodes.row], ncols: int, font_pt: float) -> list[float]:
    """Shares of the line width for the columns of a table, from the length of their cells.

    Each column first gets its widest word, and a column of short cells its longest cell, so that
    none wraps; the rest of the line goes, one character at a time, to the column where it
    shortens the table most (a row is as tall as its longest cell, in lines of the column's width).
    """
    cells: list[list[tuple[float, float]]] = [[] for _ in range(ncols)]
    for row in rows:
        # Headers are set in bold sans serif, wider than the body.
        scale = HEADER_SCALE if isinstance(row.parent, nodes.thead) else 1.0
        for j, entry in enumerate(row.children[:ncols]):
            total, widest = _estimated_width(entry)
            cells[j].append((scale * total, scale * widest))
    room = (LINE_WIDTH_PT - ncols * CELL_PADDING_PT) / (CHAR_EM * font_pt)
    widths = []
    for column in cells:
        natural = max((total for total, _ in column), default=1.0)
        word = max((widest for _, widest in column), default=1.0)
        widths.append(max(word, min(natural, SHORT_COLUMN), 1.0))
    lengths = [[total for total, _ in column] for column in cells]
    nrows = min(len(column) for column in lengths)

    def height(widths: list[float]) -> float:
        return sum(max(lengths[j][i] / widths[j] for j in range(ncols)) for i in range(nrows))

    spare = room - sum(widths)
    while spare >= 1:
        gains = []
        for j in range(ncols):
            wider = widths.copy()
            wider[j] += 1
            gains.append((height(widths) - height(wider), j))
        _, best = max(gains)
        widths[best] += 1
        spare -= 1
    # A column's share of the line holds its text and its padding (the column specification
    # takes the padding off again).
    text_pt = (LINE_WIDTH_PT - ncols * CELL_PADDING_PT) / sum(widths)
    return [(width * text_pt + CELL_PADDING_PT) / LINE_WIDTH_PT for width in widths]


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("config-inited", _remember_depth)
    # After the LaTeX extension's own builder-inited handler (priority 500).
    app.connect("builder-inited", _environment_depth, priority=900)
    # The LaTeX builder resolves the assembled book just before it writes it.
    app.connect("doctree-resolved", _writer_depth)
    app.add_post_transform(ChapterTitleNames)
    app.add_post_transform(UnnumberedParts)
    app.add_post_transform(TableLayout)
    app.add_post_transform(ProofBlocks)
    app.add_post_transform(CellLists)
    app.add_post_transform(RootPage)
    app.add_post_transform(BookmarkMath)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
