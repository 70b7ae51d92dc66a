"""Check the built book as a reader sees it, in headless Chromium (``make check-book``).

Every HTML page of ``_build/html`` is served over a local HTTP server and opened twice, after
MathJax has typeset it: in a window 1400 px wide, and as a phone 390 px wide. The check fails on:

- a console error (a script error, a failed load), or a file loaded from another site;
- a MathJax error node, or TeX left unrendered in text (``$``, ``\\(``, ``\\[``, ``\\name``);
- an internal link whose page or anchor does not exist;
- a code cell, output, package listing, display equation or table wider than its column, and
  an in-line formula or the page itself reaching past the column or the screen;
- such a box that scrolls vertically (a scroll bar beside it), or a display equation whose box
  cuts a glyph off;
- a display equation broken, by MathJax or by hand, inside a pair of brackets, or by MathJax
  inside a square root or a fraction, and punctuation after an in-line formula that starts the
  next line;
- a figure without a caption, or an image without meaningful alt text;
- a cell whose printed text comes out as several boxes;
- an image that in the dark theme has no light background of its own (the figures are drawn
  black on white).

On the phone, one thing is allowed that is not at 1400 px: a box may scroll sideways inside the
column if it shows that it does, with the shadows of ``book/_static/kernels-ref.css`` (a
gradient background that moves with the content); a box that scrolls without them fails.

It prints, per page and width, how many items of each kind it checked, then every failure.
Chromium and its driver come from the system (Debian: ``apt-get install chromium
chromium-driver``); Selenium drives them and downloads nothing.

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
# A phone: the width of a common one, with a phone's viewport (the page may not zoom out).
PHONE = 390
SKIP_DIRS = {"_static", "_sources", "_images", "_downloads"}

# Runs in the page: returns what it measured and what it found wrong. A box is too wide when its
# content is wider than the box (it would scroll) or when it reaches past the column's right edge.
MEASURE = r"""
const [narrow, screenWidth] = arguments;
const article = document.querySelector("article.bd-article") || document.body;
const cs = getComputedStyle(article);
const box = article.getBoundingClientRect();
const colRight = box.right - parseFloat(cs.paddingRight);
const colLeft = box.left + parseFloat(cs.paddingLeft);
const colWidth = colRight - box.left - parseFloat(cs.paddingLeft);
const slack = 1;
// Whole characters: a formula's mathematical letters lie outside the BMP.
const describe = (el) =>
  Array.from((el.innerText || el.textContent || "").trim().split("\n")[0]).slice(0, 90).join("");
const tooWide = (el, inner) => {
  const r = (inner || el).getBoundingClientRect();
  return el.scrollWidth > el.clientWidth + slack || r.right > colRight + slack;
};
// On the phone, a box may scroll inside the column if it shows it: the element itself or an
// ancestor scrolls sideways, stays within the column, and has the shadows (a gradient
// background, part of which moves with the content).
const scroller = (el) => {
  for (let e = el; e && e !== article; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (/auto|scroll/.test(s.overflowX) && e.scrollWidth > e.clientWidth + slack) return e;
  }
  return null;
};
const hasCue = (e) => {
  const s = getComputedStyle(e);
  return s.backgroundImage.includes("gradient") && s.backgroundAttachment.includes("local");
};
const judge = (el, kind, inner) => {
  if (!tooWide(el, inner)) return null;
  const sc = narrow ? scroller(inner || el) : null;
  if (sc && sc.getBoundingClientRect().right <= colRight + slack) {
    return hasCue(sc) ? null : kind + " scrolls without a cue";
  }
  return kind + " wider than its column";
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
// A box that scrolls up and down shows a scroll bar beside its content (a display formula
// whose box is a few pixels shorter than MathJax's strut, though every glyph fits in it).
const scrollsVertically = (el) =>
  /auto|scroll/.test(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight + slack;
// A glyph of a formula outside its box, which hides what overflows: cut off.
const clipped = (el) => {
  if (getComputedStyle(el).overflowY !== "hidden") return false;
  const r = el.getBoundingClientRect();
  return [...el.querySelectorAll("mjx-c")].some((c) => {
    const g = c.getBoundingClientRect();
    return g.height > 0 && (g.top < r.top - slack || g.bottom > r.bottom + slack);
  });
};
for (const [kind, selector] of Object.entries(kinds)) {
  const els = [...article.querySelectorAll(selector)].filter((el) => !seen.has(el));
  els.forEach((el) => seen.add(el));
  counts[kind] = els.length;
  for (const el of els) {
    const inner = kind === "equation" ? el.firstElementChild : null;
    const verdict = judge(el, kind, inner);
    if (verdict) {
      const w = Math.round(Math.max(el.scrollWidth, (inner || el).getBoundingClientRect().width));
      failures.push([verdict, `${w} px > ${Math.round(colWidth)} px: ${describe(el)}`]);
    }
    if (scrollsVertically(el)) {
      failures.push([kind + " scrolls vertically",
                     `${el.scrollHeight} px > ${el.clientHeight} px: ${describe(el)}`]);
    }
    if (kind === "equation" && clipped(el)) {
      failures.push(["equation cut off", describe(el)]);
    }
  }
}
// In-line formulas: within the column, unless in a box that may scroll.
const inline = [...article.querySelectorAll("mjx-container:not([display='true'])")];
counts["in-line formula"] = inline.length;
for (const el of inline) {
  const r = el.getBoundingClientRect();
  if (!el.getClientRects().length) continue;  // not shown (a table header reflowed away)
  if (r.right <= colRight + slack && r.left >= colLeft - slack) continue;
  const sc = narrow ? scroller(el) : null;
  if (!(sc && hasCue(sc) && sc.getBoundingClientRect().right <= colRight + slack)) {
    failures.push(["in-line formula past the column",
                   `${Math.round(r.right - colRight)} px: ${describe(el)}`]);
  }
}
// The page itself: no wider than the screen (a phone would zoom out or scroll the whole page).
const pageWidth = document.documentElement.scrollWidth;
if (pageWidth > screenWidth + slack) {
  failures.push(["page wider than the screen", `${pageWidth} px > ${screenWidth} px`]);
}
// Files: all from the book itself, none from another site.
for (const res of performance.getEntriesByType("resource")) {
  if (!res.name.startsWith(location.origin + "/") && !/^(data|blob):/.test(res.name)) {
    failures.push(["file loaded from another site", res.name]);
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
// A display formula broken inside a bracket pair: each line of it (MathJax's own line breaks,
// mjx-linebox, or the rows of an aligned display, mjx-mtr) closes every bracket it opens.
// Brackets are counted by MathJax's class of their character, in a glyph or a stretchy
// delimiter: ( [ { ⟨ against ) ] } ⟩, all kinds together, so that [0, C) is closed.
const OPEN = ["mjx-c28", "mjx-c5B", "mjx-c7B", "mjx-c27E8"];
const CLOSE = ["mjx-c29", "mjx-c5D", "mjx-c7D", "mjx-c27E9"];
const depth = (line) => {
  let d = 0;
  for (const g of line.querySelectorAll("mjx-c, mjx-stretchy-v, mjx-stretchy-h")) {
    if (g.closest("mjx-beg, mjx-ext, mjx-end, mjx-mid")) continue;  // pieces of a stretchy one
    // the brace of cases, which opens without closing (not the brackets of its rows)
    const cases = g.closest('mjx-mrow[data-latex$="cases}"]');
    const table = g.closest("mjx-mtable");
    if (cases && !(table && cases.contains(table))) continue;
    if (OPEN.some((c) => g.classList.contains(c))) d += 1;
    if (CLOSE.some((c) => g.classList.contains(c))) d -= 1;
  }
  return d;
};
for (const eq of article.querySelectorAll("mjx-container[display='true']")) {
  // The rows of an aligned display, not a row that holds a table (a numbered display, or the
  // rows of cases beside their brace, which opens without a closing one).
  let lines = [...eq.querySelectorAll("mjx-linebox")];
  if (!lines.length) {
    lines = [...eq.querySelectorAll("mjx-mtr")].filter((r) => !r.querySelector("mjx-mtr"));
  }
  if (lines.length > 1 && lines.some((line) => depth(line) !== 0)) {
    failures.push(["equation broken inside brackets", describe(eq)]);
  }
  // MathJax's lines inside a square root or a fraction: the radical sign or the bar spans them.
  if (eq.querySelector(":is(mjx-msqrt, mjx-mroot, mjx-mfrac) mjx-linebox")) {
    failures.push(["equation broken inside a root or fraction", describe(eq)]);
  }
}
// Punctuation after an in-line formula on the formula's line, not opening the next one.
for (const el of inline) {
  const host = el.parentElement && el.parentElement.matches("span.math") ? el.parentElement : el;
  const next = host.nextSibling;
  if (!next || next.nodeType !== Node.TEXT_NODE || !el.getClientRects().length) continue;
  const at = next.textContent.search(/[^\u2060\u200b]/);
  if (at < 0 || !/[.,;:!?)\]]/.test(next.textContent[at])) continue;
  const range = document.createRange();
  range.setStart(next, at);
  range.setEnd(next, at + 1);
  const p = range.getBoundingClientRect(), f = el.getBoundingClientRect();
  if (p.height && p.top >= f.bottom - slack && p.left < f.right - slack) {
    failures.push(["punctuation starts a line after a formula", describe(el)]);
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
// The dark theme: the figures are drawn black on white, so each image needs a light background
// of its own (the page's is dark), and each caption must stay readable where it lies.
const theme = document.documentElement.dataset.theme;
document.documentElement.dataset.theme = "dark";
const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
const background = (el) => {
  for (let e = el; e; e = e.parentElement) {
    const v = rgb(getComputedStyle(e).backgroundColor);
    if (v.length >= 3 && (v.length < 4 || v[3] > 0.9)) return v;
  }
  return [255, 255, 255];  // the browser's own canvas
};
const luminance = (v) => 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
for (const img of imgs) {
  if (luminance(background(img)) < 200) {
    failures.push(["image on the dark page in the dark theme", img.getAttribute("src") || ""]);
  }
}
// WCAG contrast ratio of a caption's text on its background: at least 4.5.
const relative = (v) => {
  const [r, g, b] = v.slice(0, 3).map((x) => {
    const c = x / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
for (const cap of article.querySelectorAll("figure figcaption")) {
  const [a, b] = [relative(rgb(getComputedStyle(cap).color)), relative(background(cap))];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < 4.5) {
    failures.push(["caption hard to read in the dark theme",
                   `contrast ${ratio.toFixed(1)}: ${describe(cap)}`]);
  }
}
if (theme) document.documentElement.dataset.theme = theme;
else delete document.documentElement.dataset.theme;
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


def check(root: Path, pages: list[Path], width: int = WIDTH) -> dict[str, dict]:
    """Open each page in the browser at ``width`` px (below WIDTH: as a phone); per page, the
    counts checked and the failures."""
    server = _serve(root)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    driver = _browser()
    driver.set_script_timeout(60)
    narrow = width < WIDTH
    if narrow:
        metrics = {"width": width, "height": 844, "deviceScaleFactor": 1, "mobile": True}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    results = {}
    try:
        for rel in pages:
            driver.get(base + rel.as_posix())
            mathjax = driver.execute_async_script(WAIT_MATHJAX)
            r = driver.execute_script(MEASURE, narrow, width)
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


# The check checks itself first, at each width: a page with one defect of each kind must fail on
# each, and a clean page must pass. The clean page has a table that scrolls with the shadows
# on the phone (and fits at 1400 px) and a figure on a light card in the dark theme.
_HEAD = """<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<meta name="viewport" content="width=device-width, initial-scale=1"><style>
body { margin: 0; } article { max-width: 600px; padding: 0 8px; }
.cue { overflow-x: auto; background: linear-gradient(to right, #fff, #fff0) local,
  radial-gradient(farthest-side at 100% 50%, #0004, #0000) right / 1em 100% no-repeat scroll; }
html[data-theme="dark"] body { background: #123; }
html[data-theme="dark"] figure { background: #fff; color: #111; }
</style><title>self-test</title></head><body><article class="bd-article">"""
_GOOD = (
    _HEAD
    + """
<p id="top">Text with <a href="bad.html#here">a link</a>.</p>
<div class="cell_input"><pre style="overflow: auto">short = 1</pre></div>
<div class="cue"><table style="min-width: 500px"><tr><td>a wide table</td></tr></table></div>
<figure><img src="x.png" alt="a red square"><figcaption>A caption.</figcaption></figure>
<mjx-container display="true" style="display: block"><mjx-linebox><mjx-mrow data-latex="{cases}"
><mjx-mo><mjx-c class="mjx-c7B">{</mjx-c></mjx-mo><mjx-mtable><mjx-c class="mjx-c28">(</mjx-c
><mjx-c class="mjx-c29">)</mjx-c></mjx-mtable></mjx-mrow></mjx-linebox><mjx-linebox><mjx-c
>b</mjx-c></mjx-linebox></mjx-container>
</article></body></html>"""
)
_BAD = """
<p id="here">Raw $x^2$ and \\alpha here, <a href="missing.html">a dead link</a>,
<a href="index.html#nowhere">a dead anchor</a>, an in-line formula
<mjx-container style="white-space: nowrap">{long}</mjx-container>.</p>
<mjx-container display="true" style="display: block; overflow: hidden"><mjx-math
style="white-space: nowrap">{long}</mjx-math></mjx-container>
<script>
const far = new Image();  // the same server under another name: another site
far.src = location.href.replace("127.0.0.1", "localhost").replace(/[^/]*$/, "x.png");
far.alt = "a picture from another site";
document.currentScript.after(far);
</script>
<div class="cell_input"><pre style="overflow: auto">{long}</pre></div>
<div class="cell_output"><div class="output stream"><pre>a</pre></div>
<div class="output stream"><pre>b</pre></div></div>
<table><tr><td style="white-space: nowrap">{long}</td></tr></table>
<div class="highlight"><pre style="height: 1.2em; overflow-y: auto">a
b
c</pre></div>
<mjx-container display="true" style="display: block; height: 4px; overflow: hidden"><mjx-c
>X</mjx-c></mjx-container>
<mjx-container display="true" style="display: block"><mjx-linebox><mjx-c>a</mjx-c><mjx-c
class="mjx-c28">(</mjx-c><mjx-c>b</mjx-c></mjx-linebox><mjx-linebox><mjx-c>c</mjx-c><mjx-c
class="mjx-c29">)</mjx-c></mjx-linebox></mjx-container>
<mjx-container display="true" style="display: block"><mjx-msqrt><mjx-linebox><mjx-c
>a</mjx-c></mjx-linebox><mjx-linebox><mjx-c>b</mjx-c></mjx-linebox></mjx-msqrt></mjx-container>
<p style="width: 200px">Then <span class="math"><mjx-container style="display: inline-block;
width: 198px">y</mjx-container></span>&#8203;. starts the next line.</p>
<img src="x.png" alt="x.png">
<figure style="background: none"><figcaption>A caption dark on the dark page.</figcaption></figure>
<script>undefined_function();</script>
</article><div style="width: 1500px">A page wider than the screen.</div></body></html>"""
_EXPECTED = {
    "code cell wider than its column",
    "table wider than its column",
    "equation wider than its column",
    "listing scrolls vertically",
    "equation cut off",
    "equation broken inside brackets",
    "equation broken inside a root or fraction",
    "punctuation starts a line after a formula",
    "in-line formula past the column",
    "page wider than the screen",
    "file loaded from another site",
    "image on the dark page in the dark theme",
    "caption hard to read in the dark theme",
    "output split into boxes",
    "image without meaningful alt text",
    "figure without a caption",
    "TeX left unrendered",
    "console error",
    "link to a missing page",
    "link to a missing anchor",
}


# On the phone, the long code cell scrolls inside the column without the shadows.
_EXPECTED_PHONE = _EXPECTED - {"code cell wider than its column"} | {
    "code cell scrolls without a cue"
}


def self_test(width: int) -> None:
    expected = _EXPECTED if width >= WIDTH else _EXPECTED_PHONE
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "index.html").write_text(_GOOD, encoding="utf-8")
        (root / "bad.html").write_text(_HEAD + _BAD.format(long="x" * 200), encoding="utf-8")
        # A 1-pixel PNG, so that a missing image is not what fails.
        (root / "x.png").write_bytes(
            bytes.fromhex(
                "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                "0000000d49444154789c63f8cfc0f01f0005000201a2d6d1f20000000049454e44ae426082"
            )
        )
        results = check(root, [Path("index.html"), Path("bad.html")], width)
    good = results["index.html"]["failures"]
    found = {kind for kind, _ in results["bad.html"]["failures"]}
    if good or found != expected:
        sys.exit(
            f"check-book's self-test at {width} px failed: the check itself is broken.\n"
            f"clean page: {good}\nmissed: {sorted(expected - found)}\n"
            f"unexpected: {sorted(found - expected)}"
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build", nargs="?", default="_build/html", type=Path)
    parser.add_argument("--page", action="append", default=[], help="only pages whose path has it")
    args = parser.parse_args(argv)
    root = args.build.resolve()
    if not (root / "index.html").is_file():
        sys.exit(f"no built book in {root}: run `make book` first")
    for width in (WIDTH, PHONE):
        self_test(width)
    print(
        f"Self-test at {WIDTH} and {PHONE} px: a page with one defect of each kind fails on "
        "each; a clean page passes."
    )
    pages = _pages(root, args.page)
    total = sum(_report(check(root, pages, width), width) for width in (WIDTH, PHONE))
    print(f"{total} failure(s)" if total else "No failures.")
    return 1 if total else 0


def _report(results: dict[str, dict], width: int) -> int:
    """Print the counts per page and the failures; return how many failures."""
    kinds = list(next(iter(results.values()))["counts"]) if results else []
    head = ["page", *kinds, "failures"]
    rows = [
        [page, *(str(r["counts"].get(k, 0)) for k in kinds), str(len(r["failures"]))]
        for page, r in results.items()
    ]
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=True)]
    columns = sorted({r["colWidth"] for r in results.values()}) or [0]
    column = f"{columns[0]}" if len(columns) == 1 else f"{columns[0]}-{columns[-1]}"
    print(f"Checked {len(results)} pages at {width} px (text column {column} px):")
    for row in [head, *rows]:
        cells = zip(row, widths, strict=True)
        print("  ".join(x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(cells)))
    total = 0
    for page, r in results.items():
        for kind, detail in r["failures"]:
            total += 1
            print(f"{page} at {width} px: {kind}: {detail}")
    return total


if __name__ == "__main__":
    sys.exit(main())
