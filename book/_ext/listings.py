"""Package listings that show the code: the docstring becomes a caption with a link.

A chapter shows a function of the package with ``literalinclude`` and ``:pyobject:``. The
function's docstring is written for the API pages (``book/api/``), where autodoc typesets its
reST and mathematics; copied into a code listing it would show raw ``:math:`` roles. This
extension replaces Sphinx's ``literalinclude``: with ``:pyobject:``, the listing holds the code
without the object's docstring, and its caption holds the docstring's summary (its first
paragraph, mathematics typeset) after the object's name, which links to its entry in the API
pages (to the nearest documented parent when the object itself has none: a private function
links to its module's page). The decorators stay, as in Sphinx's ``:pyobject:``: a public
function's ``@validated(...)`` is the declaration of its arguments' rules, part of what the
listing teaches. ``:docstring: full`` keeps the whole docstring and adds no caption;
so does an explicit ``:caption:``. Line numbers (``:linenos:``, ``:emphasize-lines:``) count
the lines shown; ``:lineno-match:`` cannot match the file once lines are taken out, and is
refused unless ``:docstring: full``.

The pure functions here (the lines shown, the summary, its reST as Markdown) are shared with
``standalone_notebooks.py``, which writes the same listings into the downloadable notebooks.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import ClassVar, NamedTuple

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.directives import code
from sphinx.transforms.post_transforms import SphinxPostTransform

# --------------------------------------------------------------------------------------------
# The code a listing shows


class Definition(NamedTuple):
    """Where a class or function is in its file (1-based line numbers)."""

    first: int  # its first decorator, or its ``def``/``class`` line
    last: int  # its last statement
    docstring: tuple[int, int] | None  # first and last line of its docstring
    summary: str  # the docstring's first paragraph on one line ("" without docstring)
    only_docstring: bool  # the docstring is the only statement of the body


def definitions(source: str) -> dict[str, Definition]:
    """Every class, function and method of ``source`` by dotted name (``Class.method``).

    The lines Sphinx's ``:pyobject:`` takes: from the first decorator to the last statement;
    functions nested in functions are not listed.
    """
    found: dict[str, Definition] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                doc = ast.get_docstring(node)
                span = None
                if doc is not None:
                    span = (node.body[0].lineno, node.body[0].end_lineno)
                summary = " ".join(inspect.cleandoc(doc).split("\n\n")[0].split()) if doc else ""
                found[prefix + node.name] = Definition(
                    first, node.end_lineno, span, summary, doc is not None and len(node.body) == 1
                )
                if isinstance(node, ast.ClassDef):
                    visit(node.body, prefix + node.name + ".")

    visit(ast.parse(source).body, "")
    return found


def without_docstring(lines: list[str], found: Definition) -> list[str]:
    """The lines of a definition (``found.first`` to ``found.last``) without its docstring.

    A body that is only a docstring keeps a body: ``...`` at the docstring's indentation.
    Line ends, if the lines have them, are kept.
    """
    if found.docstring is None:
        return list(lines)
    start, end = (n - found.first for n in found.docstring)
    kept = lines[:start] + lines[end + 1 :]
    if found.only_docstring:
        line = lines[start]
        ending = line[len(line.rstrip("\r\n")) :]
        kept.insert(start, line[: len(line) - len(line.lstrip())] + "..." + ending)
    return kept


# --------------------------------------------------------------------------------------------
# The summary: a line of reST with roles, rendered as nodes (HTML, LaTeX) or as Markdown

# ``literal``, :role:`content`, or text up to the next of either.
_INLINE = re.compile(
    r"``(?P<literal>.+?)``|:(?P<role>[\w:.+-]+):`(?P<content>[^`]+)`|(?P<text>(?:[^`:]|:(?![\w:.+-]+:`))+)"
)


class Token(NamedTuple):
    kind: str  # "text", "literal", "math" or "ref" (a cross-reference role)
    text: str  # what is shown
    target: str = ""  # for "ref": the object named, as the role wrote it


def inline_tokens(rst: str) -> list[Token]:
    """A line of reST as text, ``literal`` spans, mathematics and cross-references.

    Knows what docstring summaries use: ````literal````, ``:math:`...```` and the Python
    domain's roles (``:func:`name```, ``:class:`~a.b```: shown as ``b``). Raises
    ``ValueError`` on anything else (a stray backtick, an unknown role).
    """
    tokens: list[Token] = []
    pos = 0
    for match in _INLINE.finditer(rst):
        if match.start() != pos:
            break
        pos = match.end()
        if match["literal"] is not None:
            tokens.append(Token("literal", match["literal"]))
        elif match["role"] == "math":
            tokens.append(Token("math", match["content"]))
        elif match["role"] is not None:
            role = match["role"].removeprefix("py:")
            if role not in ("func", "class", "meth", "attr", "data", "obj", "exc", "mod"):
                raise ValueError(f"unknown role :{match['role']}: in {rst!r}")
            target = match["content"]
            shown = target.rsplit(".", 1)[-1] if target.startswith("~") else target
            tokens.append(Token("ref", shown.lstrip("~"), target.lstrip("~")))
        else:
            tokens.append(Token("text", match["text"]))
    if pos != len(rst):
        raise ValueError(f"reST the summary renderer does not read: {rst[pos:]!r}")
    return tokens


def markdown(rst: str) -> str:
    """A line of reST as Jupyter Markdown: ``$...$``, code spans, text escaped."""
    out = []
    for token in inline_tokens(rst):
        if token.kind == "math":
            out.append(f"${token.text}$")
        elif token.kind in ("literal", "ref"):
            out.append(f"`{token.text}`")
        else:
            out.append(re.sub(r"([\\*_\[\]<>$#])", r"\\\1", token.text))
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Sphinx


def module_of(path: str) -> str:
    """``kernels_ref.svm`` for ``.../kernels_ref/svm.py``: the file's dotted name in its
    package ("" for a file outside a package)."""
    file = Path(path).resolve()
    parts = [] if file.stem == "__init__" else [file.stem]
    folder = file.parent
    while (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        folder = folder.parent
    return ".".join(parts) if folder != file.parent else ""


def documented(objects, module: str, name: str) -> str | None:
    """The full name of ``name`` (of ``module``) or of its nearest parent that ``objects`` (the
    Python domain's) documents: the object, its class, its module; ``None`` if none is."""
    parts = [*filter(None, [module]), *name.split(".")]
    names = [".".join(parts[:k]) for k in range(len(parts), 0, -1)]
    return next((n for n in names if n in objects), None)


class listing_target(nodes.Inline, nodes.TextElement):
    """The object a listing shows; the post-transform makes it a link to its API entry."""


class _Reader(code.LiteralIncludeReader):
    """Sphinx's reader, with the docstring of the ``:pyobject:`` taken out."""

    def pyobject_filter(self, lines, location=None):
        name = self.options.get("pyobject")
        if not name or self.options.get("docstring") == "full":
            return super().pyobject_filter(lines, location)
        if "lineno-match" in self.options:
            raise ValueError(
                "lineno-match cannot number a listing without its docstring: "
                "add ':docstring: full' or use linenos"
            )
        found = definitions(Path(self.filename).read_text(encoding=self.encoding)).get(name)
        lines = super().pyobject_filter(lines, location)
        return without_docstring(lines, found) if found else lines


class PackageListing(code.LiteralInclude):
    """``literalinclude``; with ``:pyobject:``, the docstring's summary in the caption."""

    option_spec: ClassVar[dict] = {
        **code.LiteralInclude.option_spec,
        "docstring": lambda value: directives.choice(value, ("summary", "full")),
    }

    def run(self):
        name = self.options.get("pyobject")
        if not name or self.options.get("docstring") == "full":
            return super().run()
        # LiteralInclude.run reads through the LiteralIncludeReader of its module
        original, code.LiteralIncludeReader = code.LiteralIncludeReader, _Reader
        try:
            result = super().run()
        finally:
            code.LiteralIncludeReader = original
        if "caption" in self.options or not isinstance(result[0], nodes.literal_block):
            return result  # the author's caption, or the reader's error
        literal = result[0]
        _, path = self.env.relfn2path(self.arguments[0])
        found = definitions(Path(path).read_text(encoding="utf-8"))[name]
        module = module_of(path)
        caption = nodes.caption()
        caption += listing_target(name, "", nodes.literal(name, name), module=module)
        if found.summary:
            caption += nodes.Text(" — ")
            caption += self._summary(found.summary, module)
        container = nodes.container(
            "", caption, literal, literal_block=True, classes=["literal-block-wrapper"]
        )
        for key in ("ids", "names"):  # a :name: given to the listing names the container
            container[key], literal[key] = literal[key], []
        self.set_source_info(container)
        return [container]

    def _summary(self, summary: str, module: str) -> list[nodes.Node]:
        try:
            tokens = inline_tokens(summary)
        except ValueError as error:
            raise self.error(str(error)) from error
        made: list[nodes.Node] = []
        for token in tokens:
            if token.kind == "math":
                made.append(nodes.math(token.text, token.text))
            elif token.kind == "literal":
                made.append(nodes.literal(token.text, token.text))
            elif token.kind == "ref":
                xref = addnodes.pending_xref(
                    "", refdomain="py", reftype="obj", reftarget=token.target
                )
                xref["py:module"], xref["refdoc"] = module, self.env.docname
                xref += nodes.literal(token.text, token.text, classes=["xref", "py"])
                made.append(xref)
            else:
                made.append(nodes.Text(token.text))
        return made


class ResolveListingTargets(SphinxPostTransform):
    """Each listing's name as a link to the nearest documented object (the object, its
    class, its module), before Sphinx resolves the references (priority 10)."""

    default_priority = 5

    def run(self, **kwargs) -> None:
        objects = self.env.get_domain("py").objects
        for node in list(self.document.findall(listing_target)):
            target = documented(objects, node["module"], node.astext())
            if target is None:
                node.replace_self(node.children)
                continue
            xref = addnodes.pending_xref(
                "", *node.children, refdomain="py", reftype="obj", reftarget=target
            )
            xref["refdoc"], xref["refexplicit"] = self.env.docname, True
            node.replace_self(xref)


def setup(app):
    app.add_node(listing_target)
    app.add_directive("literalinclude", PackageListing, override=True)
    app.add_post_transform(ResolveListingTargets)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
