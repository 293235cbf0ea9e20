/* report.c - the result model: records, totals, the closing line, and the exit status. */
#include "results/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const br_outcome_names[BR_O_COUNT] = { "pass", "fail", "skip", "crash", "timeout", "violation" };

#define BR_FAILURE_NAME(id, name) name,
const char *const br_failure_names[BR_FK_COUNT] = { BR_FAILURES(BR_FAILURE_NAME) };

int br_outcome_from_name(const char *s)
{
    for (int i = 0; i < BR_O_COUNT; i++) if (strcmp(s, br_outcome_names[i]) == 0) return i;
    return -1;
}

const char *br_report_str(br_report *r, const char *s)
{
    if (s == NULL || *s == '\0') return "";
    size_t n = strlen(s);
    char *d = br_pool_alloc(&r->strs, n + 1);
    if (d == NULL) { fputs("bcast-run: out of memory\n", stderr); exit(2); }
    memcpy(d, s, n + 1);
    return d;
}

br_rec *br_report_add(br_report *r)
{
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 1024;
        br_rec *v = realloc(r->recs, nc * sizeof *v);
        if (v == NULL) { fputs("bcast-run: out of memory\n", stderr); exit(2); }
        r->recs = v;
        r->cap = nc;
    }
    br_rec *x = &r->recs[r->n++];
    memset(x, 0, sizeof *x);
    x->id = x->suite = x->tags = x->rules = x->op = x->mode = x->dtypes = x->shapes = x->strides = "";
    x->reason = x->expected = x->actual = x->mismatch = x->error_class = x->error_message = "";
    x->known_reason = x->file = "";
    x->failure = x->detail = x->stderr_tail = x->diff = x->limit = x->features = x->behaviour = "";
    x->depends_on = x->rerun = "";
    x->finding = -1;
    return x;
}

void br_report_free(br_report *r)
{
    free(r->recs);
    free(r->unmatched);
    free(r->findings);
    free(r->hint_id);
    free(r->hint_shrunk);
    br_pool_free(&r->strs);
    memset(r, 0, sizeof *r);
}

void br_report_totals(const br_report *r, br_totals *t)
{
    memset(t, 0, sizeof *t);
    t->unmatched = r->nunmatched;
    for (size_t i = 0; i < r->n; i++) {
        const br_rec *x = &r->recs[i];
        t->total++;
        if (x->probed) { t->probed++; continue; }   /* outside the claim: not part of the gate */
        t->actual[x->outcome]++;
        if (x->expected_failure) t->known[x->outcome]++;
        if (x->outcome == BR_O_PASS) { t->passed++; if (x->unexpected_pass) t->xpass++; continue; }
        if (x->outcome == BR_O_SKIP) { t->skipped++; continue; }
        if (x->expected_failure) { t->xfail++; continue; }
        if (x->depends_on[0]) { t->depends++; continue; }
        switch (x->outcome) {
        case BR_O_CRASH: t->crashed++; break;
        case BR_O_TIMEOUT: t->timed_out++; break;
        case BR_O_VIOLATION: t->violations++; t->failed++; break;   /* violations count as failed */
        default: t->failed++; break;
        }
    }
    t->probed += r->unlisted_probed;
    t->total += r->unlisted_probed;
    for (int o = 0; o < BR_O_COUNT; o++) {   /* ran but not listed (explore) */
        size_t u = r->unlisted[o];
        t->total += u;
        t->actual[o] += u;
        switch (o) {
        case BR_O_PASS: t->passed += u; break;
        case BR_O_SKIP: t->skipped += u; break;
        case BR_O_CRASH: t->crashed += u; break;
        case BR_O_TIMEOUT: t->timed_out += u; break;
        case BR_O_VIOLATION: t->violations += u; t->failed += u; break;
        default: t->failed += u; break;
        }
    }
}

static int xfail_part(const br_totals *t, char *buf, size_t cap, int o);

void br_totals_line(const br_totals *t, char *buf, size_t cap)
{
    int o = snprintf(buf, cap, "%zu passed, %zu failed, %zu skipped", t->passed, t->failed, t->skipped);
    if (o < 0 || (size_t)o >= cap) return;
    if (t->crashed) o += snprintf(buf + o, cap - (size_t)o, ", %zu crashed", t->crashed);
    if ((size_t)o >= cap) return;
    if (t->timed_out) o += snprintf(buf + o, cap - (size_t)o, ", %zu timed out", t->timed_out);
    if ((size_t)o >= cap) return;
    if (t->xfail) o = xfail_part(t, buf, cap, o);
    if (t->depends && (size_t)o < cap)
        snprintf(buf + o, cap - (size_t)o, ", %zu depend on earlier cases", t->depends);
}

/* ", N expected failures (N failed, ...)" at buf + o; the new length. */
static int xfail_part(const br_totals *t, char *buf, size_t cap, int o)
{
    o += snprintf(buf + o, cap - (size_t)o, ", %zu expected failures (", t->xfail);
    /* what the known failures were: a known crash is still a crash */
    static const int order[] = { BR_O_FAIL, BR_O_CRASH, BR_O_VIOLATION, BR_O_TIMEOUT };
    static const char *const what[] = { "failed", "crashed", "memory violations", "timed out" };
    const char *sep = "";
    for (int i = 0; i < 4 && (size_t)o < cap; i++) {
        if (!t->known[order[i]]) continue;
        o += snprintf(buf + o, cap - (size_t)o, "%s%zu %s", sep, t->known[order[i]], what[i]);
        sep = ", ";
    }
    if ((size_t)o < cap) o += snprintf(buf + o, cap - (size_t)o, ")");
    return o;
}

int br_report_exit(const br_totals *t)
{
    return (t->failed || t->crashed || t->timed_out) ? 1 : 0;
}
