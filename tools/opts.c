/* opts.c — command-line options shared by the ecopt subcommands (declared in cli.h). */
#define _XOPEN_SOURCE 700

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Parse args against opts; positional arguments go to pos (at most maxpos). Returns CLI_OK, CLI_PARSE_HELP when
 * -h/--help was given, or CLI_USAGE after printing why. Accepts "--long=value" and "--" (end of options). */
int cli_parse_opts(int argc, char **argv, cli_opt *opts, size_t nopts, const char **pos, size_t maxpos,
                      size_t *npos)
{
    int i, only_pos = 0;
    *npos = 0;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = NULL;
        size_t j, namelen;
        cli_opt *o = NULL;

        if (only_pos || a[0] != '-' || strcmp(a, "-") == 0) {
            if (*npos == maxpos)
                return cli_fail(CLI_USAGE, a, "unexpected argument (see 'ecopt %s --help')", cli_cmd);
            pos[(*npos)++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_pos = 1;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return CLI_PARSE_HELP;
        if (a[1] == '-') {
            eq = strchr(a, '=');
        }
        namelen = eq ? (size_t)(eq - a) : strlen(a);
        for (j = 0; j < nopts; j++) {
            const char *n = a[1] == '-' ? opts[j].longname : opts[j].shortname;
            if (n != NULL && strlen(n) == namelen && strncmp(n, a, namelen) == 0) {
                o = &opts[j];
                break;
            }
        }
        if (o == NULL)
            return cli_fail(CLI_USAGE, a, "unknown option (see 'ecopt %s --help')", cli_cmd);
        if (o->given)
            return cli_fail(CLI_USAGE, o->longname, "given more than once");
        o->given = 1;
        if (!o->has_arg) {
            if (eq != NULL)
                return cli_fail(CLI_USAGE, o->longname, "takes no value");
            continue;
        }
        if (eq != NULL) {
            o->value = eq + 1;
        } else {
            if (i + 1 >= argc)
                return cli_fail(CLI_USAGE, a, "needs a value");
            o->value = argv[++i];
        }
    }
    return CLI_OK;
}

int cli_need(const cli_opt *o, const char *what)
{
    if (o->given)
        return CLI_OK;
    return cli_fail(CLI_USAGE, o->shortname ? o->shortname : o->longname, "missing: %s (see 'ecopt %s --help')",
                    what, cli_cmd);
}


/* The output must not be one of the inputs (the same file: st_dev and st_ino, through links too, and standard
 * input when an input is "-"): writing it would replace a key or a message the user still needs. */
int cli_out_not_input(const char *out, const cli_opt *a, const cli_opt *b, const cli_opt *c)
{
    const cli_opt *ins[3] = { a, b, c };
    struct stat so, si;
    size_t i;
    if (strcmp(out, "-") == 0 || stat(out, &so) != 0 || !S_ISREG(so.st_mode))
        return CLI_OK;
    for (i = 0; i < 3; i++) {
        const cli_opt *o = ins[i];
        int r;
        if (o == NULL || !o->given)
            continue;
        r = strcmp(o->value, "-") == 0 ? fstat(STDIN_FILENO, &si) : stat(o->value, &si);
        if (r == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino)
            return cli_fail(CLI_USAGE, out, "is also an input (%s %s); write the output to another file",
                            o->shortname ? o->shortname : o->longname,
                            strcmp(o->value, "-") == 0 ? "standard input" : o->value);
    }
    return CLI_OK;
}

