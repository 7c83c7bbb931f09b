/* ladder_prog.c — the ladder step with its callees, for the tests (ladder_prog.h). */
#include "ladder_prog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"

/* append — t (NUL-terminated) and a newline to *text (length *len); -1 when memory runs out */
static int append(char **text, size_t *len, const char *t, size_t tl)
{
    char *nt = realloc(*text, *len + tl + 2);
    if (!nt)
        return -1;
    memcpy(nt + *len, t, tl);
    *len += tl;
    nt[(*len)++] = '\n';
    nt[*len] = 0;
    *text = nt;
    return 0;
}

ir_func *ladder_prog_load(const char *ladder_path, char *err, size_t errlen)
{
    static const struct {
        ir_kind op;
        const char *name;
    } callees[] = { { IR_KIND_MUL, "fe_mul" }, { IR_KIND_SQUARE, "fe_sq" }, { IR_KIND_ADD, "fe_add" },
                    { IR_KIND_SUB, "fe_sub" } };
    char *text = NULL;
    size_t len = 0;
    for (size_t i = 0; i < sizeof callees / sizeof callees[0]; i++) {
        gen_spec spec = { .prime = "2^255-19", .method = GEN_SOLINAS_UNSATURATED, .limbs = 5, .op = callees[i].op,
                          .name = callees[i].name };
        char gerr[512];
        ir_func *g = gen_build(&spec, gerr, sizeof gerr);
        if (!g) {
            snprintf(err, errlen, "gen 2^255-19 %s: %s", callees[i].name, gerr);
            free(text);
            return NULL;
        }
        char *t = ir_print(g);
        ir_func_free(g);
        if (!t || append(&text, &len, t, strlen(t)) != 0) {
            free(t);
            free(text);
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        free(t);
    }
    FILE *fp = fopen(ladder_path, "rb");
    char *file = NULL;
    long fl = -1;
    if (fp && fseek(fp, 0, SEEK_END) == 0 && (fl = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0 &&
        (file = malloc((size_t)fl + 1)) && fread(file, 1, (size_t)fl, fp) == (size_t)fl)
        file[fl] = 0;
    else
        fl = -1;
    int eno = errno;
    if (fp)
        fclose(fp);
    if (fl < 0 || append(&text, &len, file, (size_t)fl) != 0) {
        snprintf(err, errlen, "%s: %s", ladder_path, fl < 0 ? strerror(eno) : "out of memory");
        free(file);
        free(text);
        return NULL;
    }
    free(file);
    char perr[1024];
    ir_func *f = ir_parse(text, perr, sizeof perr);
    free(text);
    if (!f)
        snprintf(err, errlen, "ladder step: ir_parse: %s", perr);
    return f;
}
