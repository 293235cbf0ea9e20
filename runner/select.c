/* select.c - case selection: filters, --shard slicing, and the expectations (known failures) file. */
#include "select.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_ref.h"

int br_filter_add(br_filter *f, int kind, const char *value)
{
    const char **v = realloc(f->v[kind], (f->n[kind] + 1) * sizeof *v);
    if (v == NULL) return -1;
    v[f->n[kind]++] = value;
    f->v[kind] = v;
    return 0;
}

void br_filter_free(br_filter *f)
{
    for (int k = 0; k < BR_F_KINDS; k++) free(f->v[k]);
    memset(f, 0, sizeof *f);
}

int br_glob_match(const char *pattern, const char *s)
{
    return strcmp(pattern, s) == 0 || fnmatch(pattern, s, 0) == 0;
}

int br_filter_match(const br_filter *f, const br_case *c)
{
    int ok;
    if (f->n[BR_F_SUITE] == 0) {
        if (strcmp(c->suite, "large") == 0) return 0;
    } else {
        ok = 0;
        for (size_t i = 0; i < f->n[BR_F_SUITE] && !ok; i++) ok = strcmp(f->v[BR_F_SUITE][i], c->suite) == 0;
        if (!ok) return 0;
    }
    if (f->n[BR_F_TAG]) {
        ok = 0;
        for (size_t i = 0; i < f->n[BR_F_TAG] && !ok; i++) ok = br_has_word(c->tags, f->v[BR_F_TAG][i]);
        if (!ok) return 0;
    }
    if (f->n[BR_F_OP]) {
        ok = 0;
        for (size_t i = 0; i < f->n[BR_F_OP] && !ok; i++) ok = strcmp(f->v[BR_F_OP][i], bc_op_name(c->op)) == 0;
        if (!ok) return 0;
    }
    if (f->n[BR_F_DTYPE]) {
        ok = 0;
        for (size_t i = 0; i < f->n[BR_F_DTYPE] && !ok; i++) {
            int d = bc_dtype_from_name(f->v[BR_F_DTYPE][i]);
            for (int a = 0; a < c->nargs && !ok; a++) ok = c->args[a].dtype == d;
            for (int e = 0; e < c->nexpect && !ok; e++)
                ok = c->expect[e].status == BCT_OK && c->expect[e].dtype == d;
        }
        if (!ok) return 0;
    }
    if (f->n[BR_F_ID]) {
        ok = 0;
        for (size_t i = 0; i < f->n[BR_F_ID] && !ok; i++) ok = br_glob_match(f->v[BR_F_ID][i], c->id);
        if (!ok) return 0;
    }
    return 1;
}

int br_parse_shard(const char *s, long *k, long *n)
{
    char *e;
    errno = 0;
    long a = strtol(s, &e, 10);
    if (e == s || *e != '/' || errno) return -1;
    const char *s2 = e + 1;
    long b = strtol(s2, &e, 10);
    if (e == s2 || *e != '\0' || errno) return -1;
    if (b < 1 || a < 1 || a > b) return -1;
    *k = a;
    *n = b;
    return 0;
}

int br_shard_keeps(size_t i, long k, long n)
{
    return (long)(i % (size_t)n) == k - 1;
}

static int is_glob(const char *s) { return strpbrk(s, "*?[") != NULL; }
static const br_expectations *sort_x;
static int cmp_exact(const void *a, const void *b)
{
    return strcmp(sort_x->v[*(const size_t *)a].glob, sort_x->v[*(const size_t *)b].glob);
}

int br_expectations_parse(br_expectations *x, const char *name, char *buf, br_err *err)
{
    x->buf = buf;
    size_t cap = 0;
    int line = 0;
    char *s = buf;
    while (*s) {
        char *l = s;
        char *e = strchr(s, '\n');
        if (e) { *e = '\0'; s = e + 1; } else s += strlen(s);
        line++;
        size_t ll = strlen(l);
        if (ll && l[ll - 1] == '\r') l[--ll] = '\0';
        while (*l == ' ' || *l == '\t') l++;
        if (*l == '\0' || *l == '#') continue;
        char *g = l;
        while (*l && *l != ' ' && *l != '\t') l++;
        if (*l) { *l++ = '\0'; while (*l == ' ' || *l == '\t') l++; }
        for (const char *q = g; *q; q++)
            if ((unsigned char)*q < 0x20) {
                snprintf(err->msg, sizeof err->msg, "%s:%d: control character in the id", name, line);
                return -1;
            }
        if (x->n == cap) {
            cap = cap ? cap * 2 : 64;
            br_expectation *v = realloc(x->v, cap * sizeof *v);
            if (v == NULL) { snprintf(err->msg, sizeof err->msg, "%s: out of memory", name); return -1; }
            x->v = v;
        }
        x->v[x->n].glob = g;
        x->v[x->n].reason = l;
        x->v[x->n].line = line;
        x->n++;
    }
    x->exact = malloc((x->n ? x->n : 1) * sizeof *x->exact);
    if (x->exact == NULL) { snprintf(err->msg, sizeof err->msg, "%s: out of memory", name); return -1; }
    for (size_t i = 0; i < x->n; i++) if (!is_glob(x->v[i].glob)) x->exact[x->nexact++] = i;
    sort_x = x;
    qsort(x->exact, x->nexact, sizeof *x->exact, cmp_exact);
    return 0;
}

int br_expectations_load(br_expectations *x, const char *path, br_err *err)
{
    size_t len;
    char *b = br_read_file(path, &len);
    if (b == NULL) { snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno)); return -1; }
    if (memchr(b, '\0', len) != NULL) {
        free(b);
        snprintf(err->msg, sizeof err->msg, "%s:1: binary data (NUL byte)", path);
        return -1;
    }
    return br_expectations_parse(x, path, b, err);
}

/* A baseline can list thousands of ids: exact ids are found by binary
 * search, and only real globs are tried one by one. */
const char *br_expectations_find(const br_expectations *x, const char *id, int *exact)
{
    if (exact != NULL) *exact = 0;
    size_t lo = 0, hi = x->nexact;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(x->v[x->exact[mid]].glob, id);
        if (c == 0) {
            if (exact != NULL) *exact = 1;
            return x->v[x->exact[mid]].reason;
        }
        if (c < 0) lo = mid + 1; else hi = mid;
    }
    for (size_t i = 0; i < x->n; i++)
        if (is_glob(x->v[i].glob) && br_glob_match(x->v[i].glob, id)) {
            /* an id that itself holds glob characters may also be listed literally */
            if (exact != NULL) *exact = strcmp(x->v[i].glob, id) == 0;
            return x->v[i].reason;
        }
    return NULL;
}

void br_expectations_free(br_expectations *x)
{
    free(x->exact);
    free(x->v);
    free(x->buf);
    memset(x, 0, sizeof *x);
}
