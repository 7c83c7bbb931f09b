#!/usr/bin/env bash
# check-examples.sh [--install BUILD_DIR] [--subdir] PREFIX WORK_DIR — build examples/ against the libecopt installed
# in PREFIX and run the programs: with pkg-config (examples/Makefile) and with find_package (examples/CMakeLists.txt),
# each linking libecopt.so and then libecopt.a (a variant whose library is not installed is reported and left out).
# With --subdir also from the sources, examples/ taking ecopt in by add_subdirectory (static; it must register no
# test and look for none of the tools' packages).
# Each program checks RFC vectors itself; this script also checks which library each one loads (readelf: NEEDED
# libecopt.so.<ABI> for shared, none for static) and that it reports pkg-config's version of ecopt.
# With --install, first `cmake --install BUILD_DIR --prefix PREFIX` (PREFIX is emptied first). CC chooses the
# compiler (default cc). Builds go to WORK_DIR, never into examples/.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
examples=$here/examples
install_from= subdir=0
while [ $# -gt 0 ]; do
  case "$1" in
  --install) install_from=${2:?--install needs a build directory}; shift 2 ;;
  --subdir) subdir=1; shift ;;
  *) break ;;
  esac
done
if [ $# -ne 2 ]; then
  echo "usage: check-examples.sh [--install BUILD_DIR] [--subdir] PREFIX WORK_DIR" >&2
  exit 2
fi
prefix=$1 work=$2
cc=${CC:-cc}
mkdir -p "$work"
work=$(cd "$work" && pwd)

if [ -n "$install_from" ]; then
  rm -rf "$prefix"
  cmake --install "$install_from" --prefix "$prefix" >"$work/install.log" ||
    { cat "$work/install.log" >&2; echo "check-examples: cmake --install $install_from failed" >&2; exit 1; }
fi
prefix=$(cd "$prefix" && pwd)

pc=$(find "$prefix" -name ecopt.pc -path '*/pkgconfig/*' | head -n 1)
[ -n "$pc" ] || { echo "check-examples: no ecopt.pc under $prefix" >&2; exit 1; }
pcdir=$(dirname "$pc")
export PKG_CONFIG_PATH="$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
version=$(pkg-config --modversion ecopt)
libdir=$(pkg-config --variable=libdir ecopt)
# pkg-config must name this prefix, not an ecopt installed elsewhere.
case "$(cd "$libdir" && pwd)" in
"$prefix"/*) ;;
*) echo "check-examples: pkg-config's libdir $libdir is outside $prefix" >&2; exit 1 ;;
esac

passed=0 failed=0
# run_checked VARIANT PROGRAM [ENV...]: run it, check its output names $version and what it links.
run_checked() {
  local variant=$1 prog=$2 out needed
  shift 2
  needed=$(readelf -d "$prog" | sed -n 's/.*(NEEDED).*\[\(libecopt[^]]*\)\].*/\1/p')
  case "$variant" in
  *shared) [ -n "$needed" ] || { echo "FAIL $variant $(basename "$prog"): does not load libecopt.so" >&2; failed=$((failed + 1)); return; } ;;
  *static) [ -z "$needed" ] || { echo "FAIL $variant $(basename "$prog"): loads $needed" >&2; failed=$((failed + 1)); return; } ;;
  esac
  if ! out=$(env "$@" "$prog" 2>&1); then
    echo "FAIL $variant $(basename "$prog"): $out" >&2
    failed=$((failed + 1))
  elif [[ "$out" != *"libecopt $version,"* ]]; then
    echo "FAIL $variant $(basename "$prog"): reports another version than pkg-config's $version: $out" >&2
    failed=$((failed + 1))
  else
    echo "ok   $variant: $out"
    passed=$((passed + 1))
  fi
}

for kind in shared static; do
  if [ $kind = shared ] && ! ls "$libdir"/libecopt.so.* >/dev/null 2>&1; then
    echo "check-examples: no libecopt.so in $libdir: the shared variants are left out"
    continue
  fi
  if [ $kind = static ] && [ ! -f "$libdir/libecopt.a" ]; then
    echo "check-examples: no libecopt.a in $libdir: the static variants are left out"
    continue
  fi
  static=0
  [ $kind = static ] && static=1

  # pkg-config
  out=$work/pkg-config-$kind
  rm -rf "$out"
  # PKG_CONFIG_PATH on make's command line, not in the environment, as the docs show it
  if env -u PKG_CONFIG_PATH make --no-print-directory -s -C "$examples" CC="$cc" CFLAGS="-O2 -Wall -Wextra -Werror" \
       STATIC=$static O="$out" PKG_CONFIG_PATH="$PKG_CONFIG_PATH" >"$work/pkg-config-$kind.log" 2>&1; then
    for p in x25519 ed25519 group; do run_checked "pkg-config/$kind" "$out/$p" LD_LIBRARY_PATH="$libdir"; done
  else
    cat "$work/pkg-config-$kind.log" >&2
    echo "FAIL pkg-config/$kind: build failed" >&2
    failed=$((failed + 1))
  fi

  # find_package: the build tree's RPATH finds libecopt.so in the prefix (no LD_LIBRARY_PATH).
  out=$work/find_package-$kind
  use_static=OFF
  [ $kind = static ] && use_static=ON
  rm -rf "$out"
  if cmake -S "$examples" -B "$out" -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$prefix" \
       -DECOPT_USE_STATIC_LIBS=$use_static -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" >"$work/find_package-$kind.log" 2>&1 &&
     cmake --build "$out" >>"$work/find_package-$kind.log" 2>&1; then
    found=$(sed -n 's/^ecopt_DIR:PATH=//p' "$out/CMakeCache.txt")
    case "$found" in
    "$prefix"/*) ;;
    *) echo "FAIL find_package/$kind: found ecopt in $found, not in $prefix" >&2; failed=$((failed + 1)); continue ;;
    esac
    for p in x25519 ed25519 group; do run_checked "find_package/$kind" "$out/$p"; done
  else
    cat "$work/find_package-$kind.log" >&2
    echo "FAIL find_package/$kind: configure or build failed" >&2
    failed=$((failed + 1))
  fi
done

# add_subdirectory: ecopt's sources inside the examples' project.
if [ $subdir = 1 ]; then
  out=$work/add_subdirectory-static
  rm -rf "$out"
  if cmake -S "$examples" -B "$out" -DCMAKE_C_COMPILER="$cc" -DECOPT_SOURCE_DIR="$here" -DBUILD_SHARED_LIBS=OFF \
       >"$work/add_subdirectory.log" 2>&1 && cmake --build "$out" -j "$(nproc)" >>"$work/add_subdirectory.log" 2>&1; then
    if grep -E '^(GMP|CJSON|SODIUM|LIBELF|Z3)_[A-Z_]*:|^[Zz]ydis_DIR:' "$out/CMakeCache.txt" >&2; then
      echo "FAIL add_subdirectory/static: looked for the tools' or tests' packages (above)" >&2
      failed=$((failed + 1))
    elif [ "$(cd "$out" && ctest -N | sed -n 's/^Total Tests: //p')" != 0 ]; then
      echo "FAIL add_subdirectory/static: ecopt registered tests in the parent project" >&2
      failed=$((failed + 1))
    else
      for p in x25519 ed25519 group; do run_checked "add_subdirectory/static" "$out/$p"; done
    fi
  else
    cat "$work/add_subdirectory.log" >&2
    echo "FAIL add_subdirectory/static: configure or build failed" >&2
    failed=$((failed + 1))
  fi
fi

echo "check-examples: the examples against $prefix (ecopt $version):"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
