/* bench.c — `make bench`: median rdtsc ticks per operation for every ecopt backend, libsodium and OpenSSL, side by
 * side in one process, interleaved in random order, pinned to one core. Not a test: nothing here asserts a speed.
 *
 * Method (DESIGN.md, "Measuring on these machines"): for each operation, ROUNDS rounds; in each round every
 * implementation runs one batch of BATCH calls, in a freshly shuffled order; a batch's ticks / BATCH is one sample;
 * the report is the median sample. Ticks come from rdtsc between lfences; they are not core cycles (the TSC runs
 * at a fixed rate, measured here against CLOCK_MONOTONIC to give operations per second).
 *
 * A second table compares the u64 backend's hand-written multiply and square with the ones `ecopt gen` generated
 * and, where the CPU has BMI2 and ADX, the adx and adx51 backends' from `ecopt opt`, as chains of
 * BENCH_FE_CHAIN dependent operations, interleaved the same way.
 *
 * Disturbance (a shared or busy CPU: the medians then measure the other processes too, silently): each section of
 * the run (one per operation, one for the field table) is timed by the wall clock (CLOCK_MONOTONIC) and by this
 * process's CPU time (getrusage(RUSAGE_SELF) user + system), with its involuntary context switches (ru_nivcsw), and
 * each row gets a spread, the interquartile range of its samples / their median. The rule: a section is DISTURBED
 * when its wall time exceeds WALL_CPU_MAX (1.25) x its CPU time and by more than WALL_SLACK_S (5 ms): pinned to one
 * CPU and never blocking, the process waited for the CPU that long; a row is DISTURBED when its section is, or when
 * its spread exceeds SPREAD_MAX (0.10) with at least SPREAD_MIN_ROUNDS (5) rounds (quartiles of fewer samples mean
 * nothing). Any disturbed row gives one `warning:` line on stdout and in bench.md naming the rows; the exit status
 * stays 0 (a benchmark, not a test). bench.md's tables carry the spread as their last column.
 *
 * OpenSSL appears twice where the provider module was built (BENCH_PROVIDER_DIR, the build tree's ossl-modules/):
 * "OpenSSL" is its default provider, "OpenSSL+ecopt" the same EVP calls in a library context that loads ecopt.so
 * beside it, every fetch with "provider=ecopt" (checked once at setup); a line after the table gives their ratios.
 *
 * Usage: ecopt_bench [--rounds N] [--batch N] [--cpu N] [--out DIR]   (--help: the text of usage() below)
 * Writes DIR/bench.md (markdown table), DIR/bench.dat and, when gnuplot is installed, DIR/bench.png (DIR: default
 * the current directory; make bench gives build/<cc>/bench-results); DIR must be an existing writable directory,
 * checked before anything is measured. Exit: 0; 2 bad usage (an option or its value, --cpu not a CPU of this
 * machine, --out not an existing writable directory); 3 the environment failed (a CPU that exists but this process
 * may not run on, a library call, writing the results). ecopt_bench_asm uses the same codes (its 1, a failed
 * measurement, has no counterpart here). */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <sched.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "backend.h"
#include "bench_fe.h"
#include "bench_s2n.h"
#include "tick_cal.h"
#include "ecopt/ecopt.h"
#include "ecopt/msm.h"
#include "proto/ed25519_internal.h"

#define NIN 16  /* distinct inputs, cycled */
#define MAXIMPL 12
#define MAXROUNDS 1001
#define WALL_CPU_MAX 1.25   /* a section whose wall time exceeds this x its CPU time was preempted ... */
#define WALL_SLACK_S 0.005  /* ... and by more than this (s): the clocks' granularity on a short section */
#define SPREAD_MAX 0.10     /* a row whose (Q3 - Q1) / median exceeds this is disturbed ... */
#define SPREAD_MIN_ROUNDS 5 /* ... when it has at least this many rounds */

static uint8_t scal[NIN][32], upt[NIN][32], seeds[NIN][32], msg[NIN][64], sigs[NIN][64], pubs[NIN][32];
static ecopt_ed25519_secretkey sks[NIN];
static unsigned char sodium_sk[NIN][64];
static EVP_PKEY *ossl_x[NIN], *ossl_xpeer[NIN], *ossl_ed[NIN], *ossl_edpub[NIN];
static EVP_PKEY_CTX *ossl_derive[NIN];
static EVP_MD_CTX *ossl_md;
/* OpenSSL through the ecopt provider (osp_): its own library context, keys and contexts */
#define OSP_PROPQ "provider=ecopt"
static OSSL_LIB_CTX *osp_lctx;
static OSSL_PROVIDER *osp_prov[2]; /* ecopt, default: unloaded before osp_lctx is freed */
static EVP_PKEY *osp_x[NIN], *osp_xpeer[NIN], *osp_ed[NIN], *osp_edpub[NIN];
static EVP_PKEY_CTX *osp_derive[NIN];
static EVP_MD_CTX *osp_md;
static char osp_what[300] = "OpenSSL+ecopt: the provider module was not built (no rows)";
static volatile uint8_t sink;
static const ecopt_backend *be_cur;

static void die(const char *what) {
    fprintf(stderr, "ecopt_bench: %s\n", what);
    exit(3);
}


/* ---- the operations, one call each; i selects the input ---------------------------------------------------------- */
static void x_ecopt(int i) {
    uint8_t out[32];
    if (be_cur->x25519(out, scal[i], upt[i]) != ECOPT_OK) die("ecopt x25519 failed");
    sink ^= out[0];
}
static void x_sodium(int i) {
    uint8_t out[32];
    if (crypto_scalarmult(out, scal[i], upt[i]) != 0) die("libsodium x25519 failed");
    sink ^= out[0];
}
static void x_ossl(int i) {
    uint8_t out[32];
    size_t n = 32;
    if (EVP_PKEY_derive(ossl_derive[i], out, &n) != 1) die("OpenSSL derive failed");
    sink ^= out[0];
}
static void xb_ecopt(int i) {
    uint8_t out[32];
    be_cur->x25519_base(out, scal[i]);
    sink ^= out[0];
}
static void xb_sodium(int i) {
    uint8_t out[32];
    if (crypto_scalarmult_base(out, scal[i]) != 0) die("libsodium x25519 base failed");
    sink ^= out[0];
}
static void xb_ossl(int i) {
    uint8_t out[32];
    size_t n = 32;
    EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, scal[i], 32);
    if (!k || EVP_PKEY_get_raw_public_key(k, out, &n) != 1) die("OpenSSL X25519 key failed");
    EVP_PKEY_free(k);
    sink ^= out[0];
}
static void kg_ecopt(int i) {
    ecopt_ed25519_secretkey sk;
    uint8_t pub[32];
    if (ecopt_ed25519_keypair_from_seed_be(be_cur, &sk, pub, seeds[i]) != ECOPT_OK) die("ecopt keygen failed");
    sink ^= pub[0];
}
static void kg_sodium(int i) {
    unsigned char pk[32], sk[64];
    crypto_sign_seed_keypair(pk, sk, seeds[i]);
    sink ^= pk[0];
}
static void kg_ossl(int i) {
    uint8_t out[32];
    size_t n = 32;
    EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seeds[i], 32);
    if (!k || EVP_PKEY_get_raw_public_key(k, out, &n) != 1) die("OpenSSL Ed25519 key failed");
    EVP_PKEY_free(k);
    sink ^= out[0];
}
static void sg_ecopt(int i) {
    uint8_t sig[64];
    if (ecopt_ed25519_sign_be(be_cur, sig, ED_PURE, msg[i], 64, NULL, 0, &sks[i]) != ECOPT_OK) die("ecopt sign");
    sink ^= sig[0];
}
static void sg_sodium(int i) {
    uint8_t sig[64];
    crypto_sign_detached(sig, NULL, msg[i], 64, sodium_sk[i]);
    sink ^= sig[0];
}
static void sg_ossl(int i) {
    uint8_t sig[64];
    size_t n = 64;
    EVP_MD_CTX_reset(ossl_md); /* a one-shot Ed25519 context is not reusable without a reset */
    if (EVP_DigestSignInit(ossl_md, NULL, NULL, NULL, ossl_ed[i]) != 1 ||
        EVP_DigestSign(ossl_md, sig, &n, msg[i], 64) != 1)
        die("OpenSSL sign failed");
    sink ^= sig[0];
}
static void vf_ecopt(int i) {
    if (ecopt_ed25519_verify_be(be_cur, sigs[i], ED_PURE, msg[i], 64, NULL, 0, pubs[i], ECOPT_POLICY_STRICT) !=
        ECOPT_OK)
        die("ecopt verify rejected a valid signature");
}
static void vf_sodium(int i) {
    if (crypto_sign_verify_detached(sigs[i], msg[i], 64, pubs[i]) != 0) die("libsodium verify rejected");
}
static void vf_ossl(int i) {
    EVP_MD_CTX_reset(ossl_md);
    if (EVP_DigestVerifyInit(ossl_md, NULL, NULL, NULL, ossl_edpub[i]) != 1 ||
        EVP_DigestVerify(ossl_md, sigs[i], 64, msg[i], 64) != 1)
        die("OpenSSL verify rejected");
}

/* The same EVP calls as the x_ossl ... vf_ossl above, in the library context that loaded the ecopt provider. */
static void x_osp(int i) {
    uint8_t out[32];
    size_t n = 32;
    if (EVP_PKEY_derive(osp_derive[i], out, &n) != 1) die("OpenSSL+ecopt derive failed");
    sink ^= out[0];
}
static void xb_osp(int i) {
    uint8_t out[32];
    size_t n = 32;
    EVP_PKEY *k = EVP_PKEY_new_raw_private_key_ex(osp_lctx, "X25519", OSP_PROPQ, scal[i], 32);
    if (!k || EVP_PKEY_get_raw_public_key(k, out, &n) != 1) die("OpenSSL+ecopt X25519 key failed");
    EVP_PKEY_free(k);
    sink ^= out[0];
}
static void kg_osp(int i) {
    uint8_t out[32];
    size_t n = 32;
    EVP_PKEY *k = EVP_PKEY_new_raw_private_key_ex(osp_lctx, "ED25519", OSP_PROPQ, seeds[i], 32);
    if (!k || EVP_PKEY_get_raw_public_key(k, out, &n) != 1) die("OpenSSL+ecopt Ed25519 key failed");
    EVP_PKEY_free(k);
    sink ^= out[0];
}
static void sg_osp(int i) {
    uint8_t sig[64];
    size_t n = 64;
    EVP_MD_CTX_reset(osp_md);
    if (EVP_DigestSignInit_ex(osp_md, NULL, NULL, osp_lctx, OSP_PROPQ, osp_ed[i], NULL) != 1 ||
        EVP_DigestSign(osp_md, sig, &n, msg[i], 64) != 1)
        die("OpenSSL+ecopt sign failed");
    sink ^= sig[0];
}
static void vf_osp(int i) {
    EVP_MD_CTX_reset(osp_md);
    if (EVP_DigestVerifyInit_ex(osp_md, NULL, NULL, osp_lctx, OSP_PROPQ, osp_edpub[i], NULL) != 1 ||
        EVP_DigestVerify(osp_md, sigs[i], 64, msg[i], 64) != 1)
        die("OpenSSL+ecopt verify rejected");
}

static void x_s2n(int i) {
    uint8_t out[32];
    if (bench_s2n_x25519(out, scal[i], upt[i]) != 0) die("s2n-bignum x25519 failed");
    sink ^= out[0];
}
static void xb_s2n(int i) {
    uint8_t out[32];
    bench_s2n_x25519_base(out, scal[i]);
    sink ^= out[0];
}
static void kg_s2n(int i) {
    uint8_t pub[32];
    bench_s2n_ed25519_keypair(pub, seeds[i]);
    sink ^= pub[0];
}
static void sg_s2n(int i) {
    uint8_t sig[64];
    if (bench_s2n_ed25519_sign(sig, msg[i], 64, sodium_sk[i]) != 0) die("s2n-bignum sign failed");
    sink ^= sig[0];
}
static void vf_s2n(int i) {
    if (bench_s2n_ed25519_verify(sigs[i], msg[i], 64, pubs[i]) != 0) die("s2n-bignum verify rejected");
}
/* the same over s2n-bignum's _alt routines (no MULX/ADX), the peer of ecopt's x64 backend */
static void x_s2n_alt(int i) {
    uint8_t out[32];
    if (bench_s2n_alt_x25519(out, scal[i], upt[i]) != 0) die("s2n-bignum alt x25519 failed");
    sink ^= out[0];
}
static void xb_s2n_alt(int i) {
    uint8_t out[32];
    bench_s2n_alt_x25519_base(out, scal[i]);
    sink ^= out[0];
}
static void kg_s2n_alt(int i) {
    uint8_t pub[32];
    bench_s2n_alt_ed25519_keypair(pub, seeds[i]);
    sink ^= pub[0];
}
static void sg_s2n_alt(int i) {
    uint8_t sig[64];
    if (bench_s2n_alt_ed25519_sign(sig, msg[i], 64, sodium_sk[i]) != 0) die("s2n-bignum alt sign failed");
    sink ^= sig[0];
}
static void vf_s2n_alt(int i) {
    if (bench_s2n_alt_ed25519_verify(sigs[i], msg[i], 64, pubs[i]) != 0) die("s2n-bignum alt verify rejected");
}

typedef struct {
    char name[32];
    void (*fn)(int);
    const ecopt_backend *be;
} impl;

typedef struct {
    const char *name;
    void (*ecopt_fn)(int), (*sodium_fn)(int), (*ossl_fn)(int), (*osp_fn)(int), (*s2n_fn)(int), (*s2n_alt_fn)(int);
} operation;

static const operation ops[] = {
    {"X25519 (variable base)", x_ecopt, x_sodium, x_ossl, x_osp, x_s2n, x_s2n_alt},
    {"X25519 base point", xb_ecopt, xb_sodium, xb_ossl, xb_osp, xb_s2n, xb_s2n_alt},
    {"Ed25519 key generation", kg_ecopt, kg_sodium, kg_ossl, kg_osp, kg_s2n, kg_s2n_alt},
    {"Ed25519 sign (64 B)", sg_ecopt, sg_sodium, sg_ossl, sg_osp, sg_s2n, sg_s2n_alt},
    {"Ed25519 verify (64 B)", vf_ecopt, vf_sodium, vf_ossl, vf_osp, vf_s2n, vf_s2n_alt},
};
#define NOPS (sizeof ops / sizeof ops[0])

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* order = 0..n-1 in a fresh random order (Fisher-Yates with libsodium's RNG): each round runs the
 * implementations in a new order. */
static void shuffled_order(int *order, size_t n) {
    for (size_t k = 0; k < n; k++) order[k] = (int)k;
    for (size_t k = n - 1; k > 0; k--) {
        size_t j = randombytes_uniform((uint32_t)(k + 1));
        int t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
}

/* The median of n samples (sorts them) and their spread, the interquartile range / the median (quartiles as the
 * samples at n/4 and 3n/4 of the sorted list). */
static double median(double *x, int n, double *spread) {
    qsort(x, (size_t)n, sizeof(double), cmp_double);
    double m = x[n / 2];
    *spread = m > 0 ? (x[(3 * n) / 4] - x[n / 4]) / m : 0;
    return m;
}

/* ---- disturbance: wall clock vs CPU time and involuntary switches, per section -------------------------------- */
typedef struct {
    double wall, cpu; /* s */
    long nivcsw;
} usage_mark;

static void usage_now(usage_mark *m) {
    struct rusage ru;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (getrusage(RUSAGE_SELF, &ru) != 0) die("getrusage failed");
    m->wall = (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
    m->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
             (double)ru.ru_stime.tv_usec * 1e-6;
    m->nivcsw = ru.ru_nivcsw;
}

/* *d = now - *start */
static void usage_since(const usage_mark *start, usage_mark *d) {
    usage_mark now;
    usage_now(&now);
    d->wall = now.wall - start->wall;
    d->cpu = now.cpu - start->cpu;
    d->nivcsw = now.nivcsw - start->nivcsw;
}

static int section_disturbed(const usage_mark *d) {
    return d->wall > WALL_CPU_MAX * d->cpu && d->wall - d->cpu > WALL_SLACK_S;
}

static int row_disturbed(const usage_mark *section, double spread, int rounds) {
    return section_disturbed(section) || (rounds >= SPREAD_MIN_ROUNDS && spread > SPREAD_MAX);
}

/* appends "; " (unless first) and a printf text to the warning w (cap bytes, truncated with "...") */
static void warn_add(char *w, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void warn_add(char *w, size_t cap, const char *fmt, ...) {
    size_t l = strlen(w);
    if (l + 8 >= cap) return;
    if (l) l += (size_t)snprintf(w + l, cap - l, "; ");
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(w + l, cap - l, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= cap - l) strcpy(w + cap - 4, "...");
}

/* ---- multiscalar multiplication and batch verification, per backend (a section of its own) -----------------------
 * MSM: median ticks per point of msm_vartime at n = 16, 64, 256, 1024 (random 253-bit scalars, points [r]B), next
 * to one variable-base multiplication: msm_ct with n = 1 (the constant-time fixed window, what a caller without
 * msm would run per point) and msm_vartime with n = 1 (a single wNAF multiplication). Batch: median ticks per
 * signature of ecopt_ed25519_verify_batch at n = 8, 64, 256 (valid signatures of 64-byte messages, STRICT) next to
 * ecopt_ed25519_verify_be on the same items; each round runs both, in random order. */
#define GRP_MAXN 1024
static ecopt_edwards25519_point grp_base;

/* grp_base = B as the public point type: X = x, Y = y, Z = 1, T = x y mod p, little-endian (OpenSSL's BN for the
 * product). */
static void grp_base_init(void) {
    BIGNUM *x = NULL, *y = NULL, *p = BN_new(), *t = BN_new();
    BN_CTX *ctx = BN_CTX_new();
    if (!p || !t || !ctx ||
        !BN_dec2bn(&x, "15112221349535400772501151409588531511454012693041857206046113283949847762202") ||
        !BN_dec2bn(&y, "46316835694926478169428394003475163141307993866256225615783033603165251855960") ||
        !BN_set_bit(p, 255) || !BN_sub_word(p, 19) || !BN_mod_mul(t, x, y, p, ctx))
        die("OpenSSL BN failed");
    memset(&grp_base, 0, sizeof grp_base);
    BN_bn2lebinpad(x, grp_base.opaque, 32);
    BN_bn2lebinpad(y, grp_base.opaque + 32, 32);
    grp_base.opaque[64] = 1;
    BN_bn2lebinpad(t, grp_base.opaque + 96, 32);
    BN_free(x), BN_free(y), BN_free(p), BN_free(t), BN_CTX_free(ctx);
}
static void group_section(int rounds, FILE *md) {
    static uint8_t sc[GRP_MAXN * 32], gsigs[256 * 64], gpubs[256 * 32], gmsg[256][64];
    static ecopt_edwards25519_point pts[GRP_MAXN];
    static const uint8_t *gmsgs[256];
    static size_t glens[256];
    static int res[256];
    static double sa[MAXROUNDS], sb[MAXROUNDS];
    size_t nbe, scratch_len = ecopt_edwards25519_msm_scratch_size(GRP_MAXN);
    uint8_t *scratch = malloc(scratch_len);
    if (!scratch) die("out of memory");
    grp_base_init();
    randombytes_buf(sc, sizeof sc);
    for (int i = 0; i < GRP_MAXN; i++) sc[32 * i + 31] &= 0x0f;
    const ecopt_backend *const *bes = ecopt_backend_all(&nbe);
    const ecopt_backend *def = ecopt_backend_get();
    fprintf(md, "\n## Multiscalar multiplication and batch verification\n\nMedian ticks (%d rounds). MSM: per point, "
                "random 253-bit scalars; the ratio is against one constant-time variable-base multiplication "
                "(msm_ct, n = 1). Batch: per signature, valid signatures of 64-byte messages (STRICT); the ratio is "
                "against single verification on the same items, interleaved.\n\n"
                "| backend | operation | n | ticks | ratio | spread |\n|---|---|---:|---:|---:|---:|\n",
            rounds);
    printf("\n%-8s %-34s %6s %12s %8s %8s\n", "backend", "group operation", "n", "ticks", "ratio", "spread");
    for (size_t b = 0; b < nbe; b++) {
        const ecopt_backend *be = bes[b];
        if (!be->available()) continue;
        double sp, ct1, vt1;
        /* points [r_i] B, from the base point's coordinates (RFC 8032 section 5.1) in the public type */
        for (int i = 0; i < GRP_MAXN; i++) be->msm_ct(&pts[i], sc + 32 * ((i * 7 + 3) % GRP_MAXN), &grp_base, 1);
        for (int r = 0; r < rounds; r++) {
            uint64_t t0 = ticks();
            be->msm_ct(&pts[0], sc, &pts[1], 1);
            uint64_t t1 = ticks();
            if (be->msm_vartime(&pts[2], sc + 32, &pts[3], 1, scratch, scratch_len, 0) != ECOPT_OK) die("msm failed");
            uint64_t t2 = ticks();
            sa[r] = (double)(t1 - t0);
            sb[r] = (double)(t2 - t1);
        }
        ct1 = median(sa, rounds, &sp);
        printf("%-8s %-34s %6d %12.0f %8.3f %8.3f\n", be->name, "variable-base mult (msm_ct, n = 1)", 1, ct1, 1.0, sp);
        fprintf(md, "| %s | variable-base multiplication (msm_ct, n = 1) | 1 | %.0f | 1.000 | %.3f |\n", be->name,
                ct1, sp);
        vt1 = median(sb, rounds, &sp);
        printf("%-8s %-34s %6d %12.0f %8.3f %8.3f\n", be->name, "vartime mult (msm_vartime, n = 1)", 1, vt1,
               vt1 / ct1, sp);
        fprintf(md, "| %s | msm_vartime, n = 1 | 1 | %.0f | %.3f | %.3f |\n", be->name, vt1, vt1 / ct1, sp);
        static const int msm_n[4] = {16, 64, 256, 1024};
        for (int k = 0; k < 4; k++) {
            for (int r = 0; r < rounds; r++) {
                uint64_t t0 = ticks();
                if (be->msm_vartime(&pts[0], sc, pts, (size_t)msm_n[k], scratch, scratch_len, 0) != ECOPT_OK)
                    die("msm failed");
                sa[r] = (double)(ticks() - t0) / msm_n[k];
            }
            double m = median(sa, rounds, &sp);
            printf("%-8s %-34s %6d %12.0f %8.3f %8.3f\n", be->name, "MSM per point", msm_n[k], m, m / ct1, sp);
            fprintf(md, "| %s | MSM per point | %d | %.0f | %.3f | %.3f |\n", be->name, msm_n[k], m, m / ct1, sp);
        }
        if (ecopt_backend_select(be->name) != ECOPT_OK) die("backend select failed");
        for (int i = 0; i < 256; i++) {
            gmsgs[i] = gmsg[i];
            glens[i] = 64;
            memcpy(gsigs + 64 * i, sigs[i % NIN], 64);
            memcpy(gpubs + 32 * i, pubs[i % NIN], 32);
            memcpy(gmsg[i], msg[i % NIN], 64);
        }
        static const int bat_n[3] = {8, 64, 256};
        for (int k = 0; k < 3; k++) {
            int n = bat_n[k];
            for (int r = 0; r < rounds; r++) {
                int first = (int)randombytes_uniform(2);
                for (int pass = 0; pass < 2; pass++) {
                    uint64_t t0 = ticks();
                    if ((pass ^ first) == 0) {
                        for (int i = 0; i < n; i++)
                            if (ecopt_ed25519_verify_be(be, gsigs + 64 * i, ED_PURE, gmsgs[i], 64, NULL, 0,
                                                        gpubs + 32 * i, ECOPT_POLICY_STRICT) != ECOPT_OK)
                                die("verify rejected a valid signature");
                        sa[r] = (double)(ticks() - t0) / n;
                    } else {
                        if (ecopt_ed25519_verify_batch(res, gsigs, gmsgs, glens, gpubs, (size_t)n,
                                                       ECOPT_VERIFY_STRICT) != ECOPT_OK)
                            die("batch verification rejected valid signatures");
                        sb[r] = (double)(ticks() - t0) / n;
                    }
                }
            }
            double ms = median(sa, rounds, &sp), mb = median(sb, rounds, &sp);
            printf("%-8s %-34s %6d %12.0f %8.3f %8s\n", be->name, "single verify per signature", n, ms, 1.0, "");
            printf("%-8s %-34s %6d %12.0f %8.3f %8.3f\n", be->name, "batch verify per signature", n, mb, mb / ms, sp);
            fprintf(md, "| %s | single verify per signature | %d | %.0f | 1.000 | |\n", be->name, n, ms);
            fprintf(md, "| %s | batch verify per signature | %d | %.0f | %.3f | %.3f |\n", be->name, n, mb,
                    mb / ms, sp);
        }
    }
    if (ecopt_backend_select(def->name) != ECOPT_OK) die("backend select failed");
    free(scratch);
}

static double tick_rate(void) {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    uint64_t t0 = ticks();
    do clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec) < 2e8);
    uint64_t t1 = ticks();
    return (double)(t1 - t0) / ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9);
}


/* s2n-bignum's results against ecopt's on the inputs measured (its ops compute the same functions): a peer that
 * computed something else would be timed for nothing */
static void s2n_check(int alt) {
    int (*x25519)(uint8_t *, const uint8_t *, const uint8_t *) = alt ? bench_s2n_alt_x25519 : bench_s2n_x25519;
    void (*x25519_base)(uint8_t *, const uint8_t *) = alt ? bench_s2n_alt_x25519_base : bench_s2n_x25519_base;
    void (*keypair)(uint8_t *, const uint8_t *) = alt ? bench_s2n_alt_ed25519_keypair : bench_s2n_ed25519_keypair;
    int (*sign)(uint8_t *, const uint8_t *, size_t, const uint8_t *) =
        alt ? bench_s2n_alt_ed25519_sign : bench_s2n_ed25519_sign;
    int (*verify)(const uint8_t *, const uint8_t *, size_t, const uint8_t *) =
        alt ? bench_s2n_alt_ed25519_verify : bench_s2n_ed25519_verify;
    for (int i = 0; i < NIN; i++) {
        uint8_t a[32], b[32], sig[64];
        if (x25519(a, scal[i], upt[i]) != 0 || ecopt_x25519(b, scal[i], upt[i]) != ECOPT_OK ||
            memcmp(a, b, 32) != 0)
            die("s2n-bignum's X25519 differs from ecopt's");
        x25519_base(a, scal[i]);
        if (ecopt_x25519_base(b, scal[i]) != ECOPT_OK || memcmp(a, b, 32) != 0)
            die("s2n-bignum's X25519 base point differs from ecopt's");
        keypair(a, seeds[i]);
        if (memcmp(a, pubs[i], 32) != 0) die("s2n-bignum's Ed25519 public key differs from ecopt's");
        if (sign(sig, msg[i], 64, sodium_sk[i]) != 0 || memcmp(sig, sigs[i], 64) != 0)
            die("s2n-bignum's Ed25519 signature differs from ecopt's");
        if (verify(sigs[i], msg[i], 64, pubs[i]) != 0)
            die("s2n-bignum's Ed25519 verification rejects ecopt's signature");
        memcpy(sig, sigs[i], 64);
        sig[5] ^= 4;
        if (verify(sig, msg[i], 64, pubs[i]) == 0)
            die("s2n-bignum's Ed25519 verification accepts a changed signature");
    }
}

/* osp_setup — load the ecopt provider (and the default one, for what ecopt lacks) into a library context of its own
 * and make the keys and derive contexts there; each one is checked to live in ecopt. Returns 1, or 0 when the
 * module is not there (osp_what says why: the OpenSSL+ecopt rows are then left out). */
static int osp_setup(void) {
#if defined(BENCH_PROVIDER_DIR)
    osp_lctx = OSSL_LIB_CTX_new();
    if (!osp_lctx || !OSSL_PROVIDER_set_default_search_path(osp_lctx, BENCH_PROVIDER_DIR) ||
        !(osp_prov[0] = OSSL_PROVIDER_load(osp_lctx, "ecopt")) ||
        !(osp_prov[1] = OSSL_PROVIDER_load(osp_lctx, "default"))) {
        snprintf(osp_what, sizeof osp_what, "OpenSSL+ecopt: cannot load ecopt.so from %s (no rows)", BENCH_PROVIDER_DIR);
        return 0;
    }
    osp_md = EVP_MD_CTX_new();
    if (!osp_md) die("EVP_MD_CTX_new failed");
    for (int i = 0; i < NIN; i++) {
        osp_x[i] = EVP_PKEY_new_raw_private_key_ex(osp_lctx, "X25519", OSP_PROPQ, scal[i], 32);
        osp_xpeer[i] = EVP_PKEY_new_raw_public_key_ex(osp_lctx, "X25519", OSP_PROPQ, upt[i], 32);
        osp_ed[i] = EVP_PKEY_new_raw_private_key_ex(osp_lctx, "ED25519", OSP_PROPQ, seeds[i], 32);
        osp_edpub[i] = EVP_PKEY_new_raw_public_key_ex(osp_lctx, "ED25519", OSP_PROPQ, pubs[i], 32);
        if (!osp_x[i] || !osp_xpeer[i] || !osp_ed[i] || !osp_edpub[i]) die("OpenSSL+ecopt key objects failed");
        osp_derive[i] = EVP_PKEY_CTX_new_from_pkey(osp_lctx, osp_x[i], OSP_PROPQ);
        if (!osp_derive[i] || EVP_PKEY_derive_init(osp_derive[i]) != 1 ||
            EVP_PKEY_derive_set_peer(osp_derive[i], osp_xpeer[i]) != 1)
            die("OpenSSL+ecopt derive setup failed");
        const OSSL_PROVIDER *p[3] = {EVP_PKEY_get0_provider(osp_x[i]), EVP_PKEY_get0_provider(osp_ed[i]),
                                     EVP_PKEY_CTX_get0_provider(osp_derive[i])};
        for (int j = 0; j < 3; j++)
            if (!p[j] || strcmp(OSSL_PROVIDER_get0_name(p[j]), "ecopt") != 0) die("OpenSSL+ecopt: a key outside ecopt");
    }
    snprintf(osp_what, sizeof osp_what, "OpenSSL+ecopt: OpenSSL's EVP with the ecopt provider (%s/ecopt.so)",
             BENCH_PROVIDER_DIR);
    return 1;
#else
    return 0;
#endif
}

static void setup(void) {
    if (sodium_init() < 0) die("sodium_init failed");
    randombytes_buf(scal, sizeof scal);
    randombytes_buf(seeds, sizeof seeds);
    randombytes_buf(msg, sizeof msg);
    ossl_md = EVP_MD_CTX_new();
    if (!ossl_md) die("EVP_MD_CTX_new failed");
    for (int i = 0; i < NIN; i++) {
        uint8_t peer[32];
        unsigned char pk[32];
        randombytes_buf(peer, 32);
        crypto_scalarmult_base(upt[i], peer);
        if (ecopt_ed25519_keypair_from_seed(&sks[i], pubs[i], seeds[i]) != ECOPT_OK) die("keypair failed");
        if (ecopt_ed25519_sign(sigs[i], msg[i], 64, &sks[i]) != ECOPT_OK) die("sign failed");
        crypto_sign_seed_keypair(pk, sodium_sk[i], seeds[i]);
        ossl_x[i] = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, scal[i], 32);
        ossl_xpeer[i] = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, upt[i], 32);
        ossl_ed[i] = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seeds[i], 32);
        ossl_edpub[i] = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pubs[i], 32);
        if (!ossl_x[i] || !ossl_xpeer[i] || !ossl_ed[i] || !ossl_edpub[i]) die("OpenSSL key objects failed");
        ossl_derive[i] = EVP_PKEY_CTX_new(ossl_x[i], NULL);
        if (!ossl_derive[i] || EVP_PKEY_derive_init(ossl_derive[i]) != 1 ||
            EVP_PKEY_derive_set_peer(ossl_derive[i], ossl_xpeer[i]) != 1)
            die("OpenSSL derive setup failed");
    }
    if (bench_s2n_available()) s2n_check(0);
    if (bench_s2n_alt_available()) s2n_check(1);
}

/* cpu_describe — "<brand> (family F, model M, stepping S; AVX-512 IFMA yes|no)" from cpuid (leaves 1, 7 and
 * 0x80000002-4; family and model with their extended fields, as the vendors' manuals define them): these hosts are
 * not all alike, so a table says which CPU it measured. */
static void cpu_describe(char *out, size_t n) {
    unsigned a, b, c, d, regs[12] = {0};
    char brand[49] = "unknown CPU";
    if (__get_cpuid(0x80000000u, &a, &b, &c, &d) && a >= 0x80000004u) {
        for (unsigned i = 0; i < 3; i++)
            __get_cpuid(0x80000002u + i, &regs[4 * i], &regs[4 * i + 1], &regs[4 * i + 2], &regs[4 * i + 3]);
        memcpy(brand, regs, 48);
        brand[48] = 0;
        char *e = brand + strlen(brand);
        while (e > brand && e[-1] == ' ') *--e = 0;
    }
    char *bp = brand;
    while (*bp == ' ') bp++;
    unsigned fam = 0, model = 0, step = 0, ifma = 0;
    if (__get_cpuid(1, &a, &b, &c, &d)) {
        fam = (a >> 8) & 15;
        model = (a >> 4) & 15;
        step = a & 15;
        if (fam == 15) fam += (a >> 20) & 255;
        if (fam >= 6) model |= ((a >> 16) & 15) << 4;
    }
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) ifma = (b >> 16 & 1) && (b >> 21 & 1); /* AVX512F, AVX512IFMA */
    snprintf(out, n, "%s (family %u, model %u, stepping %u; AVX-512 IFMA %s)", bp, fam, model, step,
             ifma ? "yes" : "no");
}

static int usage(const char *problem) {
    if (problem) { /* one line naming the option, as ecopt_bench_fused and ecopt_bench_asm do */
        fprintf(stderr, "ecopt_bench: %s (see --help)\n", problem);
        return 2;
    }
    FILE *o = stdout;
    fprintf(o, "usage: ecopt_bench [--rounds N] [--batch N] [--cpu N] [--out DIR]\n"
               "  rounds 1..%d (default 31), batch 1..1000000 calls (default 8), cpu: default the last one this\n"
               "  process may run on; DIR (default: the current directory) must be an existing writable directory,\n"
               "  checked before anything is measured; writes DIR/bench.md, DIR/bench.dat and, with gnuplot,\n"
               "  DIR/bench.png\n"
               "disturbance: a line 'warning: ...' on stdout and in bench.md names the rows measured while the CPU\n"
               "  was taken by others: a section (one operation, or the field table) whose wall time exceeds %.2f x\n"
               "  this process's CPU time (getrusage) and exceeds that CPU time by over %.0f ms, or a row whose\n"
               "  spread, the interquartile range\n"
               "  of its samples / their median (the last column of bench.md), exceeds %.2f with %d rounds or more;\n"
               "  the exit status stays 0\n"
               "exit status: 0; 2 bad usage (an option or its value, --cpu not a CPU of this machine, --out not an\n"
               "  existing writable directory); 3 the environment failed (the CPU exists but this process may not\n"
               "  run on it, a library call failed, the results could not be written); the same codes as\n"
               "  ecopt_bench_asm\n",
            MAXROUNDS, WALL_CPU_MAX, WALL_SLACK_S * 1e3, SPREAD_MAX, SPREAD_MIN_ROUNDS);
    return 0;
}

/* parse_long — v as a decimal in [lo, hi] into *out; 0 ok, -1 not a number, -2 out of range */
static int parse_long(const char *v, long lo, long hi, long *out) {
    char *end = NULL;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno == ERANGE) return -2;
    if (errno || end == v || *end) return -1;
    if (x < lo || x > hi) return -2;
    *out = x;
    return 0;
}

/* out_dir_check — dir exists, is a directory and a file can be created in it (a probe file, removed again: the
 * honest test, which access() is not for root or on a read-only mount); 0, or -1 with the reason in why */
static int out_dir_check(const char *dir, char *why, size_t n) {
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(why, n, "%s", strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, n, "not a directory");
        return -1;
    }
    char probe[4096];
    if (snprintf(probe, sizeof probe, "%s/.ecopt-bench-XXXXXX", dir) >= (int)sizeof probe) {
        snprintf(why, n, "name too long");
        return -1;
    }
    int fd = mkstemp(probe);
    if (fd < 0) {
        snprintf(why, n, "cannot create a file in it: %s", strerror(errno));
        return -1;
    }
    close(fd);
    unlink(probe);
    return 0;
}

void bench_group(FILE *md, int rounds, int batch, double rate); /* bench_group.c */

/* ---- batch X25519: ticks per key of ecopt_x25519_batch and ecopt_x25519_base_batch at n = 8, 64, 256 ------------
 * For each n and each of the two operations, every available backend's batch entry (the 8-lane ladders on ifma; the
 * others make n single calls, as the library's dispatcher does) and, as the references, n single calls of libsodium
 * and of s2n-bignum, interleaved in a fresh random order each round; one sample = one call over n keys / n. The
 * ratios are to s2n-bignum's and libsodium's single calls in the same rounds. */
#define BATCH_MAXN 256
#define BATCH_NN 3
#define BATCH_MAXIMPL (MAXIMPL + 2)
static const size_t batch_ns[BATCH_NN] = {8, 64, 256};
static uint8_t bt_scal[BATCH_MAXN * 32], bt_u[BATCH_MAXN * 32], bt_out[BATCH_MAXN * 32];
static int bt_status[BATCH_MAXN];

typedef struct {
    char name[40];
    const ecopt_backend *be; /* NULL: a reference (kind 1 libsodium, 2 s2n-bignum) */
    int kind;
} batch_impl;

static struct {
    size_t nimpl, k_sodium, k_s2n;
    batch_impl impls[BATCH_MAXIMPL];
    double med[2][BATCH_NN][BATCH_MAXIMPL], spread[2][BATCH_NN][BATCH_MAXIMPL];
    usage_mark use;
    int rounds;
} bt;

/* one call over n keys: op 0 X25519 (variable base), 1 base point */
static void batch_run(const batch_impl *im, int op, size_t n) {
    if (im->be) {
        const ecopt_backend *be = im->be;
        if (op == 0) {
            if (be->x25519_batch) {
                if (be->x25519_batch(bt_out, bt_scal, bt_u, n, bt_status) != ECOPT_OK) die("ecopt x25519_batch failed");
            } else {
                for (size_t i = 0; i < n; i++)
                    if (be->x25519(bt_out + 32 * i, bt_scal + 32 * i, bt_u + 32 * i) != ECOPT_OK) die("ecopt x25519");
            }
        } else if (be->x25519_base_batch) {
            be->x25519_base_batch(bt_out, bt_scal, n);
        } else {
            for (size_t i = 0; i < n; i++) be->x25519_base(bt_out + 32 * i, bt_scal + 32 * i);
        }
    } else if (im->kind == 1) {
        for (size_t i = 0; i < n; i++)
            if ((op == 0 ? crypto_scalarmult(bt_out + 32 * i, bt_scal + 32 * i, bt_u + 32 * i)
                         : crypto_scalarmult_base(bt_out + 32 * i, bt_scal + 32 * i)) != 0)
                die("libsodium x25519 failed");
    } else {
        for (size_t i = 0; i < n; i++) {
            if (op == 0) {
                if (bench_s2n_x25519(bt_out + 32 * i, bt_scal + 32 * i, bt_u + 32 * i) != 0) die("s2n-bignum x25519");
            } else {
                bench_s2n_x25519_base(bt_out + 32 * i, bt_scal + 32 * i);
            }
        }
    }
    sink ^= bt_out[0];
}

/* the batch section's measurements, with its own disturbance marks; each backend's batch results are checked against
 * libsodium's first (a batch that computed something else would be timed for nothing) */
static void batch_measure(const ecopt_backend *const *bes, size_t nbe, int have_s2n, int rounds) {
    bt.nimpl = 0;
    for (size_t b = 0; b < nbe && bt.nimpl < BATCH_MAXIMPL - 2; b++)
        if (bes[b]->available() && !strstr(bes[b]->name, "_emu")) {
            snprintf(bt.impls[bt.nimpl].name, sizeof bt.impls[0].name, "ecopt-%s", bes[b]->name);
            bt.impls[bt.nimpl++].be = bes[b];
        }
    bt.k_sodium = bt.nimpl;
    bt.impls[bt.nimpl++] = (batch_impl){"libsodium (n calls)", NULL, 1};
    bt.k_s2n = have_s2n ? bt.nimpl : (size_t)-1;
    if (have_s2n) bt.impls[bt.nimpl++] = (batch_impl){"s2n-bignum (n calls)", NULL, 2};
    randombytes_buf(bt_scal, sizeof bt_scal);
    for (size_t i = 0; i < BATCH_MAXN; i++) {
        uint8_t peer[32];
        randombytes_buf(peer, 32);
        crypto_scalarmult_base(bt_u + 32 * i, peer);
    }
    static uint8_t want[BATCH_MAXN * 32];
    for (int op = 0; op < 2; op++) {
        batch_run(&bt.impls[bt.k_sodium], op, BATCH_MAXN);
        memcpy(want, bt_out, sizeof want);
        for (size_t k = 0; k < bt.nimpl; k++) {
            memset(bt_out, 0, sizeof bt_out);
            batch_run(&bt.impls[k], op, 11); /* a group and a tail */
            if (memcmp(bt_out, want, 32 * 11) != 0) die("a batch X25519 differs from libsodium's single calls");
        }
    }
    bt.rounds = rounds < 51 ? rounds : 51; /* n = 256: the rounds cost 256 calls each */
    static double samples[BATCH_MAXIMPL][MAXROUNDS];
    int order[BATCH_MAXIMPL];
    usage_mark start;
    usage_now(&start);
    for (int op = 0; op < 2; op++)
        for (int j = 0; j < BATCH_NN; j++) {
            size_t n = batch_ns[j];
            for (size_t k = 0; k < bt.nimpl; k++) batch_run(&bt.impls[k], op, n); /* warm up */
            for (int r = 0; r < bt.rounds; r++) {
                shuffled_order(order, bt.nimpl);
                for (size_t k = 0; k < bt.nimpl; k++) {
                    uint64_t t0 = ticks();
                    batch_run(&bt.impls[order[k]], op, n);
                    uint64_t t1 = ticks();
                    samples[order[k]][r] = (double)(t1 - t0) / (double)n;
                }
            }
            for (size_t k = 0; k < bt.nimpl; k++)
                bt.med[op][j][k] = median(samples[k], bt.rounds, &bt.spread[op][j][k]);
        }
    usage_since(&start, &bt.use);
}

/* the disturbed batch rows into the warning (the rule of the other sections) */
static void batch_warn(char *warning, size_t cap) {
    if (section_disturbed(&bt.use)) {
        warn_add(warning, cap, "batch table, all rows (wall %.0f ms, CPU %.0f ms, %ld involuntary switches)",
                 bt.use.wall * 1e3, bt.use.cpu * 1e3, bt.use.nivcsw);
        return;
    }
    for (int op = 0; op < 2; op++)
        for (int j = 0; j < BATCH_NN; j++)
            for (size_t k = 0; k < bt.nimpl; k++)
                if (row_disturbed(&bt.use, bt.spread[op][j][k], bt.rounds))
                    warn_add(warning, cap, "batch %s n = %zu / %s (spread %.3f)", op ? "base point" : "X25519",
                             batch_ns[j], bt.impls[k].name, bt.spread[op][j][k]);
}

static void batch_report(FILE *md, double tpc) {
    printf("\n%-22s %5s %-22s %12s %12s %9s %9s %7s\n", "batch (per key)", "n", "impl", "ticks/key", "cycles/key",
           "vs sodium", "vs s2n", "spread");
    fprintf(md, "\n## Batch X25519: ticks per key\n\n`ecopt_x25519_batch` and `ecopt_x25519_base_batch` over n keys "
                "(%d rounds, interleaved in random order; one sample = one call / n); libsodium and s2n-bignum: n single "
                "calls. Ratios to their single calls in the same rounds.\n\n"
                "| operation | n | implementation | ticks per key | cycles per key | ratio vs libsodium | "
                "ratio vs s2n-bignum | spread |\n|---|---:|---|---:|---:|---:|---:|---:|\n",
            bt.rounds);
    for (int op = 0; op < 2; op++)
        for (int j = 0; j < BATCH_NN; j++)
            for (size_t k = 0; k < bt.nimpl; k++) {
                const char *opn = op ? "X25519 base point batch" : "X25519 batch";
                double m = bt.med[op][j][k];
                char vs_s2n[16] = "n/a";
                if (bt.k_s2n != (size_t)-1) snprintf(vs_s2n, sizeof vs_s2n, "%.3f", m / bt.med[op][j][bt.k_s2n]);
                printf("%-22s %5zu %-22s %12.0f %12.0f %9.3f %9s %7.3f\n", k ? "" : opn, batch_ns[j], bt.impls[k].name,
                       m, m / tpc, m / bt.med[op][j][bt.k_sodium], vs_s2n, bt.spread[op][j][k]);
                fprintf(md, "| %s | %zu | %s | %.0f | %.0f | %.3f | %s | %.3f |\n", opn, batch_ns[j], bt.impls[k].name,
                        m, m / tpc, m / bt.med[op][j][bt.k_sodium], vs_s2n, bt.spread[op][j][k]);
            }
}

int main(int argc, char **argv) {
    int rounds = 31, batch = 8, cpu = -1;
    const char *outdir = "."; /* the current directory, as a command-line tool's output; make bench gives --out */
    int seen[4] = {0};
    static const char *const opts[4] = {"--rounds", "--batch", "--cpu", "--out"};
    for (int a = 1; a < argc; a++) {
        int k = -1;
        for (int j = 0; j < 4; j++)
            if (!strcmp(argv[a], opts[j])) k = j;
        if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) return usage(NULL);
        char problem[200];
        if (k < 0) {
            snprintf(problem, sizeof problem, "%.100s: %s", argv[a],
                     argv[a][0] == '-' ? "unknown option" : "unexpected argument");
            return usage(problem);
        }
        /* a value that is itself an option ("--out --rounds 1") is a missing value, not a directory "--rounds" */
        if (a + 1 >= argc || !strncmp(argv[a + 1], "--", 2)) {
            snprintf(problem, sizeof problem, "%s: an option without its value", opts[k]);
            return usage(problem);
        }
        if (seen[k]++) {
            snprintf(problem, sizeof problem, "%s: an option given more than once", opts[k]);
            return usage(problem);
        }
        const char *v = argv[++a];
        long x = 0;
        int pr = 0;
        if (k == 0) pr = parse_long(v, 1, MAXROUNDS, &x), rounds = (int)x;
        else if (k == 1) pr = parse_long(v, 1, 1000000, &x), batch = (int)x;
        else if (k == 2) pr = parse_long(v, 0, CPU_SETSIZE - 1, &x), cpu = (int)x;
        else outdir = v;
        snprintf(problem, sizeof problem, "%s %s: %s", opts[k], v, pr == -1 ? "not a number" : "a value out of range");
        if (pr != 0) return usage(problem);
    }
    /* A CPU the machine does not have is bad usage (2); one it has that this process may not run on (outside its
     * cpuset) is the environment (3), found when pinning below. */
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    if (cpu >= 0 && ncpu > 0 && cpu >= ncpu) {
        fprintf(stderr, "ecopt_bench: --cpu %d: no such CPU (this machine has CPUs 0 to %ld)\n", cpu, ncpu - 1);
        return 2;
    }
    /* --out before any measurement: a directory it cannot write is found now, not after the run */
    char why[300];
    if (out_dir_check(outdir, why, sizeof why) != 0) {
        fprintf(stderr, "ecopt_bench: --out %s: %s\n", outdir, why);
        return 2;
    }
    /* Pin to one core: the last one unless --cpu says otherwise. */
    cpu_set_t set;
    CPU_ZERO(&set);
    if (cpu < 0) {
        if (sched_getaffinity(0, sizeof set, &set) != 0) die("sched_getaffinity failed");
        for (int c = CPU_SETSIZE - 1; c >= 0; c--)
            if (CPU_ISSET(c, &set)) {
                cpu = c;
                break;
            }
        CPU_ZERO(&set);
    }
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        fprintf(stderr, "ecopt_bench: --cpu %d: this process may not run on it (%s)\n", cpu, strerror(errno));
        return 3;
    }

    setup();
    double rate = tick_rate();

    impl impls[MAXIMPL];
    size_t nbe, nimpl = 0;
    const ecopt_backend *const *bes = ecopt_backend_all(&nbe);
    /* the emulation backends (ifma_emu) are the real code's test build, slower by far: not timed */
    for (size_t b = 0; b < nbe && nimpl < MAXIMPL - 5; b++)
        if (bes[b]->available() && !strstr(bes[b]->name, "_emu")) {
            snprintf(impls[nimpl].name, sizeof impls[nimpl].name, "ecopt-%s", bes[b]->name);
            impls[nimpl].be = bes[b];
            nimpl++;
        }
    size_t n_ecopt = nimpl;
    snprintf(impls[nimpl++].name, 32, "libsodium");
    snprintf(impls[nimpl++].name, 32, "OpenSSL");
    int have_osp = osp_setup();
    size_t k_osp = have_osp ? nimpl : (size_t)-1; /* its column, when it is there */
    if (have_osp) snprintf(impls[nimpl++].name, 32, "OpenSSL+ecopt");
    int have_s2n = bench_s2n_available();
    size_t k_s2n = nimpl; /* its column, when it is there: the ratios to it */
    if (have_s2n) snprintf(impls[nimpl++].name, 32, "s2n-bignum");
    int have_s2n_alt = bench_s2n_alt_available();
    size_t k_s2n_alt = have_s2n_alt ? nimpl : (size_t)-1;
    if (have_s2n_alt) snprintf(impls[nimpl++].name, 32, "s2n-bignum alt");

    printf("ecopt %s bench: median rdtsc ticks per operation (%d rounds of %d calls, interleaved, pinned to CPU %d)\n",
           ecopt_version(), rounds, batch, cpu);
    printf("peers: libsodium %s; %s\n", sodium_version_string(), OpenSSL_version(OPENSSL_VERSION));
    printf("%s\n", osp_what);
    char cpu_text[160];
    cpu_describe(cpu_text, sizeof cpu_text);
    printf("cpu: %s\n", cpu_text);
    printf("%s%s\n", bench_s2n_what(), have_s2n || !strncmp(bench_s2n_what(), "s2n-bignum: not", 15)
                                            ? ""
                                            : " (built, but this CPU lacks BMI2/ADX: rows n/a)");
    double tpc_q1, tpc_q3, tpc = ticks_per_cycle(&tpc_q1, &tpc_q3);
    char tpc_text[200];
    snprintf(tpc_text, sizeof tpc_text,
             "1 core cycle = %.3f TSC ticks (a chain of dependent adds, median of %d trials, quartiles %.3f-%.3f)",
             tpc, TICK_CAL_TRIALS, tpc_q1, tpc_q3);
    printf("tick rate: %.3f GHz (ticks are TSC ticks, not core cycles); %s\n\n", rate / 1e9, tpc_text);

    static double med[NOPS][MAXIMPL], spread[NOPS][MAXIMPL];
    static double samples[MAXIMPL][MAXROUNDS];
    int order[MAXIMPL];
    usage_mark run_start, run_use, sec_start, sec_use[NOPS], fe_use;
    usage_now(&run_start);
    for (size_t o = 0; o < NOPS; o++) {
        usage_now(&sec_start);
        for (size_t k = 0; k < nimpl; k++) {
            impls[k].fn = k < n_ecopt         ? ops[o].ecopt_fn
                          : k == n_ecopt      ? ops[o].sodium_fn
                          : k == n_ecopt + 1  ? ops[o].ossl_fn
                          : k == k_osp        ? ops[o].osp_fn
                          : k == k_s2n_alt    ? ops[o].s2n_alt_fn
                                              : ops[o].s2n_fn;
            be_cur = impls[k].be;
            for (int w = 0; w < batch; w++) impls[k].fn(w % NIN); /* warm up */
        }
        for (int r = 0; r < rounds; r++) {
            shuffled_order(order, nimpl);
            for (size_t k = 0; k < nimpl; k++) {
                impl *im = &impls[order[k]];
                be_cur = im->be;
                uint64_t t0 = ticks();
                for (int c = 0; c < batch; c++) im->fn((r * batch + c) % NIN);
                uint64_t t1 = ticks();
                samples[order[k]][r] = (double)(t1 - t0) / batch;
            }
        }
        for (size_t k = 0; k < nimpl; k++) med[o][k] = median(samples[k], rounds, &spread[o][k]);
        usage_since(&sec_start, &sec_use[o]);
    }

    /* The field section: the u64 multiply and square, hand-written vs generated by `ecopt gen`, and the adx and
     * adx51 backends' (`ecopt opt`) where the CPU has them, in one interleaved run. base: the row a ratio is taken
     * to. */
    struct {
        const char *name;
        void (*fn)(int);
        size_t base;
    } fe_impls[8];
    size_t NFE = 0;
    fe_impls[NFE++] = (__typeof__(fe_impls[0])){"fe_mul u64 hand-written", bench_fe_u64_mul_handwritten, 0};
    fe_impls[NFE++] = (__typeof__(fe_impls[0])){"fe_mul u64 generated", bench_fe_u64_mul_generated, 0};
#if defined(BENCH_HAVE_ADX51)
    if (bench_fe_adx51_available())
        fe_impls[NFE++] = (__typeof__(fe_impls[0])){"fe_mul adx51 (ecopt opt)", bench_fe_adx51_mul, 0};
#endif
#if defined(BENCH_HAVE_ADX)
    if (bench_fe_adx_available())
        fe_impls[NFE++] = (__typeof__(fe_impls[0])){"fe_mul adx (ecopt opt)", bench_fe_adx_mul, 0};
#endif
    size_t sq_base = NFE;
    fe_impls[NFE++] = (__typeof__(fe_impls[0])){"fe_sq u64 hand-written", bench_fe_u64_sq_handwritten, sq_base};
    fe_impls[NFE++] = (__typeof__(fe_impls[0])){"fe_sq u64 generated", bench_fe_u64_sq_generated, sq_base};
#if defined(BENCH_HAVE_ADX51)
    if (bench_fe_adx51_available())
        fe_impls[NFE++] = (__typeof__(fe_impls[0])){"fe_sq adx51 (ecopt opt)", bench_fe_adx51_sq, sq_base};
    bench_fe_adx51_setup(scal[0], upt[0]);
#endif
#if defined(BENCH_HAVE_ADX)
    if (bench_fe_adx_available())
        fe_impls[NFE++] = (__typeof__(fe_impls[0])){"fe_sq adx (ecopt opt)", bench_fe_adx_sq, sq_base};
    bench_fe_adx_setup(scal[0], upt[0]);
#endif
    double fe_med[8], fe_spread[8];
    usage_now(&sec_start);
    bench_fe_u64_setup(scal[0], upt[0]);
    for (size_t k = 0; k < NFE; k++)
        for (int w = 0; w < batch; w++) fe_impls[k].fn(0); /* warm up */
    for (int r = 0; r < rounds; r++) {
        shuffled_order(order, NFE);
        for (size_t k = 0; k < NFE; k++) {
            uint64_t t0 = ticks();
            for (int c = 0; c < batch; c++) fe_impls[order[k]].fn(0);
            uint64_t t1 = ticks();
            samples[order[k]][r] = (double)(t1 - t0) / ((double)batch * BENCH_FE_CHAIN);
        }
    }
    for (size_t k = 0; k < NFE; k++) fe_med[k] = median(samples[k], rounds, &fe_spread[k]);
    usage_since(&sec_start, &fe_use);
    batch_measure(bes, nbe, have_s2n, rounds);
    usage_since(&run_start, &run_use);

    /* Disturbance (the rule above): the rows to name, by section */
    static char warning[4096];
    for (size_t o = 0; o < NOPS; o++) {
        if (section_disturbed(&sec_use[o])) {
            warn_add(warning, sizeof warning, "%s, all rows (wall %.0f ms, CPU %.0f ms, %ld involuntary switches)",
                     ops[o].name, sec_use[o].wall * 1e3, sec_use[o].cpu * 1e3, sec_use[o].nivcsw);
            continue;
        }
        for (size_t k = 0; k < nimpl; k++)
            if (row_disturbed(&sec_use[o], spread[o][k], rounds))
                warn_add(warning, sizeof warning, "%s / %s (spread %.3f)", ops[o].name, impls[k].name, spread[o][k]);
    }
    if (section_disturbed(&fe_use))
        warn_add(warning, sizeof warning, "field table, all rows (wall %.0f ms, CPU %.0f ms, %ld involuntary switches)",
                 fe_use.wall * 1e3, fe_use.cpu * 1e3, fe_use.nivcsw);
    else
        for (size_t k = 0; k < NFE; k++)
            if (row_disturbed(&fe_use, fe_spread[k], rounds))
                warn_add(warning, sizeof warning, "%s (spread %.3f)", fe_impls[k].name, fe_spread[k]);
    batch_warn(warning, sizeof warning);
    char run_text[300];
    snprintf(run_text, sizeof run_text,
             "run: wall %.2f s, CPU %.2f s (user + system), %ld involuntary context switches while measuring",
             run_use.wall, run_use.cpu, run_use.nivcsw);

    /* Report: console, markdown, data for the chart. */
    char path[4096];
    snprintf(path, sizeof path, "%s/bench.md", outdir);
    FILE *md = fopen(path, "w");
    snprintf(path, sizeof path, "%s/bench.dat", outdir);
    FILE *dat = fopen(path, "w");
    if (!md || !dat) die("cannot write the results (does the output folder exist?)");
    fprintf(md, "# ecopt benchmark\n\nMedian rdtsc ticks per operation (%d rounds of %d calls, interleaved in random "
                "order, pinned to CPU %d; TSC %.3f GHz, ticks are not core cycles; cycles = ticks / the ticks per "
                "cycle measured in the run). Ratio = ticks / libsodium's (or s2n-bignum's) ticks in the same run "
                "(lower is faster).\n\nCPU: %s; %s.\n\nPeers: libsodium %s; %s; %s.\n\n",
            rounds, batch, cpu, rate / 1e9, cpu_text, tpc_text, sodium_version_string(),
            OpenSSL_version(OPENSSL_VERSION), bench_s2n_what());
    fprintf(md, "%s.\n\n%s.\n\n", run_text, osp_what);
    if (warning[0])
        fprintf(md, "warning: disturbed measurement (the CPU was taken by others; rule in `ecopt_bench --help`), "
                    "these rows are not trustworthy: %s.\n\n",
                warning);
    fprintf(md, "Spread = (Q3 - Q1) / median of the samples (quartiles of the %d rounds).\n\n", rounds);
    fprintf(md, "| operation | implementation | median ticks | cycles | ops/s | ratio vs libsodium | "
                "ratio vs s2n-bignum | spread |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
    fprintf(dat, "operation"); /* a header row (not a comment): gnuplot's columnhead names the series from it */
    for (size_t k = 0; k < nimpl; k++) fprintf(dat, "\t%s", impls[k].name);
    fprintf(dat, "\n");
    printf("%-24s %-14s %10s %10s %10s %9s %9s %7s\n", "operation", "impl", "ticks", "cycles", "ops/s", "vs sodium",
           "vs s2n", "spread");
    for (size_t o = 0; o < NOPS; o++) {
        fprintf(dat, "%s", ops[o].name);
        for (size_t k = 0; k < nimpl; k++) {
            double ratio = med[o][k] / med[o][n_ecopt];
            char vs_s2n[16] = "n/a";
            if (have_s2n) snprintf(vs_s2n, sizeof vs_s2n, "%.3f", med[o][k] / med[o][k_s2n]);
            printf("%-24s %-14s %10.0f %10.0f %10.0f %9.3f %9s %7.3f\n", k ? "" : ops[o].name, impls[k].name,
                   med[o][k], med[o][k] / tpc, rate / med[o][k], ratio, vs_s2n, spread[o][k]);
            fprintf(md, "| %s | %s | %.0f | %.0f | %.0f | %.3f | %s | %.3f |\n", ops[o].name, impls[k].name,
                    med[o][k], med[o][k] / tpc, rate / med[o][k], ratio, vs_s2n, spread[o][k]);
            fprintf(dat, "\t%.0f", med[o][k]);
        }
        fprintf(dat, "\n");
    }
    /* the provider against OpenSSL's own code, the same EVP calls */
    if (have_osp) {
        printf("\nOpenSSL+ecopt / OpenSSL (ticks, lower: the provider is faster):");
        fprintf(md, "\nOpenSSL+ecopt / OpenSSL, the same EVP calls (ticks; lower: the provider is faster):");
        for (size_t o = 0; o < NOPS; o++) {
            double r = med[o][k_osp] / med[o][n_ecopt + 1];
            printf("%s %s %.3f", o ? ";" : "", ops[o].name, r);
            fprintf(md, "%s %s %.3f", o ? ";" : "", ops[o].name, r);
        }
        printf("\n");
        fprintf(md, ".\n");
    }
    /* ecopt's baseline backend against s2n-bignum's baseline routines, the same rounds (both without MULX/ADX) */
    size_t k_x64 = (size_t)-1;
    for (size_t k = 0; k < n_ecopt; k++)
        if (!strcmp(impls[k].name, "ecopt-x64")) k_x64 = k;
    if (have_s2n_alt && k_x64 != (size_t)-1) {
        printf("\necopt-x64 / s2n-bignum alt (ticks, both without MULX/ADX; lower: ecopt is faster):");
        fprintf(md, "\necopt-x64 / s2n-bignum alt, both without MULX/ADX (ticks; lower: ecopt is faster):");
        for (size_t o = 0; o < NOPS; o++) {
            double r = med[o][k_x64] / med[o][k_s2n_alt];
            printf("%s %s %.3f", o ? ";" : "", ops[o].name, r);
            fprintf(md, "%s %s %.3f", o ? ";" : "", ops[o].name, r);
        }
        printf("\n");
        fprintf(md, ".\n");
    }
    printf("\n%-26s %10s %16s %8s\n", "field op (chain of 100)", "ticks/op", "vs hand-written", "spread");
    fprintf(md, "\n## Field multiply and square: u64 hand-written vs generated by `ecopt gen`, adx and adx51 by "
                "`ecopt opt`\n\n"
                "Median ticks per operation in chains of %d dependent operations, interleaved in random order.\n\n"
                "| operation | ticks per op | ratio vs hand-written | spread |\n|---|---:|---:|---:|\n",
            BENCH_FE_CHAIN);
    for (size_t k = 0; k < NFE; k++) {
        double ratio = fe_med[k] / fe_med[fe_impls[k].base];
        printf("%-26s %10.2f %16.3f %8.3f\n", fe_impls[k].name, fe_med[k], ratio, fe_spread[k]);
        fprintf(md, "| %s | %.2f | %.3f | %.3f |\n", fe_impls[k].name, fe_med[k], ratio, fe_spread[k]);
    }
    bench_group(md, rounds, batch, rate); /* the ristretto255 rows, bench_group.c */
    batch_report(md, tpc);
    printf("\n%s\n", run_text);
    if (warning[0])
        printf("warning: disturbed measurement (the CPU was taken by others; rule in --help), these rows are not "
               "trustworthy: %s\n",
               warning);
    group_section(rounds, md);
    fclose(md);
    fclose(dat);

    /* The chart, when gnuplot is there (Debian's gnuplot-nox); otherwise say so. */
    snprintf(path, sizeof path, "command -v gnuplot >/dev/null 2>&1 && gnuplot -e \"set terminal png size 1100,600; "
                                "set output '%s/bench.png'; set datafile separator '\\t'; set style data histograms; set style histogram "
                                "clustered gap 1; set style fill solid border -1; set ylabel 'median ticks (lower is "
                                "better)'; set xtics rotate by -15 noenhanced; set key noenhanced; set title 'ecopt vs "
                                "libsodium, OpenSSL, s2n-bignum'; plot for [c=2:%zu] '%s/bench.dat' using c:xtic(1) title "
                                "columnhead\"",
             outdir, nimpl + 1, outdir);
    int chart = system(path) == 0;
    if (!chart) printf("\n(gnuplot not found or failed: no chart written)\n");
    printf("\nwritten: %s/bench.md, %s/bench.dat%s%s%s\n", outdir, outdir, chart ? ", " : "", chart ? outdir : "",
           chart ? "/bench.png" : "");
    for (int i = 0; i < NIN; i++) {
        EVP_PKEY_CTX_free(ossl_derive[i]);
        EVP_PKEY_free(ossl_x[i]);
        EVP_PKEY_free(ossl_xpeer[i]);
        EVP_PKEY_free(ossl_ed[i]);
        EVP_PKEY_free(ossl_edpub[i]);
    }
    EVP_MD_CTX_free(ossl_md);
    for (int i = 0; have_osp && i < NIN; i++) {
        EVP_PKEY_CTX_free(osp_derive[i]);
        EVP_PKEY_free(osp_x[i]);
        EVP_PKEY_free(osp_xpeer[i]);
        EVP_PKEY_free(osp_ed[i]);
        EVP_PKEY_free(osp_edpub[i]);
    }
    EVP_MD_CTX_free(osp_md);
    for (int j = 0; j < 2; j++)
        if (osp_prov[j]) OSSL_PROVIDER_unload(osp_prov[j]);
    OSSL_LIB_CTX_free(osp_lctx);
    return 0;
}
