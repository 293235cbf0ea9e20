/* cmd_shrink.c - `bcast-run shrink ID --target T`: reduces a failing case while the target keeps failing the same way, and prints it as a case file. */
#include "cli/commands.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case/casewrite.h"
#include "results/findings.h"
#include "judge/judge.h"
#include "target/skip.h"
#include "case/live.h"
#include "cli/session.h"
#include "cli/show.h"
#include "explore/shrink.h"
#include "cli/stop.h"

#define SHRINK_RUNS 200
#define SHRINK_SECONDS 30.0


typedef struct one { const br_caseset *cs; int profile, outcome; char sig[512], reason[700]; } one;

static void on_done(void *ctx, size_t ci, int kind, const br_wres *res, const char *base, const br_loss *loss)
{
    one *w = ctx;
    br_report rep;
    memset(&rep, 0, sizeof rep);
    br_rec *x = br_report_add(&rep);
    br_judge(&rep, x, &w->cs->cases[ci], w->profile, kind, res, base, loss);
    w->outcome = x->outcome;
    snprintf(w->reason, sizeof w->reason, "%s", x->reason);
    if (x->outcome != BR_O_PASS && x->outcome != BR_O_SKIP) br_finding_signature(x, w->sig, sizeof w->sig);
    br_report_free(&rep);
}

/* The one case ID names (exactly, or a glob matching one case). -1 after saying why. */
static long find_case(const br_caseset *cs, const char *id)
{
    long found = -1, n = 0;
    for (size_t i = 0; i < cs->n; i++) {
        if (strcmp(cs->cases[i].id, id) == 0) return (long)i;
        if (br_glob_match(id, cs->cases[i].id)) { if (n++ == 0) found = (long)i; }
    }
    if (n == 1) return found;
    if (n == 0) fprintf(stderr, "bcast-run: shrink: no case matches '%s'\n", id);
    else fprintf(stderr, "bcast-run: shrink: '%s' matches %ld cases; name one (e.g. %s)\n", id, n, cs->cases[found].id);
    return -1;
}

typedef struct shrink_state {
    br_caseset cs;
    br_live lv;
    br_spec spec;
    br_iso *iso;
    br_target_info info;
    size_t ci;
    int profile;
} shrink_state;

/* Loads the case, reserves the candidates' memory and starts the workers. 0 or 2. */
static int setup(shrink_state *s, const br_opts *o)
{
    int rc = br_load_cases(&s->cs, o);
    if (rc) return rc;
    long ci = find_case(&s->cs, o->case_id);
    if (ci < 0) return 2;
    s->ci = (size_t)ci;
    if (s->cs.cases[ci].grad_form != BCT_GRAD_VALUE) {   /* B46: candidates (br_spec) carry no call form */
        fprintf(stderr, "bcast-run: shrink: case %s is an in-place/out= gradient case (B46); shrink handles "
                "the value-form gradient only\n", s->cs.cases[ci].id);
        return 2;
    }
    br_err err;
    if (br_materialize(&s->cs, &s->cs.cases[ci], &err) != 0) { fprintf(stderr, "bcast-run: %s\n", err.msg); return 2; }
    if (br_spec_from_case(&s->spec, &s->cs.cases[ci]) != 0) { fprintf(stderr, "bcast-run: out of memory\n"); return 2; }
    int width = o->jobs > 16 ? 16 : o->jobs;
    size_t per = br_shrink_case_bytes(&s->spec);
    if (per > ((size_t)1 << 30)) {
        fprintf(stderr, "bcast-run: shrink: case %s is too large to shrink (its candidates need %zu MiB each)\n",
                s->cs.cases[ci].id, per >> 20);
        return 2;
    }
    if (br_live_init(&s->lv, &s->cs, (size_t)width + 1, per * (size_t)(width + 1)) != 0) {
        fprintf(stderr, "bcast-run: out of memory\n");
        return 2;
    }
    char tbuf[PATH_MAX + 32];
    br_iso_cfg cfg = br_iso_config(o, &s->cs, &s->ci, 1, tbuf, sizeof tbuf);
    br_shrink_iso_caps(&s->spec, &cfg);
    s->iso = br_iso_start(&s->cs, &cfg, &s->info, &err);
    if (s->iso == NULL) { fprintf(stderr, "bcast-run: %s\n", err.msg); return 2; }
    s->profile = br_profile_used(o, &s->info);
    return 0;
}

/* Runs the case as loaded (its own expectation). Its outcome and signature in w; 1 when it does not fail. */
static int original_fails(shrink_state *s, const br_opts *o, one *w)
{
    const br_case *c = &s->cs.cases[s->ci];
    char why[200];
    const char *sk = br_skip_reason(c, &s->info, s->profile, why, sizeof why);
    if (sk != NULL && !o->probe_limits) {
        fprintf(stderr, "bcast-run: shrink: %s is outside %s's declared capabilities (%s): it does not fail, "
                "nothing to shrink (--probe-limits runs it anyway)\n", c->id, s->info.name, sk);
        return 0;
    }
    int prof = s->profile;
    br_iso_run(s->iso, &s->ci, &prof, 1, on_done, w, &br_stop_flag);
    if (w->outcome < 0) return 0;
    if (w->outcome == BR_O_PASS || w->outcome == BR_O_SKIP) {
        fprintf(stderr, "bcast-run: shrink: %s %s on %s (profile %s): nothing to shrink\n", c->id,
                w->outcome == BR_O_PASS ? "passes" : "is skipped", s->info.name, bc_profile_name(s->profile));
        return 0;
    }
    return 1;
}

static void describe(const br_spec *sp, char *buf, size_t cap)
{
    int64_t elems = 0;
    int rank = 0;
    for (int i = 0; i < sp->nargs; i++) { elems += br_sarg_count(&sp->args[i]); rank += sp->args[i].rank; }
    snprintf(buf, cap, "%d operands, %lld elements, ranks summing to %d, mode %s", sp->nargs, (long long)elems, rank,
             sp->mode == BCT_MODE_INPLACE ? "inplace" : sp->mode == BCT_MODE_OUT ? "out" : "value");
}

/* Prints the shrunk case as a case file: header comments, the one-liners, the record. 0 or 2. */
static int print_result(shrink_state *s, const br_opts *o, const char *sig, const br_shrink_stats *st)
{
    const br_case *orig = &s->cs.cases[s->ci];
    char id[600];
    snprintf(id, sizeof id, "%s/shrunk", orig->id);
    br_live_rewind(&s->lv);
    br_spec_meta meta = { id, orig->suite, "shrunk", "", "ref", "shrink", br_all_profiles(), 1 };
    size_t idx;
    if (br_spec_to_live(&s->lv, &s->spec, &meta, &idx) != 0) { fprintf(stderr, "bcast-run: shrink: out of memory\n"); return 2; }
    const br_case *c = &s->cs.cases[idx];
    br_buf head = { 0 }, b = { 0 };
    br_buf_printf(&head, "bcast-run shrink %s --target %s: %ld candidate runs in %.1f s, %ld reductions%s\n"
                  "the target (%s %s, profile %s) fails it as it fails the original: %s\n"
                  "expectations from ref (bc_eval) under both profiles of the generation; source ref\n",
                  orig->id, o->target, st->runs, st->seconds, st->steps,
                  st->budget_hit ? " (the budget ran out: --max-runs / --seconds for more)" : "",
                  s->info.name, s->info.version, bc_profile_name(s->profile), sig);
    br_show_one_liners(c, &head);
    br_casefile_header(&b, head.s, NULL);
    br_buf_puts(&b, "\n");
    br_case_write(c, &b);
    fputs(b.s, stdout);
    fflush(stdout);
    br_buf_free(&head);
    br_buf_free(&b);
    return 0;
}

int br_cmd_shrink(const br_opts *o)
{
    shrink_state s;
    memset(&s, 0, sizeof s);
    br_spec_init(&s.spec);
    br_stop_catch();
    int rc = setup(&s, o);
    /* the wall budget is a deadline: a batch still running when it passes is stopped */
    if (rc == 0) br_stop_after(o->seconds > 0 ? o->seconds : SHRINK_SECONDS);
    one w = { &s.cs, s.profile, -1, "", "" };
    if (rc == 0 && !original_fails(&s, o, &w)) rc = br_interrupted() ? 130 : 1;
    br_shrink_cfg cfg = { s.iso, &s.lv, &s.info, s.profile, o->jobs, o->probe_limits,
                          o->max_runs > 0 ? o->max_runs : SHRINK_RUNS, o->seconds > 0 ? o->seconds : SHRINK_SECONDS, &br_stop_flag };
    char ref_sig[512] = "", before[200], after[200];
    int oc = -1;
    if (rc == 0 && (br_shrink_judge(&cfg, &s.spec, ref_sig, sizeof ref_sig, &oc) != 0 || oc == BR_O_PASS || oc == BR_O_SKIP)) {
        fprintf(stderr, "bcast-run: shrink: %s fails only against its own expectation: with ref's expectation "
                "(which every candidate is judged by) the target %s; nothing to shrink\n", o->case_id,
                oc == BR_O_PASS ? "passes" : "cannot run it");
        rc = 1;
    }
    if (rc == 0 && strcmp(ref_sig, w.sig) != 0)
        fprintf(stderr, "bcast-run: shrink: note: against ref's expectation the target fails as '%s' (against the "
                "case's own: '%s'); shrinking keeps the first\n", ref_sig, w.sig);
    br_shrink_stats st;
    memset(&st, 0, sizeof st);
    describe(&s.spec, before, sizeof before);
    if (rc == 0 && br_shrink(&cfg, &s.spec, ref_sig, &st) != 0) { fprintf(stderr, "bcast-run: shrink: out of memory\n"); rc = 2; }
    describe(&s.spec, after, sizeof after);
    if (rc == 0) {
        fprintf(stderr, "shrink: %s: %s -> %s (%ld runs, %.1f s)\n", o->case_id, before, after, st.runs, st.seconds);
        rc = print_result(&s, o, ref_sig, &st);
        if (rc == 0 && br_interrupted()) rc = 130;
    }
    br_iso_stop(s.iso);
    br_spec_free(&s.spec);
    br_caseset_free(&s.cs);
    return rc;
}
