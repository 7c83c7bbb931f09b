# Makefile — the front door. CMake does the real work; this file picks a build directory per variant and runs
# the steps in order. `make help` lists the targets.
#
#   make demo                 install dependencies, build, and run a narrated tour of the ecopt command
#   make test                 install dependencies, build, run the tests (all but label slow)
#   make test CC=clang        the same with clang (build/clang)
#   make test SANITIZE=1      ASan + UBSan build (build/<cc>-asan), without the valgrind tests
#   make test-slow            every test, including label slow
#   make build                configure and build only
#   make bench                build, then benchmark against libsodium and OpenSSL into bench/results/
#   make bench-check          build, then time `ecopt check` on four multiplies (bench/check_times.c)
#   make bench-opt            build, then `ecopt opt` on CryptOpt's table of primes (bench/optimizer-table; long)
#   make regen                rewrite the generated code (src/curve/generated/) from its generator
#   make clean                remove build/

SHELL := /bin/bash

SANITIZE ?= 0
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# build/<compiler>[-asan]: one directory per variant, since CMake fixes the compiler when it first configures.
CC_NAME := $(notdir $(firstword $(CC)))
ifeq ($(SANITIZE),1)
  BUILD := build/$(CC_NAME)-asan
  CMAKE_FLAGS := -DECOPT_SANITIZE=ON
  # `heavy`: the long checker corpora, run by the plain builds; under the sanitizers they would double CI's time
  EXCLUDE_FAST := slow|valgrind|heavy
  EXCLUDE_ALL := -LE valgrind
else ifeq ($(SANITIZE),0)
  BUILD := build/$(CC_NAME)
  CMAKE_FLAGS := -DECOPT_SANITIZE=OFF
  EXCLUDE_FAST := slow
  EXCLUDE_ALL :=
else
  $(error SANITIZE must be 0 or 1, not '$(SANITIZE)')
endif

ECOPT_BIN := $(BUILD)/tools/ecopt

.PHONY: all build test test-slow demo bench bench-check bench-opt regen deps clean help

all: build

help:
	@sed -n '4,15p' Makefile | sed 's/^# \{0,1\}//'

deps:
	scripts/install-deps.sh

build:
	CC="$(CC)" cmake -S . -B $(BUILD) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

# Steps in order (deps, build, ctest) even under make -j.
test:
	scripts/install-deps.sh
	$(MAKE) --no-print-directory build
	cd $(BUILD) && ctest --output-on-failure -LE '$(EXCLUDE_FAST)' -j2

test-slow:
	scripts/install-deps.sh
	$(MAKE) --no-print-directory build
	cd $(BUILD) && ctest --output-on-failure $(EXCLUDE_ALL) -j2

demo:
	scripts/install-deps.sh
	$(MAKE) --no-print-directory build
	scripts/demo.sh $(ECOPT_BIN)

# BENCH_ARGS passes options to ecopt_bench (--rounds N --batch N --cpu N --out DIR); x86-64 only.
bench:
	@[ "$(SANITIZE)" = 0 ] || { echo "make bench: not with SANITIZE=1" >&2; exit 2; }
	scripts/install-deps.sh
	$(MAKE) --no-print-directory build
	mkdir -p bench/results
	$(BUILD)/bench/ecopt_bench $(BENCH_ARGS)
	[ ! -x $(BUILD)/bench/ecopt_bench_fused ] || $(BUILD)/bench/ecopt_bench_fused

# BENCH_CHECK_ARGS passes options to check_times (--runs N --timeout-ms N --max-seconds S --only NAME --out FILE).
bench-check:
	@[ "$(SANITIZE)" = 0 ] || { echo "make bench-check: not with SANITIZE=1" >&2; exit 2; }
	$(MAKE) --no-print-directory build
	$(BUILD)/bench/check_times $(BENCH_CHECK_ARGS)

# BENCH_OPT_ARGS passes options to bench/optimizer-table (--evals N --only SUBSTR --timeout S --out DIR); at most
# 15 minutes a row with the default budget.
bench-opt:
	@[ "$(SANITIZE)" = 0 ] || { echo "make bench-opt: not with SANITIZE=1" >&2; exit 2; }
	$(MAKE) --no-print-directory build
	bench/optimizer-table --ecopt $(ECOPT_BIN) $(BENCH_OPT_ARGS)

# The generated fixed-base table; ctest's generated.base_table fails when the committed file differs.
regen:
	$(MAKE) --no-print-directory build
	cmake --build $(BUILD) --target regen

clean:
	rm -rf build
