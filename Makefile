# Quire — offline-first notes and tasks for the terminal.
#
# Targets:
#   make deps      install missing system packages with apt-get (ncursesw and SQLite headers,
#                  tmux for the terminal tests, PostgreSQL for the server tests)
#   make build     debug build of every executable
#   make run       open Quire (the TUI) on the local database; no server needed
#   make test      build and run every test (starts a throwaway PostgreSQL on loopback, then stops it)
#   make bench     release build, run the benchmarks, write BENCHMARKS.md
#   make install   install quire and quire-server into $(PREFIX)/bin (PREFIX=/usr/local)
#   make clean     remove build products
#
# Variables: PREFIX (install prefix), ARGS (arguments for `make run`, e.g. ARGS="list").

SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
SWIFT_FLAGS ?=
ARGS ?=
TEST_TIMEOUT ?= 40m
# Release builds link the Swift runtime statically: one self-contained binary that also starts
# a few milliseconds sooner (fewer shared libraries to load and relocate).
RELEASE_FLAGS ?= -c release --static-swift-stdlib

.PHONY: all deps build run test bench install clean

all: build

deps:
	@scripts/deps.sh

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

run: build
	@$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/quire $(ARGS)

test: deps
	$(SWIFT) build $(SWIFT_FLAGS) --build-tests
	@# A hung test must fail the run, not stall it: the whole suite gets TEST_TIMEOUT.
	scripts/with-postgres.sh timeout --kill-after=30s $(TEST_TIMEOUT) $(SWIFT) test $(SWIFT_FLAGS) --skip-build

bench: deps
	$(SWIFT) build $(SWIFT_FLAGS) $(RELEASE_FLAGS)
	scripts/bench.sh

install: deps
	$(SWIFT) build $(SWIFT_FLAGS) $(RELEASE_FLAGS)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $$($(SWIFT) build $(SWIFT_FLAGS) $(RELEASE_FLAGS) --show-bin-path)/quire $(DESTDIR)$(PREFIX)/bin/quire
	install -m 0755 $$($(SWIFT) build $(SWIFT_FLAGS) $(RELEASE_FLAGS) --show-bin-path)/quire-server $(DESTDIR)$(PREFIX)/bin/quire-server

clean:
	rm -rf .build
