/* expect.c - the expectations (known failures) file: reading, matching, unmatched entries, and the merging writer. */
#include "results/expect.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case/select.h"

static int is_glob(const char *s) { return strpbrk(s, "*?[") != NULL; }
static const br_expectations *sort_x;
static int cmp_exact(const void *a, const void *b)
{
    return strcmp(sort_x->v[*(const size_t *)a].glob, sort_x->v[*(const size_t *)b].glob);
}

int br_expectations_parse(br_expectations *x, const char *name, char *buf, br_err *err)
{
    x->buf = buf;
    x->name = name;
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

/* The record of case id in rep (records are in id order), or NULL. */
static const br_rec *find_rec(const br_report *rep, const char *id)
{
    size_t lo = 0, hi = rep->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(rep->recs[mid].id, id);
        if (c == 0) return &rep->recs[mid];
        if (c < 0) lo = mid + 1; else hi = mid;
    }
    return NULL;
}

static int is_failure(const br_rec *r)
{
    return !r->probed && r->outcome != BR_O_PASS && r->outcome != BR_O_SKIP;
}

int br_expectation_matches_set(const br_expectations *x, size_t i, const br_caseset *cs)
{
    const char *g = x->v[i].glob;
    if (!is_glob(g)) {
        size_t lo = 0, hi = cs->n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            int c = strcmp(cs->cases[mid].id, g);
            if (c == 0) return 1;
            if (c < 0) lo = mid + 1; else hi = mid;
        }
        return 0;
    }
    for (size_t k = 0; k < cs->n; k++) if (br_glob_match(g, cs->cases[k].id)) return 1;
    return 0;
}

size_t br_expectations_unmatched(const br_expectations *x, const br_caseset *cs, br_report *rep)
{
    size_t n = 0;
    for (size_t i = 0; i < x->n; i++) {
        if (br_expectation_matches_set(x, i, cs)) continue;
        const char **v = realloc(rep->unmatched, (rep->nunmatched + 1) * sizeof *v);
        if (v == NULL) break;
        rep->unmatched = v;
        char line[1200];
        snprintf(line, sizeof line, "%s:%d: %s", x->name ? x->name : "?", x->v[i].line, x->v[i].glob);
        rep->unmatched[rep->nunmatched++] = br_report_str(rep, line);
        n++;
    }
    return n;
}

/* What became of an entry in this run. */
enum { E_KEEP, E_PASSES, E_NO_CASE };

static int entry_status(const char *glob, const br_report *rep, const br_caseset *cs, const br_expectations *one)
{
    if (!br_expectation_matches_set(one, 0, cs)) return E_NO_CASE;
    if (!is_glob(glob)) {
        const br_rec *r = find_rec(rep, glob);
        return r != NULL && !r->probed && r->outcome == BR_O_PASS ? E_PASSES : E_KEEP;
    }
    int ran = 0;
    for (size_t i = 0; i < rep->n; i++) {
        const br_rec *r = &rep->recs[i];
        if (r->probed || r->outcome == BR_O_SKIP || !br_glob_match(glob, r->id)) continue;
        if (r->outcome != BR_O_PASS) return E_KEEP;
        ran = 1;
    }
    return ran ? E_PASSES : E_KEEP;
}

/* Copies the existing file line by line, marking entries that no longer
 * apply. *x gets the entries that still apply (to find uncovered failures). */
static void copy_existing(const char *existing, const br_report *rep, const br_caseset *cs, br_buf *out, br_buf *kept)
{
    const char *s = existing;
    while (*s) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        const char *p = s;
        while (p < s + len && (*p == ' ' || *p == '\t')) p++;
        int status = E_KEEP;
        if (p < s + len && *p != '#') {
            const char *q = p;
            while (q < s + len && *q != ' ' && *q != '\t' && *q != '\r') q++;
            char glob[1024];
            snprintf(glob, sizeof glob, "%.*s", (int)(q - p), p);
            br_expectation one = { glob, "", 0 };
            size_t ex = 0;
            br_expectations single = { "", &one, 1, NULL, &ex, is_glob(glob) ? 0 : 1 };
            status = entry_status(glob, rep, cs, &single);
            if (status == E_KEEP) { br_buf_put(kept, s, len); br_buf_puts(kept, "\n"); }
        }
        if (status == E_PASSES) br_buf_puts(out, "# [no longer fails] ");
        if (status == E_NO_CASE) br_buf_puts(out, "# [matches no case] ");
        br_buf_put(out, s, len);
        br_buf_puts(out, "\n");
        s += len + (e ? 1 : 0);
    }
}

static void entry_line(br_buf *out, const br_rec *r)
{
    br_buf_printf(out, "%s %s: ", r->id, br_outcome_names[r->outcome]);
    for (const char *s = r->reason; *s; s++) br_buf_put(out, (*s == '\n' || *s == '\r') ? " " : s, 1);
    br_buf_puts(out, "\n");
}

/* Appends the failures not covered by `covered` (may be empty), one block
 * per finding in the report's order, then those outside any finding. */
static void new_blocks(const br_report *rep, const br_expectations *covered, const char *mark, br_buf *out)
{
    for (size_t f = 0; f <= rep->nfindings; f++) {
        size_t count = 0;
        for (size_t i = 0; i < rep->n; i++) {
            const br_rec *r = &rep->recs[i];
            if (!is_failure(r) || (f < rep->nfindings ? r->finding != (long)f : r->finding >= 0)) continue;
            if (covered->n && br_expectations_find(covered, r->id, NULL) != NULL) continue;
            if (count++ == 0) {
                if (f < rep->nfindings)
                    br_buf_printf(out, "\n# %sF%zu: %s\n", mark, f + 1, rep->findings[f].name);
                else br_buf_printf(out, "\n# %sfailures outside any finding\n", mark);
            }
            entry_line(out, r);
        }
    }
}

void br_expectations_render(const char *existing, const br_report *rep, const br_caseset *cs, br_buf *out)
{
    br_expectations covered;
    memset(&covered, 0, sizeof covered);
    if (existing == NULL) {
        br_buf_puts(out, "# Known failures written by bcast-run --write-expectations: ID OUTCOME: REASON,\n"
                         "# one block per finding (docs/findings.md). Edit the reasons; a rewrite keeps them.\n");
        new_blocks(rep, &covered, "", out);
        return;
    }
    br_buf kept = { 0 };
    br_buf_puts(&kept, "");
    copy_existing(existing, rep, cs, out, &kept);
    br_err err;
    if (br_expectations_parse(&covered, "(existing)", kept.s, &err) != 0) {
        free(kept.s);
        memset(&covered, 0, sizeof covered);
    }
    new_blocks(rep, &covered, "[new] ", out);
    if (covered.buf != NULL) br_expectations_free(&covered);
}
