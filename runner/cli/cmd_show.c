/* cmd_show.c - `bcast-run show ID`: a case printed readably with NumPy and torch one-liners; with --target, run once, isolated, and shown next to the expectation. */
#include "cli/commands.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_ref.h"
#include "judge/judge.h"
#include "results/describe.h"
#include "target/skip.h"
#include "cli/session.h"
#include "cli/show.h"

#define SIDE_BY_SIDE_MAX 64

typedef struct show_ctx {
    br_caseset *cs;
    br_report *rep;
    br_buf *out;
    const char *target;
} show_ctx;

/* What the target did with case ci, judged, printed under the case. */
static void on_done(void *ctx, size_t ci, int kind, const br_wres *r, const char *base, const br_loss *loss)
{
    show_ctx *s = ctx;
    const br_case *c = &s->cs->cases[ci];
    int profile = bc_profile_from_name(s->rep->profile_used);
    br_rec *x = br_report_add(s->rep);
    br_rec_describe(s->rep, x, c, profile);
    br_judge(s->rep, x, c, profile, kind, r, base, loss);
    br_buf *o = s->out;
    br_buf_printf(o, "target %s %s (profile %s): %s\n", s->rep->target_name, s->rep->target_version,
                  s->rep->profile_used, x->outcome == BR_O_PASS ? "PASS" : br_outcome_names[x->outcome]);
    if (x->reason[0]) br_buf_printf(o, "  %s\n", x->reason);
    if (x->expected[0]) br_buf_printf(o, "  expected: %s\n", x->expected);
    if (x->actual[0]) br_buf_printf(o, "  actual:   %s\n", x->actual);
    if (x->error_message[0]) br_buf_printf(o, "  the target's message: %s\n", x->error_message);
    if (x->stderr_tail[0]) br_buf_printf(o, "  the target's stderr:\n    %s\n", x->stderr_tail);
    int dtype, rank;
    int64_t shape[BC_MAX_RANK], n;
    const br_expect *e = br_pick_expect(c, profile);
    void *got = kind == BR_RUN_DONE ? br_produced_copy(c, r, base, &dtype, &rank, shape, &n) : NULL;
    if (got != NULL && e != NULL && e->status == BCT_OK && e->data_kind == BR_DATA_VALUES && dtype == e->dtype
        && n == e->nelem && dtype != BCT_NONE && n > 0 && x->outcome != BR_O_PASS)
        br_show_side_by_side(dtype, shape, rank, e->values, got, n, SIDE_BY_SIDE_MAX, o);
    free(got);
}

/* Runs the matching cases on the target, printing each one's description
 * and verdict. 0, or 2 when the target cannot be used. */
static int show_on_target(const br_opts *o, br_caseset *cs, const size_t *sel, size_t nsel, br_buf *out)
{
    char tbuf[PATH_MAX + 32];
    br_iso_cfg cfg = br_iso_config(o, cs, sel, nsel, tbuf, sizeof tbuf);
    cfg.jobs = 1;
    br_err err;
    br_target_info info;
    br_iso *iso = br_iso_start(cs, &cfg, &info, &err);
    if (iso == NULL) { fprintf(stderr, "bcast-run: %s\n", err.msg); return 2; }
    br_report rep;
    memset(&rep, 0, sizeof rep);
    int profile = br_profile_used(o, &info);
    br_report_describe_target(&rep, &info, profile, cs->caseset_version);
    show_ctx ctx = { cs, &rep, out, cfg.target };
    int *profs = malloc((nsel ? nsel : 1) * sizeof *profs);
    for (size_t i = 0; profs != NULL && i < nsel; i++) {
        char why[200];
        const br_case *c = &cs->cases[sel[i]];
        br_show_case(c, out);
        const char *sk = br_skip_reason(c, &info, profile, why, sizeof why);
        if (sk != NULL) br_buf_printf(out, "target %s: not run (%s; --probe-limits runs it anyway)\n", info.name, sk);
        if (sk == NULL || (o->probe_limits && br_skip_probeable(sk))) { profs[i] = profile; br_iso_run(iso, &sel[i], &profs[i], 1, on_done, &ctx, NULL); }
        br_buf_puts(out, "\n");
        fputs(out->s, stdout);
        out->len = 0;
        out->s[0] = '\0';
    }
    free(profs);
    br_iso_stop(iso);
    br_report_free(&rep);
    return 0;
}

int br_cmd_show(const br_opts *o)
{
    br_caseset cs;
    memset(&cs, 0, sizeof cs);
    int rc = br_load_cases(&cs, o);
    if (rc) { br_caseset_free(&cs); return rc; }
    size_t *sel = malloc((cs.n ? cs.n : 1) * sizeof *sel), nsel = 0;
    br_err err;
    for (size_t i = 0; sel != NULL && i < cs.n; i++) {
        if (!br_glob_match(o->case_id, cs.cases[i].id)) continue;
        if (br_materialize(&cs, &cs.cases[i], &err) != 0) { fprintf(stderr, "bcast-run: %s\n", err.msg); rc = 2; break; }
        sel[nsel++] = i;
    }
    if (rc == 0 && nsel == 0) { fprintf(stderr, "bcast-run: no case matches '%s'\n", o->case_id); rc = 2; }
    br_buf b = { 0 };
    br_buf_puts(&b, "");
    if (rc == 0 && o->target != NULL) rc = show_on_target(o, &cs, sel, nsel, &b);
    else if (rc == 0)
        for (size_t i = 0; i < nsel; i++) { br_show_case(&cs.cases[sel[i]], &b); }
    if (b.s) fputs(b.s, stdout);
    br_buf_free(&b);
    free(sel);
    br_caseset_free(&cs);
    return rc;
}
