/* report_junit.c - JUnit XML: one testsuite per suite, one testcase per case. */
#include "results/report.h"
#include "results/findings.h"

#include <stdlib.h>
#include <string.h>

/* XML 1.0 cannot hold most control characters even escaped: they become '?'. */
static void esc(br_buf *o, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '<': br_buf_puts(o, "&lt;"); break;
        case '>': br_buf_puts(o, "&gt;"); break;
        case '&': br_buf_puts(o, "&amp;"); break;
        case '"': br_buf_puts(o, "&quot;"); break;
        case '\'': br_buf_puts(o, "&apos;"); break;
        default:
            if (c == '\n' || c == '\t') br_buf_put(o, s, 1);
            else if (c < 0x20 || c == 0x7f || c >= 0x80) br_buf_puts(o, "?");
            else br_buf_put(o, s, 1);
        }
    }
}

static int cmp_idx(const void *a, const void *b, const br_report *r)
{
    const br_rec *x = &r->recs[*(const size_t *)a], *y = &r->recs[*(const size_t *)b];
    int c = strcmp(x->suite, y->suite);
    if (c) return c;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static const br_report *sort_r;
static int cmp_q(const void *a, const void *b) { return cmp_idx(a, b, sort_r); }

/* A suite with no test cases whose properties carry the run's findings and
 * the expectations entries that match no case (listed in system-err). */
static void summary_suite(const br_report *r, br_buf *o)
{
    size_t nf = 0;
    for (size_t f = 0; f < r->nfindings; f++) if (strcmp(r->findings[f].kind, "limit") != 0) nf++;
    br_buf_printf(o, "  <testsuite name=\"bcast-run.summary\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0\">\n"
                  "    <properties>\n      <property name=\"findings\" value=\"%zu\"/>\n"
                  "      <property name=\"unmatched_expectations\" value=\"%zu\"/>\n    </properties>\n", nf, r->nunmatched);
    if (r->nfindings || r->nunmatched) {
        br_buf_puts(o, "    <system-out>");
        for (size_t f = 0; f < r->nfindings; f++) {
            char fid[24];
            br_finding_id(r, f, fid, sizeof fid);
            br_buf_printf(o, "%s %zu ", fid, r->findings[f].count);
            esc(o, r->findings[f].name);
            br_buf_puts(o, "\n");
        }
        br_buf_puts(o, "</system-out>\n");
    }
    if (r->nunmatched) {
        br_buf_puts(o, "    <system-err>expectations entries that match no case:\n");
        for (size_t i = 0; i < r->nunmatched; i++) { esc(o, r->unmatched[i]); br_buf_puts(o, "\n"); }
        br_buf_puts(o, "</system-err>\n");
    }
    br_buf_puts(o, "  </testsuite>\n");
}

void br_write_junit(const br_report *r, br_buf *o)
{
    size_t *ix = malloc((r->n ? r->n : 1) * sizeof *ix);
    if (ix == NULL) return;
    for (size_t i = 0; i < r->n; i++) ix[i] = i;
    sort_r = r;
    qsort(ix, r->n, sizeof *ix, cmp_q);
    br_totals t;
    br_report_totals(r, &t);
    /* An interrupted run adds one erroring testcase (suite "bcast-run"), so a
     * JUnit consumer cannot mistake the cases kept so far for the whole run. */
    size_t extra = r->complete ? 0 : 1;
    br_buf_printf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"bcast\" tests=\"%zu\" "
                  "failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n",
                  t.total + extra, t.failed, t.crashed + t.timed_out + extra, t.skipped);
    for (size_t a = 0; a < r->n;) {
        size_t b = a;
        const char *suite = r->recs[ix[a]].suite;
        size_t nf = 0, ne = 0, ns = 0;
        double ms = 0;
        while (b < r->n && strcmp(r->recs[ix[b]].suite, suite) == 0) {
            const br_rec *x = &r->recs[ix[b]];
            if (x->outcome == BR_O_SKIP || x->expected_failure) ns++;
            else if (x->outcome == BR_O_FAIL || x->outcome == BR_O_VIOLATION) nf++;
            else if (x->outcome != BR_O_PASS) ne++;
            ms += x->duration_ms;
            b++;
        }
        br_buf_puts(o, "  <testsuite name=\"");
        esc(o, suite);
        br_buf_printf(o, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.6f\">\n",
                      b - a, nf, ne, ns, ms / 1000.0);
        for (size_t i = a; i < b; i++) {
            const br_rec *x = &r->recs[ix[i]];
            br_buf_puts(o, "    <testcase classname=\"bcast.");
            esc(o, suite);
            br_buf_puts(o, "\" name=\"");
            esc(o, x->id);
            br_buf_printf(o, "\" time=\"%.6f\"", x->duration_ms / 1000.0);
            if (x->outcome == BR_O_PASS) { br_buf_puts(o, "/>\n"); continue; }
            br_buf_puts(o, ">\n      ");
            const char *el = x->outcome == BR_O_SKIP || x->expected_failure ? "skipped"
                           : (x->outcome == BR_O_FAIL || x->outcome == BR_O_VIOLATION) ? "failure" : "error";
            br_buf_printf(o, "<%s type=\"%s\" message=\"", el, br_outcome_names[x->outcome]);
            if (x->expected_failure) { br_buf_puts(o, "known failure: "); esc(o, x->known_reason); br_buf_puts(o, " -- "); }
            esc(o, x->reason);
            br_buf_puts(o, "\">");
            if (x->expected[0] || x->actual[0]) {
                br_buf_puts(o, "expected: ");
                esc(o, x->expected);
                br_buf_puts(o, "\nactual: ");
                esc(o, x->actual);
                if (x->error_message[0]) { br_buf_puts(o, "\nerror message: "); esc(o, x->error_message); }
            }
            br_buf_printf(o, "</%s>\n    </testcase>\n", el);
        }
        br_buf_puts(o, "  </testsuite>\n");
        a = b;
    }
    if (!r->complete)
        br_buf_printf(o, "  <testsuite name=\"bcast-run\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n"
                      "    <testcase classname=\"bcast.bcast-run\" name=\"run-complete\" time=\"0\">\n"
                      "      <error type=\"incomplete\" message=\"the run was interrupted: only the %zu "
                      "finished cases are reported\"/>\n    </testcase>\n  </testsuite>\n", r->n);
    summary_suite(r, o);
    br_buf_puts(o, "</testsuites>\n");
    free(ix);
}
