/* report_tap.c - TAP version 13: a plan line, one test line per case, YAML diagnostics for failures. */
#include "results/report.h"

#include <string.h>

/* TAP descriptions end at '#' (directives) and at a newline. */
static void desc(br_buf *o, const char *s)
{
    for (; *s; s++) br_buf_put(o, (*s == '#' || *s == '\n') ? "_" : s, 1);
}

static void yaml_str(br_buf *o, const char *k, const char *v)
{
    if (!*v) return;
    br_buf_printf(o, "  %s: \"", k);
    for (; *v; v++) {
        if (*v == '"' || *v == '\\') br_buf_put(o, "\\", 1);
        if ((unsigned char)*v < 0x20) { br_buf_put(o, " ", 1); continue; }
        br_buf_put(o, v, 1);
    }
    br_buf_puts(o, "\"\n");
}

void br_write_tap(const br_report *r, br_buf *o)
{
    br_buf_printf(o, "TAP version 13\n1..%zu\n", r->n);
    for (size_t i = 0; i < r->n; i++) {
        const br_rec *x = &r->recs[i];
        int ok = x->outcome == BR_O_PASS || x->outcome == BR_O_SKIP;
        br_buf_printf(o, "%s %zu - ", ok || x->expected_failure ? (ok ? "ok" : "not ok") : "not ok", i + 1);
        desc(o, x->id);
        if (x->outcome == BR_O_SKIP) { br_buf_puts(o, " # SKIP "); desc(o, x->reason); }
        else if (x->expected_failure) { br_buf_puts(o, " # TODO known failure: "); desc(o, x->known_reason); }
        br_buf_puts(o, "\n");
        if (!ok || x->unexpected_pass) {
            br_buf_puts(o, "  ---\n");
            yaml_str(o, "outcome", x->unexpected_pass ? "unexpected pass" : br_outcome_names[x->outcome]);
            yaml_str(o, "message", x->reason);
            yaml_str(o, "expected", x->expected);
            yaml_str(o, "actual", x->actual);
            yaml_str(o, "first_mismatch", x->mismatch);
            yaml_str(o, "error_class", x->error_class);
            yaml_str(o, "error_message", x->error_message);
            br_buf_puts(o, "  ...\n");
        }
    }
    /* "Bail out!" makes TAP consumers (prove) fail an interrupted run even
     * when every case kept so far passed. */
    if (!r->complete) br_buf_puts(o, "Bail out! the run was interrupted: only the finished cases are listed\n");
}
