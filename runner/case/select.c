/* select.c - case selection: filters, their validation against the case set, and --shard slicing. */
#include "case/select.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_ref.h"
#include "base/util.h"

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
        /* opt-in suite: large (gigabytes) */
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

int br_shard_keeps(const char *id, long k, long n)
{
    return (long)(br_fnv1a64(BR_FNV_BASIS, id, strlen(id)) % (uint64_t)n) == k - 1;
}


/* Whether any case of the set has this suite / tag / id (glob). */
static int set_has(const br_caseset *cs, int kind, const char *v)
{
    for (size_t i = 0; i < cs->n; i++) {
        const br_case *c = &cs->cases[i];
        if (kind == BR_F_SUITE ? strcmp(c->suite, v) == 0
            : kind == BR_F_TAG ? br_has_word(c->tags, v) : br_glob_match(v, c->id)) return 1;
    }
    return 0;
}

/* The distinct suites of the set, ", "-separated, into buf. */
static void list_suites(const br_caseset *cs, char *buf, size_t cap)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < cs->n; i++) {
        const char *s = cs->cases[i].suite;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) seen = strcmp(cs->cases[j].suite, s) == 0;
        if (seen || o + strlen(s) + 3 >= cap) continue;
        o += (size_t)snprintf(buf + o, cap - o, "%s%s", o ? ", " : "", s);
    }
}

int br_filter_validate(const br_filter *f, const br_caseset *cs, char *err, size_t cap)
{
    static const int kinds[] = { BR_F_SUITE, BR_F_TAG, BR_F_ID };
    static const char *const names[] = { "--suite", "--tag", "--id" };
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < f->n[kinds[k]]; i++) {
            const char *v = f->v[kinds[k]][i];
            if (set_has(cs, kinds[k], v)) continue;
            if (kinds[k] == BR_F_SUITE) {
                char suites[600];
                list_suites(cs, suites, sizeof suites);
                snprintf(err, cap, "--suite '%s' names no suite of the case set (its suites: %s)", v, suites);
            } else {
                snprintf(err, cap, "%s '%s' matches no case of the case set", names[k], v);
            }
            return -1;
        }
    return 0;
}

void br_filter_describe(const br_filter *f, char *buf, size_t cap)
{
    static const char *const names[BR_F_KINDS] = { "--suite", "--tag", "--op", "--dtype", "--id" };
    size_t o = 0;
    buf[0] = '\0';
    for (int k = 0; k < BR_F_KINDS; k++)
        for (size_t i = 0; i < f->n[k] && o + 8 < cap; i++)
            o += (size_t)snprintf(buf + o, cap - o, "%s%s %s", o ? " " : "", names[k], f->v[k][i]);
    if (o == 0) snprintf(buf, cap, "(no filter)");
}
