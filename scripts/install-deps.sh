#!/usr/bin/env bash
# install-deps.sh — install the Debian packages that building and testing ecopt needs, and only those missing.
#
# Checks each package with dpkg-query; when all are installed it changes nothing and needs no privileges. Otherwise
# it runs apt-get update once, then apt-get install for the missing ones (as root, or through sudo when run as
# another user). Written for Debian 12 (bookworm). Usage: scripts/install-deps.sh [--check]
#   --check   only report what is missing; exit 1 when something is.
set -euo pipefail

PACKAGES=(
    gcc cpp clang libc6-dev make cmake pkg-config # toolchain (cpp: scripts/check-asm.sh)
    libclang-rt-14-dev              # clang's sanitizer and libFuzzer runtimes (-fsanitize=fuzzer: scripts/fuzz.sh)
    libssl-dev openssl              # libcrypto (SHA-512, PEM for the ecopt command) and the openssl command
    libsodium-dev                   # differential tests and benchmarks
    libgmp-dev                      # reference arithmetic in the tests
    libcjson-dev                    # JSON test vectors, fiat-crypto JSON programs (ir/)
    libzydis-dev                    # x86-64 decoding and encoding (check/, emit/)
    libelf-dev                      # reading function bytes from object files (check/)
    libz3-dev                       # the SMT solver behind the equivalence checker (check/)
    binutils                        # as and objdump: assembling .S for the checker, disassembly in tests
    nasm                            # assembling CryptOpt's published NASM code for the checker's test (check.cryptopt)
    valgrind                        # constant-time and memory tests
    python3-minimal                 # scripts/check-ct-objdump.py, the object code check (ct.objcode_*)
    gnuplot-nox                     # the benchmark's chart (make bench)
)

check_only=0
case "${1:-}" in
"") ;;
--check) check_only=1 ;;
-h | --help)
    sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
*)
    echo "install-deps.sh: $1: unknown option (usage: scripts/install-deps.sh [--check])" >&2
    exit 2
    ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install-deps.sh: dpkg-query not found: this script installs Debian packages; install these by hand:" >&2
    echo "  ${PACKAGES[*]}" >&2
    exit 2
fi

missing=()
for p in "${PACKAGES[@]}"; do
    # "install ok installed" is the only state in which the package is really there.
    if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps.sh: all ${#PACKAGES[@]} packages are installed"
    exit 0
fi
echo "install-deps.sh: missing: ${missing[*]}"
if [ $check_only -eq 1 ]; then
    exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "install-deps.sh: not root and no sudo: run as root: apt-get install ${missing[*]}" >&2
    exit 2
fi

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
# Recommends stay on: clang's sanitizer runtimes (libclang-rt-14-dev) are only a recommendation of clang.
"${sudo[@]}" apt-get install -y "${missing[@]}"
echo "install-deps.sh: installed: ${missing[*]}"
