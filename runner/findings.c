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
        /* a quoted name ('sub_bbb', `a == b', "x"): keep only the quotes; an
         * apostrophe inside a word (couldn't) opens nothing */
        if ((ch == '\'' || ch == '"' || ch == '`') && (s == msg || !isalnum((unsigned char)s[-1]))) {
            const char *q = s + 1;
            while (*q && *q != (ch == '`' ? '\'' : (char)ch) && !(ch == '`' && *q == '`') && q - s < 64) q++;
            if (*q && q - s < 64) { buf[o++] = (char)ch; buf[o++] = *q; s = q; space = 0; continue; }
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

static int is_finding_member(const br_rec *x)
{
    return !x->probed && x->outcome != BR_O_PASS && x->outcome != BR_O_SKIP;
}

/* What the profile expected: "ok" or the error class (from the summary). */
static void expected_bucket(const br_rec *x, char *buf, size_t cap)
{
    if (strncmp(x->expected, "error ", 6) == 0) {
        const char *c = x->expected + 6;
        size_t n = strcspn(c, " :");
        snprintf(buf, cap, "%.*s", (int)n, c);
    } else snprintf(buf, cap, "ok");
}

/* The behaviour part of a level-1 key (before " | expected"). */
static size_t behaviour_len(const char *key)
{
    const char *bar = strstr(key, " | expected ");
    return bar ? (size_t)(bar - key) : strlen(key);
}

/* The level-1 signature: what the target did, and what was expected. */
static void level1_key(const br_rec *x, char *buf, size_t cap)
{
    char exp[64];
    expected_bucket(x, exp, sizeof exp);
    snprintf(buf, cap, "%s | expected %s", x->behaviour[0] ? x->behaviour : x->reason, exp);
}

void br_finding_signature(const br_rec *x, char *buf, size_t cap)
{
    level1_key(x, buf, cap);
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

/* Words for a feature in a finding's name ("zero-size" -> "a zero-size operand"). */
static void feature_words(const char *w, br_buf *b)
{
    static const char *const plain[][2] = {
        { "zero-size", "a zero-size operand" }, { "0d", "a 0-d operand" }, { "mode:inplace", "in-place" },
        { "mode:out", "out=" }, { "overlap:self", "an overlapping self" }, { "rank-mismatch", "operands of different ranks" },
        { "huge", "huge extents" }, { "divergent", "NumPy and torch differ" }, { "big", "a large result" },
        { "error-expected", "shapes the profile refuses" }, { "dtypes:int-float", "int with float" },
        { "dtypes:bool-int", "bool with int" }, { "dtypes:bool-float", "bool with float" },
        { "dtypes:int-int", "two int dtypes" }, { "dtypes:float-float", "two float dtypes" },
    };
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (strcmp(w, plain[i][0]) == 0) { br_buf_puts(b, plain[i][1]); return; }
    const char *colon = strchr(w, ':');
    if (colon == NULL) { br_buf_puts(b, w); return; }
    size_t k = (size_t)(colon - w);
    const char *v = colon + 1;
    if (strncmp(w, "dtype", k) == 0) br_buf_printf(b, "%s operands", v);
    else if (strncmp(w, "stretch", k) == 0) br_buf_printf(b, "%s stretched", v);
    else if (strncmp(w, "missing-dims", k) == 0) br_buf_printf(b, "%s with fewer dims", v);
    else if (strncmp(w, "stride0", k) == 0) br_buf_printf(b, "a stride-0 %s", v);
    else if (strncmp(w, "negative", k) == 0) br_buf_printf(b, "a negative-stride %s", v);
    else if (strncmp(w, "offset", k) == 0) br_buf_printf(b, "an offset %s", v);
    else if (strncmp(w, "noncontig", k) == 0) br_buf_printf(b, "a non-contiguous %s", v);
    else if (strncmp(w, "rank", k) == 0) br_buf_printf(b, "rank %s", v);
    else br_buf_puts(b, w);
}

/* One line from what the cases share: "[conditions]: what the target did,
 * where the profile expects ...: N cases, ops; dtypes". */
static const char *name_of(br_report *rep, const group *gr, const br_finding *f, const char *chars)
{
    br_buf b = { 0 };
    br_buf_puts(&b, "");
    int nw = 0;
    for (const char *s = chars; *s && nw < 3;) {
        while (*s == ' ') s++;
        size_t len = strcspn(s, " ");
        if (len == 0) break;
        char w[64];
        snprintf(w, sizeof w, "%.*s", (int)len, s);
        if (strcmp(w, "error-expected") != 0) {
            br_buf_puts(&b, nw++ ? ", " : "");
            feature_words(w, &b);
        }
        s += len;
    }
    if (nw) br_buf_puts(&b, ": ");
    const br_rec *x = &rep->recs[f->smallest];
    size_t bl = behaviour_len(f->key);
    br_buf_put(&b, f->key, bl < 160 ? bl : 160);
    /* what was expected, over the whole family */
    char exps[200] = "";
    size_t o = 0;
    for (size_t i = 0; i < gr->n && o + 40 < sizeof exps; i++) {
        char e[64];
        expected_bucket(&rep->recs[gr->recs[i]], e, sizeof e);
        char w[80];
        snprintf(w, sizeof w, "%s", strcmp(e, "ok") == 0 ? "succeeds" : e);
        if (!br_has_word(exps, w)) o += (size_t)snprintf(exps + o, sizeof exps - o, "%s%s", o ? " " : "", w);
    }
    br_buf_printf(&b, ", where the profile %s%s", strcmp(exps, "succeeds") == 0 ? "succeeds" : "raises ", 
                  strcmp(exps, "succeeds") == 0 ? "" : exps);
    (void)x;
    br_buf_printf(&b, ": %zu cases, %s", f->count, f->ops);
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

/* ---- discriminating features ----
 * A feature discriminates a group when (nearly) all its cases have it and
 * cases with it fail far more often than cases without it: "zero-size" for a
 * library that mishandles empty operands, "mode:inplace" for a missing shape
 * check. Rates are over every case of the run that ran. */

typedef struct frate { char w[32]; size_t with, failed_with; } frate;
typedef struct rates { frate *v; size_t n, cap, ran, failed; } rates;

static frate *rate_of(rates *r, const char *w, size_t len)
{
    for (size_t i = 0; i < r->n; i++) if (strlen(r->v[i].w) == len && memcmp(r->v[i].w, w, len) == 0) return &r->v[i];
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 64;
        frate *v = realloc(r->v, nc * sizeof *v);
        if (v == NULL) return NULL;
        r->v = v;
        r->cap = nc;
    }
    frate *f = &r->v[r->n++];
    memset(f, 0, sizeof *f);
    snprintf(f->w, sizeof f->w, "%.*s", (int)len, w);
    return f;
}

static void count_rates(const br_report *rep, rates *r)
{
    for (size_t i = 0; i < rep->n; i++) {
        const br_rec *x = &rep->recs[i];
        if (x->probed || x->outcome == BR_O_SKIP) continue;
        int bad = x->outcome != BR_O_PASS;
        r->ran++;
        r->failed += (size_t)bad;
        for (const char *s = x->features; *s;) {
            while (*s == ' ') s++;
            size_t len = strcspn(s, " ");
            frate *f = len ? rate_of(r, s, len) : NULL;
            if (f != NULL) { f->with++; f->failed_with += (size_t)bad; }
            s += len;
        }
    }
}

/* Whether cases with feature f fail markedly more often than those without. */
static int discriminates(const rates *r, const frate *f)
{
    size_t without = r->ran - f->with, failed_without = r->failed - f->failed_with;
    double p_with = f->with ? (double)f->failed_with / (double)f->with : 0;
    double p_without = without ? (double)failed_without / (double)without : 0;
    return f->with >= 1 && p_with >= p_without + 0.25;
}

/* The discriminating features nearly every case of the records has, sorted by
 * how much more often they fail, space-separated into buf. */
static void characteristic(const br_report *rep, const size_t *recs, size_t n, const rates *r, char *buf, size_t cap)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < r->n; k++) {
        const frate *f = &r->v[k];
        if (!discriminates(r, f)) continue;
        size_t have = 0;
        for (size_t i = 0; i < n; i++) have += (size_t)has_feature(&rep->recs[recs[i]], f->w);
        if (have * 100 < n * 95) continue;
        if (o + strlen(f->w) + 2 < cap) o += (size_t)snprintf(buf + o, cap - o, "%s%s", o ? " " : "", f->w);
    }
}

static int share_a_word(const char *a, const char *b)
{
    for (const char *s = a; *s;) {
        while (*s == ' ') s++;
        size_t len = strcspn(s, " ");
        char w[64];
        snprintf(w, sizeof w, "%.*s", (int)len, s);
        if (len && br_has_word(b, w)) return 1;
        s += len;
    }
    return 0;
}

static size_t find_root(size_t *parent, size_t i)
{
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

/* Level 2: groups whose target did the same thing merge when they share a
 * discriminating feature (or neither has one): the cause is the behaviour
 * under a condition, whatever the profile expected. */
static void merge_groups(const groups *g, char **chars, size_t *parent)
{
    for (size_t a = 0; a < g->n; a++) parent[a] = a;
    for (size_t a = 0; a < g->n; a++)
        for (size_t b = a + 1; b < g->n; b++) {
            size_t la = behaviour_len(g->v[a].key), lb = behaviour_len(g->v[b].key);
            if (la != lb || memcmp(g->v[a].key, g->v[b].key, la) != 0) continue;
            int none = !chars[a][0] && !chars[b][0];
            if (!none && !share_a_word(chars[a], chars[b])) continue;
            size_t ra = find_root(parent, a), rb = find_root(parent, b);
            if (ra != rb) parent[rb] = ra;
        }
}

static void fill_finding(br_report *rep, br_finding *f, group *gr, const rates *r)
{
    f->kind = "failure";
    f->count = gr->n;
    f->smallest = gr->recs[0];
    for (size_t i = 0; i < gr->n; i++) {
        const br_rec *x = &rep->recs[gr->recs[i]];
        if (x->expected_failure) f->known++;
        if (smaller(x, &rep->recs[f->smallest])) f->smallest = gr->recs[i];
    }
    char chars[512];
    characteristic(rep, gr->recs, gr->n, r, chars, sizeof chars);
    f->key = br_report_str(rep, gr->key);
    f->ops = span_of(rep, gr, f_op, 12);
    f->dtypes = span_of(rep, gr, f_dtypes, 8);
    f->rules = span_of(rep, gr, f_rules, 12);
    f->outcomes = span_of(rep, gr, f_outcome, 6);
    f->name = name_of(rep, gr, f, chars);
}

void br_findings_build(br_report *rep)
{
    groups g = { 0 };
    char key[800];
    for (size_t i = 0; i < rep->n; i++) {
        br_rec *x = &rep->recs[i];
        x->finding = -1;
        if (!is_finding_member(x)) continue;
        level1_key(x, key, sizeof key);
        group_add(group_for(&g, key), i);
    }
    rates r = { 0 };
    count_rates(rep, &r);
    char **chars = calloc(g.n ? g.n : 1, sizeof *chars);
    size_t *parent = calloc(g.n ? g.n : 1, sizeof *parent);
    for (size_t k = 0; chars != NULL && k < g.n; k++) {
        char buf[512];
        characteristic(rep, g.v[k].recs, g.v[k].n, &r, buf, sizeof buf);
        chars[k] = strdup(buf);
    }
    if (chars != NULL && parent != NULL) merge_groups(&g, chars, parent);
    /* one finding per merged set, keyed by its root's level-1 key */
    groups merged = { 0 };
    for (size_t k = 0; k < g.n; k++) {
        group *into = group_for(&merged, g.v[find_root(parent, k)].key);
        for (size_t i = 0; into != NULL && i < g.v[k].n; i++) group_add(into, g.v[k].recs[i]);
    }
    for (size_t k = 0; k < merged.n; k++) {
        br_finding *f = new_finding(rep);
        if (f != NULL) fill_finding(rep, f, &merged.v[k], &r);
    }
    limit_findings(rep);
    /* order: failures by size, then limits; then point the records at them */
    if (rep->nfindings > 1) qsort(rep->findings, rep->nfindings, sizeof *rep->findings, cmp_finding);
    for (size_t k = 0; k < merged.n; k++) {
        size_t idx = 0;
        for (size_t j = 0; j < rep->nfindings; j++)
            if (strcmp(rep->findings[j].kind, "failure") == 0 && strcmp(rep->findings[j].key, merged.v[k].key) == 0) idx = j;
        for (size_t i = 0; i < merged.v[k].n; i++) rep->recs[merged.v[k].recs[i]].finding = (long)idx;
        free(merged.v[k].key);
        free(merged.v[k].recs);
    }
    for (size_t k = 0; k < g.n; k++) { free(g.v[k].key); free(g.v[k].recs); if (chars) free(chars[k]); }
    free(merged.v);
    free(g.v);
    free(chars);
    free(parent);
    free(r.v);
}
