# Two entry points for a fresh Linux machine: `make run` and `make test`.
# Each creates the virtualenv and installs what it needs; running them again is cheap.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
ARGS ?=

.PHONY: run test bench lint clean

$(STAMP): pyproject.toml packaging/install-debian-packages.sh
	packaging/install-debian-packages.sh tests
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/murmur $(ARGS)

test: $(STAMP)
	$(VENV)/bin/python -m pytest

bench: $(STAMP)
	$(VENV)/bin/python bench/executor_bench.py
	$(VENV)/bin/python bench/agent_bench.py
	$(VENV)/bin/python bench/speech_bench.py
	$(VENV)/bin/python bench/speech_accuracy_bench.py

lint: $(STAMP)
	$(VENV)/bin/python -m pip install --quiet -e '.[dev]'
	$(VENV)/bin/ruff check app tests bench
	$(VENV)/bin/ruff format --check app tests bench
	$(VENV)/bin/mypy app

clean:
	rm -rf $(VENV) build *.egg-info
