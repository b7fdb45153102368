# Quire — offline-first notes and tasks for the terminal.
#
# Targets:
#   make deps      install missing system packages with apt-get (ncursesw, SQLite, cmark-gfm and libsodium
#                  headers, tmux for the terminal tests, PostgreSQL for the server tests)
#   make build     debug build of every executable
#   make run       open Quire (the TUI) on the local database; no server needed
#   make test      build and run every test (starts a throwaway PostgreSQL on loopback, then stops it)
#   make sim       the seeded simulation alone: SEEDS=N seeds (default 10,000), SEED=N replays one
#   make merge-soak the body merge's invariants and explanation oracle on many more cases
#                  (CASES=N generated cases, LINES=N longest exhaustive text)
#   make merge-git how often the body merge conflicts where git merge-file is clean
#   make bench     release build, run the benchmarks, write BENCHMARKS.md; SIZES=1000,...,1000000
#                  sets the store sizes of the CLI, import, TUI and first-pull curves (the default
#                  stops at 100k to keep the run short; with 1M it takes about 45 minutes); also
#                  installs Taskwarrior (Debian's taskwarrior) to time Quire beside it at 10k items
#   make install   install quire and quire-server into $(PREFIX)/bin (PREFIX=/usr/local), their
#                  man pages into $(PREFIX)/share/man/man1 and bash, zsh and fish completions
#   make man       write the man pages (from the argument parsers) to .build/man
#   make api-check check a real quire-server against Resources/openapi.yaml with schemathesis
#   make format    format the code with swift-format (.swift-format); make test checks it
#   make clean     remove build products
#
# Variables: PREFIX (install prefix), DESTDIR (staging root for packagers),
# ARGS (arguments for `make run`, e.g. ARGS="list").

SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
SWIFT_FLAGS ?=
ARGS ?=
TEST_TIMEOUT ?= 40m
# Release builds link the Swift runtime statically: one self-contained binary that also starts
# a few milliseconds sooner (fewer shared libraries to load and relocate).
RELEASE_FLAGS ?= -c release --static-swift-stdlib

MANDIR ?= $(PREFIX)/share/man/man1
BASH_COMPLETIONS ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS ?= $(PREFIX)/share/zsh/site-functions
FISH_COMPLETIONS ?= $(PREFIX)/share/fish/vendor_completions.d
EXECUTABLES := quire quire-server

.PHONY: all deps build run test sim merge-soak merge-git api-check bench man install format format-check clean

all: build

deps:
	@scripts/deps.sh

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

run: build
	@$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/quire $(ARGS)

test: deps format-check
	$(SWIFT) build $(SWIFT_FLAGS) --build-tests
	@# A hung test must fail the run, not stall it: each run gets TEST_TIMEOUT.
	scripts/with-postgres.sh timeout --kill-after=30s $(TEST_TIMEOUT) $(SWIFT) test $(SWIFT_FLAGS) --skip-build \
		--skip SimulationTests
	@# The simulation on its own: its sixteen chunks of CPU work share the cooperative pool with
	@# the servers other suites run in the test process, and starved them into timeouts.
	timeout --kill-after=30s $(TEST_TIMEOUT) $(SWIFT) test $(SWIFT_FLAGS) --skip-build --filter SimulationTests
	@# The contract, checked by an outside tool against the real server; any finding fails.
	timeout --kill-after=30s 10m scripts/api-fuzz.sh "$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)"

# The seeded simulation of the whole system alone, with as many seeds as asked (make test runs
# 200 and the regression seeds): `make sim SEEDS=20000`, `make sim SEED=1234` replays one. Seeds
# run in parallel; the last line gives the figures (seeds, faults of each kind, changes checked).
SEEDS ?= 10000
sim: deps
	$(SWIFT) build $(SWIFT_FLAGS) --build-tests
	QUIRE_SIM_SEEDS=$(SEEDS) $(if $(SEED),QUIRE_SIM_SEED=$(SEED) QUIRE_SIM_TRACE=1) \
		$(SWIFT) test $(SWIFT_FLAGS) --skip-build --filter SimulationTests

# The body merge on many more cases than make test runs: the invariants on CASES generated cases,
# and the explanation oracle (MergeExplanationTests) exhaustively over texts of up to LINES lines
# and on CASES cases of each generator. `make merge-soak CASES=1000000 LINES=5`; a failure prints
# its seed, replayed with QUIRE_MERGE_SEED=N.
CASES ?= 200000
LINES ?= 4
merge-soak: deps
	$(SWIFT) build $(SWIFT_FLAGS) --build-tests
	QUIRE_MERGE_CASES=$(CASES) QUIRE_MERGE_EXHAUSTIVE_LINES=$(LINES) $(SWIFT) test $(SWIFT_FLAGS) --skip-build \
		--filter 'MergeInvariantTests/everyGeneratedMergeKeepsItsPromises|MergeExplanationTests'

# How often the body merge conflicts where `git merge-file` merges cleanly (one git process per
# case, so not in make test): GIT_CASES cases of each generator.
GIT_CASES ?= 3000
merge-git: deps
	$(SWIFT) build $(SWIFT_FLAGS) --build-tests
	QUIRE_MERGE_GIT=1 QUIRE_MERGE_CASES=$(GIT_CASES) $(SWIFT) test $(SWIFT_FLAGS) --skip-build \
		--filter 'MergeInvariantTests/gitMergeFileAgreesWithTheMerge'

api-check: deps
	$(SWIFT) build $(SWIFT_FLAGS) --product quire-server
	scripts/api-fuzz.sh "$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)"

# One product at a time: a whole-package build would also link GRDB's dynamic library, which
# cannot take a static standard library. Taskwarrior, which one section times beside Quire, is
# installed for the benchmarks only (deps.sh --bench), not for a build or a test run.
bench:
	@scripts/deps.sh --bench
	for product in quire quire-server quire-bench; do \
		$(SWIFT) build $(SWIFT_FLAGS) $(RELEASE_FLAGS) --product $$product || exit 1; \
	done
	scripts/bench.sh

# swift-argument-parser's generate-manual plugin builds the executables (debug: the text is the
# same) and writes one page for each, with every subcommand, from what --help shows.
man: deps
	$(SWIFT) package $(SWIFT_FLAGS) generate-manual --configuration debug
	rm -rf .build/man && mkdir -p .build/man
	for name in $(EXECUTABLES); do cp .build/plugins/GenerateManual/outputs/$$name/$$name.1 .build/man/; done

install: deps man
	$(SWIFT) build $(SWIFT_FLAGS) $(RELEASE_FLAGS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR) $(DESTDIR)$(BASH_COMPLETIONS) $(DESTDIR)$(ZSH_COMPLETIONS) $(DESTDIR)$(FISH_COMPLETIONS)
	bin=$$($(SWIFT) build $(SWIFT_FLAGS) $(RELEASE_FLAGS) --show-bin-path); \
	for name in $(EXECUTABLES); do \
	  install -m 0755 $$bin/$$name $(DESTDIR)$(PREFIX)/bin/$$name && \
	  install -m 0644 .build/man/$$name.1 $(DESTDIR)$(MANDIR)/$$name.1 && \
	  $$bin/$$name --generate-completion-script bash > $(DESTDIR)$(BASH_COMPLETIONS)/$$name && \
	  $$bin/$$name --generate-completion-script zsh > $(DESTDIR)$(ZSH_COMPLETIONS)/_$$name && \
	  $$bin/$$name --generate-completion-script fish > $(DESTDIR)$(FISH_COMPLETIONS)/$$name.fish || exit 1; \
	done

# The code's layout is swift-format's, from the checked-in .swift-format.
format:
	$(SWIFT) format format --in-place --parallel --recursive Package.swift Sources Tests

format-check:
	@$(SWIFT) format lint --strict --parallel --recursive Package.swift Sources Tests \
		|| { echo "make: the code is not formatted: run 'make format'" >&2; exit 1; }

clean:
	rm -rf .build
