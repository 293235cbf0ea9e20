/* report_depends.c - the text report's group of cases that failed only after an
 * earlier case broke the library, one line per trigger (docs/runner.md "Re-run"). */
#include "results/report_depends.h"

#include <stdlib.h>
#include <string.h>

#include "results/findings.h"

/* The finding id of the record whose id is `id` ("F3"), or "no finding". */
static void trigger_finding(const br_report *r, const char *id, char *buf, size_t cap)
{
    snprintf(buf, cap, "no finding");
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->recs[i].id, id) == 0 && r->recs[i].finding >= 0) {
            br_finding_id(r, (size_t)r->recs[i].finding, buf, cap);
            return;
        }
}

/* One trigger's line: its victims (from record `first` on), a few by id. */
static void trigger_line(const br_report *r, br_buf *out, size_t first)
{
    const char *t = r->recs[first].depends_on;
    size_t n = 0;
    for (size_t i = first; i < r->n; i++) n += strcmp(r->recs[i].depends_on, t) == 0;
    char fid[24];
    trigger_finding(r, t, fid, sizeof fid);
    br_buf_printf(out, "  %6zu  after %s (%s), e.g.", n, t, fid);
    size_t k = 0;
    for (size_t i = first; i < r->n && k < 3; i++)
        if (strcmp(r->recs[i].depends_on, t) == 0) br_buf_printf(out, "%s %s", k++ ? "," : "", r->recs[i].id);
    br_buf_puts(out, n > 3 ? ", ...\n" : "\n");
}

void br_write_depends_text(const br_report *r, br_buf *out)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++) n += r->recs[i].depends_on[0] != '\0';
    if (n == 0) return;
    br_buf_printf(out, "depends on earlier cases (%zu): failed after the case named, pass in a fresh worker and fail "
                  "again when replayed after it; not findings of their own (fix or list the trigger)\n", n);
    for (size_t i = 0; i < r->n; i++) {
        const char *t = r->recs[i].depends_on;
        if (!t[0]) continue;
        size_t j = 0;
        while (j < i && strcmp(r->recs[j].depends_on, t) != 0) j++;
        if (j == i) trigger_line(r, out, i);
    }
}
