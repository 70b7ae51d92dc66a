"""Check the built book as a reader sees it, in headless Chromium (``make check-book``).

Every HTML page of ``_build/html`` is served over a local HTTP server and opened at a window
1400 px wide, after MathJax has typeset it. The check fails on:

- a console error (a script error, a failed load);
- a MathJax error node, or TeX left unrendered in text (``$``, ``\\(``, ``\\[``, ``\\name``);
- an internal link whose page or anchor does not exist;
- a code cell, output, package listing, display equation or table wider than its column;
- a figure without a caption, or an image without meaningful alt text;
- a cell whose printed text comes out as several boxes.

It prints, per page, how many items of each kind it checked, then every failure. Chromium and
its driver come from the system (Debian: ``apt-get install chromium chromium-driver``); Selenium
drives them and downloads nothing.

Usage: ``python tests/check_book.py [BUILD_DIR] [--page NAME ...]``.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import re
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

WIDTH, HEIGHT = 1400, 1000
SKIP_DIRS = {"_static", "_sources", "_images", "_downloads"}

# Runs in the page: returns what it measured and what it found wrong. A box is too wide when its
# content is wider than the box (it would scroll) or when it reaches past the column's right edge.
MEASURE = r"""
const article = document.querySelector("article.bd-article") || document.body;
const cs = getComputedStyle(article);
const box = article.getBoundingClientRect();
const colRight = box.right - parseFloat(cs.paddingRight);
const colWidth = colRight - box.left - parseFloat(cs.paddingLeft);
const slack = 1;
const describe = (el) => (el.innerText || el.textContent || "").trim().split("\n")[0].slice(0, 90);
const tooWide = (el, inner) => {
  const r = (inner || el).getBoundingClientRect();
  return el.scrollWidth > el.clientWidth + slack || r.right > colRight + slack;
};
const kinds = {
  "code cell": "div.cell_input pre",
  "output": "div.cell_output pre, div.cell_output .output.text_html",
  "listing": "div.highlight pre",
  "equation": "mjx-container[display='true']",
  "table": "article table",
};
const counts = {}, failures = [];
const seen = new Set();
for (const [kind, selector] of Object.entries(kinds)) {
  const els = [...article.querySelectorAll(selector)].filter((el) => !seen.has(el));
  els.forEach((el) => seen.add(el));
  counts[kind] = els.length;
  for (const el of els) {
    const inner = kind === "equation" ? el.firstElementChild : null;
    if (tooWide(el, inner)) {
      const w = Math.round(Math.max(el.scrollWidth, (inner || el).getBoundingClientRect().width));
      failures.push([kind + " wider than its column",
                     `${w} px > ${Math.round(colWidth)} px: ${describe(el)}`]);
    }
  }
}
// Images: every one in a figure with a caption, and alt text that says something.
const imgs = [...article.querySelectorAll("img")]
  .filter((img) => !(img.getAttribute("src") || "").includes("_static/"));
counts["figure"] = imgs.length;
for (const img of imgs) {
  const alt = (img.getAttribute("alt") || "").trim();
  const src = img.getAttribute("src") || "";
  if (!alt || /\.(png|jpe?g|svg|gif)$/i.test(alt) || alt.includes("/") || alt === src) {
    failures.push(["image without meaningful alt text", `${src} alt="${alt}"`]);
  }
  const fig = img.closest("figure");
  const cap = fig && fig.querySelector("figcaption");
  if (!cap || !cap.textContent.trim()) {
    failures.push(["figure without a caption", src]);
  }
}
// One text output per cell: a table printed by a loop is one box, not one box per line.
for (const out of article.querySelectorAll("div.cell_output")) {
  const streams = out.querySelectorAll(":scope > div.output.stream");
  if (streams.length > 1) {
    failures.push(["output split into boxes", `${streams.length} boxes: ${describe(streams[0])}`]);
  }
}
// MathJax error nodes.
const errs = [...document.querySelectorAll("mjx-merror, [data-mjx-error]")];
counts["formula"] = document.querySelectorAll("mjx-container").length;
errs.forEach((e) => failures.push(["MathJax error", e.getAttribute("data-mjx-error") ||
                                                    describe(e)]));
// TeX left in text: text nodes outside code, scripts and typeset math.
const skip = "script, style, textarea, code, mjx-container, div.cell_input, div.highlight";
const tex = /\$[^\s$]|\\\(|\\\[|\\[A-Za-z]{2,}|\\\|/;
const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
let nText = 0;
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const p = n.parentElement;
  if (!p || p.closest(skip)) continue;
  nText += 1;
  const m = n.textContent.match(tex);
  if (m) {
    const i = m.index;
    failures.push(["TeX left unrendered",
                   n.textContent.slice(Math.max(0, i - 30), i + 50).replace(/\s+/g, " ")]);
  }
}
counts["text node"] = nText;
// Links and anchors, resolved in Python.
const links = [...document.querySelectorAll("a[href]")].map((a) => a.href);
const ids = [...document.querySelectorAll("[id], a[name]")].map((e) => e.id || e.name);
return {counts, failures, links, ids, colWidth: Math.round(colWidth)};
"""

# Wait for MathJax (if the page has it) to finish typesetting.
WAIT_MATHJAX = r"""
const done = arguments[arguments.length - 1];
const ready = () => (window.MathJax && MathJax.startup && MathJax.startup.promise)
  ? MathJax.startup.promise.then(() => done(true), () => done(false))
  : done(null);
if (document.readyState === "complete") ready(); else window.addEventListener("load", ready);
"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _serve(root: Path):
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        sys.exit("check-book needs Selenium: pip install -e '.[check]'")
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not binary or not driver:
        sys.exit(
            "check-book needs Chromium and its driver from the system: "
            "apt-get install chromium chromium-driver (Debian/Ubuntu)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={WIDTH},{HEIGHT}",
        "--hide-scrollbars",
        "--lang=en",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=options)


def _pages(root: Path, only: list[str]) -> list[Path]:
    pages = []
    for path in sorted(root.rglob("*.html")):
        rel = path.relative_to(root)
        if rel.parts[0] in SKIP_DIRS:
            continue
        if only and not any(name in str(rel) for name in only):
            continue
        pages.append(rel)
    return pages


def _check_links(root: Path, base: str, results: dict) -> dict[str, list]:
    """Internal links: the target file exists, and its anchor exists on the target page."""
    bad: dict[str, list] = {}
    ids = {page: set(r["ids"]) for page, r in results.items()}
    for page, r in results.items():
        n = 0
        for href in r["links"]:
            url, frag = urldefrag(href)
            if not url.startswith(base):
                continue  # another site: not checked offline
            n += 1
            rel = unquote(urlparse(url).path).lstrip("/")
            target = root / rel
            if rel == "" or target.is_dir():
                target, rel = target / "index.html", str(Path(rel) / "index.html")
            if not target.is_file():
                bad.setdefault(page, []).append(("link to a missing page", href))
                continue
            if frag and rel.endswith(".html"):
                anchors = ids.get(rel)
                if anchors is None:  # a page outside the checked set: read its ids from HTML
                    html = target.read_text(encoding="utf-8", errors="replace")
                    anchors = set(re.findall(r'\b(?:id|name)="([^"]+)"', html))
                    ids[rel] = anchors
                if unquote(frag) not in anchors:
                    bad.setdefault(page, []).append(("link to a missing anchor", href))
        r["counts"]["internal link"] = n
    return bad


def check(root: Path, pages: list[Path]) -> dict[str, dict]:
    """Open each page in the browser; per page, the counts checked and the failures."""
    server = _serve(root)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    driver = _browser()
    driver.set_script_timeout(60)
    results = {}
    try:
        for rel in pages:
            driver.get(base + rel.as_posix())
            mathjax = driver.execute_async_script(WAIT_MATHJAX)
            r = driver.execute_script(MEASURE)
            if mathjax is False:
                r["failures"].append(("MathJax error", "typesetting failed"))
            for entry in driver.get_log("browser"):
                if entry["level"] == "SEVERE":
                    r["failures"].append(("console error", entry["message"][:200]))
            results[rel.as_posix()] = r
    finally:
        driver.quit()
        server.shutdown()
    for page, bad in _check_links(root, base, results).items():
        results[page]["failures"].extend(bad)
    return results


# The check checks itself first: a page with one defect of each kind must fail on each, and a
# clean page must pass.
_GOOD = """<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>good</title></head><body><article class="bd-article" style="width: 600px">
<p id="top">Text with <a href="bad.html#here">a link</a>.</p>
<div class="cell_input"><pre style="overflow: auto">short = 1</pre></div>
<figure><img src="x.png" alt="a red square"><figcaption>A caption.</figcaption></figure>
</article></body></html>"""
_BAD = """<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>bad</title></head><body><article class="bd-article" style="width: 600px">
<p id="here">Raw $x^2$ and \\alpha here, <a href="missing.html">a dead link</a>,
<a href="index.html#nowhere">a dead anchor</a>.</p>
<div class="cell_input"><pre style="overflow: auto">{long}</pre></div>
<div class="cell_output"><div class="output stream"><pre>a</pre></div>
<div class="output stream"><pre>b</pre></div></div>
<table><tr><td style="white-space: nowrap">{long}</td></tr></table>
<img src="x.png" alt="x.png">
<script>undefined_function();</script>
</article></body></html>"""
_EXPECTED = {
    "code cell wider than its column",
    "table wider than its column",
    "output split into boxes",
    "image without meaningful alt text",
    "figure without a caption",
    "TeX left unrendered",
    "console error",
    "link to a missing page",
    "link to a missing anchor",
}


def self_test() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "index.html").write_text(_GOOD, encoding="utf-8")
        (root / "bad.html").write_text(_BAD.format(long="x" * 200), encoding="utf-8")
        # A 1-pixel PNG, so that a missing image is not what fails.
        (root / "x.png").write_bytes(
            bytes.fromhex(
                "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                "0000000d49444154789c63f8cfc0f01f0005000201a2d6d1f20000000049454e44ae426082"
            )
        )
        results = check(root, [Path("index.html"), Path("bad.html")])
    good = results["index.html"]["failures"]
    found = {kind for kind, _ in results["bad.html"]["failures"]}
    if good or found != _EXPECTED:
        sys.exit(
            "check-book's self-test failed: the check itself is broken.\n"
            f"clean page: {good}\nmissed: {sorted(_EXPECTED - found)}\n"
            f"unexpected: {sorted(found - _EXPECTED)}"
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build", nargs="?", default="_build/html", type=Path)
    parser.add_argument("--page", action="append", default=[], help="only pages whose path has it")
    args = parser.parse_args(argv)
    root = args.build.resolve()
    if not (root / "index.html").is_file():
        sys.exit(f"no built book in {root}: run `make book` first")
    self_test()
    print("Self-test: a page with one defect of each kind fails on each; a clean page passes.")
    results = check(root, _pages(root, args.page))

    kinds = list(next(iter(results.values()))["counts"]) if results else []
    head = ["page", *kinds, "failures"]
    rows = [
        [page, *(str(r["counts"].get(k, 0)) for k in kinds), str(len(r["failures"]))]
        for page, r in results.items()
    ]
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=True)]
    columns = sorted({r["colWidth"] for r in results.values()}) or [0]
    column = f"{columns[0]}" if len(columns) == 1 else f"{columns[0]}-{columns[-1]}"
    print(f"Checked {len(results)} pages at {WIDTH} px (text column {column} px):")
    for row in [head, *rows]:
        cells = zip(row, widths, strict=True)
        print("  ".join(x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(cells)))
    total = 0
    for page, r in results.items():
        for kind, detail in r["failures"]:
            total += 1
            print(f"{page}: {kind}: {detail}")
    print(f"{total} failure(s)" if total else "No failures.")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
