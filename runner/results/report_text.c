/* report_text.c - the human report: counts per suite and tag, the findings, and (verbose) every failure with its diff. (The closing totals line is printed by output.c.) */
#include "results/report.h"
#include "results/findings.h"
#include "results/report_depends.h"

#include <stdlib.h>
#include <string.h>

typedef struct tally { const char *name; size_t n[BR_O_COUNT]; size_t known; } tally;

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

/* Counts by what happened: a known crash is still a crash; `known` says how
 * many of the failures the expectations file listed. */
static void count(tally *x, const br_rec *r)
{
    if (x == NULL || r->probed) return;
    x->n[r->outcome]++;
    if (r->expected_failure) x->known++;
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
                  "timeout", "memviol", "known");
    for (size_t i = 0; i < t->n; i++) {
        tally *x = &t->v[i];
        br_buf_printf(out, "%-16s %7zu %7zu %7zu %7zu %7zu %7zu %7zu\n", x->name, x->n[BR_O_PASS],
                      x->n[BR_O_FAIL], x->n[BR_O_SKIP], x->n[BR_O_CRASH], x->n[BR_O_TIMEOUT],
                      x->n[BR_O_VIOLATION], x->known);
        free((void *)(uintptr_t)x->name);
    }
    free(t->v);
    br_buf_puts(out, "\n");
}

static const char *label_of(const br_rec *x)
{
    if (x->outcome == BR_O_PASS) return "XPASS";
    if (x->expected_failure) return "XFAIL";
    return x->outcome == BR_O_FAIL ? "FAIL" : x->outcome == BR_O_CRASH ? "CRASH"
         : x->outcome == BR_O_TIMEOUT ? "TIMEOUT" : "MEMVIOL";
}

/* Every non-passing case with its reason and values (--verbose). */
static void case_list(const br_report *r, br_buf *out, const char *red, const char *yel, const char *off)
{
    size_t listed = 0;
    for (size_t i = 0; i < r->n; i++) {
        const br_rec *x = &r->recs[i];
        if ((x->outcome == BR_O_PASS && !x->unexpected_pass) || x->outcome == BR_O_SKIP) continue;
        listed++;
        if (x->outcome == BR_O_PASS) {
            br_buf_printf(out, "%sXPASS%s %s  (unexpected pass: listed as a known failure: %s)\n", yel, off, x->id, x->known_reason);
            continue;
        }
        br_buf_printf(out, "%s%s%s %s  [%s:%d]%s%s\n", x->expected_failure ? yel : red, label_of(x), off, x->id, x->file,
                      x->line, x->probed ? "  (probed: " : "", x->probed ? "outside the declared limits)" : "");
        br_buf_printf(out, "    %s\n", x->reason);
        if (x->expected[0]) br_buf_printf(out, "    expected: %s\n", x->expected);
        if (x->actual[0]) br_buf_printf(out, "    actual:   %s\n", x->actual);
        if (x->stderr_tail[0]) br_buf_printf(out, "    stderr:   %s\n", x->stderr_tail);
        if (x->expected_failure && x->known_reason[0]) br_buf_printf(out, "    known:    %s\n", x->known_reason);
        if (x->finding >= 0) {
            char fid[24];
            br_finding_id(r, (size_t)x->finding, fid, sizeof fid);
            br_buf_printf(out, "    finding:  %s\n", fid);
        }
    }
    if (listed) br_buf_puts(out, "\n");
}

/* Whether a finding holds a failure the expectations file did not list. */
static size_t new_in(const br_report *r, size_t f)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++) {
        const br_rec *x = &r->recs[i];
        if (x->finding == (long)f && !x->expected_failure && !x->probed) n++;
    }
    return n;
}

static void finding_lines(const br_report *r, br_buf *out, size_t f, const char *lead)
{
    const br_finding *g = &r->findings[f];
    const br_rec *s = &r->recs[g->smallest];
    char fid[24];
    br_finding_id(r, f, fid, sizeof fid);
    br_buf_printf(out, "%s%-4s %6zu  %s\n", lead, fid, g->count, g->name);
    br_buf_printf(out, "%s          smallest: %s   (bcast-run show '%s' --target %s)\n", lead, s->id, s->id,
                  r->target_path && r->target_path[0] ? r->target_path : "TARGET");
    if (!g->shrunk[0]) return;
    br_buf_printf(out, "%s          shrunk:\n", lead);   /* a case record (bcast-run shrink, explore) */
    for (const char *p = g->shrunk; *p;) {
        size_t n = strcspn(p, "\n");
        br_buf_printf(out, "%s            %.*s\n", lead, (int)n, p);
        p += n + (p[n] == '\n');
    }
}

/* The findings: every failure family with its smallest case, then the
 * declared limits; and, when the gate fails, the new findings last. */
static void findings_section(const br_report *r, br_buf *out, const br_totals *t)
{
    size_t nf = 0, nfail = 0, nknown = 0, nl = 0;
    for (size_t f = 0; f < r->nfindings; f++) {
        if (strcmp(r->findings[f].kind, "limit") == 0) { nl++; continue; }
        nf++;
        nfail += r->findings[f].count;
        nknown += r->findings[f].known;
    }
    br_buf_printf(out, "%zu failures in %zu findings (%zu known, %zu new)\n", nfail, nf, nknown, nfail - nknown);
    for (size_t f = 0; f < r->nfindings; f++)
        if (strcmp(r->findings[f].kind, "limit") != 0) finding_lines(r, out, f, "  ");
    if (nl) {
        br_buf_printf(out, "declared limits (%zu): cases outside what the target claims%s\n", nl,
                      t->probed ? ", probed with --probe-limits" : ", not run (--probe-limits runs them)");
        for (size_t f = 0; f < r->nfindings; f++)
            if (strcmp(r->findings[f].kind, "limit") == 0) {
                char fid[24];
                br_finding_id(r, f, fid, sizeof fid);
                const char *o = r->findings[f].outcomes;
                br_buf_printf(out, "  %-4s %6zu  %s%s%s\n", fid, r->findings[f].count, r->findings[f].name,
                              strncmp(o, "probed", 6) == 0 ? "; " : "", strncmp(o, "probed", 6) == 0 ? o : "");
            }
    }
    br_write_depends_text(r, out);
    size_t nx = 0;
    for (size_t i = 0; i < r->n; i++) {
        const br_rec *x = &r->recs[i];
        if (!x->unexpected_pass) continue;
        if (nx++ == 0) br_buf_puts(out, "unexpected passes (listed as known failures, but passed: remove them from the file):\n");
        if (nx <= 10) br_buf_printf(out, "  XPASS %s  (known: %s)\n", x->id, x->known_reason);
    }
    if (nx > 10) br_buf_printf(out, "  ... and %zu more (--verbose lists them)\n", nx - 10);
    if (r->nunmatched) br_buf_printf(out, "%zu expectations entries match no case (see the warnings; --strict-expectations makes them an error)\n", r->nunmatched);
    size_t nnew = 0;
    for (size_t f = 0; f < r->nfindings; f++) if (strcmp(r->findings[f].kind, "limit") != 0 && new_in(r, f)) nnew++;
    if (nnew) {
        br_buf_printf(out, "\nNEW: %zu findings hold failures the expectations file does not list:\n", nnew);
        for (size_t f = 0; f < r->nfindings; f++)
            if (strcmp(r->findings[f].kind, "limit") != 0 && new_in(r, f)) finding_lines(r, out, f, "  ");
    }
}

void br_write_text(const br_report *r, br_buf *out, int color, int verbose)
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
    if (verbose) case_list(r, out, red, yel, off);
    br_totals t;
    br_report_totals(r, &t);
    findings_section(r, out, &t);
    br_buf_puts(out, "\n");
}
