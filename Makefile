# Two commands set everything up on a fresh machine with Python >= 3.10 and make:
#   make book   execute every chapter and build the HTML book in _build/html/
#   make test   run the package tests (pytest, doctests) and the chapter tests (nbval)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
# One BLAS thread for the tests and the book: the stored outputs then do not depend on the number
# of cores (threaded BLAS may sum in another order), and small factorisations do not stall on a
# busy machine. The benchmarks keep the default.
ONE_THREAD := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

.PHONY: book test bench lint clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit("Python >= 3.10 is required, found " + sys.version.split()[0]) if sys.version_info < (3, 10) else None'
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[book,test,dev]'
	@touch $@

book: $(INSTALLED)
	$(ONE_THREAD) $(BIN)/jupyter-book build . -W --keep-going
	@echo "The book is at $(CURDIR)/_build/html/index.html"

test: $(INSTALLED)
	$(ONE_THREAD) $(BIN)/python -m pytest --doctest-modules kernels_ref tests $(NBVAL) book

bench: $(INSTALLED)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	for script in benchmarks/*.py; do $(BIN)/python $$script || exit 1; done

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf _build
