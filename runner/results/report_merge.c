/* report_merge.c - reads the JSON result back (for `bcast-run merge`): a small
 * strict JSON parser into a tree, then the fields of docs/runner.md's schema. */
#include "results/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jv {
    int t;
    double num;
    const char *str;                /* J_STR; for object members: key in keys[] */
    struct jv *items;               /* J_ARR / J_OBJ values */
    const char **keys;              /* J_OBJ */
    size_t n;
} jv;

typedef struct jp { const char *s, *end; br_pool *pool; const char *err; int depth; } jp;

static void ws(jp *p) { while (p->s < p->end && (*p->s == ' ' || *p->s == '\n' || *p->s == '\t' || *p->s == '\r')) p->s++; }

static int parse_val(jp *p, jv *v);

static int parse_str(jp *p, const char **out)
{
    if (p->s >= p->end || *p->s != '"') { p->err = "expected a string"; return -1; }
    p->s++;
    br_buf b = { 0 };
    br_buf_puts(&b, "");
    while (p->s < p->end && *p->s != '"') {
        char ch = *p->s++;
        if ((unsigned char)ch < 0x20) { p->err = "control character in a string"; goto fail; }
        if (ch != '\\') { br_buf_put(&b, &ch, 1); continue; }
        if (p->s >= p->end) break;
        ch = *p->s++;
        switch (ch) {
        case '"': case '\\': case '/': br_buf_put(&b, &ch, 1); break;
        case 'n': br_buf_puts(&b, "\n"); break;
        case 't': br_buf_puts(&b, "\t"); break;
        case 'r': br_buf_puts(&b, "\r"); break;
        case 'b': br_buf_puts(&b, "\b"); break;
        case 'f': br_buf_puts(&b, "\f"); break;
        case 'u': {
            if (p->end - p->s < 4) { p->err = "bad \\u escape"; goto fail; }
            unsigned u = 0;
            for (int i = 0; i < 4; i++) {
                char h = *p->s++;
                u <<= 4;
                if (h >= '0' && h <= '9') u |= (unsigned)(h - '0');
                else if (h >= 'a' && h <= 'f') u |= (unsigned)(h - 'a' + 10);
                else if (h >= 'A' && h <= 'F') u |= (unsigned)(h - 'A' + 10);
                else { p->err = "bad \\u escape"; goto fail; }
            }
            /* the writer escapes single bytes this way; keep them as bytes */
            char c1 = (char)(u <= 0xff ? u : '?');
            if (u == 0) c1 = '?';
            br_buf_put(&b, &c1, 1);
            break;
        }
        default: p->err = "bad escape"; goto fail;
        }
    }
    if (p->s >= p->end) { p->err = "unterminated string"; goto fail; }
    p->s++;
    char *d = br_pool_alloc(p->pool, b.len + 1);
    if (d == NULL) { p->err = "out of memory"; goto fail; }
    memcpy(d, b.s, b.len + 1);
    br_buf_free(&b);
    *out = d;
    return 0;
fail:
    br_buf_free(&b);
    return -1;
}

static int push(jp *p, jv **items, const char ***keys, size_t *n, size_t *cap, const jv *v, const char *k)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        jv *ni = realloc(*items, nc * sizeof *ni);
        if (ni == NULL) { p->err = "out of memory"; return -1; }
        *items = ni;
        if (keys != NULL) {
            const char **nk = realloc((void *)*keys, nc * sizeof *nk);
            if (nk == NULL) { p->err = "out of memory"; return -1; }
            *keys = nk;
        }
        *cap = nc;
    }
    (*items)[*n] = *v;
    if (keys != NULL) (*keys)[*n] = k;
    (*n)++;
    return 0;
}

static void jfree(jv *v)
{
    if (v->t == J_ARR || v->t == J_OBJ) {
        for (size_t i = 0; i < v->n; i++) jfree(&v->items[i]);
        free(v->items);
        free((void *)v->keys);
    }
}

static int parse_val(jp *p, jv *v)
{
    memset(v, 0, sizeof *v);
    ws(p);
    if (p->s >= p->end) { p->err = "unexpected end"; return -1; }
    if (++p->depth > 64) { p->err = "nested too deeply"; return -1; }
    int rc = 0;
    char ch = *p->s;
    if (ch == '"') { v->t = J_STR; rc = parse_str(p, &v->str); }
    else if (ch == '{' || ch == '[') {
        int obj = ch == '{';
        v->t = obj ? J_OBJ : J_ARR;
        p->s++;
        size_t cap = 0;
        ws(p);
        if (p->s < p->end && *p->s == (obj ? '}' : ']')) { p->s++; p->depth--; return 0; }
        for (;;) {
            const char *k = NULL;
            if (obj) {
                ws(p);
                if (parse_str(p, &k) != 0) return -1;
                ws(p);
                if (p->s >= p->end || *p->s != ':') { p->err = "expected ':'"; return -1; }
                p->s++;
            }
            jv item;
            if (parse_val(p, &item) != 0) { jfree(&item); return -1; }
            if (push(p, &v->items, obj ? &v->keys : NULL, &v->n, &cap, &item, k) != 0) { jfree(&item); return -1; }
            ws(p);
            if (p->s < p->end && *p->s == ',') { p->s++; continue; }
            if (p->s < p->end && *p->s == (obj ? '}' : ']')) { p->s++; break; }
            p->err = obj ? "expected ',' or '}'" : "expected ',' or ']'";
            return -1;
        }
    } else if (ch == 't' && p->end - p->s >= 4 && memcmp(p->s, "true", 4) == 0) { v->t = J_BOOL; v->num = 1; p->s += 4; }
    else if (ch == 'f' && p->end - p->s >= 5 && memcmp(p->s, "false", 5) == 0) { v->t = J_BOOL; p->s += 5; }
    else if (ch == 'n' && p->end - p->s >= 4 && memcmp(p->s, "null", 4) == 0) { v->t = J_NULL; p->s += 4; }
    else if (ch == '-' || (ch >= '0' && ch <= '9')) {
        char *e;
        v->t = J_NUM;
        v->num = strtod(p->s, &e);
        if (e == p->s || e > p->end) { p->err = "bad number"; return -1; }
        p->s = e;
    } else { p->err = "unexpected character"; rc = -1; }
    p->depth--;
    return rc;
}

static const jv *get(const jv *o, const char *k)
{
    if (o == NULL || o->t != J_OBJ) return NULL;
    for (size_t i = 0; i < o->n; i++) if (strcmp(o->keys[i], k) == 0) return &o->items[i];
    return NULL;
}

static const char *gs(const jv *o, const char *k)
{
    const jv *v = get(o, k);
    return v && v->t == J_STR ? v->str : "";
}

/* a JSON array of strings back to a space-separated string */
static const char *gwords(br_report *r, const jv *o, const char *k)
{
    const jv *v = get(o, k);
    if (v == NULL || v->t != J_ARR) return "";
    br_buf b = { 0 };
    br_buf_puts(&b, "");
    for (size_t i = 0; i < v->n; i++)
        if (v->items[i].t == J_STR) { if (b.len) br_buf_puts(&b, " "); br_buf_puts(&b, v->items[i].str); }
    const char *s = br_report_str(r, b.s);
    br_buf_free(&b);
    return s;
}

/* One case of the JSON result (an object with a known actual_outcome o) as a record of r. */
static br_rec *read_case(br_report *r, const jv *c, int o)
{
    br_rec *x = br_report_add(r);
    x->id = gs(c, "id"); x->suite = gs(c, "suite"); x->tags = gwords(r, c, "tags"); x->rules = gwords(r, c, "rules");
    x->op = gs(c, "op"); x->mode = gs(c, "mode"); x->dtypes = gwords(r, c, "dtypes");
    x->shapes = gwords(r, c, "shapes"); x->strides = gwords(r, c, "strides");
    x->outcome = o;
    const jv *b = get(c, "expected_failure");
    x->expected_failure = b && b->t == J_BOOL && b->num != 0;
    b = get(c, "unexpected_pass");
    x->unexpected_pass = b && b->t == J_BOOL && b->num != 0;
    x->reason = gs(c, "reason"); x->known_reason = gs(c, "known_reason");
    x->expected = gs(c, "expected"); x->actual = gs(c, "actual"); x->mismatch = gs(c, "first_mismatch");
    x->error_class = gs(c, "error_class"); x->error_message = gs(c, "error_message");
    x->failure = gs(c, "failure"); x->detail = gs(c, "detail"); x->behaviour = gs(c, "behaviour"); x->diff = gs(c, "diff");
    x->stderr_tail = gs(c, "stderr_tail"); x->features = gwords(r, c, "features"); x->limit = gs(c, "limit");
    x->depends_on = gs(c, "depends_on"); x->rerun = gs(c, "rerun");
    b = get(c, "probed");
    x->probed = b && b->t == J_BOOL && b->num != 0;
    x->file = gs(c, "file");
    const jv *n = get(c, "line");
    x->line = n && n->t == J_NUM && n->num >= 0 && n->num < 2e9 ? (int)n->num : 0;
    n = get(c, "duration_ms");
    x->duration_ms = n && n->t == J_NUM ? n->num : 0;
    return x;
}

/* What the file's totals count beyond the cases it lists (explore lists only
 * failures): into r->unlisted. listed[] counts the file's own non-probed records. */
static void read_unlisted(br_report *r, const jv *root, const size_t *listed)
{
    static const char *const names[BR_O_COUNT] = { "passed", "failed", "skipped", "crashed", "timed_out", "violations" };
    const jv *act = get(get(root, "totals"), "actual");
    for (int o = 0; o < BR_O_COUNT; o++) {
        const jv *n = get(act, names[o]);
        if (n != NULL && n->t == J_NUM && n->num > (double)listed[o] && n->num < 1e15)
            r->unlisted[o] += (size_t)n->num - listed[o];
    }
}

/* Each finding's smallest case and shrunk record, kept as hints for the merged findings. */
static void read_hints(br_report *r, const jv *root)
{
    const jv *fs = get(root, "findings");
    for (size_t i = 0; fs && fs->t == J_ARR && i < fs->n; i++) {
        const char *sh = gs(&fs->items[i], "shrunk"), *id = gs(&fs->items[i], "smallest");
        if (!*sh || !*id) continue;
        const char **a = realloc(r->hint_id, (r->nhints + 1) * sizeof *a);
        if (a != NULL) r->hint_id = a;
        const char **b = realloc(r->hint_shrunk, (r->nhints + 1) * sizeof *b);
        if (b != NULL) r->hint_shrunk = b;
        if (a == NULL || b == NULL) return;
        r->hint_id[r->nhints] = id;
        r->hint_shrunk[r->nhints++] = sh;
    }
}

void br_report_reattach_shrunk(br_report *r)
{
    for (size_t h = 0; h < r->nhints; h++)
        for (size_t i = 0; i < r->n; i++) {
            const br_rec *x = &r->recs[i];
            if (x->finding < 0 || (size_t)x->finding >= r->nfindings || strcmp(x->id, r->hint_id[h]) != 0) continue;
            br_finding *f = &r->findings[x->finding];
            if (!f->shrunk[0]) f->shrunk = r->hint_shrunk[h];
        }
}

int br_read_json(br_report *r, const char *path, char *err, size_t cap)
{
    size_t len;
    char *buf = br_read_file(path, &len);
    if (buf == NULL) { snprintf(err, cap, "%s: %s", path, strerror(errno)); return -1; }
    jp p = { buf, buf + len, &r->strs, NULL, 0 };
    jv root;
    int rc = parse_val(&p, &root);
    if (rc == 0) { ws(&p); if (p.s != p.end) { p.err = "trailing data after the JSON value"; rc = -1; } }
    if (rc != 0) {
        snprintf(err, cap, "%s: offset %ld: %s", path, (long)(p.s - buf), p.err ? p.err : "bad JSON");
        jfree(&root);
        free(buf);
        return -1;
    }
    free(buf);
    if (strcmp(gs(&root, "schema"), "bcast-run-result 1") != 0) {
        snprintf(err, cap, "%s: not a bcast-run JSON result (schema must be \"bcast-run-result 1\")", path);
        jfree(&root);
        return -1;
    }
    const jv *t = get(&root, "target"), *cases = get(&root, "cases"), *comp = get(&root, "complete");
    if (cases == NULL || cases->t != J_ARR) {
        snprintf(err, cap, "%s: no \"cases\" array", path);
        jfree(&root);
        return -1;
    }
    if (r->target_name == NULL) {
        r->target_name = gs(t, "name");
        r->target_version = gs(t, "version");
        r->target_profile = gs(t, "profile");
        r->target_ops = gwords(r, t, "ops");
        r->target_dtypes = gwords(r, t, "dtypes");
        r->target_flags = gwords(r, t, "flags");
        const jv *mr = get(t, "max_rank");
        r->target_max_rank = mr && mr->t == J_NUM && mr->num >= 0 && mr->num < 1e6 ? (int)mr->num : 0;
        r->bcast_version = gs(&root, "bcast_version");
        r->caseset_version = gs(&root, "case_set");
        r->profile_used = gs(&root, "profile");
    } else if (strcmp(r->target_name, gs(t, "name")) != 0 || strcmp(r->profile_used, gs(&root, "profile")) != 0) {
        snprintf(err, cap, "%s: a different target or profile than the files before it", path);
        jfree(&root);
        return -1;
    }
    if (comp == NULL || comp->t != J_BOOL || comp->num == 0) r->complete = 0;
    const jv *um = get(&root, "unmatched_expectations");
    for (size_t i = 0; um && um->t == J_ARR && i < um->n; i++) {
        if (um->items[i].t != J_STR) continue;
        int dup = 0;   /* every shard reports the same file's entries */
        for (size_t j = 0; j < r->nunmatched && !dup; j++) dup = strcmp(r->unmatched[j], um->items[i].str) == 0;
        if (dup) continue;
        const char **v = realloc(r->unmatched, (r->nunmatched + 1) * sizeof *v);
        if (v == NULL) break;
        r->unmatched = v;
        r->unmatched[r->nunmatched++] = um->items[i].str;
    }
    size_t listed[BR_O_COUNT] = { 0 };
    for (size_t i = 0; i < cases->n; i++) {
        const jv *c = &cases->items[i];
        int o = br_outcome_from_name(gs(c, "actual_outcome"));
        if (c->t != J_OBJ || o < 0 || !*gs(c, "id")) {
            snprintf(err, cap, "%s: case %zu has no id or an unknown outcome", path, i);
            jfree(&root);
            return -1;
        }
        if (!read_case(r, c, o)->probed) listed[o]++;
    }
    read_unlisted(r, &root, listed);
    read_hints(r, &root);
    jfree(&root);
    return 0;
}
