"""Sphinx extension: small repairs of the HTML pages the theme stack produces.

- sphinx-thebe 0.3 registers its inline configuration script in
  ``env-before-read-docs``; with Sphinx 7 it reaches every page twice (once with file
  name ``None``, once with ``""``; sphinx-togglebutton's likewise) and the second copy
  throws "Identifier 'THEBE_JS_URL' has already been declared" in the console. Keep one
  copy of each script.
- The bibliography lists its entries under author-year labels, "[Vert, 2004]", the labels the
  citations in the text use (the "plain" style numbers them, so "Vert [2004]" in a chapter led
  to an entry "[25]").
- When ``make pdf`` has built the PDF of the book, the HTML book carries a copy of it and every
  page's download menu offers it ("Book (.pdf)"); without a PDF, no such entry (no dead link).
  Whether there is one is a configuration value of the HTML pages, so that every page is written
  again when a PDF appears or goes.
- A full stop, comma, colon or closing bracket after an in-line formula stays on the formula's
  line. The browser may start a new line between MathJax's box and the punctuation, and MathJax
  breaks a long formula to the column without leaving room for it: on a phone, lines started
  with "." (a word joiner between the two did not stop either). The punctuation is moved into the
  formula, as text (``\\text{.}``), so that it goes wherever the formula's last piece goes.
- myst-parser 3 and myst-nb 1 log their whole configuration, lines of about 1,000 characters
  ("myst v3.0.1: MdParserConfig(...)", "myst-nb v1.4.0: NbParserConfig(...)"), at the start of
  every build: nothing a reader acts on among what the build prints. Those two messages are
  dropped; every other message of the two, warnings included, is kept.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from docutils import nodes
from pybtex.plugin import register_plugin
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle
from sphinx.transforms.post_transforms import SphinxPostTransform


def _one_copy_of_each_script(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        # The same inline script may come once with filename None and once with "".
        key = (script.filename or "", tuple(sorted(script.attributes.items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    scripts[:] = unique


class AuthorYearLabels(BaseLabelStyle):
    """Labels "Author, year", "A and B, year", "A et al., year", as the citations read."""

    def format_labels(self, sorted_entries):
        for entry in sorted_entries:
            persons = entry.persons.get("author") or entry.persons.get("editor") or []
            names = [
                " ".join(part.render_as("text") for part in person.rich_last_names)
                for person in persons
            ]
            if len(names) > 2:
                who = f"{names[0]} et al."
            else:
                who = " and ".join(names) or entry.fields.get("title", "")
            yield f"{who}, {entry.fields.get('year', 'n.d.')}"


class AuthorYearStyle(PlainStyle):
    """pybtex's plain formatting with author-year labels."""

    default_label_style = "kr_author_year"


# make pdf writes the PDF here, beside the HTML book's _build/html.
PDF_NAME = "kernels-ref.pdf"


def _built_pdf(app) -> Path:
    return Path(app.outdir).parent / "latex" / PDF_NAME


def _note_pdf(app, config):
    config.kernelsref_pdf = _built_pdf(app).is_file()


def _offer_pdf(app, pagename, templatename, context, doctree):
    if app.builder.format != "html" or not app.config.kernelsref_pdf:
        return
    for button in context.get("header_buttons", []):
        if button.get("label") == "download-buttons":
            button["buttons"].append(
                {
                    "type": "link",
                    "url": context["pathto"](PDF_NAME, 1),
                    "text": "Book (.pdf)",
                    "tooltip": "Download the whole book as a PDF",
                    "icon": "fas fa-book",
                    "label": "download-book-pdf-button",
                }
            )


def _copy_pdf(app, exception):
    if exception is None and app.builder.format == "html" and app.config.kernelsref_pdf:
        shutil.copyfile(_built_pdf(app), Path(app.outdir) / PDF_NAME)


#: What may not start a line after an in-line formula.
PUNCTUATION = ".,;:!?)"


class PunctuationAfterMath(SphinxPostTransform):
    """Move the punctuation that follows an in-line formula into it (see the module's
    docstring)."""

    builders = ("html",)
    default_priority = 900

    def run(self, **kwargs):
        for math in list(self.document.findall(nodes.math)):
            after = math.next_node(descend=False, siblings=True, ascend=False)
            if not isinstance(after, nodes.Text):
                continue
            text = str(after)
            marks = text[: len(text) - len(text.lstrip(PUNCTUATION))]  # "." or ")," or ".)"
            if not marks:
                continue
            glued = "".join(f"\\text{{{mark}}}" for mark in marks)
            math.replace(math[0], nodes.Text(math.astext() + glued))
            if text[len(marks) :]:
                after.parent.replace(after, nodes.Text(text[len(marks) :]))
            else:
                after.parent.remove(after)


class _NoConfigDump(logging.Filter):
    """Drop the informational dump of a parser's configuration, and nothing else."""

    def filter(self, record):
        message = record.getMessage()
        dump = "MdParserConfig(" in message or "NbParserConfig(" in message
        return not (record.levelno == logging.INFO and dump)


def setup(app):
    # Sphinx's loggers of the modules that log the dumps (at builder-inited).
    for module in ("myst_parser.sphinx_ext.main", "myst_nb.sphinx_ext"):
        logging.getLogger(f"sphinx.{module}").addFilter(_NoConfigDump())
    app.add_post_transform(PunctuationAfterMath)
    register_plugin("pybtex.style.labels", "kr_author_year", AuthorYearLabels)
    register_plugin("pybtex.style.formatting", "kr_author_year", AuthorYearStyle)
    # Last, after the handlers that add scripts to the page.
    app.connect("html-page-context", _one_copy_of_each_script, priority=999)
    app.add_config_value("kernelsref_pdf", False, "html")
    app.connect("config-inited", _note_pdf)
    # After the theme has made the download menu (priority 501, sphinx-book-theme).
    app.connect("html-page-context", _offer_pdf, priority=900)
    app.connect("build-finished", _copy_pdf)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
