"""Sphinx extension: small repairs of the HTML pages the theme stack produces.

- sphinx-thebe 0.3 registers its inline configuration script in
  ``env-before-read-docs``; with Sphinx 7 it reaches every page twice (once with file
  name ``None``, once with ``""``; sphinx-togglebutton's likewise) and the second copy
  throws "Identifier 'THEBE_JS_URL' has already been declared" in the console. Keep one
  copy of each script.
"""

from __future__ import annotations


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


def setup(app):
    # Last, after the handlers that add scripts to the page.
    app.connect("html-page-context", _one_copy_of_each_script, priority=999)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
