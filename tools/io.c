/* io.c — diagnostics, whole-file reads, atomic writes and hex for the ecopt command. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "cli.h"

const char *cli_cmd = "";

/* utf8_len — the length of the valid UTF-8 sequence at s (2 to 4 bytes, minimal, no surrogate, at most U+10FFFF),
 * or 0 */
static size_t utf8_len(const unsigned char *s, unsigned long *cp)
{
    size_t n;
    unsigned long v, min;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2, v = s[0] & 0x1fu, min = 0x80;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        n = 3, v = s[0] & 0x0fu, min = 0x800;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        n = 4, v = s[0] & 0x07u, min = 0x10000;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) /* also stops at the terminating NUL */
            return 0;
        v = v << 6 | (s[i] & 0x3fu);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return n;
}

/* Print s with control characters escaped (\n, \r, \t, else \xNN per byte), so that a file name, an argument or
 * an environment value holding them cannot break the message over several lines or drive the terminal: C0
 * controls and DEL, C1 controls (U+0080 to U+009F, whose UTF-8 bytes an 8-bit terminal would also read as
 * controls), and every byte that is not part of valid UTF-8 (a lone 0x9b is CSI to such a terminal). Other
 * UTF-8 text is printed as it is. */
static void put_escaped(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    while (*s != '\0') {
        unsigned char c = *s;
        unsigned long cp = 0;
        size_t n = c >= 0x80 ? utf8_len(s, &cp) : 0;
        if (n && cp >= 0xa0) {
            fwrite(s, 1, n, stderr);
            s += n;
            continue;
        }
        if (n) { /* a C1 control: both bytes escaped */
            for (size_t i = 0; i < n; i++)
                fprintf(stderr, "\\x%02x", s[i]);
            s += n;
            continue;
        }
        if (c == '\n')
            fputs("\\n", stderr);
        else if (c == '\r')
            fputs("\\r", stderr);
        else if (c == '\t')
            fputs("\\t", stderr);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(stderr, "\\x%02x", c);
        else
            fputc(c, stderr);
        s++;
    }
}

int cli_fail(int code, const char *what, const char *fmt, ...)
{
    va_list ap;
    char small[512], *msg = small;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof small) {
        char *big = malloc((size_t)n + 1);
        if (big != NULL) {
            va_start(ap, fmt);
            vsnprintf(big, (size_t)n + 1, fmt, ap);
            va_end(ap);
            msg = big;
        }
    }
    if (cli_cmd[0] != '\0')
        fprintf(stderr, "ecopt %s: ", cli_cmd);
    else
        fprintf(stderr, "ecopt: ");
    if (what != NULL) {
        put_escaped(what);
        fputs(": ", stderr);
    }
    put_escaped(n < 0 ? "(message could not be formatted)" : msg);
    fputc('\n', stderr);
    if (msg != small)
        free(msg);
    return code;
}

void cli_wipe(void *p, size_t n)
{
    if (p != NULL && n != 0)
        OPENSSL_cleanse(p, n);
}

/* ---- reading ----------------------------------------------------------------------------------------------- */

void cli_free_buffer(uint8_t *buf, size_t len, int secret)
{
    if (buf == NULL)
        return;
    if (secret)
        cli_wipe(buf, len);
    free(buf);
}

/* Grow *buf from *cap to at least need bytes. realloc would leave a copy of a secret in freed memory, so secret
 * buffers move by hand: allocate, copy, wipe the old one, free it. */
static int grow(uint8_t **buf, size_t *cap, size_t used, size_t need, int secret)
{
    size_t ncap = *cap ? *cap : 4096;
    uint8_t *nbuf;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return -1;
        ncap *= 2;
    }
    if (!secret) {
        nbuf = realloc(*buf, ncap);
        if (nbuf == NULL)
            return -1;
    } else {
        nbuf = malloc(ncap);
        if (nbuf == NULL)
            return -1;
        if (used)
            memcpy(nbuf, *buf, used);
        cli_free_buffer(*buf, *cap, 1);
    }
    *buf = nbuf;
    *cap = ncap;
    return 0;
}

int cli_read_file(const char *path, size_t max, int secret, const char *what_max, uint8_t **out, size_t *outlen)
{
    int is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "standard input" : path;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    uint8_t *buf = NULL;
    size_t cap = 0, len = 0;
    int rc = CLI_OK;

    *out = NULL;
    *outlen = 0;
    if (fd < 0)
        return cli_fail(CLI_USAGE, name, "cannot open: %s", strerror(errno));
    for (;;) {
        ssize_t n;
        /* Room for one more byte than max, so that an oversized file is seen without reading all of it. */
        if (len == cap && grow(&buf, &cap, len, len + 1, secret) != 0) {
            rc = cli_fail(CLI_ENV, name, "out of memory reading the file");
            break;
        }
        n = read(fd, buf + len, cap - len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            rc = cli_fail(CLI_USAGE, name, "cannot read: %s", strerror(errno));
            break;
        }
        if (n == 0)
            break;
        len += (size_t)n;
        if (max != 0 && len > max) {
            rc = cli_fail(CLI_USAGE, name, "too large for %s (over %zu bytes)", what_max, max);
            break;
        }
    }
    if (!is_stdin)
        close(fd);
    if (rc != CLI_OK) {
        cli_free_buffer(buf, cap, secret);
        return rc;
    }
    if (buf == NULL) { /* cannot happen (grow ran once), but keep *out non-NULL for callers */
        buf = malloc(1);
        if (buf == NULL)
            return cli_fail(CLI_ENV, name, "out of memory");
    }
    /* Bytes past len were never written, so cli_free_buffer(buf, len, secret) wipes every secret byte. */
    *out = buf;
    *outlen = len;
    return CLI_OK;
}

/* The size of each read of cli_sha512_file: large enough that the system calls cost nothing next to the hash,
 * small enough to stay on the stack. */
enum { SHA512_CHUNK = 64 * 1024 };

int cli_sha512_file(const char *path, uint8_t digest[64])
{
    int is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "standard input" : path;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    static uint8_t chunk[SHA512_CHUNK];
    EVP_MD_CTX *ctx;
    unsigned int dlen = 0;
    int rc = CLI_OK;

    memset(digest, 0, 64);
    if (fd < 0)
        return cli_fail(CLI_USAGE, name, "cannot open: %s", strerror(errno));
    ctx = EVP_MD_CTX_new();
    if (ctx == NULL || EVP_DigestInit_ex(ctx, EVP_sha512(), NULL) != 1) {
        rc = cli_fail(CLI_ENV, name, "libcrypto cannot provide SHA-512");
        goto out;
    }
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            rc = cli_fail(CLI_USAGE, name, "cannot read: %s", strerror(errno));
            goto out;
        }
        if (n == 0)
            break;
        if (EVP_DigestUpdate(ctx, chunk, (size_t)n) != 1) {
            rc = cli_fail(CLI_ENV, name, "SHA-512 failed in libcrypto");
            goto out;
        }
    }
    if (EVP_DigestFinal_ex(ctx, digest, &dlen) != 1 || dlen != 64) {
        memset(digest, 0, 64);
        rc = cli_fail(CLI_ENV, name, "SHA-512 failed in libcrypto");
    }
out:
    EVP_MD_CTX_free(ctx);
    if (!is_stdin)
        close(fd);
    return rc;
}

/* ---- writing ----------------------------------------------------------------------------------------------- */

/* The temporary file being written, removed by the signal handler; empty when there is none. */
static char tmp_path[PATH_MAX];
static volatile sig_atomic_t tmp_active;

static void on_signal(int sig)
{
    /* unlink, signal and raise are async-signal-safe. */
    if (tmp_active)
        unlink(tmp_path);
    signal(sig, SIG_DFL);
    raise(sig);
}

void cli_install_signal_cleanup(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa;
    size_t i;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

static int write_all(int fd, const uint8_t *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Write to an existing file that is not a regular file (a character or block device, a FIFO, a socket, a
 * terminal) through it, in place: no temporary file, no rename, never created. */
static int write_in_place(const char *path, const uint8_t *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return cli_fail(CLI_ENV, path, "cannot open for writing: %s", strerror(errno));
    if (write_all(fd, data, len) != 0) {
        int saved = errno;
        close(fd);
        return cli_fail(CLI_ENV, path, "cannot write: %s", strerror(saved));
    }
    if (close(fd) != 0)
        return cli_fail(CLI_ENV, path, "cannot write: %s", strerror(errno));
    return CLI_OK;
}

/* ---- names of this process's descriptors --------------------------------------------------------------------- */

/* A string of decimal digits without sign or leading zero (other than "0") that fits an int: *fd. */
static int parse_fd(const char *s, int *fd)
{
    long v = 0;
    if (s[0] < '0' || s[0] > '9' || (s[0] == '0' && s[1] != '\0'))
        return 0;
    for (; *s != '\0'; s++) {
        if (*s < '0' || *s > '9')
            return 0;
        v = v * 10 + (*s - '0');
        if (v > INT_MAX)
            return 0;
    }
    *fd = (int)v;
    return 1;
}

/* Whether p spells a descriptor of some process: /proc/<pid>/fd/N or /proc/<pid>/task/<tid>/fd/N. */
static int foreign_fd(const char *p)
{
    const char *q = p + 6;
    if (strncmp(p, "/proc/", 6) != 0 || *q < '0' || *q > '9')
        return 0;
    while (*q >= '0' && *q <= '9')
        q++;
    if (strncmp(q, "/task/", 6) == 0) {
        const char *t = q + 6;
        q = t;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q == t)
            return 0;
    }
    if (strncmp(q, "/fd/", 4) != 0)
        return 0;
    int fd;
    return parse_fd(q + 4, &fd);
}

/* Whether p spells one of this process's descriptors (1, *fd set), a descriptor of another process (-1), or
 * neither (0): /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/self/fd/N, /proc/thread-self/fd/N, /proc/<pid>/fd/N or /proc/<pid>/task/<tid>/fd/N with our pid. The
 * names are recognised by their spelling, not by looking them up, so that they mean the descriptor even where
 * /dev/stdout is missing or is not the usual link (a minimal container): writing there must never create or
 * replace a file of that name. Another process's descriptor names a file that process has open (a shell's log
 * through /proc/$$/fd/1): resolving it and renaming over it would lose what that process wrote, and writing
 * through it cannot keep that process's offset or append mode, so it is refused. */
static int spelled_fd(const char *p, int *fd)
{
    static const char *const prefixes[] = { "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/" };
    char own[64];
    size_t i, n;
    if (strcmp(p, "/dev/stdin") == 0)
        return *fd = 0, 1;
    if (strcmp(p, "/dev/stdout") == 0)
        return *fd = 1, 1;
    if (strcmp(p, "/dev/stderr") == 0)
        return *fd = 2, 1;
    for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        n = strlen(prefixes[i]);
        if (strncmp(p, prefixes[i], n) == 0)
            return parse_fd(p + n, fd);
    }
    n = (size_t)snprintf(own, sizeof own, "/proc/%ld/", (long)getpid());
    if (strncmp(p, own, n) != 0 && foreign_fd(p))
        return -1;
    if (strncmp(p, own, n) == 0) {
        const char *rest = p + n;
        if (strncmp(rest, "fd/", 3) == 0)
            return parse_fd(rest + 3, fd);
        if (strncmp(rest, "task/", 5) == 0) {
            const char *q = rest + 5;
            while (*q >= '0' && *q <= '9')
                q++;
            if (q > rest + 5 && strncmp(q, "/fd/", 4) == 0)
                return parse_fd(q + 4, fd);
        }
    }
    return 0;
}

int cli_path_fd(const char *path, int *fd)
{
    char cur[PATH_MAX], next[PATH_MAX], dir[PATH_MAX], rdir[PATH_MAX], joined[2 * PATH_MAX + 2];
    int hop;
    if (strlen(path) >= sizeof cur)
        return 0;
    strcpy(cur, path);
    /* Follow the chain of symbolic links one step at a time; at each step the name, or its directory resolved
     * (/dev/fd is itself a link to /proc/self/fd, and /proc/self to /proc/<pid>), may spell a descriptor. 40 is
     * the kernel's limit on links in one lookup (MAXSYMLINKS). */
    for (hop = 0; hop < 40; hop++) {
        const char *slash, *base;
        struct stat lst;
        ssize_t n;
        int sp = spelled_fd(cur, fd);
        if (sp != 0)
            return sp;
        slash = strrchr(cur, '/');
        base = slash ? slash + 1 : cur;
        if (slash == cur)
            snprintf(dir, sizeof dir, "/");
        else if (slash)
            snprintf(dir, sizeof dir, "%.*s", (int)(slash - cur), cur);
        else
            snprintf(dir, sizeof dir, ".");
        if (realpath(dir, rdir) != NULL) {
            snprintf(joined, sizeof joined, "%s/%s", strcmp(rdir, "/") == 0 ? "" : rdir, base);
            sp = spelled_fd(joined, fd);
            if (sp != 0)
                return sp;
        }
        if (lstat(cur, &lst) != 0 || !S_ISLNK(lst.st_mode))
            return 0;
        n = readlink(cur, next, sizeof next - 1);
        if (n < 0 || (size_t)n >= sizeof next - 1)
            return 0;
        next[n] = '\0';
        if (next[0] == '/' || slash == NULL) {
            strcpy(cur, next);
        } else {
            if (snprintf(joined, sizeof joined, "%s/%s", dir, next) >= (int)sizeof cur)
                return 0;
            strcpy(cur, joined);
        }
    }
    return 0;
}

/* Write to descriptor fd, which the caller (the shell) opened: at its offset and with its flags (O_APPEND kept),
 * never truncated, closed, created or renamed, exactly as "-" writes to standard output. */
static int write_fd(const char *name, int fd, const uint8_t *data, size_t len)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0)
        return cli_fail(CLI_ENV, name, "cannot write: descriptor %d is not open (%s)", fd, strerror(errno));
    if ((fl & O_ACCMODE) == O_RDONLY)
        return cli_fail(CLI_ENV, name, "cannot write: descriptor %d is open for reading only", fd);
    if (fd == STDOUT_FILENO)
        fflush(stdout); /* keep order with anything printed through stdio */
    if (write_all(fd, data, len) != 0)
        return cli_fail(CLI_ENV, name, "cannot write: %s", strerror(errno));
    return CLI_OK;
}

/* The file a temporary file is renamed over: the target, or what a symbolic link to it resolves to. */
static char target_buf[PATH_MAX];

int cli_write_file(const char *user_path, const uint8_t *data, size_t len, int secret)
{
    const char *slash, *path = user_path;
    size_t dirlen;
    int fd, saved;
    sigset_t block, old;
    struct stat st, lst;

    if (strcmp(user_path, "-") == 0) {
        fflush(stdout); /* keep order with anything printed through stdio */
        if (write_all(STDOUT_FILENO, data, len) != 0)
            return cli_fail(CLI_ENV, "standard output", "cannot write: %s", strerror(errno));
        return CLI_OK;
    }

    /* A name of one of our descriptors (/dev/stdout, /dev/fd/N, /proc/self/fd/N, or a link to one) is the
     * descriptor the caller opened, also when it leads to a regular file: resolving it and renaming a
     * temporary file over the target would replace the caller's file (a ">>" log would lose its lines). */
    {
        int ufd, sp = cli_path_fd(user_path, &ufd);
        if (sp > 0)
            return write_fd(user_path, ufd, data, len);
        if (sp < 0)
            return cli_fail(CLI_USAGE, user_path, "a descriptor of another process: not written (use -o - or a file name)");
    }

    /* What the name stands for (following symbolic links): a directory is an error, anything else that is not a
     * regular file is written through, and a symbolic link to a regular file gets its target replaced. */
    if (stat(user_path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return cli_fail(CLI_ENV, user_path, "cannot write: %s", strerror(EISDIR));
        if (!S_ISREG(st.st_mode))
            return write_in_place(user_path, data, len);
        if (lstat(user_path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
            if (realpath(user_path, target_buf) == NULL)
                return cli_fail(CLI_ENV, user_path, "cannot resolve the symbolic link: %s", strerror(errno));
            path = target_buf;
        }
    } else {
        /* A link that does not resolve (missing target, or a loop) is left alone, never replaced. */
        int err = errno;
        if (lstat(user_path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
            if (err == ENOENT)
                return cli_fail(CLI_ENV, user_path, "cannot write: a symbolic link to a missing file");
            return cli_fail(CLI_ENV, user_path, "cannot resolve the symbolic link: %s", strerror(err));
        }
    }

    /* "<dir>/.<name>.XXXXXX" next to the target, so that rename() stays within one file system. */
    slash = strrchr(path, '/');
    dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    if (path[dirlen] == '\0')
        return cli_fail(CLI_ENV, user_path, "cannot write: not a file name");
    if (snprintf(tmp_path, sizeof tmp_path, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen) >=
        (int)sizeof tmp_path)
        return cli_fail(CLI_ENV, user_path, "cannot write: file name too long");

    /* Block the cleanup signals while the name is registered, so the handler never sees a half-made state. */
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &old);
    fd = mkstemp(tmp_path); /* mode 0600 */
    saved = errno;
    if (fd >= 0)
        tmp_active = 1;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fd < 0)
        return cli_fail(CLI_ENV, user_path, "cannot create a file in that directory: %s", strerror(saved));

    if (!secret) {
        mode_t mask = umask(0);
        umask(mask);
        if (fchmod(fd, 0666 & ~mask) != 0)
            goto fail;
    }
    if (write_all(fd, data, len) != 0 || fsync(fd) != 0)
        goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (rename(tmp_path, path) != 0)
        goto fail;
    tmp_active = 0;
    /* Make the rename itself durable; a failure here does not undo the write, so it is not an error. */
    {
        char dir[PATH_MAX];
        int dfd;
        snprintf(dir, sizeof dir, "%.*s", dirlen ? (int)dirlen : 1, dirlen ? path : ".");
        dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
    }
    return CLI_OK;

fail:
    saved = errno;
    if (fd >= 0)
        close(fd);
    sigprocmask(SIG_BLOCK, &block, &old);
    unlink(tmp_path);
    tmp_active = 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
    return cli_fail(CLI_ENV, user_path, "cannot write: %s", strerror(saved));
}

/* ---- hex --------------------------------------------------------------------------------------------------- */

void cli_hex_encode(char *out, const uint8_t *in, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < len; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * len] = '\0';
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int cli_hex_decode(uint8_t *out, const char *in, size_t inlen)
{
    size_t i;
    if (inlen % 2 != 0)
        return -1;
    for (i = 0; i < inlen; i += 2) {
        int hi = hex_digit(in[i]), lo = hex_digit(in[i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i / 2] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}
