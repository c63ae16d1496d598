# Two commands for a fresh machine:  `make run`  and  `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 0.0.0.0
PORT   ?= 8000
# Frames are small JSON patches: per-message deflate costs more CPU than it saves bytes.
UVICORN_FLAGS := --ws-per-message-deflate false --ws-max-size 1048576

.PHONY: run test lint bench-load clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/python requirements.lock pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

run: $(VENV)/.installed
	$(BIN)/alembic upgrade head
	$(BIN)/uvicorn app.main:app --host $(HOST) --port $(PORT) $(UVICORN_FLAGS)

test: $(VENV)/.installed
	$(BIN)/pytest $(PYTEST_ARGS)

lint: $(VENV)/.installed
	$(BIN)/ruff check app tests bench migrations
	$(BIN)/mypy app

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
