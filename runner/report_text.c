/* report_text.c - the human report: totals per suite and per tag, then every
 * failure with its diff. (The closing totals line is printed by main.) */
#include "report.h"

#include <stdlib.h>
#include <string.h>

typedef struct tally { const char *name; size_t n[BR_O_COUNT]; size_t xfail; } tally;

typedef struct tallies { tally *v; size_t n, cap; } tallies;

static tally *find(tallies *t, const char *name, size_t len)
{
    for (size_t i = 0; i < t->n; i++)
        if (strlen(t->v[i].name) == len && memcmp(t->v[i].name, name, len) == 0) return &t->v[i];
    if (t->n == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 32;
        tally *v = realloc(t->v, nc * sizeof *v);
        if (v == NULL) return NULL;
        t->v = v;
        t->cap = nc;
    }
    tally *x = &t->v[t->n++];
    memset(x, 0, sizeof *x);
    char *s = malloc(len + 1);
    if (s == NULL) { t->n--; return NULL; }
    memcpy(s, name, len);
    s[len] = '\0';
    x->name = s;
    return x;
}

static void count(tally *x, const br_rec *r)
{
    if (x == NULL) return;
    if (r->expected_failure && r->outcome != BR_O_PASS) x->xfail++;
    else x->n[r->outcome]++;
}

static int cmp_tally(const void *a, const void *b)
{
    return strcmp(((const tally *)a)->name, ((const tally *)b)->name);
}

static void table(br_buf *out, const char *title, tallies *t)
{
    if (t->n == 0) return;
    qsort(t->v, t->n, sizeof *t->v, cmp_tally);
    br_buf_printf(out, "%-16s %7s %7s %7s %7s %7s %7s %7s\n", title, "pass", "fail", "skip", "crash",
                  "timeout", "memviol", "xfail");
    for (size_t i = 0; i < t->n; i++) {
        tally *x = &t->v[i];
        br_buf_printf(out, "%-16s %7zu %7zu %7zu %7zu %7zu %7zu %7zu\n", x->name, x->n[BR_O_PASS],
                      x->n[BR_O_FAIL], x->n[BR_O_SKIP], x->n[BR_O_CRASH], x->n[BR_O_TIMEOUT],
                      x->n[BR_O_VIOLATION], x->xfail);
        free((void *)(uintptr_t)x->name);
    }
    free(t->v);
    br_buf_puts(out, "\n");
}

#define MAX_LISTED 200

void br_write_text(const br_report *r, br_buf *out, int color)
{
    const char *red = color ? "\033[31m" : "", *yel = color ? "\033[33m" : "", *off = color ? "\033[0m" : "";
    br_buf_printf(out, "bcast-run %s: target %s %s, profile %s%s%s\n\n", r->bcast_version, r->target_name,
                  r->target_version, r->profile_used, r->caseset_version[0] ? ", case-set " : "",
                  r->caseset_version);
    tallies suites = { 0 }, tags = { 0 };
    for (size_t i = 0; i < r->n; i++) {
        const br_rec *x = &r->recs[i];
        count(find(&suites, x->suite, strlen(x->suite)), x);
        const char *s = x->tags;
        while (*s) {
            while (*s == ' ') s++;
            const char *e = s;
            while (*e && *e != ' ') e++;
            if (e > s) count(find(&tags, s, (size_t)(e - s)), x);
            s = e;
        }
    }
    table(out, "suite", &suites);
    table(out, "tag", &tags);
    size_t listed = 0, more = 0;
    for (size_t i = 0; i < r->n; i++) {
        const br_rec *x = &r->recs[i];
        if (x->outcome == BR_O_PASS && !x->unexpected_pass) continue;
        if (x->outcome == BR_O_SKIP) continue;
        if (listed >= MAX_LISTED) { more++; continue; }
        listed++;
        if (x->outcome == BR_O_PASS) {
            br_buf_printf(out, "%sXPASS%s %s  (unexpected pass: listed as a known failure: %s)\n", yel, off, x->id, x->known_reason);
            continue;
        }
        const char *label = x->expected_failure ? "XFAIL" : x->outcome == BR_O_FAIL ? "FAIL"
                          : x->outcome == BR_O_CRASH ? "CRASH" : x->outcome == BR_O_TIMEOUT ? "TIMEOUT" : "MEMVIOL";
        br_buf_printf(out, "%s%s%s %s  [%s:%d]\n", x->expected_failure ? yel : red, label, off, x->id, x->file, x->line);
        br_buf_printf(out, "    %s\n", x->reason);
        if (x->expected[0]) br_buf_printf(out, "    expected: %s\n", x->expected);
        if (x->actual[0]) br_buf_printf(out, "    actual:   %s\n", x->actual);
        if (x->expected_failure && x->known_reason[0]) br_buf_printf(out, "    known:    %s\n", x->known_reason);
    }
    if (more) br_buf_printf(out, "... and %zu more not listed (see --format json)\n", more);
    if (listed) br_buf_puts(out, "\n");
}
