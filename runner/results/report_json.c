/* report_json.c - the JSON result (schema in docs/runner.md). */
#include "results/report.h"
#include "results/findings.h"

#include <stdio.h>
#include <string.h>

static void str(br_buf *o, const char *s)
{
    br_buf_put(o, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': br_buf_put(o, "\\\"", 2); break;
        case '\\': br_buf_put(o, "\\\\", 2); break;
        case '\n': br_buf_put(o, "\\n", 2); break;
        case '\t': br_buf_put(o, "\\t", 2); break;
        case '\r': br_buf_put(o, "\\r", 2); break;
        default:
            if (*p < 0x20 || *p == 0x7f) br_buf_printf(o, "\\u%04x", (unsigned)*p);
            else if (*p >= 0x80) br_buf_printf(o, "\\u%04x", (unsigned)*p);  /* keep the file ASCII; bytes, not code points */
            else br_buf_put(o, (const char *)p, 1);
        }
    }
    br_buf_put(o, "\"", 1);
}

static void kv(br_buf *o, const char *k, const char *v, int comma)
{
    str(o, k);
    br_buf_put(o, ": ", 2);
    str(o, v);
    if (comma) br_buf_put(o, ", ", 2);
}

/* "k": [...], the pieces of s between sep characters (empty pieces left
 * out) as JSON strings: a space-separated word list, or a finding's
 * '\n'-separated signatures. */
static void list(br_buf *o, const char *k, const char *s, char sep)
{
    str(o, k);
    br_buf_puts(o, ": [");
    int first = 1;
    while (*s) {
        while (*s == sep) s++;
        const char *e = s;
        while (*e && *e != sep) e++;
        if (e > s) {
            if (!first) br_buf_put(o, ", ", 2);
            first = 0;
            br_buf w = { 0 };
            br_buf_put(&w, s, (size_t)(e - s));
            str(o, w.s);    /* tags come from case files: escape them too */
            br_buf_free(&w);
        }
        s = e;
    }
    br_buf_puts(o, "], ");
}

static void words(br_buf *o, const char *k, const char *s) { list(o, k, s, ' '); }

/* "findings": one object per finding, with every case id it holds. */
static void write_findings(const br_report *r, br_buf *o)
{
    br_buf_puts(o, "  \"findings\": [");
    for (size_t f = 0; f < r->nfindings; f++) {
        const br_finding *g = &r->findings[f];
        char id[24];
        br_finding_id(r, f, id, sizeof id);
        br_buf_puts(o, f ? ",\n    {" : "\n    {");
        kv(o, "id", id, 1);
        kv(o, "kind", g->kind, 1);
        kv(o, "name", g->name, 1);
        kv(o, "signature", g->key, 1);
        list(o, "signatures", g->keys, '\n');
        br_buf_printf(o, "\"count\": %zu, \"known\": %zu, ", g->count, g->known);
        kv(o, "smallest", g->count ? r->recs[g->smallest].id : "", 1);
        words(o, "ops", g->ops);
        words(o, "dtypes", g->dtypes);
        words(o, "rules", g->rules);
        words(o, "outcomes", g->outcomes);
        kv(o, "shrunk", g->shrunk, 1);
        br_buf_puts(o, "\"cases\": [");
        size_t k = 0;
        for (size_t i = 0; i < r->n; i++) {
            const br_rec *x = &r->recs[i];
            if (x->finding != (long)f) continue;   /* a limit holds the cases probed under it */
            if (k++) br_buf_puts(o, ", ");
            str(o, x->id);
        }
        br_buf_puts(o, "]}");
    }
    br_buf_puts(o, r->nfindings ? "\n  ],\n" : "],\n");
}

void br_write_json(const br_report *r, br_buf *o)
{
    br_totals t;
    br_report_totals(r, &t);
    br_buf_puts(o, "{\n  \"schema\": \"bcast-run-result 1\",\n  ");
    kv(o, "bcast_version", r->bcast_version, 1);
    kv(o, "case_set", r->caseset_version, 1);
    kv(o, "profile", r->profile_used, 0);
    br_buf_puts(o, ",\n  \"target\": {");
    kv(o, "name", r->target_name, 1);
    kv(o, "version", r->target_version, 1);
    kv(o, "profile", r->target_profile, 1);
    words(o, "ops", r->target_ops);
    words(o, "dtypes", r->target_dtypes);
    words(o, "flags", r->target_flags);
    br_buf_printf(o, "\"max_rank\": %d},\n", r->target_max_rank);
    br_buf_printf(o, "  \"complete\": %s,\n", r->complete ? "true" : "false");
    br_buf_printf(o, "  \"totals\": {\"cases\": %zu, \"passed\": %zu, \"failed\": %zu, \"skipped\": %zu, "
                  "\"crashed\": %zu, \"timed_out\": %zu, \"violations\": %zu, \"expected_failures\": %zu, "
                  "\"unexpected_passes\": %zu, \"probed\": %zu, \"unmatched_expectations\": %zu,\n",
                  t.total, t.passed, t.failed, t.skipped, t.crashed, t.timed_out, t.violations, t.xfail, t.xpass,
                  t.probed, t.unmatched);
    if (t.depends) br_buf_printf(o, "    \"depends_on_earlier\": %zu,\n", t.depends);   /* only when nonzero */
    for (int which = 0; which < 2; which++) {
        const size_t *v = which ? t.known : t.actual;
        br_buf_printf(o, "    \"%s\": {\"passed\": %zu, \"failed\": %zu, \"skipped\": %zu, \"crashed\": %zu, "
                      "\"timed_out\": %zu, \"violations\": %zu}%s\n", which ? "known" : "actual", v[BR_O_PASS],
                      v[BR_O_FAIL], v[BR_O_SKIP], v[BR_O_CRASH], v[BR_O_TIMEOUT], v[BR_O_VIOLATION], which ? "},"  : ",");
    }
    if (r->has_explore)
        br_buf_printf(o, "  \"explore\": {\"seed\": \"%llu\", \"cases\": %llu, \"shard\": \"%ld/%ld\", \"seconds\": %.3f, "
                      "\"listed\": %zu},\n", r->explore_seed, r->explore_cases, r->explore_shard_k, r->explore_shard_n,
                      r->explore_seconds, r->n);
    br_buf_puts(o, "  \"unmatched_expectations\": [");
    for (size_t i = 0; i < r->nunmatched; i++) { if (i) br_buf_puts(o, ", "); str(o, r->unmatched[i]); }
    br_buf_puts(o, "],\n");
    write_findings(r, o);
    br_buf_puts(o, "  \"cases\": [");
    for (size_t i = 0; i < r->n; i++) {
        const br_rec *x = &r->recs[i];
        br_buf_puts(o, i ? ",\n    {" : "\n    {");
        kv(o, "id", x->id, 1);
        kv(o, "suite", x->suite, 1);
        words(o, "tags", x->tags);
        words(o, "rules", x->rules);
        kv(o, "op", x->op, 1);
        kv(o, "mode", x->mode, 1);
        words(o, "dtypes", x->dtypes);
        words(o, "shapes", x->shapes);
        words(o, "strides", x->strides);
        kv(o, "outcome", x->expected_failure ? "xfail" : x->unexpected_pass ? "xpass" : br_outcome_names[x->outcome], 1);
        kv(o, "actual_outcome", br_outcome_names[x->outcome], 1);
        br_buf_printf(o, "\"expected_failure\": %s, \"unexpected_pass\": %s, ",
                      x->expected_failure ? "true" : "false", x->unexpected_pass ? "true" : "false");
        kv(o, "reason", x->reason, 1);
        kv(o, "known_reason", x->known_reason, 1);
        kv(o, "expected", x->expected, 1);
        kv(o, "actual", x->actual, 1);
        kv(o, "first_mismatch", x->mismatch, 1);
        kv(o, "error_class", x->error_class, 1);
        kv(o, "error_message", x->error_message, 1);
        kv(o, "failure", x->failure, 1);
        kv(o, "detail", x->detail, 1);
        kv(o, "behaviour", x->behaviour, 1);
        kv(o, "diff", x->diff, 1);
        kv(o, "stderr_tail", x->stderr_tail, 1);
        words(o, "features", x->features);
        br_buf_printf(o, "\"probed\": %s, ", x->probed ? "true" : "false");
        kv(o, "limit", x->limit, 1);
        char fid[24] = "";
        if (x->finding >= 0) br_finding_id(r, (size_t)x->finding, fid, sizeof fid);
        kv(o, "finding", fid, 1);
        if (x->depends_on[0]) kv(o, "depends_on", x->depends_on, 1);   /* the re-run's, only when set */
        if (x->rerun[0]) kv(o, "rerun", x->rerun, 1);
        kv(o, "file", x->file, 1);
        br_buf_printf(o, "\"line\": %d, \"duration_ms\": %.3f}", x->line, x->duration_ms);
    }
    br_buf_puts(o, r->n ? "\n  ]\n}\n" : "]\n}\n");
}
