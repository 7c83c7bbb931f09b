/* bench_group.c — the ristretto255 rows of `make bench` (bench.c calls bench_group once, after its own tables):
 * decode, encode, from_uniform_bytes, hash_to_group and a variable-base multiplication, every ecopt backend beside
 * libsodium's ristretto255 where it has the same operation, by bench.c's method (rounds of batches, interleaved in
 * a fresh random order each round, the median sample; rdtsc ticks, not core cycles). The backends are called
 * through their table entries (src/curve/group_ops.h), so one process measures all of them; the public functions
 * add one backend load to each. libsodium 1.0.18 has no encode alone and no hash with a DST: those rows have no
 * libsodium column, and its from_hash and scalarmult return encodings, so the ecopt rows they face include the
 * encode. */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "backend.h"
#include "curve/group_ops.h"
#include "ecopt/hash_to_curve.h"
#include "ecopt/ristretto255.h"

void bench_group(FILE *md, int rounds, int batch, double rate);

#define G_NIN 16
#define G_MAXIMPL 8
#define G_MAXROUNDS 1001

static uint8_t g_enc[G_NIN][32], g_uni[G_NIN][64], g_scal[G_NIN][32], g_msg[G_NIN][32];
static ecopt_ristretto255_point g_pts[G_NIN];
static const ecopt_backend *g_be;
static volatile uint8_t g_sink;
static const uint8_t g_dst[] = "ecopt-bench-V01-CS01-with-ristretto255_XMD:SHA-512_R255MAP_RO_";

static inline uint64_t g_ticks(void) {
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}

static void dec_ecopt(int i) {
    ecopt_ristretto255_point p;
    g_sink ^= (uint8_t)g_be->ristretto->decode(&p, g_enc[i]);
}
static void dec_sodium(int i) {
    g_sink ^= (uint8_t)crypto_core_ristretto255_is_valid_point(g_enc[i]);
}
static void enc_ecopt(int i) {
    uint8_t e[32];
    g_be->ristretto->encode(e, &g_pts[i]);
    g_sink ^= e[0];
}
static void uni_ecopt(int i) {
    ecopt_ristretto255_point p;
    uint8_t e[32];
    g_be->ristretto->from_uniform_bytes(&p, g_uni[i]);
    g_be->ristretto->encode(e, &p);
    g_sink ^= e[0];
}
static void uni_sodium(int i) {
    uint8_t e[32];
    crypto_core_ristretto255_from_hash(e, g_uni[i]);
    g_sink ^= e[0];
}
static void h2g_ecopt(int i) {
    uint8_t u[64];
    ecopt_ristretto255_point p;
    if (ecopt_expand_message_xmd_sha512(u, 64, g_msg[i], 32, g_dst, sizeof g_dst - 1) != ECOPT_OK) abort();
    g_be->ristretto->from_uniform_bytes(&p, u);
    g_sink ^= p.opaque[0];
}
static void mul_ecopt(int i) {
    ecopt_ristretto255_point p;
    uint8_t e[32];
    if (!g_be->ristretto->decode(&p, g_enc[i])) abort();
    g_be->ristretto->scalarmult(&p, &p, g_scal[i]);
    g_be->ristretto->encode(e, &p);
    g_sink ^= e[0];
}
static void mul_sodium(int i) {
    uint8_t e[32];
    if (crypto_scalarmult_ristretto255(e, g_scal[i], g_enc[i]) != 0) abort();
    g_sink ^= e[0];
}

static int g_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_group(FILE *md, int rounds, int batch, double rate) {
    static const struct {
        const char *name;
        void (*ecopt_fn)(int), (*sodium_fn)(int);
    } rows[] = {
        {"ristretto255 decode", dec_ecopt, dec_sodium},
        {"ristretto255 encode", enc_ecopt, NULL},
        {"ristretto255 from_uniform_bytes + encode", uni_ecopt, uni_sodium},
        {"ristretto255 hash_to_group (32 B, SHA-512 XMD)", h2g_ecopt, NULL},
        {"ristretto255 decode + scalarmult + encode", mul_ecopt, mul_sodium},
    };
    struct {
        char name[32];
        const ecopt_backend *be;
        void (*fn)(int);
    } im[G_MAXIMPL];
    static double samples[G_MAXIMPL][G_MAXROUNDS];
    size_t nbe, n = 0;
    const ecopt_backend *const *bes = ecopt_backend_all(&nbe);
    if (rounds > G_MAXROUNDS) rounds = G_MAXROUNDS;

    randombytes_buf(g_uni, sizeof g_uni);
    randombytes_buf(g_msg, sizeof g_msg);
    for (int i = 0; i < G_NIN; i++) {
        uint8_t wide[64];
        randombytes_buf(wide, 64);
        crypto_core_ristretto255_scalar_reduce(g_scal[i], wide);
        crypto_core_ristretto255_from_hash(g_enc[i], g_uni[i]);
        if (ecopt_ristretto255_decode(&g_pts[i], g_enc[i]) != ECOPT_OK) abort();
    }

    printf("\n%-48s %-14s %12s %12s %10s %8s\n", "ristretto255", "impl", "ticks", "ops/s", "vs sodium", "spread");
    fprintf(md, "\n## ristretto255\n\nAs above: median ticks per operation, every ecopt backend through its table entry "
                "and libsodium %s where it has the operation.\n\n"
                "| operation | implementation | median ticks | ops/s | ratio vs libsodium | spread |\n"
                "|---|---|---:|---:|---:|---:|\n",
            sodium_version_string());
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        n = 0;
        for (size_t b = 0; b < nbe && n < G_MAXIMPL - 1; b++)
            if (bes[b]->available()) {
                snprintf(im[n].name, sizeof im[n].name, "ecopt-%s", bes[b]->name);
                im[n].be = bes[b];
                im[n++].fn = rows[r].ecopt_fn;
            }
        size_t n_ecopt = n;
        if (rows[r].sodium_fn) {
            snprintf(im[n].name, sizeof im[n].name, "libsodium");
            im[n].be = NULL;
            im[n++].fn = rows[r].sodium_fn;
        }
        for (size_t k = 0; k < n; k++) {
            g_be = im[k].be;
            for (int w = 0; w < batch; w++) im[k].fn(w % G_NIN); /* warm up */
        }
        for (int rd = 0; rd < rounds; rd++) {
            size_t order[G_MAXIMPL];
            for (size_t k = 0; k < n; k++) order[k] = k;
            for (size_t k = n; k > 1; k--) {
                size_t j = randombytes_uniform((uint32_t)k), t = order[k - 1];
                order[k - 1] = order[j];
                order[j] = t;
            }
            for (size_t k = 0; k < n; k++) {
                g_be = im[order[k]].be;
                uint64_t t0 = g_ticks();
                for (int c = 0; c < batch; c++) im[order[k]].fn((rd * batch + c) % G_NIN);
                uint64_t t1 = g_ticks();
                samples[order[k]][rd] = (double)(t1 - t0) / batch;
            }
        }
        double med[G_MAXIMPL], spread[G_MAXIMPL];
        for (size_t k = 0; k < n; k++) {
            double s[G_MAXROUNDS];
            memcpy(s, samples[k], sizeof(double) * (size_t)rounds);
            qsort(s, (size_t)rounds, sizeof s[0], g_cmp);
            med[k] = s[rounds / 2];
            spread[k] = (s[(3 * rounds) / 4] - s[rounds / 4]) / med[k];
        }
        for (size_t k = 0; k < n; k++) {
            char ratio[16] = "-";
            if (n > n_ecopt) snprintf(ratio, sizeof ratio, "%.2f", med[k] / med[n_ecopt]);
            printf("%-48s %-14s %12.0f %12.0f %10s %8.3f\n", k ? "" : rows[r].name, im[k].name, med[k],
                   rate / med[k], ratio, spread[k]);
            fprintf(md, "| %s | %s | %.0f | %.0f | %s | %.3f |\n", rows[r].name, im[k].name, med[k], rate / med[k],
                    ratio, spread[k]);
        }
    }
}
