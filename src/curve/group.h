/* group.h — the edwards25519 point operations of the public group API (include/ecopt/edwards25519.h) on one
 * backend, over the public point type: each operation converts its inputs to the backend's extended coordinates
 * (ecopt_ge_from_public), runs the ge.h arithmetic and converts the result back (ecopt_ge_to_public). One table per
 * backend, reached as ecopt_backend.group (backend.h); src/edwards25519.c dispatches to it.
 *
 * Contracts: as the public function of the same name in include/ecopt/edwards25519.h (shapes, aliasing: every
 * output may equal any input; time: constant unless the name says _vartime), with these differences:
 *   decode, from_montgomery_u return 1 (a point) or 0 (not; r is then the identity) instead of a status code, the
 *   verdict already declassified (ecopt_ct_declassify); the dispatcher zeroes r and maps 0 to ECOPT_ERR_ENCODING.
 *   Predicates return 0 or 1. */
#ifndef ECOPT_CURVE_GROUP_H
#define ECOPT_CURVE_GROUP_H

#include <stdint.h>

struct ecopt_edwards25519_point;

typedef struct ecopt_group_ops {
    int (*decode)(struct ecopt_edwards25519_point *r, const uint8_t s[32], int zip215);
    void (*encode)(uint8_t s[32], const struct ecopt_edwards25519_point *p);
    void (*base)(struct ecopt_edwards25519_point *r);
    void (*add)(struct ecopt_edwards25519_point *r, const struct ecopt_edwards25519_point *p,
                const struct ecopt_edwards25519_point *q);
    void (*sub)(struct ecopt_edwards25519_point *r, const struct ecopt_edwards25519_point *p,
                const struct ecopt_edwards25519_point *q);
    void (*neg)(struct ecopt_edwards25519_point *r, const struct ecopt_edwards25519_point *p);
    void (*dbl)(struct ecopt_edwards25519_point *r, const struct ecopt_edwards25519_point *p);
    int (*equal)(const struct ecopt_edwards25519_point *p, const struct ecopt_edwards25519_point *q);
    int (*is_identity)(const struct ecopt_edwards25519_point *p);
    void (*scalarmult)(struct ecopt_edwards25519_point *r, const uint8_t s[32],
                       const struct ecopt_edwards25519_point *p);
    void (*scalarmult_base)(struct ecopt_edwards25519_point *r, const uint8_t s[32]);
    void (*double_scalarmult_vartime)(struct ecopt_edwards25519_point *r, const uint8_t a[32],
                                      const struct ecopt_edwards25519_point *p, const uint8_t b[32]);
    void (*mul_by_cofactor)(struct ecopt_edwards25519_point *r, const struct ecopt_edwards25519_point *p);
    int (*is_small_order)(const struct ecopt_edwards25519_point *p);
    int (*is_torsion_free)(const struct ecopt_edwards25519_point *p);
    void (*to_montgomery_u)(uint8_t u[32], const struct ecopt_edwards25519_point *p);
    int (*from_montgomery_u)(struct ecopt_edwards25519_point *r, const uint8_t u[32], uint64_t sign);
} ecopt_group_ops;

/* One per backend, defined in src/curve/group.c (ecopt_group_ops_table_u64, ...); named only where a backend is
 * being compiled (backend_ns.h, through field/fe.h, included first), so the dispatcher can use the type alone. */
#if defined(ECOPT_BE_SUFFIX)
#define ecopt_group_ops_table ECOPT_BE(ecopt_group_ops_table)
extern const ecopt_group_ops ecopt_group_ops_table;
#endif

#endif /* ECOPT_CURVE_GROUP_H */
