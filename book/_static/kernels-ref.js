// Tables of three columns or more reflow on a narrow screen (book/_static/kernels-ref.css):
// each cell gets a copy of its column's header, shown above it only there. A deferred script
// loaded before MathJax's, it runs before MathJax looks for formulas: those of a header are
// typeset in the copies too.
{
  for (const table of document.querySelectorAll("article.bd-article table")) {
    const heads = [...table.querySelectorAll("thead th")];
    if (heads.length < 3) continue;
    table.classList.add("kr-reflow");
    for (const row of table.querySelectorAll("tbody tr")) {
      [...row.children].forEach((cell, i) => {
        if (!heads[i] || !heads[i].textContent.trim()) return;
        const label = document.createElement("span");
        label.className = "kr-label";
        label.innerHTML = heads[i].innerHTML;
        cell.prepend(label);
      });
    }
  }
}

// A display formula that MathJax could not break to its box scrolls sideways; it gets the
// class that shows the shadows on a narrow screen (kernels-ref.css).
window.addEventListener("load", () => {
  if (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) return;
  MathJax.startup.promise.then(() => {
    for (const math of document.querySelectorAll("div.math > mjx-container")) {
      math.classList.toggle("kr-overflow", math.scrollWidth > math.clientWidth + 1);
    }
  });
});
