# Durak: a static site; the Python engine runs in the browser (self-hosted Pyodide, in a module worker).
#
#   make setup   install everything the other targets need (idempotent; quick when done)
#   make run     serve the repo root on http://127.0.0.1:$(PORT)  (PORT=8000 by default)
#   make relay   a local signalling relay for play with friends on ws://127.0.0.1:$(RELAY_PORT)/ (8001 by default)
#   make test    ruff, mypy, the import contracts, pytest across the cores (engine tests in CPython,
#                tests/browser in Debian's Chromium), then the main-thread timing tests alone
#   make bench   page figures in Chromium: first paint, ready vs bare Pyodide, longest task in play
#                (benchmarks/page.py; ARGS="--runs 5" etc.), then embeds on a host page (benchmarks/embed.py)
#
# Tools are called by their .venv/bin/... paths: no activation needed.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
PORT ?= 8000
RELAY_PORT ?= 8001
ARGS ?=
VENV := .venv
BIN := $(VENV)/bin
CHROMIUM := /usr/bin/chromium
# chromium-driver is for tools that speak WebDriver; the fonts are the ones Chromium
# recommends (installed without the rest of its recommends: printer dialogs, upower, ...).
APT_PACKAGES := chromium chromium-driver fonts-liberation fonts-dejavu-core
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

# Stamps make repeated runs cheap: each step runs only when one of its inputs is newer than its stamp
# (and each script writes a file only when its content changes, so a step that runs rebuilds no more
# than it must). A fresh clone has no stamp: everything builds.
VENV_STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
BUILT := .cache/build

# The inputs of the built files, found afresh at each run.
PYTHON_SOURCES := $(shell find durak web -name '*.py' -not -path 'web/vendor/*')
ENGINE_SOURCES := $(filter durak/%,$(PYTHON_SOURCES))
CATALOGUES := $(wildcard web/shared/locale/*.po)
RULES_SOURCES := $(shell find rules/src rules/examples -type f)
SITE_SOURCES := index.html embed.html $(shell find web -type f -not -path 'web/vendor/*' \
	-not -name '*.br' -not -name '*.gz' -not -name '*.partial' -not -name '*.mo' -not -name 'strings.js' \
	-not -name 'modules.zip' -not -name 'features.zip' -not -name '*.py' -not -name '*.po' -not -name '*.pyc')

.PHONY: help setup chromium run relay test bench clean

help:
	@sed -n '3,8p' Makefile | sed 's/^# //'

setup: chromium $(BUILT)/compressed

$(BUILT)/vendored: $(NODE_STAMP) $(VENV_STAMP) package.json scripts/vendor.py
	@mkdir -p $(BUILT)
	@$(PYTHON) scripts/vendor.py
	@touch $@

$(BUILT)/wheel: $(VENV_STAMP) $(ENGINE_SOURCES) pyproject.toml LICENSE README.md scripts/build_wheel.py
	@mkdir -p $(BUILT)
	@$(BIN)/python scripts/build_wheel.py
	@touch $@

# web/modules.zip and web/features.zip, and the catalogues (.mo, strings.js, the manifest's names) it compiles first.
$(BUILT)/modules: $(BUILT)/vendored $(PYTHON_SOURCES) $(CATALOGUES) scripts/build_zip.py \
		scripts/build_catalogues.py scripts/compile_pyc.mjs
	@$(BIN)/python scripts/build_zip.py
	@touch $@

$(BUILT)/rules: $(BUILT)/modules $(RULES_SOURCES) index.html scripts/build_rules.py scripts/render_examples.mjs
	@$(BIN)/python scripts/build_rules.py
	@touch $@

$(BUILT)/stdlib: $(BUILT)/modules $(BUILT)/wheel scripts/build_stdlib.py scripts/trace_stdlib.mjs
	@$(BIN)/python scripts/build_stdlib.py
	@touch $@

# web/vendor/deck/: the card faces' sprites, one per deck style, from the vendored SVG deck.
$(BUILT)/deck: $(BUILT)/vendored scripts/build_deck.py scripts/optimise_svg.mjs
	@$(BIN)/python scripts/build_deck.py
	@touch $@

# The venv's Python, as the tests' rebuilds use: the release's version hashes the compressors' versions
# (build_sw.compression_settings), which the system Python does not see.
$(BUILT)/service-worker: $(BUILT)/rules $(BUILT)/stdlib $(BUILT)/deck $(BUILT)/wheel $(SITE_SOURCES) scripts/build_sw.py scripts/sw.template.js
	@$(BIN)/python scripts/build_sw.py
	@touch $@

$(BUILT)/compressed: $(BUILT)/service-worker scripts/compress.py
	@$(BIN)/python scripts/compress.py
	@touch $@

chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
		echo "Installing Debian's Chromium ($(APT_PACKAGES))"; \
		export DEBIAN_FRONTEND=noninteractive; \
		$(SUDO) apt-get update -q; \
		$(SUDO) apt-get install -y -q --no-install-recommends $(APT_PACKAGES); \
	fi

$(VENV_STAMP): requirements-dev.txt
	@[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
	@touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

run: setup
	$(BIN)/python scripts/serve.py --port $(PORT)

# A local signalling relay for play with friends (a WebTorrent tracker, docs/friends.md), in the foreground.
relay: $(NODE_STAMP)
	node scripts/relay.mjs $(RELAY_PORT)

# Python keeps its bytecode caches (pytest its assertion-rewritten test modules) between and within runs even
# where the environment sets PYTHONDONTWRITEBYTECODE: each pytest process then collects the suite in about
# 1.5 s instead of 6.5 s (docs/ui.md, "Tests"). The caches are git-ignored __pycache__ folders.
test: export PYTHONDONTWRITEBYTECODE =
test: setup
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache
	$(BIN)/pytest -n auto --dist loadfile -m "not timing"
	$(BIN)/pytest -m timing

bench: setup
	$(BIN)/python benchmarks/page.py $(ARGS)
	$(BIN)/python benchmarks/embed.py

clean:
	rm -rf $(VENV) node_modules web/vendor web/modules.zip web/features.zip sw.js dist .cache .pytest_cache .mypy_cache .ruff_cache
