/* test_dudect.c — ct.dudect.<backend>.<op>: a timing test of constant time on the real CPU, after Reparaz, Balasch
 * and Verbauwhede, "Dude, is my code constant time?" (DATE 2017): for the AVX-512 code that valgrind cannot run.
 *
 * Usage: test_dudect OP [--measurements N] [--seed S]   (the backend: ECOPT_BACKEND, as every per-backend test)
 *        test_dudect leak [--measurements N]            (the control: a deliberately leaky comparison)
 * OP: x25519 (secret scalar, fixed public u), x25519_base, x25519_batch (8 secret scalars in one call, one group of
 * the 8-lane ladder on ifma), keygen (Ed25519 key generation from a secret seed), sign (Ed25519, a secret key object,
 * a fixed 64-byte message).
 *
 * Method, as the paper's: two classes of secret inputs, class 0 one fixed value (all-zero bytes: a scalar with the
 * fewest set bits once clamped, the input a data-dependent shortcut would favour most) and class 1 fresh random
 * values; each measurement's class is drawn at random, so that drifts of the machine (frequency, other tenants)
 * fall on both classes alike. Inputs are prepared outside the timed region, in chunks of CHUNK. One measurement is
 * the rdtsc ticks (between lfences) of one call. The first chunk only fixes the cropping thresholds (and warms
 * up): the percentiles 1 - 0.5^(10 (i + 1) / NCROP), i < NCROP, of its measurements. Then, for every later
 * measurement, Welch's t statistic of class 0 against class 1 is updated online (Welford's mean and variance) for
 * the whole set and for each cropped set (measurements below one threshold: the long tail is interrupts and the
 * other tenants, not the code). The reported statistic is the largest |t| among the sets with at least MIN_SET
 * measurements per class. Verdict (the paper's tool's thresholds): |t| > 10 fails (definitely not constant time);
 * |t| > 4.5 is printed as a warning and passes. Exit: 0 pass; 1 leak (for `leak`: 1 when NOT detected, the control
 * failing); 2 bad usage; 77 this CPU lacks the backend (ctest's skip).
 *
 * Not a proof: a pass says no difference between the two classes was measurable in N measurements on this CPU. The
 * object code check (ct.objcode_ifma) and the emulation build under valgrind (ct.secret.ifma_emu) are the other two
 * kinds of evidence. */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "ecopt/ecopt.h"
#include "testutil.h"
#include "tu_backend.h"

#define CHUNK 1000
#define NCROP 100
#define MIN_SET 1000 /* measurements per class for a set's t to count */
#define T_FAIL 10.0
#define T_WARN 4.5
#define BATCH_N 8
#define INLEN 512 /* the largest secret: the control's 512 bytes */

typedef struct {
    double n[2], mean[2], m2[2];
} welch;

static void welch_add(welch *w, int cls, double x) {
    w->n[cls] += 1;
    double d = x - w->mean[cls];
    w->mean[cls] += d / w->n[cls];
    w->m2[cls] += d * (x - w->mean[cls]);
}

static double welch_t(const welch *w) {
    if (w->n[0] < 2 || w->n[1] < 2) return 0;
    double v0 = w->m2[0] / (w->n[0] - 1), v1 = w->m2[1] / (w->n[1] - 1);
    double den = sqrt(v0 / w->n[0] + v1 / w->n[1]);
    return den > 0 ? (w->mean[0] - w->mean[1]) / den : 0;
}

static inline uint64_t ticks(void) {
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}

static uint64_t rng_state;
static uint64_t rnd(void) { /* splitmix64: the classes and the random inputs */
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static void rnd_bytes(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd();
}

/* ---- the operations: prepare turns the class's secret bytes into the call's input (outside the timing) -------- */
typedef struct {
    uint8_t secret[INLEN];
    ecopt_ed25519_secretkey sk;
} input;

static uint8_t pub_u[32], msg[64], leak_ref[512];
static volatile uint8_t sink;

static void prep_none(input *in) { (void)in; }
static void prep_sk(input *in) {
    uint8_t pub[32];
    if (ecopt_ed25519_keypair_from_seed(&in->sk, pub, in->secret) != ECOPT_OK) {
        fprintf(stderr, "FAIL: keypair_from_seed\n");
        exit(1);
    }
}
static void op_x25519(input *in) {
    uint8_t out[32];
    sink ^= (uint8_t)ecopt_x25519(out, in->secret, pub_u);
    sink ^= out[0];
}
static void op_x25519_base(input *in) {
    uint8_t out[32];
    sink ^= (uint8_t)ecopt_x25519_base(out, in->secret);
    sink ^= out[0];
}
static uint8_t batch_u[32 * BATCH_N];
static void op_x25519_batch(input *in) {
    uint8_t out[32 * BATCH_N];
    int st[BATCH_N];
    sink ^= (uint8_t)ecopt_x25519_batch(out, in->secret, batch_u, BATCH_N, st);
    sink ^= out[0];
}
static void op_keygen(input *in) {
    ecopt_ed25519_secretkey sk;
    uint8_t pub[32];
    sink ^= (uint8_t)ecopt_ed25519_keypair_from_seed(&sk, pub, in->secret);
    sink ^= pub[0];
}
static void op_sign(input *in) {
    uint8_t sig[64];
    sink ^= (uint8_t)ecopt_ed25519_sign(sig, msg, sizeof msg, &in->sk);
    sink ^= sig[0];
}
/* The control: not constant time on purpose, a comparison that stops at the first differing byte. Class 0 (the
 * fixed input) equals the reference, so it reads all 512 bytes; class 1 (random) nearly always stops at once. */
__attribute__((noinline)) static int leaky_equal(const uint8_t *a, const uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}
static void op_leak(input *in) { sink ^= (uint8_t)leaky_equal(in->secret, leak_ref, sizeof leak_ref); }

typedef struct {
    const char *name;
    void (*prep)(input *), (*op)(input *);
    size_t secret_len;
    long default_n;
} target;

static const target targets[] = {
    {"x25519", prep_none, op_x25519, 32, 200000},
    {"x25519_base", prep_none, op_x25519_base, 32, 200000},
    {"x25519_batch", prep_none, op_x25519_batch, 32 * BATCH_N, 50000},
    {"keygen", prep_none, op_keygen, 32, 200000},
    {"sign", prep_sk, op_sign, 32, 200000},
};

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_dudect OP|leak [--measurements N] [--seed S]\n");
        return 2;
    }
    const char *opname = argv[1];
    long n_meas = 0;
    uint64_t seed = 0;
    for (int a = 2; a < argc; a++) {
        char *end = NULL;
        if (a + 1 < argc && !strcmp(argv[a], "--measurements")) {
            n_meas = strtol(argv[++a], &end, 10);
            if (*end || n_meas < 3 * CHUNK) {
                fprintf(stderr, "test_dudect: --measurements %s: a number >= %d\n", argv[a], 3 * CHUNK);
                return 2;
            }
        } else if (a + 1 < argc && !strcmp(argv[a], "--seed")) {
            seed = strtoull(argv[++a], &end, 10);
            if (*end) {
                fprintf(stderr, "test_dudect: --seed %s: not a number\n", argv[a]);
                return 2;
            }
        } else {
            fprintf(stderr, "test_dudect: %s: unknown option\n", argv[a]);
            return 2;
        }
    }
    target leak = {"leak", prep_none, op_leak, sizeof leak_ref, 20000};
    const target *t = NULL;
    int is_leak = !strcmp(opname, "leak");
    if (is_leak) t = &leak;
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
        if (!strcmp(opname, targets[i].name)) t = &targets[i];
    if (!t) {
        fprintf(stderr, "test_dudect: %s: no such operation (x25519, x25519_base, x25519_batch, keygen, sign, leak)\n",
                opname);
        return 2;
    }
    if (!is_leak) tu_check_library_backend(); /* 77 when this CPU lacks ECOPT_BACKEND */
    if (n_meas == 0) n_meas = t->default_n;
    rng_state = seed ? seed : (uint64_t)ticks();

    /* one CPU: the last this process may run on (a migration mid-run would put two cores' clocks in the sets) */
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = CPU_SETSIZE - 1; c >= 0; c--)
            if (CPU_ISSET(c, &set)) {
                CPU_ZERO(&set);
                CPU_SET(c, &set);
                (void)sched_setaffinity(0, sizeof set, &set);
                break;
            }

    /* public inputs: a fixed u (the X25519 of a random scalar), a fixed message, the leak's reference = class 0 */
    uint8_t s[32];
    rnd_bytes(s, 32);
    if (ecopt_x25519_base(pub_u, s) != ECOPT_OK) return 1;
    for (int i = 0; i < BATCH_N; i++) memcpy(batch_u + 32 * i, pub_u, 32);
    rnd_bytes(msg, sizeof msg);
    memset(leak_ref, 0, sizeof leak_ref);

    static input in[CHUNK];
    static int cls[CHUNK];
    static double x[CHUNK], sorted[CHUNK], crop[NCROP];
    static welch w[NCROP + 1]; /* w[0]: every measurement; w[1 + i]: those below crop[i] */
    long done = 0;
    double total_ticks = 0;
    for (long chunk = 0; done < n_meas; chunk++) {
        for (int k = 0; k < CHUNK; k++) {
            cls[k] = (int)(rnd() & 1);
            if (cls[k] == 0) memset(in[k].secret, 0, t->secret_len);
            else rnd_bytes(in[k].secret, t->secret_len);
            t->prep(&in[k]);
        }
        for (int k = 0; k < CHUNK; k++) {
            uint64_t t0 = ticks();
            t->op(&in[k]);
            uint64_t t1 = ticks();
            x[k] = (double)(t1 - t0);
        }
        if (chunk == 0) { /* thresholds from the first chunk, which is not counted */
            memcpy(sorted, x, sizeof x);
            for (int i = 1; i < CHUNK; i++) /* insertion sort: once, 1000 values */
                for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
                    double tmp = sorted[j];
                    sorted[j] = sorted[j - 1];
                    sorted[j - 1] = tmp;
                }
            for (int i = 0; i < NCROP; i++) {
                double p = 1 - pow(0.5, 10.0 * (i + 1) / NCROP);
                crop[i] = sorted[(int)(p * CHUNK) < CHUNK ? (int)(p * CHUNK) : CHUNK - 1];
            }
            continue;
        }
        for (int k = 0; k < CHUNK; k++) {
            welch_add(&w[0], cls[k], x[k]);
            for (int i = 0; i < NCROP; i++)
                if (x[k] < crop[i]) welch_add(&w[1 + i], cls[k], x[k]);
            total_ticks += x[k];
        }
        done += CHUNK;
    }
    for (int k = 0; k < CHUNK; k++) ecopt_ed25519_secretkey_wipe(&in[k].sk);

    double tmax = 0;
    int imax = -1;
    for (int i = 0; i <= NCROP; i++) {
        if (w[i].n[0] < MIN_SET || w[i].n[1] < MIN_SET) continue;
        double tv = fabs(welch_t(&w[i]));
        if (tv > tmax) tmax = tv, imax = i;
    }
    char where[96] = "no set large enough";
    if (imax == 0) snprintf(where, sizeof where, "all measurements");
    else if (imax > 0)
        snprintf(where, sizeof where, "measurements below the %.4f percentile, %.0f ticks",
                 1 - pow(0.5, 10.0 * imax / NCROP), crop[imax - 1]);
    printf("dudect %s on %s: %ld measurements (%.0f fixed, %.0f random), mean %.0f ticks; max |t| = %.2f (%s, "
           "%.0f + %.0f measurements); uncropped |t| = %.2f\n",
           t->name, is_leak ? "the leaky control" : ecopt_backend_name(), done, w[0].n[0], w[0].n[1],
           total_ticks / (double)done, tmax, where, imax >= 0 ? w[imax].n[0] : 0, imax >= 0 ? w[imax].n[1] : 0,
           fabs(welch_t(&w[0])));
    if (is_leak) {
        if (tmax > T_FAIL) {
            printf("leak detected: |t| %.2f > %.0f, as it must be for the deliberately leaky comparison\n", tmax, T_FAIL);
            return 0;
        }
        printf("FAIL: the leaky comparison was not detected (|t| %.2f <= %.0f): the harness cannot see leaks\n", tmax,
               T_FAIL);
        return 1;
    }
    if (tmax > T_FAIL) {
        printf("FAIL: |t| %.2f > %.0f: the two classes' timings differ (not constant time, or a disturbed host: "
               "rerun to tell)\n", tmax, T_FAIL);
        return 1;
    }
    if (tmax > T_WARN) printf("warning: |t| %.2f > %.1f (the tool's 'probably not' threshold), below the fail line\n",
                              tmax, T_WARN);
    printf("pass: no timing difference between fixed and random secrets (|t| <= %.0f)\n", T_FAIL);
    return 0;
}
