/* group_ops.h — the backend table's entries for ristretto255 (RFC 9496) and hash-to-curve (RFC 9380).
 *
 * Each backend compiles src/curve/ristretto.c and src/curve/h2c_map.c with its field arithmetic and fills one of
 * each struct below; src/backend.h points to them (fields ristretto and h2c), and the public functions of
 * src/proto/ristretto255.c and src/proto/h2c.c hand their whole operation to the chosen backend's entry. The entries
 * take and return the public point types (four canonical coordinates, backend-independent) and convert inside.
 * Alias: outputs may equal inputs. Time: constant in every argument (the decoding's verdict is public). */
#ifndef ECOPT_CURVE_GROUP_OPS_H
#define ECOPT_CURVE_GROUP_OPS_H

#include <stddef.h>
#include <stdint.h>

struct ecopt_edwards25519_point;
struct ecopt_ristretto255_point;

typedef struct ecopt_ristretto_ops {
    /* p = the element encoded by s (RFC 9496 section 4.3.1): 1 on success, 0 on any rejection (p = identity). */
    int (*decode)(struct ecopt_ristretto255_point *p, const uint8_t s[32]);
    /* s = the canonical encoding of p (section 4.3.2). */
    void (*encode)(uint8_t s[32], const struct ecopt_ristretto255_point *p);
    /* 1 when p and q are the same element (section 4.3.3), else 0. */
    int (*equal)(const struct ecopt_ristretto255_point *p, const struct ecopt_ristretto255_point *q);
    /* r = p + q, r = p - q, r = -p, r = the generator. */
    void (*add)(struct ecopt_ristretto255_point *r, const struct ecopt_ristretto255_point *p,
                const struct ecopt_ristretto255_point *q);
    void (*sub)(struct ecopt_ristretto255_point *r, const struct ecopt_ristretto255_point *p,
                const struct ecopt_ristretto255_point *q);
    void (*neg)(struct ecopt_ristretto255_point *r, const struct ecopt_ristretto255_point *p);
    void (*base)(struct ecopt_ristretto255_point *r);
    /* r = [s]p, s 32 bytes little-endian, s < 2^255 (the caller reduces it mod l). */
    void (*scalarmult)(struct ecopt_ristretto255_point *r, const struct ecopt_ristretto255_point *p,
                       const uint8_t s[32]);
    /* r = [s]G for any 32-byte s. */
    void (*scalarmult_base)(struct ecopt_ristretto255_point *r, const uint8_t s[32]);
    /* r = FROM_UNIFORM_BYTES(b) (section 4.3.4). */
    void (*from_uniform_bytes)(struct ecopt_ristretto255_point *r, const uint8_t b[64]);
} ecopt_ristretto_ops;

typedef struct ecopt_h2c_ops {
    /* p = clear_cofactor(map_to_curve(u_0) + ... + map_to_curve(u_(count-1))), u_i = OS2IP(uniform[48 i .. 48 i +
     * 48]) mod p (RFC 9380 section 5.2, L = 48), map_to_curve Elligator 2 and the rational map to edwards25519
     * (sections 6.7.1, 6.8.2), count 1 (encode_to_curve) or 2 (hash_to_curve), public. */
    void (*edwards25519)(struct ecopt_edwards25519_point *p, const uint8_t *uniform, size_t count);
    /* The same point on curve25519 in Montgomery form: u, and v unless v is NULL (the point at infinity: 0, 0). */
    void (*curve25519)(uint8_t u[32], uint8_t *v, const uint8_t *uniform, size_t count);
} ecopt_h2c_ops;

#endif /* ECOPT_CURVE_GROUP_OPS_H */
