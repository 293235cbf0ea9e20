/* findings.c - a run's failures grouped into findings: signatures, clustering, names, smallest cases, declared limits.
 * The algorithm, and how it was checked against the hand-written families of
 * the bundled targets, is docs/findings.md. */
#include "findings.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void br_normalise_message(const char *msg, char *buf, size_t cap)
{
    size_t o = 0;
    int space = 0;
    for (const char *s = msg; *s && o + 2 < cap; s++) {
        unsigned char ch = (unsigned char)*s;
        if (isdigit(ch) || ((ch == '-' || ch == '+') && isdigit((unsigned char)s[1]))) {
            while (s[1] && (isdigit((unsigned char)s[1]) || s[1] == '.' || s[1] == 'e' || s[1] == 'x')) s++;
            buf[o++] = '#';
            space = 0;
            continue;
        }
        if (ch == '\'' || ch == '"' || ch == '`') {   /* a quoted name: keep the quotes only */
            const char *q = strchr(s + 1, (char)ch);
            if (q != NULL && q - s < 64) { buf[o++] = (char)ch; buf[o++] = (char)ch; s = q; space = 0; continue; }
        }
        if (isspace(ch)) { if (!space && o) buf[o++] = ' '; space = 1; continue; }
        buf[o++] = (char)ch;
        space = 0;
    }
    while (o && buf[o - 1] == ' ') o--;
    buf[o] = '\0';
    /* "(#,#,#)" and "[#, #]" are shapes: one token whatever their rank */
    char *r = buf, *w = buf;
    while (*r) {
        if ((*r == '(' || *r == '[') && r[1] == '#') {   /* never longer than what it replaces */
            char close = *r == '(' ? ')' : ']';
            const char *q = r + 1;
            while (*q == '#' || *q == ',' || *q == ' ') q++;
            if (*q == close) { *w++ = *r; *w++ = '#'; *w++ = close; r = (char *)(uintptr_t)q + 1; continue; }
        }
        *w++ = *r++;
    }
    *w = '\0';
}

double br_rec_elements(const br_rec *x)
{
    double total = 0, cur = 1;
    int in = 0;
    for (const char *s = x->shapes; *s; s++) {
        if (*s == '(') { in = 1; cur = 1; continue; }
        if (*s == ')') { if (in) total += cur; in = 0; continue; }
        if (in && (*s >= '0' && *s <= '9')) {
            double v = strtod(s, NULL);
            cur *= v;
            while (s[1] >= '0' && s[1] <= '9') s++;
        }
    }
    return total;
}

/* ---- signatures ---- */

static int has_feature(const br_rec *x, const char *w) { return br_has_word(x->features, w); }

/* The part of a record's signature that says what went wrong. */
static void outcome_key(const br_rec *x, char *buf, size_t cap)
{
    char msg[160] = "";
    const char *src = x->error_message[0] ? x->error_message : "";
    if (x->outcome == BR_O_CRASH && x->stderr_tail[0]) {
        const char *last = strrchr(x->stderr_tail, '\n');
        src = last ? last + 1 : x->stderr_tail;
    }
    br_normalise_message(src, msg, sizeof msg);
    snprintf(buf, cap, "%s:%s|%s", x->failure, x->detail, msg);
}

static int is_finding_member(const br_rec *x)
{
    return !x->probed && x->outcome != BR_O_PASS && x->outcome != BR_O_SKIP;
}

/* ---- building ---- */

typedef struct group {
    char *key;
    size_t *recs;
    size_t n, cap;
} group;

typedef struct groups { group *v; size_t n, cap; } groups;

static group *group_for(groups *g, const char *key)
{
    for (size_t i = 0; i < g->n; i++) if (strcmp(g->v[i].key, key) == 0) return &g->v[i];
    if (g->n == g->cap) {
        size_t nc = g->cap ? g->cap * 2 : 16;
        group *v = realloc(g->v, nc * sizeof *v);
        if (v == NULL) return NULL;
        g->v = v;
        g->cap = nc;
    }
    group *n = &g->v[g->n++];
    memset(n, 0, sizeof *n);
    n->key = strdup(key);
    return n;
}

static void group_add(group *gr, size_t i)
{
    if (gr == NULL) return;
    if (gr->n == gr->cap) {
        size_t nc = gr->cap ? gr->cap * 2 : 16;
        size_t *v = realloc(gr->recs, nc * sizeof *v);
        if (v == NULL) return;
        gr->recs = v;
        gr->cap = nc;
    }
    gr->recs[gr->n++] = i;
}

/* Whether record a is a smaller repro than b: fewer elements, then lower
 * rank (shorter shapes text), then a simpler layout (fewer features), then id. */
static int smaller(const br_rec *a, const br_rec *b)
{
    double ea = br_rec_elements(a), eb = br_rec_elements(b);
    if (ea != eb) return ea < eb;
    size_t sa = strlen(a->shapes), sb = strlen(b->shapes);
    if (sa != sb) return sa < sb;
    size_t fa = strlen(a->features), fb = strlen(b->features);
    if (fa != fb) return fa < fb;
    return strcmp(a->id, b->id) < 0;
}

/* Appends the distinct words of field(rec) over the group, space-separated. */
static const char *span_of(br_report *rep, const group *gr, const char *(*field)(const br_rec *), size_t max)
{
    br_buf b = { 0 };
    br_buf_puts(&b, "");
    size_t nw = 0;
    for (size_t i = 0; i < gr->n; i++) {
        const char *s = field(&rep->recs[gr->recs[i]]);
        while (*s) {
            while (*s == ' ') s++;
            const char *e = s;
            while (*e && *e != ' ') e++;
            if (e > s) {
                char w[64];
                snprintf(w, sizeof w, "%.*s", (int)(e - s), s);
                if (!br_has_word(b.s, w)) {
                    if (nw++ < max) { if (b.len) br_buf_puts(&b, " "); br_buf_puts(&b, w); }
                }
            }
            s = e;
        }
    }
    if (nw > max) br_buf_printf(&b, " (+%zu)", nw - max);
    const char *r = br_report_str(rep, b.s);
    br_buf_free(&b);
    return r;
}

static const char *f_op(const br_rec *x) { return x->op; }
static const char *f_dtypes(const br_rec *x) { return x->dtypes; }
static const char *f_rules(const br_rec *x) { return x->rules; }
static const char *f_outcome(const br_rec *x) { return br_outcome_names[x->outcome]; }

/* The features every case of the group has. */
static void shared_features(const br_report *rep, const group *gr, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (gr->n == 0) return;
    const char *s = rep->recs[gr->recs[0]].features;
    size_t o = 0;
    while (*s) {
        while (*s == ' ') s++;
        const char *e = s;
        while (*e && *e != ' ') e++;
        char w[64];
        snprintf(w, sizeof w, "%.*s", (int)(e - s), s);
        int all = e > s;
        for (size_t i = 1; i < gr->n && all; i++) all = has_feature(&rep->recs[gr->recs[i]], w);
        if (all && o + strlen(w) + 2 < cap) o += (size_t)snprintf(buf + o, cap - o, "%s%s", o ? " " : "", w);
        s = e;
    }
}

/* One line from what the cases share: "what went wrong [where]: N cases, ops, dtypes". */
static const char *name_of(br_report *rep, const group *gr, const br_finding *f)
{
    const br_rec *x = &rep->recs[f->smallest];
    char feats[512], what[400];
    shared_features(rep, gr, feats, sizeof feats);
    const char *fk = x->failure;
    if (strcmp(fk, "expected-error") == 0) snprintf(what, sizeof what, "the call succeeds where the profile raises %s", x->detail);
    else if (strcmp(fk, "unexpected-error") == 0) snprintf(what, sizeof what, "raises %s where the profile succeeds", x->detail);
    else if (strcmp(fk, "wrong-class") == 0) snprintf(what, sizeof what, "raises the wrong error class (%s)", x->detail);
    else if (strcmp(fk, "wrong-shape") == 0) snprintf(what, sizeof what, "wrong result shape (%s)", x->detail);
    else if (strcmp(fk, "wrong-dtype") == 0) snprintf(what, sizeof what, "wrong result dtype (%s)", x->detail);
    else if (strcmp(fk, "wrong-values") == 0) snprintf(what, sizeof what, "wrong values (%s)", x->detail);
    else if (strcmp(fk, "crash") == 0) snprintf(what, sizeof what, "crashes (%s)", x->detail);
    else if (strcmp(fk, "violation") == 0) snprintf(what, sizeof what, "memory violation (%s)", x->detail);
    else if (strcmp(fk, "timeout") == 0) snprintf(what, sizeof what, "hangs (timeout)");
    else snprintf(what, sizeof what, "%s (%s)", fk, x->detail);
    br_buf b = { 0 };
    br_buf_printf(&b, "%s%s%s: %zu cases, %s", what, feats[0] ? " with " : "", feats, f->count, f->ops);
    if (f->dtypes[0]) br_buf_printf(&b, "; %s", f->dtypes);
    const char *r = br_report_str(rep, b.s);
    br_buf_free(&b);
    return r;
}

static int cmp_finding(const void *a, const void *b)
{
    const br_finding *x = a, *y = b;
    int lx = strcmp(x->kind, "limit") == 0, ly = strcmp(y->kind, "limit") == 0;
    if (lx != ly) return lx - ly;           /* failures first, then limits */
    if (x->count != y->count) return x->count < y->count ? 1 : -1;
    return strcmp(x->key, y->key);
}

static br_finding *new_finding(br_report *rep)
{
    br_finding *v = realloc(rep->findings, (rep->nfindings + 1) * sizeof *v);
    if (v == NULL) return NULL;
    rep->findings = v;
    br_finding *f = &v[rep->nfindings++];
    memset(f, 0, sizeof *f);
    f->key = f->name = f->kind = f->ops = f->dtypes = f->rules = f->outcomes = f->shrunk = "";
    return f;
}

/* The limit a skip reason names, or NULL ("unsupported: dtype i16" -> "dtypes"). */
static const char *limit_of(const char *reason)
{
    if (strncmp(reason, "unsupported: ", 13) != 0) return NULL;
    const char *r = reason + 13;
    if (strncmp(r, "op ", 3) == 0) return "ops";
    if (strncmp(r, "dtype ", 6) == 0 || strncmp(r, "result dtype ", 13) == 0) return "dtypes";
    if (strstr(r, "max_rank") != NULL) return "max_rank";
    if (strncmp(r, "strided", 7) == 0) return "strided";
    if (strncmp(r, "in-place", 8) == 0) return "inplace";
    if (strncmp(r, "out=", 4) == 0) return "out";
    return NULL;
}

static const char *f_limit(const br_rec *x) { return x->limit[0] ? x->limit : x->reason; }

/* One finding per declared limit that excluded (or, probed, would exclude) cases. */
static void limit_findings(br_report *rep)
{
    groups g = { 0 };
    for (size_t i = 0; i < rep->n; i++) {
        const br_rec *x = &rep->recs[i];
        const char *why = x->probed ? x->limit : x->outcome == BR_O_SKIP ? x->reason : NULL;
        const char *l = why ? limit_of(why) : NULL;
        if (l != NULL) group_add(group_for(&g, l), i);
    }
    for (size_t k = 0; k < g.n; k++) {
        group *gr = &g.v[k];
        br_finding *f = new_finding(rep);
        if (f == NULL) break;
        f->kind = "limit";
        f->key = br_report_str(rep, gr->key);
        f->count = gr->n;
        f->smallest = gr->recs[0];
        for (size_t i = 1; i < gr->n; i++) if (smaller(&rep->recs[gr->recs[i]], &rep->recs[f->smallest])) f->smallest = gr->recs[i];
        f->ops = span_of(rep, gr, f_op, 12);
        f->dtypes = span_of(rep, gr, f_dtypes, 8);
        const char *what = span_of(rep, gr, f_limit, 6);
        char nm[700];
        snprintf(nm, sizeof nm, "declared limit (%s): %zu cases not run: %s", gr->key, gr->n, what);
        f->name = br_report_str(rep, nm);
        f->outcomes = "skip";
        for (size_t i = 0; i < gr->n; i++) if (rep->recs[gr->recs[i]].probed) { f->outcomes = span_of(rep, gr, f_outcome, 6); break; }
        free(gr->key);
        free(gr->recs);
    }
    free(g.v);
}

void br_findings_build(br_report *rep)
{
    groups g = { 0 };
    char key[600];
    for (size_t i = 0; i < rep->n; i++) {
        br_rec *x = &rep->recs[i];
        x->finding = -1;
        if (!is_finding_member(x)) continue;
        outcome_key(x, key, sizeof key);
        group_add(group_for(&g, key), i);
    }
    for (size_t k = 0; k < g.n; k++) {
        group *gr = &g.v[k];
        br_finding *f = new_finding(rep);
        if (f == NULL) break;
        f->kind = "failure";
        f->key = br_report_str(rep, gr->key);
        f->count = gr->n;
        f->smallest = gr->recs[0];
        for (size_t i = 0; i < gr->n; i++) {
            const br_rec *x = &rep->recs[gr->recs[i]];
            if (x->expected_failure) f->known++;
            if (smaller(x, &rep->recs[f->smallest])) f->smallest = gr->recs[i];
        }
        f->ops = span_of(rep, gr, f_op, 12);
        f->dtypes = span_of(rep, gr, f_dtypes, 8);
        f->rules = span_of(rep, gr, f_rules, 12);
        f->outcomes = span_of(rep, gr, f_outcome, 6);
        f->name = name_of(rep, gr, f);
    }
    limit_findings(rep);
    /* order: failures by size, then limits; then point the records at them */
    if (rep->nfindings > 1) qsort(rep->findings, rep->nfindings, sizeof *rep->findings, cmp_finding);
    for (size_t k = 0; k < g.n; k++) {
        size_t idx = 0;
        for (size_t j = 0; j < rep->nfindings; j++) if (strcmp(rep->findings[j].key, g.v[k].key) == 0 && strcmp(rep->findings[j].kind, "failure") == 0) idx = j;
        for (size_t i = 0; i < g.v[k].n; i++) rep->recs[g.v[k].recs[i]].finding = (long)idx;
        free(g.v[k].key);
        free(g.v[k].recs);
    }
    free(g.v);
}
