# Makefile — the front door. CMake does the real work; this file picks a build directory per variant and runs
# the steps in order. `make help` lists the targets.
#
#   make demo                 install dependencies, build, and run a narrated tour of the ecopt command
#   make test                 install dependencies, build, run the tests (all but label slow)
#   make test CC=clang        the same with clang (build/clang)
#   make test SANITIZE=1      ASan + UBSan build (build/<cc>-asan), without the valgrind tests
#   make test SKIP_TESTS=RE   the same without the tests whose names match RE (CI: style.* only in the gcc build)
#   make test-slow            every test, including label slow
#   make build                configure and build only
#   make install PREFIX=DIR   build what is installed, then install libecopt (headers, libecopt.a, libecopt.so, ecopt.pc, the CMake
#                             package) and the ecopt command under DIR (default /usr/local; DESTDIR is honoured)
#   make install TOOLS=0      the same for the library alone (build/<cc>-lib; needs only libcrypto)
#   make bench                build, then benchmark against libsodium and OpenSSL into build/<cc>/bench-results/
#   make bench-check          build, then time `ecopt check` on four multiplies (bench/check_times.c)
#   make bench-opt            build, then `ecopt opt` on CryptOpt's table of primes (bench/optimizer-table; long)
#   make regen                rewrite the generated code (src/curve/generated/) from its generator
#   make clean                remove build/

SHELL := /bin/bash

SANITIZE ?= 0
TOOLS ?= 1
PREFIX ?= /usr/local
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
# TOOLS=0: libecopt and its tests only (cmake -DECOPT_BUILD_TOOLS=OFF), in build/<compiler>[-asan]-lib.
ifeq ($(TOOLS),0)
  BUILD := $(BUILD)-lib
  CMAKE_FLAGS += -DECOPT_BUILD_TOOLS=OFF
else ifneq ($(TOOLS),1)
  $(error TOOLS must be 0 or 1, not '$(TOOLS)')
endif

ECOPT_BIN := $(BUILD)/tools/ecopt
# Where `make bench` and `make bench-opt` write their tables and charts: in the build directory, not the source tree.
BENCH_OUT ?= $(BUILD)/bench-results

.PHONY: all build install test test-slow demo bench bench-check bench-opt regen deps clean help

all: build

help:
	@sed -n '4,19p' Makefile | sed 's/^# \{0,1\}//'

deps:
	scripts/install-deps.sh

build:
	CC="$(CC)" cmake -S . -B $(BUILD) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

install:
	@[ "$(SANITIZE)" = 0 ] || { echo "make install: not with SANITIZE=1 (the library would need the sanitizers' runtime)" >&2; exit 2; }
	@[ -n "$(PREFIX)" ] || { echo "make install: PREFIX is empty" >&2; exit 2; }
	CC="$(CC)" cmake -S . -B $(BUILD) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS) --target ecopt_installed
	cmake --install $(BUILD) --prefix "$(abspath $(PREFIX))"

# Steps in order (deps, build, ctest) even under make -j.
test:
	scripts/install-deps.sh
	$(MAKE) --no-print-directory build
	cd $(BUILD) && ctest --output-on-failure -LE '$(EXCLUDE_FAST)' $(if $(SKIP_TESTS),-E '$(SKIP_TESTS)') -j2

test-slow:
	scripts/install-deps.sh
	$(MAKE) --no-print-directory build
	cd $(BUILD) && ctest --output-on-failure $(EXCLUDE_ALL) -j2

demo:
	scripts/install-deps.sh
	$(MAKE) --no-print-directory build
	scripts/demo.sh $(ECOPT_BIN)

# BENCH_ARGS passes options to ecopt_bench (--rounds N --batch N --cpu N), BENCH_FUSED_ARGS to ecopt_bench_fused
# (--rounds N --cpu N); BENCH_OUT=DIR is where bench.md, bench.dat and bench.png go (default build/<cc>/bench-results).
# x86-64 only.
bench:
	@[ "$(SANITIZE)" = 0 ] || { echo "make bench: not with SANITIZE=1" >&2; exit 2; }
	@[ -z "$(filter --out,$(BENCH_ARGS))" ] || \
	  { echo "make bench: give the results folder as BENCH_OUT=DIR, not --out in BENCH_ARGS" >&2; exit 2; }
	scripts/install-deps.sh
	$(MAKE) --no-print-directory build
	mkdir -p $(BENCH_OUT)
	$(BUILD)/bench/ecopt_bench --out $(BENCH_OUT) $(BENCH_ARGS)
	[ ! -x $(BUILD)/bench/ecopt_bench_fused ] || $(BUILD)/bench/ecopt_bench_fused $(BENCH_FUSED_ARGS)
	@echo "make bench: results in $(BENCH_OUT)/ (bench.md, bench.dat and, with gnuplot, bench.png)"

# BENCH_CHECK_ARGS passes options to check_times (--runs N --timeout-ms N --max-seconds S --only NAME --out FILE).
bench-check:
	@[ "$(SANITIZE)" = 0 ] || { echo "make bench-check: not with SANITIZE=1" >&2; exit 2; }
	$(MAKE) --no-print-directory build
	$(BUILD)/bench/check_times $(BENCH_CHECK_ARGS)

# BENCH_OPT_ARGS passes options to bench/optimizer-table (--evals N --only SUBSTR --timeout S --out DIR --no-peers
# --cryptopt DIR --s2n DIR --peer-runs N); at most 15 minutes a row with the default budget, plus the peers'
# measurement (CryptOpt's files and s2n-bignum, by ecopt_bench_asm). Its table and chart go to BENCH_OUT, as make bench's.
bench-opt:
	@[ "$(SANITIZE)" = 0 ] || { echo "make bench-opt: not with SANITIZE=1" >&2; exit 2; }
	@[ -z "$(filter --results,$(BENCH_OPT_ARGS))" ] || \
	  { echo "make bench-opt: give the results folder as BENCH_OUT=DIR, not --results in BENCH_OPT_ARGS" >&2; exit 2; }
	$(MAKE) --no-print-directory build
	bench/optimizer-table --ecopt $(ECOPT_BIN) --results $(BENCH_OUT) $(BENCH_OPT_ARGS)
	@echo "make bench-opt: results in $(BENCH_OUT)/ (optimizer.md, optimizer.dat and, with gnuplot, optimizer.png)"

# The generated fixed-base table; ctest's generated.base_table fails when the committed file differs.
regen:
	$(MAKE) --no-print-directory build
	cmake --build $(BUILD) --target regen

clean:
	rm -rf build
