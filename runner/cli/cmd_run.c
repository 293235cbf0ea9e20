/* cmd_run.c - `bcast-run [run]`: select cases, run them in isolated workers, judge, group into findings, report. */
#include "cli/commands.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bcast_ref.h"
#include "results/expect.h"
#include "results/findings.h"
#include "isolate/isolate.h"
#include "judge/judge.h"
#include "judge/rerun.h"
#include "results/describe.h"
#include "target/skip.h"
#include "cli/output.h"
#include "cli/session.h"
#include "cli/stop.h"

typedef struct run_ctx {
    br_caseset *cs;
    br_report *rep;
    size_t *rec_of;        /* case index -> record index */
    unsigned char *ran;    /* per record: finished */
    int *prof_of;          /* per case index */
    size_t done, total;
    int progress;
    int64_t last_draw;
    br_iso *iso;
    br_run_trace tr;       /* per record: where and when its case ran (judge/rerun.h) */
} run_ctx;


static void progress(run_ctx *r, int force)
{
    int64_t now = br_now_ns();
    if (!force && now - r->last_draw < 100000000) return;
    r->last_draw = now;
    int w = 40, f = r->total ? (int)((double)r->done / (double)r->total * w) : w;
    char bar[64];
    for (int i = 0; i < w; i++) bar[i] = i < f ? '=' : ' ';
    bar[w] = '\0';
    fprintf(stderr, "\r[%s] %zu/%zu", bar, r->done, r->total);
    if (force) fputc('\n', stderr);
    fflush(stderr);
}

static void on_done(void *ctx, size_t ci, int kind, const br_wres *res, const char *base, const br_loss *loss)
{
    run_ctx *r = ctx;
    size_t ri = r->rec_of[ci];
    br_rec *x = &r->rep->recs[ri];
    int probed = x->probed;
    const char *limit = x->limit;
    br_judge(r->rep, x, &r->cs->cases[ci], r->prof_of[ci], kind, res, base, loss);
    x->probed = probed;
    x->limit = limit;
    r->tr.life[ri] = br_iso_life(r->iso);
    r->tr.seq[ri] = r->done;
    r->tr.case_of[ri] = ci;
    r->tr.prof_of[ri] = r->prof_of[ci];
    r->ran[ri] = 1;
    r->done++;
    if (r->progress) progress(r, 0);
}

/* The selected case indices (filters, shard). 0, or 2 after saying why none. */
static int select_cases(const br_caseset *cs, const br_opts *o, size_t **sel, size_t *nsel)
{
    char err[800];
    if (br_filter_validate(&o->filter, cs, err, sizeof err) != 0) {
        fprintf(stderr, "bcast-run: %s\n", err);
        return 2;
    }
    *sel = malloc((cs->n ? cs->n : 1) * sizeof **sel);
    if (*sel == NULL) return 2;
    *nsel = 0;
    for (size_t i = 0; i < cs->n; i++) {
        if (!br_filter_match(&o->filter, &cs->cases[i])) continue;
        if (o->shard_n > 0 && !br_shard_keeps(cs->cases[i].id, o->shard_k, o->shard_n)) continue;
        (*sel)[(*nsel)++] = i;
    }
    if (*nsel == 0 && !o->allow_empty) {
        char f[600];
        br_filter_describe(&o->filter, f, sizeof f);
        fprintf(stderr, "bcast-run: no case selected: %s%s%s matches nothing in the %zu loaded cases "
                "(--allow-empty if you mean it)\n", f, o->shard_n ? " with --shard " : "",
                o->shard_n ? "K/N" : "", cs->n);
        return 2;
    }
    return 0;
}

/* Loads --expectations and records its entries that match no loaded case;
 * with --strict-expectations they are an error. 0 or 2. */
static int load_expectations(br_expectations *ex, const br_opts *o, const br_caseset *cs, br_report *rep)
{
    br_err err;
    if (o->expectations == NULL) return 0;
    if (br_expectations_load(ex, o->expectations, &err) != 0) { fprintf(stderr, "bcast-run: %s\n", err.msg); return 2; }
    size_t n = br_expectations_unmatched(ex, cs, rep);
    for (size_t i = 0; i < n && i < 20; i++)
        fprintf(stderr, "bcast-run: %s: %s matches no case of the loaded case set\n",
                o->strict_expectations ? "error" : "warning", rep->unmatched[i]);
    if (n > 20) fprintf(stderr, "bcast-run: ... and %zu more entries that match no case\n", n - 20);
    if (n && o->strict_expectations) {
        fprintf(stderr, "bcast-run: %zu expectations entries match no case (--strict-expectations): "
                "a renamed or regenerated case would otherwise hide a failure\n", n);
        return 2;
    }
    return 0;
}

/* Whether no selected case has an expectation under profile (a numpy2 or
 * torch2 run over cases measured before those generations): the run is
 * refused with that reason rather than as "outside the target's capabilities". */
static int none_expected(const br_caseset *cs, const size_t *sel, size_t nsel, int profile)
{
    for (size_t i = 0; i < nsel; i++)
        if (br_pick_expect(&cs->cases[sel[i]], profile) != NULL) return 0;
    return 1;
}

/* Records for the selection; the indices to run (skips judged here, or run
 * anyway with --probe-limits). Returns how many to run. */
static size_t prepare_records(run_ctx *rc, const br_opts *o, const br_target_info *info, int profile,
                              const size_t *sel, size_t nsel, size_t *torun, int *profs)
{
    size_t nrun = 0;
    for (size_t i = 0; i < nsel; i++) {
        const br_case *c = &rc->cs->cases[sel[i]];
        br_rec *x = br_report_add(rc->rep);
        br_rec_describe(rc->rep, x, c, profile);
        rc->rec_of[sel[i]] = i;
        rc->prof_of[sel[i]] = profile;
        char why[200];
        const char *sk = br_skip_reason(c, info, profile, why, sizeof why);
        if (sk != NULL && (!o->probe_limits || !br_skip_probeable(sk))) {
            x->outcome = BR_O_SKIP;
            x->reason = br_report_str(rc->rep, sk);
            rc->ran[i] = 1;
            continue;
        }
        if (sk != NULL) { x->probed = 1; x->limit = br_report_str(rc->rep, sk); }
        torun[nrun] = sel[i];
        profs[nrun++] = profile;
    }
    return nrun;
}

#define BR_NONDETERMINISTIC_OUTCOME "[nondeterministic outcome]"

/* A case listed with a reason starting "[nondeterministic outcome]" (the
 * library returns memory it never wrote, say) is a known failure whether this
 * run failed it or happened to pass it; it forms one stable finding. A crash
 * or a timeout is still what it is. */
static void mark_varying(br_report *rep, br_rec *x)
{
    if (x->outcome != BR_O_PASS && x->outcome != BR_O_FAIL) return;
    char why[800];
    snprintf(why, sizeof why, "the outcome varies from run to run (this run: %s%s%s)", x->outcome == BR_O_PASS ? "pass" : "fail",
             x->reason[0] ? ": " : "", x->reason);
    x->reason = br_report_str(rep, why);
    x->outcome = BR_O_FAIL;
    x->failure = "varies";
    x->behaviour = "the outcome varies from run to run (listed as nondeterministic)";
    x->unexpected_pass = 0;
    x->expected_failure = 1;
}

/* Marks known failures and unexpected passes from the expectations file. */
static void apply_expectations(br_report *rep, const br_expectations *ex)
{
    for (size_t i = 0; i < rep->n && ex->n; i++) {
        br_rec *x = &rep->recs[i];
        int exact = 0;
        const char *kr = br_expectations_find(ex, x->id, &exact);
        if (kr == NULL || x->outcome == BR_O_SKIP || x->probed) continue;
        if (x->outcome == BR_O_PASS && !exact) continue;   /* a glob only covers failures */
        x->known_reason = kr[0] ? kr : "(no reason given)";
        if (strncmp(kr, BR_NONDETERMINISTIC_OUTCOME, strlen(BR_NONDETERMINISTIC_OUTCOME)) == 0) { mark_varying(rep, x); continue; }
        if (x->outcome == BR_O_PASS) x->unexpected_pass = 1;
        else x->expected_failure = 1;
    }
}

/* Runs the prepared cases; keeps only finished records when interrupted. */
static void execute(run_ctx *rc, br_iso *iso, const size_t *torun, const int *profs, size_t nrun)
{
    rc->total = nrun;
    rc->progress = isatty(2);
    br_stop_catch();
    size_t fin = br_iso_run(iso, torun, profs, nrun, on_done, rc, &br_stop_flag);
    if (rc->progress) progress(rc, 1);
    br_report *rep = rc->rep;
    rep->complete = fin == nrun && !br_stop_flag;
    if (!rep->complete) {
        size_t k = 0;
        for (size_t i = 0; i < rep->n; i++) if (rc->ran[i]) rep->recs[k++] = rep->recs[i];
        rep->n = k;
    }
}

typedef struct run_state {
    br_caseset cs;
    br_report rep;
    br_expectations ex;
    br_outputs outs;
    run_ctx rc;
    size_t *sel, *torun, nsel;
    int *profs;
    br_iso *iso;
} run_state;

static void run_state_free(run_state *s)
{
    br_iso_stop(s->iso);
    br_outputs_abort(&s->outs);
    br_report_free(&s->rep);
    br_expectations_free(&s->ex);
    free(s->rc.tr.life); free(s->rc.tr.seq); free(s->rc.tr.case_of); free(s->rc.tr.prof_of);
    free(s->rc.rec_of); free(s->rc.prof_of); free(s->rc.ran); free(s->torun); free(s->profs); free(s->sel);
    br_caseset_free(&s->cs);
}

/* Everything before the first case runs: cases, selection, expectations,
 * output files (created now, so an unwritable path costs nothing), workers. */
static int start(run_state *s, const br_opts *o, br_target_info *info)
{
    int code = br_load_cases(&s->cs, o);
    if (code) return code;
    if ((code = select_cases(&s->cs, o, &s->sel, &s->nsel)) != 0) return code;
    if (o->list) {
        for (size_t i = 0; i < s->nsel; i++) puts(s->cs.cases[s->sel[i]].id);
        return -1;
    }
    if ((code = load_expectations(&s->ex, o, &s->cs, &s->rep)) != 0) return code;
    if (br_outputs_open(&s->outs, o) != 0) return 2;
    br_err err;
    for (size_t i = 0; i < s->nsel; i++)
        if (br_materialize(&s->cs, &s->cs.cases[s->sel[i]], &err) != 0) { fprintf(stderr, "bcast-run: %s\n", err.msg); return 2; }
    char tbuf[PATH_MAX + 32];
    br_iso_cfg cfg = br_iso_config(o, &s->cs, s->sel, s->nsel, tbuf, sizeof tbuf);
    s->iso = br_iso_start(&s->cs, &cfg, info, &err);
    if (s->iso == NULL) { fprintf(stderr, "bcast-run: %s\n", err.msg); return 2; }
    return 0;
}

/* Per-record trace arrays (judge/rerun.h); seq (size_t)-1 marks a case not run. 0 or -1. */
static int trace_alloc(br_run_trace *tr, size_t cap)
{
    tr->life = malloc(cap * sizeof *tr->life);
    tr->seq = malloc(cap * sizeof *tr->seq);
    tr->case_of = malloc(cap * sizeof *tr->case_of);
    tr->prof_of = malloc(cap * sizeof *tr->prof_of);
    if (!tr->life || !tr->seq || !tr->case_of || !tr->prof_of) return -1;
    memset(tr->seq, 0xff, cap * sizeof *tr->seq);
    return 0;
}

/* Unexpected failures again in fresh workers (judge/rerun.c); what it cost on
 * stderr when anything was re-run. Interrupted: the report is incomplete. */
static void rerun(run_state *s)
{
    br_rerun_stats st;
    if (br_rerun(&s->rep, &s->cs, s->iso, &s->rc.tr, &st, &br_stop_flag) != 0) s->rep.complete = 0;
    if (st.candidates == 0) return;
    fprintf(stderr, "bcast-run: re-ran %zu unexpected failures in fresh workers (%zu worker starts, %zu case runs, "
            "%.1f s; --no-rerun skips this): %zu depend on earlier cases, %zu nondeterministic\n",
            st.candidates, st.fresh_workers, st.cases_run, st.seconds, st.depends, st.nondeterministic);
}

int br_cmd_run(const br_opts *o)
{
    run_state s;
    memset(&s, 0, sizeof s);
    br_target_info info;
    int code = start(&s, o, &info);
    if (code != 0) { run_state_free(&s); return code < 0 ? 0 : code; }
    int profile = br_profile_used(o, &info);
    br_report_describe_target(&s.rep, &info, profile, s.cs.caseset_version);
    s.rep.target_path = o->target ? o->target : "ref";
    size_t cap = s.nsel ? s.nsel : 1;
    s.rc = (run_ctx){ &s.cs, &s.rep, malloc((s.cs.n ? s.cs.n : 1) * sizeof(size_t)), calloc(cap, 1),
                      malloc((s.cs.n ? s.cs.n : 1) * sizeof(int)), 0, 0, 0, 0, NULL, { 0 } };
    s.torun = malloc(cap * sizeof *s.torun);
    s.profs = malloc(cap * sizeof *s.profs);
    if (!s.rc.rec_of || !s.rc.prof_of || !s.rc.ran || !s.torun || !s.profs || trace_alloc(&s.rc.tr, cap) != 0) {
        run_state_free(&s);
        return 2;
    }
    size_t nrun = prepare_records(&s.rc, o, &info, profile, s.sel, s.nsel, s.torun, s.profs);
    if (nrun == 0 && s.nsel > 0 && !o->allow_empty && none_expected(&s.cs, s.sel, s.nsel, profile)) {
        fprintf(stderr, "bcast-run: none of the %zu selected cases has an expectation for profile %s (e.g. '%s'; "
                "issue #22: cases/ holds NumPy 1.24 and torch 1.13 only); a run must not pass by testing nothing "
                "(--allow-empty if you mean it)\n", s.nsel, bc_profile_name(profile), s.rep.n ? s.rep.recs[0].reason : "");
        run_state_free(&s);
        return 2;
    }
    if (nrun == 0 && s.nsel > 0 && !o->allow_empty) {
        fprintf(stderr, "bcast-run: none of the %zu selected cases can run on %s: all are outside its declared "
                "capabilities (e.g. '%s'); a run must not pass by testing nothing (--allow-empty if you mean it)\n",
                s.nsel, s.rep.target_name, s.rep.n ? s.rep.recs[0].reason : "");
        run_state_free(&s);
        return 2;
    }
    s.rc.iso = s.iso;
    execute(&s.rc, s.iso, s.torun, s.profs, nrun);
    apply_expectations(&s.rep, &s.ex);
    if (!o->no_rerun && s.rep.complete) rerun(&s);
    br_iso_stop(s.iso);
    s.iso = NULL;
    br_findings_build(&s.rep);
    int erc = br_outputs_emit(&s.outs, &s.rep, o, &s.cs);
    br_totals t;
    br_report_totals(&s.rep, &t);
    code = br_stop_flag ? 130 : erc ? erc : br_report_exit(&t);
    if (!s.rep.complete && code == 0) code = 1;
    run_state_free(&s);
    return code;
}
