# Two commands set everything up on a fresh machine with Python >= 3.10 and make:
#   make book   execute every chapter and build the HTML book in _build/html/
#   make test   run the package tests (pytest, doctests) and the chapter tests (nbval)
# and, for the book as readers see it:
#   make check-book   build the book, then open every page in headless Chromium and check it
#   make pdf    the whole book as one PDF, _build/latex/kernels-ref.pdf (with a TeX installation:
#               Debian packages in TEX_PACKAGES below)
PYTHON ?= python3
# bash, for pipefail: a build whose output is filtered still fails when the build fails.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
# One BLAS thread for the tests and the book: the stored outputs then do not depend on the number
# of cores (threaded BLAS may sum in another order), and small factorisations do not stall on a
# busy machine. The benchmarks keep the default.
ONE_THREAD := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
# The doctests and the chapters: every printed number of the project.
PRINTED := -p no:cacheprovider --doctest-modules kernels_ref $(NBVAL) book
# Hypothesis profile of tests/conftest.py: fast by default; .ci/run selects the derandomised "ci".
HYPOTHESIS_PROFILE ?= default
export HYPOTHESIS_PROFILE

.PHONY: book check-book pdf tex-missing test test-portable test-downloads mutation bench lint clean mathjax

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit("Python >= 3.10 is required, found " + sys.version.split()[0]) if sys.version_info < (3, 10) else None'
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[book,test,dev]'
	@touch $@

# make book always builds; the stamp records a build that succeeded, so that make check-book
# reuses it until something the book is built from changes: a chapter or page, the package, the
# book's extensions and static files, the configuration or the installed dependencies.
BOOK_STAMP := _build/book.stamp
BOOK_SOURCES := _config.yml _toc.yml references.bib \
	$(shell find book kernels_ref latex -type f ! -name '*.pyc' ! -path '*/.ipynb_checkpoints/*')

book: $(INSTALLED)
	@rm -f $(BOOK_STAMP)
	@$(MAKE) --no-print-directory $(BOOK_STAMP)

# ipykernel 7 warns, once per executed chapter, that its local TCP connection is not encrypted
# (a kernel on this machine, started and stopped by the build): nothing to act on, so that one
# line is filtered from what the build prints.
KERNEL_TCP_NOTE := Kernel is running over TCP without encryption
$(BOOK_STAMP): $(INSTALLED) $(BOOK_SOURCES)
	set -o pipefail; $(ONE_THREAD) $(BIN)/jupyter-book build . -W --keep-going 2>&1 \
		| grep --line-buffered -v '$(KERNEL_TCP_NOTE)'
	@touch $@
	@echo "The book is at $(CURDIR)/_build/html/index.html"

# Every built page in a real browser at 1400 px and as a 390-px phone (tests/check_book.py): no
# console error or file from another site, no MathJax error, no TeX left in text, no dead
# internal link or anchor, nothing wider than the text column (on the phone: or scrolling
# without a visible cue), every figure captioned with alt text and on a light card in the dark
# theme. It checks the last build if nothing has changed since (the stamp above), else builds.
# Selenium drives the system's Chromium: Debian/Ubuntu `apt-get install chromium
# chromium-driver` (nothing is downloaded).
check-book: $(BOOK_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[check]'
	$(BIN)/python tests/check_book.py _build/html

# The PDF: Jupyter Book's LaTeX builder with XeLaTeX (Unicode: the French and Spanish quotations),
# configured in _config.yml and latex/. It executes no chapter: it typesets the outputs stored in
# the notebooks, which make test (nbval) checks against a fresh run. The TeX tools are checked
# first; the Makefile installs none of them.
TEX_PACKAGES := texlive-xetex texlive-fonts-recommended latexmk fonts-freefont-otf
# The packages of TEX_PACKAGES whose tools are missing here, one a line (.ci/run installs them).
tex-missing:
	@command -v xelatex >/dev/null 2>&1 || echo texlive-xetex; \
	command -v latexmk >/dev/null 2>&1 || echo latexmk; \
	{ command -v kpsewhich >/dev/null 2>&1 && kpsewhich pzdr.tfm >/dev/null; } \
		|| echo texlive-fonts-recommended; \
	{ command -v fc-list >/dev/null 2>&1 && fc-list FreeSerif | grep -q .; } \
		|| echo fonts-freefont-otf

pdf: $(INSTALLED)
	@missing=$$($(MAKE) -s --no-print-directory tex-missing); \
	if [ -n "$$missing" ]; then \
		echo "make pdf needs a TeX installation that is missing here:" $$missing; \
		echo "On Debian or Ubuntu: sudo apt-get install $(TEX_PACKAGES)"; \
		exit 1; \
	fi
	@mkdir -p _build
	$(BIN)/python latex/pdf_config.py > _build/pdf_config.yml
	@# latexmk -silent: XeLaTeX in batch mode, so that the passes before the last do not print
	@# the cross-references they have not settled yet (a thousand lines); latex/check_log.py
	@# reads the last pass's log.
	LATEXMKOPTS=-silent $(ONE_THREAD) $(BIN)/jupyter-book build . --builder pdflatex \
		--config _build/pdf_config.yml -W --keep-going
	@# What XeLaTeX only logs: a line more than 3 pt into the margin, a character the fonts lack,
	@# a bookmark that loses text, cross-references not settled (latex/check_log.py).
	$(BIN)/python latex/check_log.py _build/latex/kernels-ref.log
	@echo "The PDF is at $(CURDIR)/_build/latex/kernels-ref.pdf"

test: $(INSTALLED)
	$(ONE_THREAD) $(BIN)/python -m pytest --doctest-modules kernels_ref tests $(NBVAL) book

# The same printed numbers on other numerical environments: every other family of OpenBLAS
# kernels this CPU can run (tests/blas_kernels.py lists those whose kernels differ, and checks
# that they take effect: SSE, AVX, AVX2 with FMA, AVX-512 round differently), then two BLAS
# threads. A number that changes there depends on the machine: fix the chapter, not the
# sanitize file.
test-portable: $(INSTALLED)
	@families=$$($(BIN)/python tests/blas_kernels.py --others) || exit 1; \
	echo "In use: OpenBLAS kernels $$($(BIN)/python tests/blas_kernels.py)"; \
	for family in $$families; do \
		echo "Portable pass: OpenBLAS kernels $$family"; \
		OPENBLAS_CORETYPE=$$family $(ONE_THREAD) $(BIN)/python -m pytest $(PRINTED) || exit 1; \
	done
	@echo "Portable pass: two BLAS threads"
	OPENBLAS_NUM_THREADS=2 OMP_NUM_THREADS=2 MKL_NUM_THREADS=2 $(BIN)/python -m pytest $(PRINTED)

# A downloaded chapter runs where it lands: chapter 5 (cvxpy, matplotlib) and the appendix
# (scikit-learn), each converted as for the HTML book's download button, in a fresh virtual
# environment that gets only what its %pip line names (kernels-ref from this clone) and what
# runs a notebook (nbclient, ipykernel). A minute or two of pip installs, from pip's cache.
test-downloads: $(INSTALLED)
	$(ONE_THREAD) $(BIN)/python -m pytest -p no:cacheprovider --fresh-venv -m fresh_venv \
		tests/test_standalone_notebooks.py

# Do the tests notice a wrong formula? Small changes to each module, sampled, against its own
# tests (tests/mutate.py --help); prints the survivors. Minutes per module: not part of CI.
mutation: $(INSTALLED)
	$(ONE_THREAD) $(BIN)/python tests/mutate.py

bench: $(INSTALLED)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	for script in benchmarks/*.py; do $(BIN)/python $$script || exit 1; done

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf _build

# MathJax 4 is served by the book itself (no file from the network): book/_static/mathjax/ holds
# the files the pages load, kept in the repository so that building the book needs neither npm
# nor a download (4.6 MB, most of it the font). `make mathjax` (it needs npm) copies them from
# these two npm packages, pinned by version and by the integrity hash of their tarballs: the
# combined component tex-chtml.js; the accessibility components it loads on demand (a11y/:
# the hidden MathML for screen readers, loaded on every page, and the explorer that the menu
# turns on); the speech worker with its English and Nemeth (Braille) maps, which read the
# formulas to screen readers; the CHTML files of the one font, New Computer Modern.
MATHJAX_PACKAGES := \
	mathjax-4.1.3.tgz=sha512-BN/8Pkgn7G1pIDYJqd9md+JHsE/jydSYbyOZnSdSA0WziuVO8mRxdYiWFumkVVly/8U+hm9DpIIoWuvySverzw== \
	mathjax-mathjax-newcm-font-4.1.3.tgz=sha512-gzAB3dFHilHX1l5x2xUqRL+1jDQt3Fyza1DkEMVXWC4E8SvsGdlgEza47HYi2WhVcgfkvf4zgUGzuhbq3Pjlew==
MATHJAX_FILES := LICENSE tex-chtml.js sre/speech-worker.js \
	sre/mathmaps/base.json sre/mathmaps/en.json sre/mathmaps/nemeth.json \
	a11y/assistive-mml.js a11y/complexity.js a11y/explorer.js a11y/semantic-enrich.js \
	a11y/speech.js a11y/sre.js
mathjax: | $(BIN)/python
	rm -rf _build/mathjax && mkdir -p _build/mathjax
	cd _build/mathjax && npm pack --silent mathjax@4.1.3 @mathjax/mathjax-newcm-font@4.1.3 >/dev/null
	@for entry in $(MATHJAX_PACKAGES); do \
		$(BIN)/python -c 'import base64, hashlib, sys; f, h = sys.argv[1].split("=", 1); \
			d = "sha512-" + base64.b64encode(hashlib.sha512(open(f, "rb").read()).digest()).decode(); \
			sys.exit(None if d == h else f"{f}: integrity {d}, expected {h}")' \
			"_build/mathjax/$$entry" || exit 1; done
	cd _build/mathjax && mkdir mathjax font && tar -xzf mathjax-4.1.3.tgz -C mathjax \
		&& tar -xzf mathjax-mathjax-newcm-font-4.1.3.tgz -C font
	rm -rf book/_static/mathjax && mkdir -p book/_static/mathjax/fonts/mathjax-newcm-font
	cd _build/mathjax/mathjax/package && cp --parents $(MATHJAX_FILES) $(CURDIR)/book/_static/mathjax/
	cp -r _build/mathjax/font/package/chtml book/_static/mathjax/fonts/mathjax-newcm-font/
