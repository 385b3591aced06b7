# Two entry points for a fresh Linux machine: `make run` and `make test` (lint, then the whole suite).
# Each creates the virtualenv and installs what it needs; running them again is cheap.
# `make test-fast` is the edit loop (about three minutes): the tests of every package (tests/<package> for
# app/<package>; the app offscreen) without those marked slow (processes started, killed or waited out to a deadline,
# `murmur mcp`, Whisper, sync's edge cases, lists of thousands), desktop (Xvfb, a tray) or pulse (a PulseAudio
# microphone): a test's kind is its marker, never its folder. `make test` runs them all.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
ARGS ?=

.PHONY: run test test-fast bench lint clean

$(STAMP): pyproject.toml packaging/install-debian-packages.sh Makefile
	packaging/install-debian-packages.sh tests
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/murmur $(ARGS)

test: lint
	$(VENV)/bin/python -m pytest -n 3 --dist worksteal

test-fast: $(STAMP)
	$(VENV)/bin/python -m pytest -n 3 --dist worksteal tests -m 'not slow and not desktop and not pulse'

bench: $(STAMP)
	$(VENV)/bin/python bench/report.py

lint: $(STAMP)
	$(VENV)/bin/ruff check app tests bench
	$(VENV)/bin/ruff format --check app tests bench
	$(VENV)/bin/mypy app

clean:
	rm -rf $(VENV) build *.egg-info
