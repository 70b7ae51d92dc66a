"""Downloadable chapters that stand on their own in plain Jupyter.

The book's download button offers ``_sources/book/<chapter>.ipynb``, a copy of the chapter's
source. Opened in JupyterLab or Notebook, that source shows MyST markup as raw text: the
``literalinclude`` fences in place of the package code the chapter discusses, the theorem,
proof, exercise and solution directives, and the roles ``{eq}``, ``{cite:t}``, ``{prf:ref}``,
``{ref}``, ``{numref}``, ``{doc}``. After an HTML build, this extension rewrites every such copy
into plain Jupyter Markdown that says what the HTML page says:

- ``literalinclude`` with ``:pyobject:`` becomes a ``python`` code block holding the lines the
  HTML shows (``ast`` finds the object, the book's ``listings`` extension leaves its docstring
  out; ``:start-at:``, ``:start-after:``, ``:end-at:``, ``:end-before:`` and ``:dedent:`` as
  Sphinx applies them), after the HTML's caption (the object's name linked to its API entry,
  the docstring's summary with its mathematics as ``$...$``) and before a pointer to the file;
- ``prf:`` directives become "**Theorem 4.1 (Title).** ..." between horizontal rules, proofs
  "*Proof.* ... ∎", exercises "**Exercise 4.1 (Title).**", and solutions a ``<details>`` block
  (the HTML's dropdown);
- ``{eq}`` becomes "(4.1)" and a labelled ``$$ ... $$ (label)`` carries ``\\tag{4.1}``; the
  other references become the number or title the HTML shows, a link to the HTML page when the
  target is on another page (to the heading, when it is a section of this notebook; to the
  HTML's section when Jupyter's anchor of the heading is uncertain), as do Markdown links to
  pages of the book (:func:`page_link`: the published book, or the built one beside the
  download); citations become the author-year text of the HTML, and a last "References" cell
  lists the works cited;
- ``(label)=`` targets are dropped, and a figure caption kept in a code cell's metadata
  (``mystnb.figure``) becomes a Markdown cell after that cell.

Code cells are left as they are (source, outputs, metadata and tags). The title comes first
(the set-up cell stands before it in the source), then what the notebook needs to run: a note
and a commented ``%pip install`` line of the requirements its imports call for
(:func:`requirements`).

:func:`standalone` is the conversion: a pure function of the notebook (a dict, as ``json.load``
returns it) and of a *resolver* that answers the few questions only the build can answer
(equation and theorem numbers, section titles, citation texts, the included files); see
:class:`Resolver`. :class:`SphinxResolver` answers them from the Sphinx environment.
"""

from __future__ import annotations

import ast
import copy
import html
import itertools
import json
import posixpath
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, Protocol

import listings  # book/_ext/, on the path of the book's extensions


class Ref(NamedTuple):
    """What a cross-reference shows, and where its target is.

    ``text`` is Markdown. ``link`` is the address of the target in the HTML book when it is on
    another page (see :func:`page_link`), ``None`` when it is in this notebook; ``page`` is
    that address in either case. ``number`` is the bare number ("4.1") of a numbered target.
    """

    text: str
    link: str | None = None
    number: str | None = None
    page: str | None = None


class Resolver(Protocol):
    """What :func:`standalone` needs from the build, for one notebook of the book.

    Each lookup returns ``None`` for an unknown label; the conversion then shows the label.
    """

    def include(self, path: str) -> tuple[str, str]:
        """The file of a ``literalinclude``, as ``(path shown to the reader, text)``."""

    def api(self, path: str, name: str) -> Ref | None:
        """The API entry of object ``name`` of the file ``path`` of a ``literalinclude`` (or of
        its nearest documented parent): ``link`` is its address."""

    def page(self, path: str) -> str | None:
        """The address of the page of the book a relative Markdown link ``path`` names."""

    def equation(self, label: str) -> Ref | None:
        """A labelled display equation: ``text`` is its number, "4.1"."""

    def proof(self, label: str) -> Ref | None:
        """A ``prf:`` directive: ``text`` is "Theorem 4.1"."""

    def exercise(self, label: str) -> Ref | None:
        """An exercise: ``text`` is "Exercise 4.1"."""

    def figure(self, label: str) -> Ref | None:
        """A figure: ``text`` is "Fig. 8.1"."""

    def ref(self, label: str) -> Ref | None:
        """What ``{ref}`` shows: a section title, or "Exercise 8.4" for an exercise."""

    def numref(self, label: str) -> Ref | None:
        """What ``{numref}`` shows: "Fig. 8.1"."""

    def doc(self, target: str) -> Ref | None:
        """What ``{doc}`` shows: the title of the page."""

    def cite(self, role: str, target: str) -> str | None:
        """The text of ``{cite:ROLE}`target``` (role "t", "p", ...)."""

    def references(self, keys: list[str]) -> list[str]:
        """The bibliography entries of ``keys``, as Markdown, in the bibliography's order."""


# --------------------------------------------------------------------------------------------
# The code a literalinclude shows


def included_lines(source: str, options: dict[str, str]) -> list[str]:
    """The lines (without their line ends) a ``literalinclude`` of ``source`` shows.

    Sphinx's filters, in Sphinx's order: ``pyobject`` (without the object's docstring, as the
    book's ``listings`` extension shows it, unless ``docstring`` is ``"full"``), then
    ``start-at``/``start-after``, then ``end-at``/``end-before``, then ``dedent``. Raises
    ``ValueError`` if the object or a pattern is not found, or for an option that changes the
    lines and is not implemented.
    """
    unsupported = {"lines", "diff", "prepend", "append", "tab-width"} & options.keys()
    if unsupported:
        raise ValueError(f"literalinclude option not supported: {sorted(unsupported)}")
    # Python's line ends, by which Sphinx's :pyobject: counts (it cuts str.splitlines's lines,
    # the same for a file with no form feed or Unicode line separator: tests/test_listings.py)
    lines = source.split("\n")
    if lines[-1] == "":
        lines.pop()
    name = options.get("pyobject")
    if name:
        found = listings.definitions(source).get(name)
        if found is None:
            raise ValueError(f"object {name!r} not found")
        lines = lines[found.first - 1 : found.last]
        if options.get("docstring") != "full":
            lines = listings.without_docstring(lines, found)
    for key, keep in (("start-at", 0), ("start-after", 1)):
        if key in options:
            at = next((i for i, line in enumerate(lines) if options[key] in line), None)
            if at is None:
                raise ValueError(f"{key} pattern not found: {options[key]!r}")
            lines = lines[at + keep :]
            break
    for key, keep in (("end-at", 1), ("end-before", 0)):
        if key in options:
            # Sphinx's end-before skips a match on the first line
            first = 0 if keep else 1
            at = next(
                (i for i, line in enumerate(lines) if i >= first and options[key] in line),
                None,
            )
            if at is None:
                raise ValueError(f"{key} pattern not found: {options[key]!r}")
            lines = lines[: at + keep]
            break
    if options.get("dedent"):
        n = int(options["dedent"])
        lines = [line[n:] for line in lines]
    elif "dedent" in options:  # a bare :dedent: removes the common indentation
        indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
        n = min(indents, default=0)
        lines = [line[n:] for line in lines]
    return lines


# --------------------------------------------------------------------------------------------
# Markdown

_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,}|:{3,})(?P<info>.*)$")
_DIRECTIVE = re.compile(r"^\{(?P<name>[A-Za-z][\w:.+-]*)\}\s*(?P<arg>.*?)\s*$")
_OPTION = re.compile(r"^:(?P<key>[\w-]+):(?:\s+(?P<value>.*?))?\s*$")
_TARGET = re.compile(r"^\s*\((?P<label>[^()\s]+)\)=\s*$")
_LABELLED_MATH_END = re.compile(r"^(?P<indent>\s*)(?P<math>.*?)\$\$\s*\((?P<label>[^()\s]+)\)\s*$")
# A role is a code span with a {name} in front; a code span alone is left alone.
_ROLE_OR_CODE = re.compile(
    r"(?P<role>\{(?P<name>[A-Za-z][\w:.+-]*)\})?(?P<ticks>`+)(?P<content>.+?)(?<!`)(?P=ticks)(?!`)",
    re.DOTALL,
)
# A Markdown link (not an image), or a role or code span as above.
_LINK_ROLE_OR_CODE = re.compile(
    r"(?<!!)\[(?P<label>(?:[^\[\]`]|`[^`]*`)*)\]\((?P<href>[^()\s]+)\)|" + _ROLE_OR_CODE.pattern,
    re.DOTALL,
)
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_EXPLICIT = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)
# Lines a header in bold can run into: text, not math, code, lists, headings, tables or HTML.
_BLOCK_START = re.compile(r"^(\$\$|`{3,}|~{3,}|:{3,}|[-*+]\s|\d+[.)]\s|#|>|\||<|---)")

# The names the conversion knows; anything else is shown as its content and reported.
ADMONITIONS = {
    "admonition": "",
    "attention": "Attention",
    "caution": "Caution",
    "danger": "Danger",
    "error": "Error",
    "hint": "Hint",
    "important": "Important",
    "note": "Note",
    "seealso": "See also",
    "tip": "Tip",
    "warning": "Warning",
}
PROOF_TYPES = {
    "axiom",
    "theorem",
    "lemma",
    "algorithm",
    "definition",
    "remark",
    "conjecture",
    "corollary",
    "criterion",
    "example",
    "property",
    "observation",
    "proposition",
    "assumption",
    "notation",
}


def _unquote(value: str) -> str:
    """An option value as MyST reads it: YAML quotes removed."""
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return json.loads(value)
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    return value


def _starts_paragraph(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not _BLOCK_START.match(stripped)


def _ends_paragraph(line: str) -> bool:
    stripped = line.strip()
    return _starts_paragraph(line) and not stripped.endswith("$$")


def _trim(lines: list[str]) -> list[str]:
    """Without leading and trailing blank lines."""
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def _lead(header: str, body: list[str]) -> list[str]:
    """``header`` in front of the body's first paragraph, or on a line of its own."""
    body = _trim(body)
    if body and _starts_paragraph(body[0]) and not body[0].lstrip().startswith("**"):
        return [f"{header} {body[0].lstrip()}", *body[1:]]
    return [header, "", *body] if body else [header]


def _ruled(lines: list[str]) -> list[str]:
    return ["", "---", "", *lines, "", "---", ""]


def _summary_html(markdown: str) -> str:
    """Markdown of a title inside an HTML ``<summary>``: code spans and bold as HTML.

    Jupyter takes the mathematics out before it reads the HTML; the rest is escaped.
    """
    parts = re.split(r"(\$[^$]+\$)", markdown)
    for i in range(0, len(parts), 2):
        text = html.escape(parts[i], quote=False)
        text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
        parts[i] = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    return "".join(parts)


def _anchor(heading: str) -> str | None:
    """The id Jupyter gives a Markdown heading (its text, spaces as "-"), for plain text only.

    JupyterLab, Notebook and nbconvert agree on it when the heading has no markup; with
    mathematics or code in the heading they differ, and no link is made.
    """
    if re.search(r"[$`*_\\\[\]<>#%\"{}]", heading):
        return None
    return heading.strip().replace(" ", "-")


def _headings(cells: list[dict]) -> dict[str, str]:
    """Label -> heading text, for every ``(label)=`` target that stands before a heading."""
    found: dict[str, str] = {}
    for cell in cells:
        if cell["cell_type"] != "markdown":
            continue
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        lines = [line for line in source.split("\n") if line.strip()]
        for line, after in itertools.pairwise(lines):
            target, heading = _TARGET.match(line), _HEADING.match(after)
            if target and heading:
                found[target["label"]] = heading[1]
    return found


def _fence_for(lines: list[str]) -> str:
    longest = max((len(m.group(0)) for line in lines for m in re.finditer(r"`+", line)), default=0)
    return "`" * max(3, longest + 1)


class _Converter:
    """The conversion of one notebook's Markdown; collects what the last cell needs."""

    def __init__(self, resolve: Resolver, headings: dict[str, str]):
        self.resolve = resolve
        self.headings = headings  # label -> the heading its (label)= target stands before
        self.exercise_titles: dict[str, str] = {}
        self.cited: dict[str, None] = {}  # citation keys, in order of first citation
        self.unknown: set[str] = set()

    # ---- inline

    def inline(self, text: str) -> str:
        return _LINK_ROLE_OR_CODE.sub(self._link_role_or_code, text)

    def _link_role_or_code(self, match: re.Match) -> str:
        if match.group("href") is not None:  # a Markdown link: to a page of the book, as HTML
            href = match.group("href")
            if not re.match(r"^([a-z][a-z0-9+.-]*:|#|/)", href):
                href = self.resolve.page(href) or href
            return f"[{self.inline(match.group('label'))}]({href})"
        if not match.group("role"):
            return match.group(0)
        return self.role(match.group("name"), match.group("content"))

    def role(self, name: str, content: str) -> str:
        explicit = _EXPLICIT.match(content)
        title, target = (explicit["title"], explicit["target"]) if explicit else (None, content)
        target = target.strip()
        if name.startswith("cite"):
            style = name.partition(":")[2] or "p"
            for key in content.split(","):
                key = re.sub(r"^\{[^}]*\}|\{[^}]*\}$", "", key.strip())
                self.cited.setdefault(key.strip(), None)
            text = self.resolve.cite(style, content)
            if text is None:
                return content
            # "[Vert, 2004]" followed by "(" would be a Markdown link: brackets as text
            return text.replace("[", "\\[").replace("]", "\\]")
        if name == "math":
            return f"${content}$"
        if name in ("code", "literal", "samp", "file", "command"):
            return f"`{content}`"
        if name in ("sub", "sup"):
            return f"<{name}>{content}</{name}>"
        if name == "kbd":
            return f"<kbd>{content}</kbd>"
        if name in ("abbr", "term", "index"):
            return title if title is not None else content
        lookups = {
            "eq": self.resolve.equation,
            "prf:ref": self.resolve.proof,
            "ref": self.resolve.ref,
            "numref": self.resolve.numref,
            "doc": self.resolve.doc,
        }
        if name not in lookups:
            self.unknown.add(f"{{{name}}}")
            return title if title is not None else content
        if name == "ref" and target in self.headings:  # a section of this notebook
            heading = self.inline(self.headings[target])
            text = title if title is not None else heading
            anchor = _anchor(self.headings[target])
            if anchor:
                return f"[{text}](#{anchor})"
            ref = self.resolve.ref(target)  # Jupyter's anchor unknown: the section in the book
            return f"[{text}]({ref.page})" if ref is not None and ref.page else text
        ref = lookups[name](target)
        if ref is None:
            text = title if title is not None else target
        elif name == "eq":
            text = f"({ref.text})"
        elif name == "numref" and title is not None:
            number = ref.number or ref.text
            text = title.replace("{number}", number).replace("%s", number)
        else:
            text = title if title is not None else ref.text
        return f"[{text}]({ref.link})" if ref is not None and ref.link else text

    # ---- blocks

    def markdown(self, text: str) -> str:
        lines = self.lines(text.split("\n"))
        out: list[str] = []
        i = 0
        while i < len(lines):  # outside code: no two blank lines, no two rules in a row
            line = lines[i]
            fence = _FENCE.match(line)
            if fence and fence["fence"][0] != ":":
                end = self._closing(lines, i, fence)
                out.extend(lines[i : end + 1])
                i = end + 1
                continue
            blank_again = not line.strip() and out and not out[-1].strip()
            rule_again = line.strip() == "---" and len(out) >= 2 and out[-2].strip() == "---"
            if not (blank_again or rule_again):
                out.append(line)
            i += 1
        return "\n".join(_trim(out))

    def lines(self, lines: list[str]) -> list[str]:
        """Convert Markdown lines: blocks here, inline roles in the text between them."""
        out: list[str] = []
        text: list[str] = []

        def flush() -> None:
            if text:
                out.extend(self.inline("\n".join(text)).split("\n"))
                text.clear()

        i = 0
        while i < len(lines):
            line = lines[i]
            fence = _FENCE.match(line)
            directive = fence and _DIRECTIVE.match(fence["info"].strip())
            if fence and (directive or fence["fence"][0] != ":"):
                flush()
                end = self._closing(lines, i, fence)
                body = [
                    b[len(fence["indent"]) :] if b.startswith(fence["indent"]) else b.lstrip()
                    for b in lines[i + 1 : end]
                ]
                if directive:
                    block = self.directive(directive["name"], directive["arg"], body)
                    out.extend(fence["indent"] + b if b else b for b in block)
                else:  # a code block: as it is
                    out.extend(lines[i : end + 1])
                i = end + 1
                continue
            if _TARGET.match(line):
                i += 1
                continue
            labelled = _LABELLED_MATH_END.match(line)
            if labelled:
                ref = self.resolve.equation(labelled["label"])
                tag = rf"\tag{{{ref.text if ref else labelled['label']}}}"
                math = labelled["math"].rstrip()
                if math.startswith("$$"):  # $$ ... $$ (label) on one line
                    text.append(f"{labelled['indent']}{math} {tag} $$")
                else:
                    if math:
                        text.append(labelled["indent"] + math)
                    text.extend([labelled["indent"] + tag, labelled["indent"] + "$$"])
                i += 1
                continue
            text.append(line)
            i += 1
        flush()
        return out

    @staticmethod
    def _closing(lines: list[str], i: int, fence: re.Match) -> int:
        """Index of the line that closes the fence opened at ``lines[i]`` (or past the end)."""
        char, size = fence["fence"][0], len(fence["fence"])
        closing = re.compile(rf"^ {{0,3}}{re.escape(char)}{{{size},}}\s*$")
        for j in range(i + 1, len(lines)):
            if closing.match(lines[j]):
                return j
        return len(lines)

    def directive(self, name: str, arg: str, body: list[str]) -> list[str]:
        options: dict[str, str] = {}
        k = 0
        if body and body[0].strip() == "---":  # options as a YAML block
            end = next((j for j in range(1, len(body)) if body[j].strip() == "---"), None)
            if end is not None:
                for line in body[1:end]:
                    key, _, value = line.partition(":")
                    options[key.strip()] = _unquote(value.strip())
                k = end + 1
        else:
            while k < len(body) and (option := _OPTION.match(body[k])):
                options[option["key"]] = _unquote(option["value"] or "")
                k += 1
        content = body[k:]
        kind = name.partition(":")[2] if name.startswith("prf:") else None
        if name == "literalinclude":
            return self.literalinclude(arg, options)
        if name == "prf:proof":
            return self.proof(content)
        if kind in PROOF_TYPES:
            ref = self.resolve.proof(options["label"]) if "label" in options else None
            head = ref.text if ref else kind.title()
            return self.numbered(head, arg, content, options)
        if name == "exercise":
            ref = self.resolve.exercise(options["label"]) if "label" in options else None
            head = ref.text if ref else "Exercise"
            if "label" in options:
                self.exercise_titles[options["label"]] = self.inline(arg)
            return self.numbered(head, arg, content, options)
        if name == "solution":
            ref = self.resolve.exercise(arg)
            head = "Solution to " + (ref.text if ref else "Exercise")
            if self.exercise_titles.get(arg):
                head += f" ({self.exercise_titles[arg]})"
            return self.titled(head, content, options)
        if name in ADMONITIONS:
            head = self.inline(arg) if name == "admonition" else ADMONITIONS[name]
            return self.titled(head, content, options)
        if name == "math":
            math = ["$$", *_trim(content)]
            if "label" in options:
                ref = self.resolve.equation(options["label"])
                math.append(rf"\tag{{{ref.text if ref else options['label']}}}")
            return ["", *math, "$$", ""]
        if name in ("code-block", "code", "sourcecode", "code-cell"):
            code = _trim(content)
            fence = _fence_for(code)
            return ["", fence + arg.split()[0] if arg else fence, *code, fence, ""]
        self.unknown.add(f"{{{name}}}")
        return self.titled(f"{name} {self.inline(arg)}".strip(), content, options)

    def numbered(self, head: str, arg: str, content: list[str], options: dict) -> list[str]:
        """A theorem or an exercise: "**Theorem 4.1 (Title).** body" between rules."""
        if arg:
            head += f" ({self.inline(arg)})"
        return self.titled(head, content, options)

    def titled(self, head: str, content: list[str], options: dict) -> list[str]:
        body = self.lines(_trim(content))
        if "dropdown" in options.get("class", "").split():
            return [
                "",
                "<details>",
                f"<summary><strong>{_summary_html(head)}</strong></summary>",
                "",
                *body,
                "",
                "</details>",
                "",
            ]
        return _ruled(_lead(f"**{head}.**", body))

    def proof(self, content: list[str]) -> list[str]:
        body = _trim(self.lines(_trim(content)))
        if body and _ends_paragraph(body[-1]):
            body[-1] += " ∎"
        else:
            body += ["", "∎"]
        return ["", *_lead("*Proof.*", body), ""]

    def literalinclude(self, path: str, options: dict[str, str]) -> list[str]:
        """The listing as the HTML shows it: a caption (the object's name, linked to its API
        entry, and its docstring's summary), then the code; the file named after it."""
        shown, source = self.resolve.include(path)
        code = included_lines(source, options)
        language = options.get("language", "python" if path.endswith(".py") else "")
        fence = _fence_for(code)
        name = options.get("pyobject")
        partial = any(key in options for key in ("start-at", "start-after", "end-at", "end-before"))
        listing = ["", fence + language, *code, fence, ""]
        if not name:
            return [*listing, f"({shown})", ""]
        pointer = f"({shown}, {'part of ' if partial else ''}`{name}`)"
        if options.get("docstring") == "full" or "caption" in options:
            return [*listing, pointer, ""]
        ref = self.resolve.api(path, name)
        caption = f"[`{name}`]({ref.link})" if ref is not None and ref.link else f"`{name}`"
        summary = listings.definitions(source)[name].summary
        if summary:
            caption += " — " + listings.markdown(summary)
        return ["", caption, *listing, pointer, ""]


# --------------------------------------------------------------------------------------------
# What a notebook needs


class Package(NamedTuple):
    """The project's package as its metadata describes it (see :func:`installed_package`).

    ``name`` is the distribution ("kernels-ref"), ``module`` the import name ("kernels_ref"),
    ``source(dotted)`` the text of one of its modules (``None`` if there is no such module),
    ``python`` the Python versions it supports (">=3.10"), ``dependencies`` and ``extras``
    its requirements (PEP 508 strings; an extra's reference to the package itself is left
    out), and ``distributions`` the distribution of an importable top-level module, for the
    modules whose name is not the distribution's ("sklearn": "scikit-learn").
    """

    name: str
    module: str
    source: Callable[[str], str | None]
    python: str
    dependencies: list[str]
    extras: dict[str, list[str]]
    distributions: dict[str, str]


def _imports(source: str, package: str = "") -> set[str]:
    """The modules ``source`` imports, dotted, with ``from a import b`` as ``a`` and ``a.b``
    (``b`` may be a module); relative imports resolved against ``package``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *filter(None, [base])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _code(cell: dict) -> str:
    """A code cell's Python: IPython's magics and shell lines commented out."""
    source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
    return re.sub(r"^(\s*)([%!])", r"\1# \2", source, flags=re.M)


def requirements(nb: dict, package: Package) -> tuple[list[str], list[str]]:
    """What the code cells of ``nb`` import, as pip requirements, and as names for a reader.

    The imports are read with ``ast``, those of the package's modules followed to the modules
    they import. The package itself is required (with its dependencies) when anything else
    is; a distribution it lists in an extra named like one of its modules or like the import
    (``cvx`` for what ``kernels_ref.cvx`` imports, ``sklearn`` for ``sklearn``) is required
    as that extra, ``kernels-ref[cvx]``; any other as itself, with the version the package's
    metadata asks for ("matplotlib>=3.7"). The standard library is not listed.
    """
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    todo = set().union(*(_imports(_code(c)) for c in nb["cells"] if c["cell_type"] == "code"))
    seen: set[str] = set()
    third_party: set[str] = set()
    uses_package = False
    while todo:
        module = todo.pop()
        top = module.partition(".")[0]
        if top == package.module:
            uses_package = True
            if module not in seen:
                seen.add(module)
                parts = module.split(".")
                todo |= {".".join(parts[:k]) for k in range(1, len(parts))}  # its packages
                source = package.source(module)
                if source is not None:
                    is_package = package.source(module + ".__init__") is not None
                    parent = module if is_package else module.rpartition(".")[0]
                    todo |= _imports(source, parent or module)
        elif top and top not in sys.stdlib_module_names:
            third_party.add(top)
    covered = {canonicalize_name(Requirement(r).name) for r in package.dependencies}
    specifiers: dict[str, str] = {}
    for reqs in package.extras.values():
        for req in map(Requirement, reqs):
            specifiers.setdefault(canonicalize_name(req.name), str(req))
    chosen: set[str] = set()
    names: list[str] = []
    for top in sorted(third_party):
        dist = canonicalize_name(package.distributions.get(top, top))
        if dist in covered:
            continue
        names.append(package.distributions.get(top, top))
        for extra, reqs in package.extras.items():
            named = extra == top or package.source(f"{package.module}.{extra}") is not None
            if named and dist in {canonicalize_name(Requirement(r).name) for r in reqs}:
                chosen.add(extra)
    for extra in chosen:
        covered |= {canonicalize_name(Requirement(r).name) for r in package.extras[extra]}
    pip = []
    if uses_package or chosen:
        pip.append(package.name + (f"[{','.join(sorted(chosen))}]" if chosen else ""))
    for top in sorted(third_party):
        dist = canonicalize_name(package.distributions.get(top, top))
        if dist not in covered:
            covered.add(dist)
            pip.append(specifiers.get(dist, package.distributions.get(top, top)))
    return pip, names


def installed_package(name: str) -> Package:
    """The :class:`Package` of the installed distribution ``name`` (its metadata)."""
    import importlib.metadata
    import importlib.util

    from packaging.requirements import Requirement

    metadata = importlib.metadata.metadata(name)
    module = name.replace("-", "_")
    root = Path(importlib.util.find_spec(module).origin).parent

    def source(dotted: str) -> str | None:
        parts = dotted.split(".")[1:]
        paths = [root.joinpath(*parts, "__init__.py")]
        if parts:
            paths.append(root.joinpath(*parts[:-1], parts[-1] + ".py"))
        path = next((path for path in paths if path.is_file()), None)
        return path.read_text(encoding="utf-8") if path else None

    dependencies, extras = [], {e: [] for e in metadata.get_all("Provides-Extra") or []}
    for text in importlib.metadata.requires(name) or []:
        req = Requirement(text)
        if req.name == name:
            continue  # kernels-ref[cvx] in an extra: the extra's own lines say it
        holding = [e for e in extras if req.marker and req.marker.evaluate({"extra": e})]
        if req.marker is None or not holding:
            dependencies.append(str(req))
        for extra in holding:
            req.marker = None
            extras[extra].append(str(req))
    distributions = {
        top: dists[0]
        for top, dists in importlib.metadata.packages_distributions().items()
        if dists and dists[0] != top
    }
    python = metadata.get("Requires-Python") or ""
    return Package(name, module, source, python, dependencies, extras, distributions)


def _needs(nb: dict, package: Package) -> list[dict]:
    """The note and the (commented) ``%pip install`` cell that say what ``nb`` needs."""
    pip, names = requirements(nb, package)
    if not pip:
        return []
    listed = [f"`{package.module}`", *(f"`{n}`" for n in names)]
    what = " and ".join([", ".join(listed[:-1]), listed[-1]] if len(listed) > 1 else listed)
    python = f" with Python {package.python}" if package.python else ""
    note = (
        f"**Requirements.** This notebook imports {what}; it runs{python} once the next cell, "
        "without its `#`, has installed them. "
        f"`{package.name}` is installed from a clone of its repository: write the clone's "
        f'path in its place, as in `%pip install "/path/to/{pip[0]}"`.'
    )
    command = "# %pip install " + " ".join(f'"{r}"' for r in pip)
    return [
        {"cell_type": "markdown", "metadata": {}, "source": _source_lines(note)},
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": _source_lines(command),
        },
    ]


def _title_first(cells: list[dict]) -> list[dict]:
    """The cells with the title (the first Markdown cell's level-1 heading) first.

    The book's set-up cell stands before the title in the source (the HTML hides it); a title
    cell with more than its heading is split after the heading.
    """
    first = next((i for i, c in enumerate(cells) if c["cell_type"] == "markdown"), None)
    if first is None:
        return cells
    lines = "".join(cells[first]["source"]).split("\n")
    at = next((i for i, line in enumerate(lines) if line.strip()), None)
    if at is None or not re.match(r"^ {0,3}# ", lines[at]):
        return cells
    title = {**cells[first], "source": _source_lines("\n".join(lines[: at + 1]))}
    rest = "\n".join(lines[at + 1 :]).strip("\n")
    after = []
    if rest:
        after.append({**cells[first], "source": _source_lines(rest)})
        if "id" in title:
            title["id"] = f"{title['id']}-title"[-64:]
    return [title, *cells[:first], *after, *cells[first + 1 :]]


def _source_lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def standalone(nb: dict, resolve: Resolver, package: Package | None = None) -> dict:
    """The notebook ``nb`` as plain Jupyter shows it well: no MyST markup left.

    Markdown cells are converted (see the module's docstring); a code cell whose metadata holds
    a figure caption (``mystnb.figure.caption``) is followed by a Markdown cell with the
    caption; a last Markdown cell lists the works cited. The title comes first, then, with
    ``package``, a note and a commented ``%pip install`` cell naming what the code imports
    (:func:`requirements`). Code cells are unchanged. ``nb`` is not modified. The unknown
    directives and roles met (shown as their content) are listed in the result's
    ``metadata["standalone_unknown"]`` only if there are any.
    """
    nb = copy.deepcopy(nb)
    convert = _Converter(resolve, _headings(nb["cells"]))
    cells = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            source = cell["source"]
            text = convert.markdown(source if isinstance(source, str) else "".join(source))
            if not text.strip():
                continue  # a cell that held only a target
            cell["source"] = _source_lines(text)
            cells.append(cell)
            continue
        cells.append(cell)
        figure = cell.get("metadata", {}).get("mystnb", {}).get("figure", {})
        if cell["cell_type"] == "code" and figure.get("caption"):
            ref = resolve.figure(figure["name"]) if figure.get("name") else None
            caption = convert.markdown(str(figure["caption"]))
            text = f"**{ref.text if ref else 'Figure'}.** {caption}"
            caption_cell = {
                "cell_type": "markdown",
                "metadata": {},
                "source": _source_lines(text),
            }
            if "id" in cell:
                caption_cell["id"] = f"{cell['id']}-caption"[-64:]
            cells.append(caption_cell)
    if convert.cited:
        entries = resolve.references(list(convert.cited))
        if entries:
            text = "## References\n\n" + "\n".join(f"- {entry}" for entry in entries)
            references = {
                "cell_type": "markdown",
                "metadata": {},
                "source": _source_lines(text),
            }
            if any("id" in cell for cell in cells):
                references["id"] = "references"
            cells.append(references)
    cells = _title_first(cells)
    needs = _needs(nb, package) if package is not None else []
    if any("id" in cell for cell in cells):
        for cell, name in zip(needs, ("requirements", "requirements-install"), strict=False):
            cell["id"] = name
    titled = bool(cells) and cells[0]["cell_type"] == "markdown"
    cells[int(titled) : int(titled)] = needs
    nb["cells"] = cells
    if convert.unknown:
        nb["metadata"]["standalone_unknown"] = sorted(convert.unknown)
    return nb


# --------------------------------------------------------------------------------------------
# Sphinx


def _markdown_of(node) -> str:
    """Inline docutils nodes (a title) as Markdown: math, code and emphasis kept."""
    from docutils import nodes

    if isinstance(node, nodes.Text):
        return re.sub(r"([\\`*_\[\]])", r"\\\1", str(node))
    if isinstance(node, nodes.math):
        return f"${node.astext()}$"
    if isinstance(node, nodes.literal):
        return f"`{node.astext()}`"
    inner = "".join(_markdown_of(child) for child in node.children)
    if isinstance(node, nodes.emphasis):
        return f"*{inner}*"
    if isinstance(node, nodes.strong):
        return f"**{inner}**"
    return inner


class SphinxResolver:
    """The :class:`Resolver` of document ``docname``, from the finished build of ``app``.

    Numbers as the HTML builder assigned them (``env.toc_fignumbers``: equations, figures,
    exercises and sphinx-proof's directives), section titles from the doctrees (as Markdown,
    so their mathematics stays mathematics), citations as sphinxcontrib-bibtex renders them.
    """

    def __init__(self, app, docname: str):
        self.app, self.env, self.docname = app, app.env, docname
        self._doctrees: dict[str, object] = {}

    def _page(self, docname: str, anchor: str | None = None) -> str:
        uri = self.app.builder.get_target_uri(docname) + (f"#{anchor}" if anchor else "")
        return page_link(uri, source_name(self.app, self.docname), self.app.config.html_baseurl)

    def _ref(self, text: str, docname: str, anchor: str | None, number: str | None = None):
        page = self._page(docname, anchor)
        return Ref(text, None if docname == self.docname else page, number, page)

    def _number(self, docname: str, figtype: str, node_id: str) -> str | None:
        numbers = self.env.toc_fignumbers.get(docname, {}).get(figtype, {}).get(node_id)
        return ".".join(map(str, numbers)) if numbers else None

    def _numbered(self, docname: str, figtype: str, node_id: str, fmt: str) -> Ref | None:
        number = self._number(docname, figtype, node_id)
        if number is None:
            return None
        return self._ref(fmt % number, docname, node_id, number)

    def include(self, path: str) -> tuple[str, str]:
        relative, absolute = self.env.relfn2path(path, self.docname)
        return Path(relative).as_posix(), Path(absolute).read_text(encoding="utf-8")

    def api(self, path: str, name: str) -> Ref | None:
        _, absolute = self.env.relfn2path(path, self.docname)
        objects = self.env.get_domain("py").objects
        target = listings.documented(objects, listings.module_of(absolute), name)
        if target is None:
            return None
        return self._ref(target, objects[target].docname, objects[target].node_id)

    def page(self, path: str) -> str | None:
        path, _, anchor = path.partition("#")
        docname = posixpath.normpath(posixpath.join(posixpath.dirname(self.docname), path))
        docname = re.sub(r"\.(ipynb|md|rst)$", "", docname)
        if docname not in self.env.found_docs:
            return None
        return self._page(docname, anchor or None)

    def equation(self, label: str) -> Ref | None:
        from docutils.nodes import make_id

        found = self.env.get_domain("math").equations.get(label)
        if found is None:
            return None
        docname, serial = found
        config = self.env.config
        if config.math_numfig and config.numfig:
            number = self._number(docname, "displaymath", make_id(f"equation-{label}"))
            if number is None:
                return None
            number = config.math_numsep.join(number.rsplit(".", 1))
        else:
            number = str(serial)
        return self._ref(number, docname, make_id(f"equation-{label}"), number)

    def proof(self, label: str) -> Ref | None:
        from sphinx.locale import get_translation

        entry = getattr(self.env, "proof_list", {}).get(label)
        if entry is None:
            return None
        name = get_translation("proof")(entry["realtype"].title())
        if entry["nonumber"]:
            return self._ref(name, entry["docname"], label)
        number = self._number(entry["docname"], entry["countertype"], label)
        return self._ref(f"{name} {number}", entry["docname"], label, number)

    def exercise(self, label: str) -> Ref | None:
        entry = getattr(self.env, "sphinx_exercise_registry", {}).get(label)
        if entry is None or entry.get("type") == "solution":
            return None
        fmt = self.env.config.numfig_format.get("exercise", "Exercise %s")
        return self._numbered(entry["docname"], "exercise", label, fmt)

    def _label(self, label: str):
        found = self.env.get_domain("std").labels.get(label)
        if found is None:
            return None
        docname, node_id, sectname = found
        if docname not in self._doctrees:
            self._doctrees[docname] = self.env.get_doctree(docname)
        return docname, node_id, sectname, self._doctrees[docname].ids.get(node_id)

    def figure(self, label: str) -> Ref | None:
        return self.numref(label)

    def numref(self, label: str) -> Ref | None:
        if label in getattr(self.env, "sphinx_exercise_registry", {}):
            return self.exercise(label)
        if label in getattr(self.env, "proof_list", {}):
            return self.proof(label)
        found = self._label(label)
        if found is None:
            return None
        docname, node_id, _, _ = found
        for figtype, numbers in self.env.toc_fignumbers.get(docname, {}).items():
            if node_id in numbers:
                fmt = self.env.config.numfig_format.get(figtype, "%s")
                return self._numbered(docname, figtype, node_id, fmt)
        return None

    def ref(self, label: str) -> Ref | None:
        from docutils import nodes

        if label in getattr(self.env, "sphinx_exercise_registry", {}):
            return self.exercise(label)  # sphinx-exercise shows "Exercise 8.4"
        if label in getattr(self.env, "proof_list", {}):
            return self.proof(label)
        found = self._label(label)
        if found is None:
            return None
        docname, node_id, sectname, node = found
        if isinstance(node, nodes.section) and isinstance(node[0], nodes.title):
            return self._ref(_markdown_of(node[0]), docname, node_id)
        return self._ref(sectname, docname, node_id)

    def doc(self, target: str) -> Ref | None:
        if target.startswith("/"):
            docname = target.lstrip("/")
        else:
            docname = posixpath.normpath(posixpath.join(posixpath.dirname(self.docname), target))
        docname = re.sub(r"\.(ipynb|md|rst)$", "", docname)
        title = self.env.titles.get(docname)
        if title is None:
            return None
        return self._ref(_markdown_of(title), docname, None)

    def cite(self, role: str, target: str) -> str | None:
        from docutils import nodes
        from sphinx.addnodes import pending_xref

        domain = self.env.get_domain("cite")
        node = pending_xref("", refdomain="cite", reftype=role, reftarget=target)
        node["refdoc"] = self.docname
        result = domain.resolve_xref(
            self.env, self.docname, self.app.builder, role, target, node, nodes.inline()
        )
        return result.astext() if result is not None else None

    def references(self, keys: list[str]) -> list[str]:
        from pybtex.backends.markdown import Backend

        backend, wanted, seen, entries = Backend(), set(keys), set(), []
        for citation in self.env.get_domain("cite").citations:
            if citation.key in wanted and citation.key not in seen:
                seen.add(citation.key)
                text = citation.formatted_entry.text.render(backend)
                entries.append(" ".join(text.split()))
        return entries


def page_link(uri: str, source: str, baseurl: str = "") -> str:
    """The address, in a downloaded notebook, of the page ``uri`` of the HTML book.

    ``uri`` is the page's path in the built book with its anchor ("book/ch04.html#eq-1").
    With the book's published address ``baseurl`` (``html: baseurl:`` in ``_config.yml``), an
    absolute link; without it, a link relative to the notebook's place in the built book,
    ``_sources/`` + ``source`` (the download button's file), which resolves when the notebook
    is opened where it was built or downloaded beside the book.
    """
    if baseurl:
        return baseurl.rstrip("/") + "/" + uri
    path, hash_, anchor = uri.partition("#")
    start = posixpath.dirname(posixpath.join("_sources", source))
    return posixpath.relpath(path, start) + hash_ + anchor


def source_name(app, docname: str) -> str:
    """The path of ``docname``'s source under ``_sources`` (as Sphinx's HTML builder names it)."""
    suffix = Path(app.env.doc2path(docname)).suffix
    name = docname + suffix
    if suffix != app.config.html_sourcelink_suffix:
        name += app.config.html_sourcelink_suffix
    return name


def write_standalone_notebooks(app, exception) -> None:
    """On ``build-finished``: rewrite the ``_sources`` copy of every notebook of the book.

    Each is converted from the source file, not from the copy, so a rebuild that did not
    rewrite a page's copy converts it once, not twice. The requirements are those of the
    installed distribution ``standalone_package`` (a Sphinx setting; none if empty).
    """
    if exception is not None or app.builder.format != "html":
        return
    import nbformat
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    sources = Path(app.outdir, "_sources")
    name = app.config.standalone_package
    package = installed_package(name) if name else None
    for docname in sorted(app.env.found_docs):
        source = Path(app.env.doc2path(docname))
        target = sources / source_name(app, docname)
        if source.suffix != ".ipynb" or not target.is_file():
            continue
        nb = json.loads(source.read_text(encoding="utf-8"))
        try:
            converted = standalone(nb, SphinxResolver(app, docname), package)
        except ValueError as error:
            logger.warning(f"download of {docname}: {error}", location=docname)
            continue
        unknown = converted["metadata"].pop("standalone_unknown", None)
        if unknown:  # suppress_warnings: ["standalone_notebooks.unknown"] to accept them
            logger.warning(
                f"download of {docname}: not converted, shown as text: {', '.join(unknown)}",
                location=docname,
                type="standalone_notebooks",
                subtype="unknown",
            )
        notebook = nbformat.from_dict(converted)
        nbformat.validate(notebook)
        nbformat.write(notebook, target)


def setup(app):
    app.add_config_value("standalone_package", "", "env", [str])
    app.connect("build-finished", write_standalone_notebooks)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
