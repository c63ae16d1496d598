# Two commands for a fresh machine:  `make run`  and  `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 0.0.0.0
PORT   ?= 8000
LINT_PATHS := app tests bench tools examples conftest.py
# Frames are small JSON patches: per-message deflate costs more CPU than it saves bytes.
UVICORN_FLAGS := --ws-per-message-deflate false --ws-max-size 1048576

.PHONY: run test lint docs image-size bench-engines bench-diff bench-load bench-fairness bench-soak \
        bench-idle-rooms bench-startup bench-fanout bench-paired bench-idle bench-audit bench-repeat-visit \
        bench-event-log native native-clean native-check clean

# A .venv left by a Python older than 3.11, or by a `python3 -m venv` that failed half-way (Debian
# without python3-venv leaves one without pip), would otherwise be reused for ever: make it again.
ifneq ($(wildcard $(BIN)/python),)
ifneq ($(shell $(BIN)/python -c 'import sys, pip; print(sys.version_info >= (3, 11))' 2>/dev/null),True)
$(info $(VENV) was made by a Python older than 3.11, or without pip: making it again)
$(shell rm -rf $(VENV))
endif
endif

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
	  echo >&2 "Bordet needs Python 3.11 or newer; '$(PYTHON)' is: $$($(PYTHON) --version 2>&1)."; \
	  echo >&2 "Install one (Debian/Ubuntu: apt-get install python3 python3-venv) or name it:"; \
	  echo >&2 "  make PYTHON=python3.12 ..."; exit 1; }
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || { \
	  echo >&2 "'$(PYTHON)' cannot make a virtual environment (no venv/ensurepip module)."; \
	  echo >&2 "Debian/Ubuntu: apt-get install python3-venv"; exit 1; }
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }

# The Docker image installs requirements.lock alone; development adds requirements-dev.lock on top.
$(VENV)/.installed: $(BIN)/python requirements.lock requirements-native.lock requirements-dev.lock pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

# MALLOC_ARENA_MAX=2 as in the Dockerfile (why: there).
run: $(VENV)/.installed
	$(BIN)/alembic upgrade head
	MALLOC_ARENA_MAX=2 $(BIN)/uvicorn app.main:app --host $(HOST) --port $(PORT) $(UVICORN_FLAGS)

# The suite runs in TEST_WORKERS processes (pytest-xdist; each test file stays on one worker, so a
# module's shared server boots once); TEST_WORKERS=0 runs it all in one process.
TEST_WORKERS ?= 2
test: $(VENV)/.installed
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

lint: $(VENV)/.installed
	$(BIN)/ruff check $(LINT_PATHS) migrations
	$(BIN)/ruff format --check $(LINT_PATHS) migrations
	$(BIN)/mypy $(LINT_PATHS)

# docs/protocol.md is generated from the code (a test keeps it current).
docs: $(VENV)/.installed
	$(BIN)/python -m tools.protocol_doc

# The hot pure modules compiled with mypyc in place, as the Docker image has them (app/native.py
# lists them; needs a C compiler and Python's headers). The sources still run unchanged without it;
# app refuses to import a build older than its sources, so run native or native-clean after edits.
native: $(VENV)/.installed
	$(BIN)/python tools/native.py build

native-clean:
	$(PYTHON) tools/native.py clean

native-check: $(VENV)/.installed
	$(BIN)/python tools/native.py check

# What the Docker image's dependencies weigh: requirements.lock (LOCK=...) installed into an empty
# venv, its site-packages measured.
LOCK ?= requirements.lock
image-size:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && $(PYTHON) -m venv "$$tmp/venv" \
	  && "$$tmp/venv/bin/python" -m pip install --quiet --disable-pip-version-check -r $(LOCK) \
	  && du -sh "$$tmp"/venv/lib/python3*/site-packages | sed "s|$$tmp/venv|<venv>|; s|^|$(LOCK): |"

# Benchmarks print figures (nothing passes or fails); BENCH_ARGS adds options, e.g.
#   make bench-load BENCH_ARGS="--rooms 10 --seconds 20"
bench-engines: $(VENV)/.installed
	$(BIN)/python -m bench.engines $(BENCH_ARGS)

bench-diff: $(VENV)/.installed
	$(BIN)/python -m bench.diff_bench $(BENCH_ARGS)

bench-load: $(VENV)/.installed
	$(BIN)/python -m bench.slap_load $(BENCH_ARGS)

bench-fairness: $(VENV)/.installed
	$(BIN)/python -m bench.fairness $(BENCH_ARGS)

bench-soak: $(VENV)/.installed
	$(BIN)/python -m bench.soak $(BENCH_ARGS)

bench-idle-rooms: $(VENV)/.installed
	$(BIN)/python -m bench.lifecycle idle-rooms $(BENCH_ARGS)

bench-startup: $(VENV)/.installed
	$(BIN)/python -m bench.lifecycle startup $(BENCH_ARGS)

bench-fanout: $(VENV)/.installed
	$(BIN)/python -m bench.fanout $(BENCH_ARGS)

bench-paired: $(VENV)/.installed
	$(BIN)/python -m bench.paired $(BENCH_ARGS)

bench-idle: $(VENV)/.installed
	$(BIN)/python -m bench.fanout --idle $(BENCH_ARGS)

bench-audit: $(VENV)/.installed
	$(BIN)/python -m bench.audit $(BENCH_ARGS)

bench-repeat-visit: $(VENV)/.installed
	$(BIN)/python -m bench.repeat_visit $(BENCH_ARGS)

bench-event-log: $(VENV)/.installed
	$(BIN)/python -m bench.event_log $(BENCH_ARGS)

clean: native-clean
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
