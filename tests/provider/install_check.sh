#!/usr/bin/env bash
# install_check.sh BUILD_DIR PREFIX OPENSSL — `cmake --install BUILD_DIR --prefix PREFIX` puts the provider module
# at PREFIX/<libdir>/ossl-modules/ecopt.so, and openssl loads it from there and derives with it alone (beside base).
set -euo pipefail
[ $# = 3 ] || { echo "usage: $0 BUILD_DIR PREFIX OPENSSL" >&2; exit 2; }
BUILD=$1 PREFIX=$2 OPENSSL=$3
rm -rf "$PREFIX"
cmake --install "$BUILD" --prefix "$PREFIX" >/dev/null
mods=$(find "$PREFIX" -path '*/ossl-modules/ecopt.so')
[ "$(printf '%s\n' "$mods" | grep -c .)" = 1 ] || { echo "FAIL: ecopt.so installed at: '$mods'" >&2; exit 1; }
case "$mods" in
    "$PREFIX"/lib*/ossl-modules/ecopt.so) ;;
    *) echo "FAIL: ecopt.so is not under PREFIX/<libdir>/ossl-modules: $mods" >&2; exit 1 ;;
esac
dir=$(dirname "$mods")
"$OPENSSL" list -providers -provider-path "$dir" -provider ecopt | grep -q '^  ecopt$' ||
    { echo "FAIL: openssl does not load the installed module" >&2; exit 1; }
cd "$PREFIX"
"$OPENSSL" genpkey -provider-path "$dir" -provider ecopt -provider base -algorithm X25519 -out a.pem 2>/dev/null
"$OPENSSL" genpkey -algorithm X25519 -out b.pem
"$OPENSSL" pkey -in b.pem -pubout -out b.pub
"$OPENSSL" pkey -in a.pem -pubout -out a.pub
"$OPENSSL" pkeyutl -provider-path "$dir" -provider ecopt -provider base -derive -inkey a.pem -peerkey b.pub -out s1
"$OPENSSL" pkeyutl -derive -inkey b.pem -peerkey a.pub -out s2
cmp -s s1 s2 || { echo "FAIL: the installed module derives another secret" >&2; exit 1; }
echo "install_check: $mods loads and derives"
