/* baseline.c — see baseline.h. */
#define _GNU_SOURCE
#include "search/baseline.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emit/emit_c.h"

extern char **environ;

static const char *const baseline_files[] = {"f.c", "f.so", "cc.err", "cc.ver"};

/* Run argv (argv[0] looked up in PATH) with stdout and stderr into files (NULL: /dev/null). Returns the exit
 * status (0..255), 1000 when it died of a signal, or -1 when it could not start (errno kept). */
static int run(char *const *argv, const char *out_path, const char *err_path) {
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return -1;
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, err_path ? err_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    return 1000;
}

/* The first non-empty line of path into buf (size n), "" if none. */
static void first_line(const char *path, char *buf, size_t n) {
    buf[0] = 0;
    FILE *fp = fopen(path, "r");
    if (fp == NULL)
        return;
    char line[1024];
    while (fgets(line, sizeof line, fp) != NULL) {
        size_t k = strlen(line);
        while (k > 0 && (line[k - 1] == '\n' || line[k - 1] == '\r'))
            line[--k] = 0;
        if (k > 0) {
            snprintf(buf, n, "%s", line);
            break;
        }
    }
    fclose(fp);
}

static int known_cc(const char *cc) { return cc != NULL && (strcmp(cc, "gcc") == 0 || strcmp(cc, "clang") == 0); }

int baseline_cc_available(const char *cc) {
    if (cc == NULL || cc[0] == 0)
        return 0;
    char *argv[] = {(char *)cc, (char *)"--version", NULL};
    return run(argv, NULL, NULL) == 0;
}

/* Remove the temporary files (those that exist) and the directory; b->dir becomes "". */
static void remove_dir(baseline *b) {
    if (!b->dir[0])
        return;
    char path[300];
    for (size_t i = 0; i < sizeof baseline_files / sizeof baseline_files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", b->dir, baseline_files[i]);
        unlink(path);
    }
    rmdir(b->dir);
    b->dir[0] = 0;
}

void baseline_free(baseline *b) {
    if (b == NULL)
        return;
    if (b->dl != NULL)
        dlclose(b->dl);
    remove_dir(b);
    memset(b, 0, sizeof *b);
}

int baseline_build(const ir_func *f, const char *cc, baseline *out, char *err, size_t errlen) {
    if (out == NULL) {
        snprintf(err, errlen, "baseline: no output");
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (f == NULL) {
        snprintf(err, errlen, "baseline: no function");
        return -1;
    }
    if (!known_cc(cc)) {
        snprintf(err, errlen, "baseline: unknown compiler `%.40s` (gcc or clang)", cc ? cc : "(null)");
        return -1;
    }
    char eerr[512];
    char *csrc = emit_c(f, NULL, eerr, sizeof eerr);
    if (csrc == NULL) {
        snprintf(err, errlen, "baseline: %s", eerr);
        return -1;
    }
    snprintf(out->cc, sizeof out->cc, "%s", cc);
    snprintf(out->flags, sizeof out->flags, "%s", BASELINE_FLAGS);
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || tmp[0] == 0 || strlen(tmp) > 180)
        tmp = "/tmp";
    snprintf(out->dir, sizeof out->dir, "%s/ecopt-baseline-XXXXXX", tmp);
    if (mkdtemp(out->dir) == NULL) {
        snprintf(err, errlen, "baseline: mkdtemp %s: %s", out->dir, strerror(errno));
        out->dir[0] = 0;
        free(csrc);
        baseline_free(out);
        return -1;
    }
    char cpath[300], sopath[300], errpath[300], verpath[300];
    snprintf(cpath, sizeof cpath, "%s/f.c", out->dir);
    snprintf(sopath, sizeof sopath, "%s/f.so", out->dir);
    snprintf(errpath, sizeof errpath, "%s/cc.err", out->dir);
    snprintf(verpath, sizeof verpath, "%s/cc.ver", out->dir);
    FILE *fp = fopen(cpath, "w");
    size_t clen = strlen(csrc);
    if (fp == NULL || fwrite(csrc, 1, clen, fp) != clen || fclose(fp) != 0) {
        snprintf(err, errlen, "baseline: cannot write %s: %s", cpath, strerror(errno));
        if (fp != NULL)
            fclose(fp);
        free(csrc);
        baseline_free(out);
        return -1;
    }
    free(csrc);

    char *vargv[] = {(char *)cc, (char *)"--version", NULL};
    int rc = run(vargv, verpath, NULL);
    if (rc < 0) {
        snprintf(err, errlen, "baseline: %s not found (%s)", cc, strerror(errno));
        baseline_free(out);
        return -1;
    }
    first_line(verpath, out->version, sizeof out->version);

    char *argv[] = {(char *)cc,   (char *)"-O3", (char *)"-march=native", (char *)"-mtune=native", (char *)"-fPIC",
                    (char *)"-shared", (char *)"-o", sopath, cpath, NULL};
    rc = run(argv, NULL, errpath);
    if (rc != 0) {
        char line[400];
        first_line(errpath, line, sizeof line);
        if (rc < 0)
            snprintf(err, errlen, "baseline: %s not found (%s)", cc, strerror(errno));
        else if (rc == 1000)
            snprintf(err, errlen, "baseline: %s killed by a signal: %s", cc, line[0] ? line : "(no message)");
        else
            snprintf(err, errlen, "baseline: %s failed (exit %d): %s", cc, rc, line[0] ? line : "(no message)");
        baseline_free(out);
        return -1;
    }
    dlerror();
    out->dl = dlopen(sopath, RTLD_NOW | RTLD_LOCAL);
    /* The files go at once, the .so too: the loader keeps its mapping (an unlinked file stays until unmapped), so
     * nothing is left in $TMPDIR when the process is killed later (SIGINT during a search). */
    remove_dir(out);
    if (out->dl == NULL) {
        const char *d = dlerror();
        snprintf(err, errlen, "baseline: dlopen: %s", d ? d : "failed");
        baseline_free(out);
        return -1;
    }
    dlerror();
    void *sym = dlsym(out->dl, f->name);
    if (sym == NULL) {
        snprintf(err, errlen, "baseline: the %s code has no symbol %s", cc, f->name);
        baseline_free(out);
        return -1;
    }
    /* POSIX guarantees a data pointer from dlsym converts to a function pointer; C11 needs the memcpy. */
    memcpy(&out->fn, &sym, sizeof sym);
    return 0;
}
