/* testutil.c — see testutil.h. */
#define _GNU_SOURCE
#include "testutil.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef ECOPT_VECTORS_DIR
#error "compile with -DECOPT_VECTORS_DIR=\"<path to shared/vectors>\""
#endif

/* ---- PRNG ---- */

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void tu_rng_seed(tu_rng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t tu_rng_u64(tu_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t tu_rng_below(tu_rng *r, uint64_t n) { return tu_rng_u64(r) % n; }

void tu_rng_bytes(tu_rng *r, uint8_t *out, size_t n) {
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w = tu_rng_u64(r);
        for (size_t j = 0; j < 8 && i + j < n; j++) out[i + j] = (uint8_t)(w >> (8 * j));
    }
}

void tu_rng_bytes_density(tu_rng *r, uint8_t *out, size_t n) {
    /* One density choice per call (so whole inputs are sparse or dense), refined per word. */
    unsigned style = (unsigned)tu_rng_below(r, 6);
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w;
        unsigned pick = (style == 5) ? (unsigned)tu_rng_below(r, 5) : style;
        switch (pick) {
        case 0: w = 0; break;
        case 1: w = ~(uint64_t)0; break;
        case 2: w = tu_rng_u64(r) & tu_rng_u64(r) & tu_rng_u64(r); break; /* sparse */
        case 3: w = tu_rng_u64(r) | tu_rng_u64(r) | tu_rng_u64(r); break; /* dense */
        default: w = tu_rng_u64(r); break;
        }
        /* Sometimes a word that is all ones or zeros except one random bit. */
        if (tu_rng_below(r, 8) == 0) w ^= (uint64_t)1 << tu_rng_below(r, 64);
        for (size_t j = 0; j < 8 && i + j < n; j++) out[i + j] = (uint8_t)(w >> (8 * j));
    }
}

/* ---- hex ---- */

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

long tu_hex_decode(uint8_t *out, size_t cap, const char *hex) {
    size_t len = strlen(hex);
    if (len % 2 != 0 || len / 2 > cap) return -1;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hexval((unsigned char)hex[2 * i]), lo = hexval((unsigned char)hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(len / 2);
}

uint8_t *tu_hex_alloc(const char *hex, size_t *len) {
    size_t cap = strlen(hex) / 2 + 1;
    uint8_t *p = malloc(cap);
    if (p == NULL) return NULL;
    long n = tu_hex_decode(p, cap, hex);
    if (n < 0) {
        free(p);
        return NULL;
    }
    *len = (size_t)n;
    return p;
}

void tu_hex_print(const char *label, const uint8_t *p, size_t n) {
    fprintf(stderr, "  %s (%zu bytes): ", label, n);
    for (size_t i = 0; i < n; i++) fprintf(stderr, "%02x", p[i]);
    fprintf(stderr, "\n");
}

/* ---- options ---- */

static int parse_u64(const char *s, uint64_t *v) {
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno != 0 || *s == '\0' || *end != '\0') return -1;
    *v = (uint64_t)x;
    return 0;
}

void tu_parse_opts(tu_opts *o, int argc, char **argv, long default_iters) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    o->seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
    o->iters = default_iters;
    o->argc = 0;
    o->argv = argv + 1;
    for (int i = 1; i < argc; i++) {
        uint64_t v;
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            if (parse_u64(argv[++i], &o->seed) != 0) goto bad;
        } else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc) {
            if (parse_u64(argv[++i], &v) != 0 || v > 1000000000ULL) goto bad;
            o->iters = (long)v;
        } else if (strncmp(argv[i], "--", 2) == 0 && strcmp(argv[i], "--") != 0) {
            goto bad;
        } else {
            o->argv[o->argc++] = argv[i];
        }
        continue;
    bad:
        fprintf(stderr, "%s: bad option '%s' (usage: %s [--seed N] [--iters N] [args])\n", argv[0], argv[i], argv[0]);
        exit(2);
    }
    printf("%s: seed %llu iters %ld (rerun with --seed %llu)\n", argv[0], (unsigned long long)o->seed, o->iters,
           (unsigned long long)o->seed);
    fflush(stdout);
}

/* ---- failures ---- */

long tu_failures = 0;

void tu_fail(const char *fmt, ...) {
    tu_failures++;
    if (tu_failures > 50) {
        if (tu_failures == 51) fprintf(stderr, "(further failures counted, not printed)\n");
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

int tu_expect_bytes(const char *label, const uint8_t *got, const uint8_t *want, size_t n) {
    if (memcmp(got, want, n) == 0) return 0;
    tu_fail("%s: bytes differ", label);
    if (tu_failures <= 50) {
        tu_hex_print("got ", got, n);
        tu_hex_print("want", want, n);
    }
    return 1;
}

int tu_finish(const char *prog) {
    if (tu_failures == 0) {
        printf("%s: OK\n", prog);
        return 0;
    }
    printf("%s: %ld failure(s)\n", prog, tu_failures);
    return 1;
}

/* ---- environment ---- */

const char *tu_requested_backend(void) {
    const char *b = getenv("ECOPT_BACKEND");
    if (b == NULL || *b == '\0') {
        fprintf(stderr, "FAIL: ECOPT_BACKEND is not set; this suite runs once per backend (set it in ctest)\n");
        exit(1);
    }
    return b;
}

/* ---- files ---- */

const char *tu_vector_path(const char *rel) {
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", ECOPT_VECTORS_DIR, rel);
    return buf;
}

void *tu_load_json(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "FAIL: cannot open %s: %s\n", path, strerror(errno));
        exit(1);
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (buf == NULL) abort();
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (len < cap - 1) break;
        cap *= 2;
        buf = realloc(buf, cap);
    }
    fclose(f);
    buf[len] = '\0';
    cJSON *j = cJSON_Parse(buf);
    free(buf);
    if (j == NULL) {
        fprintf(stderr, "FAIL: %s is not valid JSON\n", path);
        exit(1);
    }
    return j;
}

const char *tu_json_str(const void *obj, const char *key) {
    const cJSON *m = cJSON_GetObjectItemCaseSensitive((const cJSON *)obj, key);
    if (m != NULL && cJSON_IsNull(m)) return NULL;
    if (m == NULL || !cJSON_IsString(m)) {
        fprintf(stderr, "FAIL: vector file: member '%s' missing or not a string\n", key);
        exit(1);
    }
    return m->valuestring;
}

void tu_json_hex_fixed(uint8_t *out, size_t n, const void *obj, const char *key) {
    const char *h = tu_json_str(obj, key);
    if (h == NULL || tu_hex_decode(out, n, h) != (long)n) {
        fprintf(stderr, "FAIL: vector file: member '%s' is not %zu bytes of hex\n", key, n);
        exit(1);
    }
}
