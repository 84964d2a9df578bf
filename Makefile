# yogar — the commands a developer and CI use. `make run` and `make test` are the README's two.
CARGO ?= cargo
YOGAR := target/release/yogar
EXAMPLE := tests/programs/readme_example.c

.PHONY: build deps test lint bench run fmt regress agree

build:
	$(CARGO) build --release --workspace

# The system packages the tests need (32-bit C headers for the frontend's `gcc -m32 -E`),
# installed where apt-get and root allow it.
deps:
	scripts/deps.sh

# Everything in release mode: the heavy tests (solver agreement, shared SV-COMP tasks) need it,
# and one profile means one build.
test: deps
	$(CARGO) test --release --workspace

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

# Solver timings, then both engines on a deterministic subset of 40 shared SV-COMP tasks at
# 10 s per engine run (a few minutes on 2 cores). Full run: make bench ARGS="--all --limit 60 --jobs 2".
# Fails when the engines give TRUE and FALSE on the same task.
ARGS ?=
bench: build
	$(CARGO) run --release -p yogar-bench -- $(ARGS)

# A verdict (TRUE 0, FALSE 10) is success here; anything else fails.
run: build
	@$(YOGAR) verify --unwind 4 $(EXAMPLE); rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 10 ]

# SV-COMP regression (sv-comp/README.md), the bench's `regress` section: every unreach-call
# task of the checkout, scored, compared with sv-comp/baseline.csv; fails on a wrong verdict.
# E.g. REGRESS_ARGS=--quick
SVB ?= ../shared/sv-benchmarks
REGRESS_ARGS ?=
regress: build
	$(CARGO) run --release -p yogar-bench -- regress --svb $(SVB) --yogar $(YOGAR) $(REGRESS_ARGS)

# Agreement of the default SAT engine and the explorers (dpor, cdpor, rvf) on every shared
# task under each property (unreach-call, no-data-race, valid-memsafety, no-overflow; only
# default and dpor check the last three, the others answer UNKNOWN at once) at the same bound
# (--unwind 2 --no-unwinding-assertions), 60 s CPU per run, 2 runs at a time; fails when two
# of them give TRUE and FALSE on one task. AGREE_PROPERTIES narrows the properties; options of
# `yogar-bench agree --help`, e.g. ARGS="--filter pthread-ext --limit-cpu 10".
AGREE_PROPERTIES ?= all
agree: build
	$(CARGO) run --release -p yogar-bench -- agree --svb $(SVB) --yogar $(YOGAR) \
		--property $(AGREE_PROPERTIES) $(ARGS)
