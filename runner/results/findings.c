/* findings.c - a run's failures grouped into findings: signatures, clustering, names, smallest cases, declared limits.
 * The algorithm, and how it was checked against the hand-written families of
 * the bundled targets, is docs/findings.md. */
#include "results/findings.h"
#include "results/feature_stats.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void br_finding_id(const br_report *rep, size_t f, char *buf, size_t cap)
{
    size_t nfail = 0;
    for (size_t k = 0; k < rep->nfindings; k++) nfail += strcmp(rep->findings[k].kind, "limit") != 0;
    if (strcmp(rep->findings[f].kind, "limit") == 0) snprintf(buf, cap, "L%zu", f >= nfail ? f - nfail + 1 : f + 1);
    else snprintf(buf, cap, "F%zu", f + 1);
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


static int is_finding_member(const br_rec *x)
{
    /* a case that failed only after an earlier case broke the library is
     * that case's consequence, not a finding of its own (judge/rerun.c) */
    return !x->probed && x->outcome != BR_O_PASS && x->outcome != BR_O_SKIP && !x->depends_on[0];
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
    char key[600];
    level1_key(x, key, sizeof key);
    size_t cut = behaviour_len(key);
    if (x->detail == NULL || !x->detail[0] || x->behaviour == NULL || !x->behaviour[0]
        || strstr(x->behaviour, x->detail) != NULL) {   /* the behaviour says it already */
        snprintf(buf, cap, "%s", key);
        return;
    }
    snprintf(buf, cap, "%.*s (%s)%s", (int)cut, key, x->detail, key + cut);
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
/* The order words are listed in: dtypes in bcast's order, rule ids by
 * number (B2 before B10), anything else alphabetically. */
static int word_rank(const char *w)
{
    static const char *const dt[] = { "bool", "i8", "u8", "i16", "i32", "i64", "f32", "f64" };
    for (int i = 0; i < 8; i++) if (strcmp(w, dt[i]) == 0) return i;
    if (w[0] == 'B' && isdigit((unsigned char)w[1])) return 100 + atoi(w + 1);
    return 1000;
}

static int cmp_words(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int rx = word_rank(x), ry = word_rank(y);
    return rx != ry ? (rx < ry ? -1 : 1) : strcmp(x, y);
}

/* The distinct words of field(rec) over the group, in word_rank order,
 * space-separated; past max of them, " (+N)" with N the number left out. */
static const char *span_of(br_report *rep, const group *gr, const char *(*field)(const br_rec *), size_t max)
{
    char **w = NULL;
    size_t nw = 0, cap = 0;
    for (size_t i = 0; i < gr->n; i++)
        for (const char *s = field(&rep->recs[gr->recs[i]]); *s;) {
            while (*s == ' ') s++;
            size_t len = strcspn(s, " ");
            int seen = len == 0;
            for (size_t k = 0; k < nw && !seen; k++) seen = strlen(w[k]) == len && strncmp(w[k], s, len) == 0;
            if (!seen) {
                if (nw == cap) { cap = cap ? cap * 2 : 16; char **v = realloc(w, cap * sizeof *v); if (v == NULL) break; w = v; }
                w[nw] = malloc(len + 1);
                if (w[nw] != NULL) { memcpy(w[nw], s, len); w[nw][len] = '\0'; nw++; }
            }
            s += len;
        }
    if (nw > 1) qsort(w, nw, sizeof *w, cmp_words);
    br_buf b = { 0 };
    br_buf_puts(&b, "");
    for (size_t k = 0; k < nw && k < max; k++) br_buf_printf(&b, "%s%s", k ? " " : "", w[k]);
    if (nw > max) br_buf_printf(&b, " (+%zu)", nw - max);
    for (size_t k = 0; k < nw; k++) free(w[k]);
    free(w);
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
        { "negative-extent", "a negative extent in the requested shape" },
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

/* " (a wider integer: 762, a float instead of an integer: 95)": the kinds a
 * finding holds, when it holds two to five (a promotion difference, several
 * symptoms of one condition). */
static void details(const br_report *rep, const group *gr, br_buf *b)
{
    const char *d[5];
    size_t cnt[5], nd = 0;
    for (size_t i = 0; i < gr->n; i++) {
        const char *x = rep->recs[gr->recs[i]].detail;
        size_t k = 0;
        while (k < nd && strcmp(d[k], x) != 0) k++;
        if (k == nd) { if (nd == 5) return; d[nd] = x; cnt[nd++] = 0; }
        cnt[k]++;
    }
    if (nd < 2) return;
    br_buf_puts(b, " (");
    for (size_t k = 0; k < nd; k++) br_buf_printf(b, "%s%s: %zu", k ? ", " : "", d[k][0] ? d[k] : "-", cnt[k]);
    br_buf_puts(b, ")");
}

/* The length of behaviour s cut to at most cap characters on a word
 * boundary (the whole of it when it fits). */
static size_t cut_words(const char *s, size_t cap)
{
    size_t n = strlen(s);
    if (n <= cap) return n;
    size_t k = cap;
    while (k > 0 && s[k] != ' ') k--;
    while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == ':' || s[k - 1] == ',')) k--;
    return k ? k : cap;
}

/* How bad a failure kind is, worst first: a crash, a memory violation, a
 * hang, wrong values, no output, a wrong shape, a wrong dtype, success where
 * an error was expected, an error where success was, the wrong error class. */
static int severity(const char *failure)
{
    static const char *const order[] = { "crash", "violation", "timeout", "wrong-values", "no-output", "wrong-shape",
                                         "wrong-dtype", "expected-error", "bad-status", "unexpected-error",
                                         "wrong-class" };
    for (int i = 0; i < (int)(sizeof order / sizeof order[0]); i++)
        if (failure != NULL && strcmp(failure, order[i]) == 0) return i;
    return 99;
}

/* What the target did over a family merged from groups with different
 * behaviours (level 2: one condition, several symptoms): "N behaviours:
 * B (n), B (n), ..." worst first (severity), then commonest. Every kind of
 * failure the family holds is named (its commonest behaviour), and other
 * behaviours fill up to three; the rest are counted ("and 2 more (5
 * cases)"). Each behaviour is cut at 90 characters on a word boundary, and
 * behaviours that agree that far count as one. Returns 0 (writes nothing)
 * when there is one. */
static int behaviours(const br_report *rep, const group *gr, br_buf *b)
{
    enum { MAXB = 16, CUT = 90, NAMED = 3 };
    struct seen { const char *s; size_t len, cnt; int sev, named; } v[MAXB];
    size_t nb = 0, more = 0, more_cases = 0, overflow = 0;   /* overflow: cases past MAXB behaviours */
    for (size_t i = 0; i < gr->n; i++) {
        const br_rec *x = &rep->recs[gr->recs[i]];
        const char *s = x->behaviour[0] ? x->behaviour : x->reason;
        size_t n = cut_words(s, CUT), k = 0;
        while (k < nb && !(v[k].len == n && memcmp(v[k].s, s, n) == 0)) k++;
        if (k == nb) {
            if (nb == MAXB) { overflow++; continue; }
            v[nb++] = (struct seen){ s, n, 0, severity(x->failure), 0 };
        }
        if (severity(x->failure) < v[k].sev) v[k].sev = severity(x->failure);
        v[k].cnt++;
    }
    if (nb < 2) return 0;
    for (size_t i = 1; i < nb; i++)   /* worst first, then commonest (insertion sort: few) */
        for (size_t j = i; j > 0 && (v[j].sev < v[j - 1].sev || (v[j].sev == v[j - 1].sev && v[j].cnt > v[j - 1].cnt)); j--) {
            struct seen t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
        }
    size_t named = 0;
    for (size_t k = 0; k < nb; k++)   /* the first (commonest) of each kind */
        if (k == 0 || v[k].sev != v[k - 1].sev) { v[k].named = 1; named++; }
    for (size_t k = 0; k < nb && named < NAMED; k++)
        if (!v[k].named) { v[k].named = 1; named++; }
    br_buf_printf(b, "%zu%s behaviours: ", nb, overflow ? " or more" : "");
    size_t w = 0;
    for (size_t k = 0; k < nb; k++) {
        if (!v[k].named) { more++; more_cases += v[k].cnt; continue; }
        br_buf_printf(b, "%s%.*s%s (%zu)", w++ ? ", " : "", (int)v[k].len, v[k].s, v[k].s[v[k].len] ? " ..." : "", v[k].cnt);
    }
    more_cases += overflow;
    if (more || overflow)
        br_buf_printf(b, ", and %zu%s more (%zu case%s)", more, overflow ? "+" : "", more_cases, more_cases == 1 ? "" : "s");
    return 1;
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
    int several = behaviours(rep, gr, &b);
    size_t bl = behaviour_len(f->key);
    if (!several) br_buf_put(&b, f->key, bl < 160 ? bl : 160);
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
    int ok = br_has_word(exps, "succeeds");
    char errs[200] = "";
    size_t eo = 0;
    for (const char *p = exps; *p;) {   /* the error classes, "a or b" */
        while (*p == ' ') p++;
        size_t len = strcspn(p, " ");
        if (len && !(len == 8 && strncmp(p, "succeeds", 8) == 0))
            eo += (size_t)snprintf(errs + eo, sizeof errs - eo, "%s%.*s", eo ? " or " : "", (int)len, p);
        p += len;
    }
    br_buf_printf(&b, ", where the profile %s%s%s", ok ? "succeeds" : "", ok && errs[0] ? " or raises " : errs[0] ? "raises " : "", errs);
    if (!several) details(rep, gr, &b);
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
    f->key = f->name = f->kind = f->ops = f->dtypes = f->rules = f->outcomes = f->shrunk = f->keys = "";
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

/* The thing a skip reason names: "unsupported: dtype i16" -> "i16",
 * "unsupported: op matmul" -> "matmul" (for the limit's name). */
static const char *f_limit_value(const br_rec *x)
{
    const char *r = x->limit[0] ? x->limit : x->reason;
    static const char *const pre[] = { "unsupported: result dtype ", "unsupported: dtype ", "unsupported: op " };
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (strncmp(r, pre[i], strlen(pre[i])) == 0) return r + strlen(pre[i]);
    return "";
}

/* What the probed cases of a limit did: "probed: 150 refused (an error),
 * 8 correct, 0 wrong, 0 crashed" ("" when none was probed). */
static const char *probe_summary(br_report *rep, const group *gr)
{
    size_t refused = 0, correct = 0, wrong = 0, crashed = 0, probed = 0;
    for (size_t i = 0; i < gr->n; i++) {
        const br_rec *x = &rep->recs[gr->recs[i]];
        if (!x->probed) continue;
        probed++;
        if (x->outcome == BR_O_PASS) correct++;
        else if (x->outcome == BR_O_CRASH || x->outcome == BR_O_TIMEOUT || x->outcome == BR_O_VIOLATION) crashed++;
        else if (x->error_class[0]) refused++;
        else wrong++;
    }
    if (!probed) return "skip";
    char b[200];
    snprintf(b, sizeof b, "probed: %zu refused (an error), %zu correct, %zu wrong, %zu crashed or hung",
             refused, correct, wrong, crashed);
    return br_report_str(rep, b);
}

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
        char nm[700];
        if (strcmp(gr->key, "max_rank") == 0)
            snprintf(nm, sizeof nm, "max_rank %d: %zu cases with a rank above it", rep->target_max_rank, gr->n);
        else if (strcmp(gr->key, "ops") == 0 || strcmp(gr->key, "dtypes") == 0)
            snprintf(nm, sizeof nm, "%s not claimed (%s): %zu cases", gr->key, span_of(rep, gr, f_limit_value, 10), gr->n);
        else
            snprintf(nm, sizeof nm, "%s not claimed: %zu cases", strcmp(gr->key, "strided") == 0 ? "strided, offset and "
                     "stride-0 inputs" : strcmp(gr->key, "inplace") == 0 ? "in-place" : "out=", gr->n);
        f->name = br_report_str(rep, nm);
        f->outcomes = probe_summary(rep, gr);
        free(gr->key);
        free(gr->recs);
    }
    free(g.v);
}

/* Whether the most telling feature of one list is among the other's: two
 * groups explained by the same condition (a weak feature both happen to
 * carry, such as dtypes:same, is not enough). */
static int share_top_feature(const char *a, const char *b)
{
    char w[64];
    size_t n = strcspn(a, " ");
    snprintf(w, sizeof w, "%.*s", (int)n, a);
    if (n && br_has_word(b, w)) return 1;
    n = strcspn(b, " ");
    snprintf(w, sizeof w, "%.*s", (int)n, b);
    return n && br_has_word(a, w);
}

/* Whether two behaviours are the same outcome: both succeed, both raise,
 * both give wrong values, both crash ... (their first word). */
static int same_outcome(const char *a, const char *b)
{
    size_t n = strcspn(a, " :");
    return n == strcspn(b, " :") && strncmp(a, b, n) == 0;
}

static size_t find_root(size_t *parent, size_t i)
{
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

/* Whether a behaviour carries the library's own words ("raises other:
 * NotImplementedError: ...", "crashes with SIGABRT: Assertion ..."). */
static int has_message(const char *key)
{
    size_t n = behaviour_len(key);
    const char *colon = memchr(key, ':', n);
    if (strncmp(key, "crashes ", 8) == 0) return 1;   /* the signal is the library's word */
    return strncmp(key, "raises ", 7) == 0 && colon != NULL && (size_t)(colon - key) + 2 < n;
}

/* The first word of a space-separated list, into w. */
static void first_word(const char *list, char *w, size_t cap)
{
    size_t n = strcspn(list, " ");
    snprintf(w, cap, "%.*s", (int)n, list);
}

/* Whether feature f, the most telling of groups a and b, decides both
 * outright, so that they merge whatever the target did: no passing case has
 * it (lift >= 0.99), it is a condition of the case and not of the oracles
 * ("divergent" says NumPy and torch differ, which is no cause inside a
 * library), and the two groups hold at least BR_DECIDE_MIN cases between
 * them (on a handful of cases a perfect lift is chance). */
#define BR_DECIDE_MIN 10
static int decides_outright(const char *f, const group *a, const group *b, double lift_a, double lift_b)
{
    return lift_a >= 0.99 && lift_b >= 0.99 && strcmp(f, "divergent") != 0 && a->n + b->n >= BR_DECIDE_MIN;
}

/* Level 2. Groups whose target did the same thing merge when they share
 * their most telling feature: the cause is the behaviour under a condition,
 * whatever the profile expected; so do groups that raised the same message
 * of the library's (or crashed with the same signal) and have no telling
 * feature at all. Groups with the same kind of outcome (both wrong values,
 * both raise, both succeed) but different details merge when the same
 * feature all but decides both (lift >= 0.9: the passing cases almost never
 * have it): one condition the library mishandles, with several symptoms,
 * like torch's vectorised loop on its torch-simd cases (a NaN, a signed zero,
 * an infinity). */
static void merge_groups(const groups *g, char **chars, const double *lift1, size_t *parent)
{
    for (size_t a = 0; a < g->n; a++) parent[a] = a;
    for (size_t a = 0; a < g->n; a++)
        for (size_t b = a + 1; b < g->n; b++) {
            const char *ka = g->v[a].key, *kb = g->v[b].key;
            size_t la = behaviour_len(ka), lb = behaviour_len(kb);
            int same = la == lb && memcmp(ka, kb, la) == 0;
            char fa[64], fb[64];
            first_word(chars[a], fa, sizeof fa);
            first_word(chars[b], fb, sizeof fb);
            int decided = fa[0] && strcmp(fa, fb) == 0 && lift1[a] >= 0.9 && lift1[b] >= 0.9
                          && (same_outcome(ka, kb) || decides_outright(fa, &g->v[a], &g->v[b], lift1[a], lift1[b]));
            /* the library's own message names a code path: with nothing else
             * to tell the groups apart, the path is the cause */
            int named = same && !chars[a][0] && !chars[b][0] && has_message(ka);
            int join = (same && share_top_feature(chars[a], chars[b])) || decided || named;
            if (!join) continue;
            size_t ra = find_root(parent, a), rb = find_root(parent, b);
            if (ra != rb) parent[rb] = ra;
        }
}

static void fill_finding(br_report *rep, br_finding *f, group *gr, const br_fstats *fs)
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
    br_fstats_explain(fs, gr->recs, gr->n, 3, chars, sizeof chars);
    f->key = br_report_str(rep, gr->key);
    f->ops = span_of(rep, gr, f_op, 12);
    f->dtypes = span_of(rep, gr, f_dtypes, 8);
    f->rules = span_of(rep, gr, f_rules, 12);
    f->outcomes = span_of(rep, gr, f_outcome, 6);
    f->name = name_of(rep, gr, f, chars);
}

/* The level-1 keys of the groups whose root has key root, root's first,
 * '\n'-separated, in the report's pool: what a signature elsewhere (an
 * explored case's) is compared with. */
static const char *merged_keys(br_report *rep, const groups *g, size_t *parent, const char *root)
{
    br_buf b = { 0 };
    br_buf_puts(&b, root);
    for (size_t k = 0; k < g->n; k++)
        if (strcmp(g->v[k].key, root) != 0 && strcmp(g->v[find_root(parent, k)].key, root) == 0)
            br_buf_printf(&b, "\n%s", g->v[k].key);
    const char *r = br_report_str(rep, b.s);
    br_buf_free(&b);
    return r;
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
    br_fstats *fs = br_fstats_build(rep);
    char **chars = calloc(g.n ? g.n : 1, sizeof *chars);
    size_t *parent = calloc(g.n ? g.n : 1, sizeof *parent);
    double *lift1 = calloc(g.n ? g.n : 1, sizeof *lift1);
    for (size_t k = 0; chars != NULL && lift1 != NULL && k < g.n; k++) {
        char buf[512];
        lift1[k] = br_fstats_explain(fs, g.v[k].recs, g.v[k].n, 3, buf, sizeof buf);
        chars[k] = strdup(buf);
    }
    if (chars != NULL && parent != NULL && lift1 != NULL) merge_groups(&g, chars, lift1, parent);
    if (getenv("BCAST_FINDINGS_DEBUG") != NULL)   /* how the level-1 groups were explained and merged */
        for (size_t k = 0; chars != NULL && parent != NULL && lift1 != NULL && k < g.n; k++)
            fprintf(stderr, "findings: group %zu -> %zu (%zu cases, lift %.2f) [%s] %s\n", k, find_root(parent, k),
                    g.v[k].n, lift1[k], chars[k], g.v[k].key);
    /* one finding per merged set, keyed by its root's level-1 key */
    groups merged = { 0 };
    for (size_t k = 0; k < g.n; k++) {
        group *into = group_for(&merged, g.v[find_root(parent, k)].key);
        for (size_t i = 0; into != NULL && i < g.v[k].n; i++) group_add(into, g.v[k].recs[i]);
    }
    for (size_t k = 0; k < merged.n; k++) {
        br_finding *f = new_finding(rep);
        if (f == NULL) continue;
        fill_finding(rep, f, &merged.v[k], fs);
        f->keys = merged_keys(rep, &g, parent, merged.v[k].key);
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
    /* probed cases belong to the limit that excluded them */
    for (size_t i = 0; i < rep->n; i++) {
        br_rec *x = &rep->recs[i];
        const char *l = x->probed ? limit_of(x->limit) : NULL;
        for (size_t j = 0; l != NULL && j < rep->nfindings; j++)
            if (strcmp(rep->findings[j].kind, "limit") == 0 && strcmp(rep->findings[j].key, l) == 0) x->finding = (long)j;
    }
    for (size_t k = 0; k < g.n; k++) { free(g.v[k].key); free(g.v[k].recs); if (chars) free(chars[k]); }
    free(merged.v);
    free(g.v);
    free(chars);
    free(lift1);
    free(parent);
    br_fstats_free(fs);
}
