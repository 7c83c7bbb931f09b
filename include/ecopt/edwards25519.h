/* edwards25519.h — the group API of libecopt: points of edwards25519 and scalars mod l.
 *
 * edwards25519 is the twisted Edwards curve -x^2 + y^2 = 1 + d x^2 y^2 over GF(2^255 - 19), d = -121665/121666, of
 * order 8 l, l = 2^252 + 27742317777372353535851937790883648493 (RFC 8032 section 5.1; RFC 7748 section 4.1).
 * The conventions of ecopt.h hold here (outputs first, return codes, zeroed outputs on error, no heap, constant
 * time unless a name says _vartime, thread safety). */
#ifndef ECOPT_EDWARDS25519_H
#define ECOPT_EDWARDS25519_H

#include "ecopt/ecopt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ecopt_edwards25519_point — a point of edwards25519 (any point of the curve: small-order and mixed-order points
 * included), caller-allocated, fixed size (128 bytes), copyable with memcpy or assignment.
 * The contents are private: extended coordinates (X : Y : Z : T) (Hisil, Wong, Carter, Dawson, ASIACRYPT 2008),
 * each a canonical field element, independent of the backend in use, so a point stays valid across
 * ecopt_backend_select. Only values written by this library's functions are points; any other contents give
 * unspecified (but memory-safe) results. */
typedef struct ecopt_edwards25519_point {
    uint8_t opaque[128];
} ecopt_edwards25519_point;

#define ECOPT_EDWARDS25519_BYTES 32u       /* an encoded point (RFC 8032 section 5.1.2) */
#define ECOPT_EDWARDS25519_SCALARBYTES 32u /* a scalar mod l, canonical little-endian */

#ifdef __cplusplus
}
#endif

#endif /* ECOPT_EDWARDS25519_H */
