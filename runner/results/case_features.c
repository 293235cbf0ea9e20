/* case_features.c - what a case exercises, as words: the raw material of finding signatures (docs/findings.md). */
#include "results/case_features.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_ref.h"
#include "case/view.h"

typedef struct words { char v[64][32]; int n; } words;

/* Adds fmt (text, then "%s" at its end, or just "%s") with arg for the %s,
 * cut to 31 characters as snprintf would, unless the word is there already.
 * Written out: one snprintf per word was most of this file's time. */
static void add(words *w, const char *fmt, const char *arg)
{
    if (w->n >= 64) return;
    char *v = w->v[w->n];
    size_t o = 0, max = sizeof w->v[0] - 1;
    for (const char *f = fmt; *f && !(f[0] == '%' && f[1] == 's') && o < max; f++) v[o++] = *f;
    for (const char *a = arg; *a && o < max; a++) v[o++] = *a;
    v[o] = '\0';
    for (int i = 0; i < w->n; i++) if (strcmp(w->v[i], w->v[w->n]) == 0) return;
    w->n++;
}

static const char *family(int dtype)
{
    switch (dtype) {
    case BCT_BOOL: return "bool";
    case BCT_F32: case BCT_F64: return "float";
    case BCT_NONE: return "shape";
    default: return "int";
    }
}

static const char *rank_band(int r)
{
    /* 33+: above NumPy's limit of 32 (B15) */
    return r == 0 ? "rank:0" : r <= 2 ? "rank:1-2" : r <= 4 ? "rank:3-4" : r <= 8 ? "rank:5-8" : r <= 32 ? "rank:9-32" : "rank:33+";
}

/* The layout words of one operand with data. */
static void layout_words(words *w, const br_arg *a)
{
    int zero = 0, neg = 0;
    for (int d = 0; d < a->rank; d++) {
        if (a->strides[d] == 0 && a->shape[d] > 1) zero = 1;
        if (a->strides[d] < 0 && a->shape[d] > 1) neg = 1;
    }
    if (zero) add(w, "stride0:%s", a->name);
    if (neg) add(w, "negative:%s", a->name);
    if (a->offset != 0) add(w, "offset:%s", a->name);
    if (!zero && !neg && !br_is_contiguous(a)) add(w, "noncontig:%s", a->name);
}

/* Which operands are stretched against the broadcast of all data operands
 * (the output's operands: for out= the out arg is not one of them). */
static void stretch_words(words *w, const br_case *c)
{
    int n = c->mode == BCT_MODE_OUT ? c->nargs - 1 : c->nargs, maxr = 0;
    int64_t ext[BC_MAX_RANK];
    for (int i = 0; i < n; i++) if (c->args[i].rank > maxr) maxr = c->args[i].rank;
    if (c->op == BCT_MATMUL || c->op == BCT_BROADCAST_SHAPES) return;
    for (int d = 0; d < maxr; d++) ext[d] = 1;
    for (int i = 0; i < n; i++) {
        const br_arg *a = &c->args[i];
        for (int d = 0; d < a->rank; d++) {
            int64_t e = a->shape[d];
            int64_t *t = &ext[maxr - a->rank + d];
            if (*t == 1 || (e != 1 && e > *t)) *t = e;
        }
    }
    for (int i = 0; i < n; i++) {
        const br_arg *a = &c->args[i];
        if (a->rank < maxr) add(w, "missing-dims:%s", a->name);
        for (int d = 0; d < a->rank; d++)
            if (a->shape[d] == 1 && ext[maxr - a->rank + d] != 1) { add(w, "stretch:%s", a->name); break; }
        if (a->rank < maxr)
            for (int d = 0; d < maxr - a->rank; d++) if (ext[d] != 1) { add(w, "stretch:%s", a->name); break; }
    }
}

/* The case's annotation tags (gen's torch-simd, self-modified, seed, ...)
 * as tag:T words; the shape tags have feature words of their own. */
static void tag_words(words *w, const char *tags)
{
    static const char *const covered[] = { "stretch", "rank-mismatch", "zero-size", "error", "scalar", "divergent", "huge", "in-place", "out" };
    for (const char *s = tags; *s;) {
        while (*s == ' ') s++;
        size_t len = strcspn(s, " ");
        char t[40];
        size_t tl = len < sizeof t - 1 ? len : sizeof t - 1;   /* as snprintf's "%.*s" into t */
        memcpy(t, s, tl);
        t[tl] = '\0';
        int skip = len == 0;
        for (size_t i = 0; i < sizeof covered / sizeof covered[0] && !skip; i++) skip = strcmp(t, covered[i]) == 0;
        if (!skip) add(w, "tag:%s", t);
        s += len;
    }
}

static int cmp_word(const void *a, const void *b) { return strcmp(a, b); }

void br_case_features(const br_case *c, int profile, char *buf, size_t cap)
{
    words w;
    w.n = 0;
    int maxr = 0, zero = 0, d0 = 0;
    int fam[2] = { -1, -1 }, nf = 0;
    for (int i = 0; i < c->nargs; i++) {
        const br_arg *a = &c->args[i];
        if (a->rank > maxr) maxr = a->rank;
        if (a->rank == 0) d0 = 1;
        for (int d = 0; d < a->rank; d++) if (a->shape[d] == 0) zero = 1;
        if (a->dtype == BCT_NONE) continue;
        layout_words(&w, a);
        add(&w, "dtype:%s", bc_dtype_name(a->dtype));
        int skip = (c->op == BCT_WHERE && i == 0) || (c->mode == BCT_MODE_OUT && i == c->nargs - 1);
        if (!skip && nf < 2) fam[nf++] = a->dtype;
    }
    const br_expect *e = br_pick_expect(c, profile);
    if (e != NULL && e->status == BCT_OK) {
        if (e->rank > maxr) maxr = e->rank;
        for (int d = 0; d < e->rank; d++) if (e->shape[d] == 0) zero = 1;
        if (e->nelem >= 65536) add(&w, "%s", "big");
    }
    if (e != NULL && e->status != BCT_OK) add(&w, "%s", "error-expected");
    if (zero) add(&w, "%s", "zero-size");
    if (d0) add(&w, "%s", "0d");
    add(&w, "%s", rank_band(maxr));
    if (br_has_word(c->tags, "rank-mismatch")) add(&w, "%s", "rank-mismatch");
    if (br_has_word(c->tags, "huge")) add(&w, "%s", "huge");
    if (br_has_word(c->tags, "divergent")) add(&w, "%s", "divergent");
    tag_words(&w, c->tags);
    if (c->mode == BCT_MODE_INPLACE) {
        add(&w, "%s", "mode:inplace");
        const br_arg *s = &c->args[0];
        for (int d = 0; d < s->rank; d++) if (s->strides[d] == 0 && s->shape[d] > 1) add(&w, "%s", "overlap:self");
    }
    if (c->mode == BCT_MODE_OUT) add(&w, "%s", "mode:out");
    for (int d = 0; d < c->target_rank; d++)   /* B16: a requested shape with a negative entry */
        if (c->target_shape[d] < 0) { add(&w, "%s", "negative-extent"); break; }
    stretch_words(&w, c);
    if (nf == 2) {
        const char *a = family(fam[0]), *b = family(fam[1]);
        char pair[40];
        if (fam[0] == fam[1]) snprintf(pair, sizeof pair, "dtypes:same");
        else snprintf(pair, sizeof pair, "dtypes:%s-%s", strcmp(a, b) <= 0 ? a : b, strcmp(a, b) <= 0 ? b : a);
        add(&w, "%s", pair);
    }
    qsort(w.v, (size_t)w.n, sizeof w.v[0], cmp_word);
    size_t o = 0;
    buf[0] = '\0';
    for (int i = 0; i < w.n; i++) {
        size_t l = strlen(w.v[i]);
        if (o + l + 2 >= cap) break;
        if (i) buf[o++] = ' ';
        memcpy(buf + o, w.v[i], l + 1);
        o += l;
    }
}
