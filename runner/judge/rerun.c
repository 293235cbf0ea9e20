/* rerun.c - unexpected failures run again in fresh workers: a failure that
 * reproduces is the case's own; one that passes there but fails again right
 * after the case its worker ran before it "depends on earlier cases"; one
 * whose outcome changes otherwise is nondeterministic. docs/runner.md "Re-run". */
#include "judge/rerun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "judge/judge.h"

/* What one re-run saw of each record (indexed by record; outcome -1: not re-run). */
typedef struct rr {
    br_report *rep;
    br_caseset *cs;
    br_iso *iso;
    const br_run_trace *tr;
    br_rerun_stats *st;
    volatile sig_atomic_t *stop;
    size_t *rec_of_case;      /* case index -> record index, for the cases re-run */
    int *oc;                  /* outcome in the latest re-run */
    const char **beh;         /* its behaviour ("" on a pass) */
} rr;

static void on_rerun(void *ctx, size_t ci, int kind, const br_wres *res, const char *base, const br_loss *loss)
{
    rr *r = ctx;
    size_t ri = r->rec_of_case[ci];
    br_rec tmp = r->rep->recs[ri];
    br_judge(r->rep, &tmp, &r->cs->cases[ci], r->tr->prof_of[ri], kind, res, base, loss);
    r->oc[ri] = tmp.outcome;
    r->beh[ri] = tmp.outcome == BR_O_PASS ? "" : tmp.behaviour;
    r->st->cases_run++;
}

/* Runs the records recs[0..n) in that order in fresh workers. 0, or -1 when
 * stopped or out of memory. */
static int run_fresh(rr *r, const size_t *recs, size_t n)
{
    size_t *cases = malloc((n ? n : 1) * sizeof *cases);
    int *profs = malloc((n ? n : 1) * sizeof *profs);
    if (cases == NULL || profs == NULL) { free(cases); free(profs); return -1; }
    for (size_t i = 0; i < n; i++) {
        cases[i] = r->tr->case_of[recs[i]];
        profs[i] = r->tr->prof_of[recs[i]];
        r->rec_of_case[cases[i]] = recs[i];
        r->oc[recs[i]] = -1;
    }
    br_iso_renew(r->iso);
    br_iso_use(r->iso, 1);   /* one worker: the order is the experiment */
    r->st->fresh_workers++;
    size_t fin = br_iso_run(r->iso, cases, profs, n, on_rerun, r, r->stop);
    free(cases);
    free(profs);
    return fin == n && !(r->stop && *r->stop) ? 0 : -1;
}

/* The same failure as the first run: outcome and behaviour. */
static int same(const rr *r, size_t ri)
{
    const br_rec *x = &r->rep->recs[ri];
    return r->oc[ri] == x->outcome && strcmp(r->beh[ri], x->behaviour) == 0;
}

static const br_run_trace *g_tr;   /* for the qsort comparators */
static int by_seq(const void *a, const void *b)
{
    size_t x = g_tr->seq[*(const size_t *)a], y = g_tr->seq[*(const size_t *)b];
    return x < y ? -1 : x > y;
}
static int by_seq_desc(const void *a, const void *b) { return by_seq(b, a); }

static void note(rr *r, size_t ri, const char *what)
{
    r->rep->recs[ri].rerun = br_report_str(r->rep, what);
}

/* The outcome changes between runs: a failure of its own kind ("varies"),
 * one finding for all such cases, still counted against the gate. */
static void mark_nondeterministic(rr *r, size_t ri, const char *how)
{
    br_rec *x = &r->rep->recs[ri];
    char why[900];
    snprintf(why, sizeof why, "the outcome varies from run to run (first run: %s%s%s; %s)",
             br_outcome_names[x->outcome], x->reason[0] ? ": " : "", x->reason, how);
    x->reason = br_report_str(r->rep, why);
    x->failure = "varies";
    x->detail = "";
    x->behaviour = "the outcome varies from run to run (not reproduced in a fresh worker)";
    note(r, ri, how);
    r->st->nondeterministic++;
}

/* The unexpected failures worth a re-run, in the order given by cmp. */
static size_t candidates(rr *r, size_t *out)
{
    size_t n = 0;
    for (size_t i = 0; i < r->rep->n; i++) {
        const br_rec *x = &r->rep->recs[i];
        if (x->probed || x->expected_failure || r->tr->seq[i] == (size_t)-1) continue;
        if (x->outcome != BR_O_FAIL && x->outcome != BR_O_CRASH && x->outcome != BR_O_VIOLATION) continue;
        if (strcmp(x->failure, "runner") == 0 || strcmp(x->failure, "varies") == 0) continue;
        out[n++] = i;
    }
    return n;
}

/* Splits what the latest re-run saw of recs: passes to pass[], failures that
 * differ from the first run to diff[]; the reproduced ones get their note. */
static void sort_out(rr *r, const size_t *recs, size_t n, size_t *pass, size_t *np, size_t *diff, size_t *nd)
{
    for (size_t i = 0; i < n; i++) {
        size_t ri = recs[i];
        if (r->oc[ri] < 0) continue;
        if (r->oc[ri] == BR_O_PASS) pass[(*np)++] = ri;
        else if (same(r, ri)) note(r, ri, "reproduced in a fresh worker");
        else if (diff != NULL) diff[(*nd)++] = ri;
        else mark_nondeterministic(r, ri, "re-run in a fresh worker, twice: it failed differently each time");
    }
}

/* The record worker process `life` ran just before position seq, or -1. */
static long case_before(const rr *r, long life, size_t seq)
{
    long best = -1;
    for (size_t i = 0; i < r->rep->n; i++)
        if (r->tr->life[i] == life && r->tr->seq[i] < seq && (best < 0 || r->tr->seq[i] > r->tr->seq[best]))
            best = (long)i;
    return best;
}

/* The passes of one worker process (vic, by seq): replays its trigger, the
 * case it ran before the first of them, then them, in one fresh worker. */
static int confirm_life(rr *r, size_t *vic, size_t n)
{
    long t = case_before(r, r->tr->life[vic[0]], r->tr->seq[vic[0]]);
    if (t < 0) {
        for (size_t i = 0; i < n; i++)
            mark_nondeterministic(r, vic[i], "the first case of its worker failed; it passes in a fresh worker");
        return 0;
    }
    size_t *seq = malloc((n + 1) * sizeof *seq);
    if (seq == NULL) return -1;
    seq[0] = (size_t)t;
    memcpy(seq + 1, vic, n * sizeof *vic);
    int rc = run_fresh(r, seq, n + 1);
    free(seq);
    br_rec *tx = &r->rep->recs[t];
    char how[700];
    for (size_t i = 0; rc == 0 && i < n; i++) {
        size_t ri = vic[i];
        if (r->oc[ri] == BR_O_PASS || r->oc[ri] < 0) {
            snprintf(how, sizeof how, "passes in a fresh worker, also right after %s, which its worker ran before it", tx->id);
            mark_nondeterministic(r, ri, how);
            continue;
        }
        /* a trigger that passed: its victims stay failures, or the gate would pass a broken library */
        int trigger_failed = tx->outcome != BR_O_PASS && tx->outcome != BR_O_SKIP;
        snprintf(how, sizeof how, "passes in a fresh worker; fails again right after %s%s", tx->id,
                 trigger_failed ? "" : ", which passes but leaves the library broken");
        note(r, ri, how);
        if (trigger_failed) { r->rep->recs[ri].depends_on = tx->id; r->st->depends++; }
    }
    return rc;
}

/* Groups the passes by the worker process that failed them and confirms each group. */
static int confirm(rr *r, size_t *pass, size_t np)
{
    g_tr = r->tr;
    qsort(pass, np, sizeof *pass, by_seq);
    unsigned char *done = calloc(np ? np : 1, 1);
    size_t *grp = malloc((np ? np : 1) * sizeof *grp);
    int rc = done && grp ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < np; i++) {
        if (done[i]) continue;
        size_t n = 0;
        for (size_t j = i; j < np; j++)
            if (!done[j] && r->tr->life[pass[j]] == r->tr->life[pass[i]]) { grp[n++] = pass[j]; done[j] = 1; }
        rc = confirm_life(r, grp, n);
    }
    free(done);
    free(grp);
    return rc;
}

/* The passes (back in first-run order) and the second look at the failures
 * that failed differently: in first-run order, where nothing that ran after
 * them the first time runs before them. */
static int second_look(rr *r, size_t *diff, size_t nd, size_t *pass, size_t *np)
{
    if (nd == 0) return 0;
    g_tr = r->tr;
    qsort(diff, nd, sizeof *diff, by_seq);
    if (run_fresh(r, diff, nd) != 0) return -1;
    sort_out(r, diff, nd, pass, np, NULL, NULL);
    return 0;
}

int br_rerun(br_report *rep, br_caseset *cs, br_iso *iso, const br_run_trace *tr,
             br_rerun_stats *st, volatile sig_atomic_t *stop)
{
    memset(st, 0, sizeof *st);
    int64_t t0 = br_now_ns();
    size_t cap = rep->n ? rep->n : 1;
    rr r = { rep, cs, iso, tr, st, stop, malloc((cs->n ? cs->n : 1) * sizeof(size_t)),
             malloc(cap * sizeof(int)), calloc(cap, sizeof(char *)) };
    size_t *cand = malloc(cap * sizeof *cand), *pass = malloc(cap * sizeof *pass), *diff = malloc(cap * sizeof *diff);
    int rc = -1;
    if (r.rec_of_case == NULL || r.oc == NULL || r.beh == NULL || cand == NULL || pass == NULL || diff == NULL) goto out;
    st->candidates = candidates(&r, cand);
    rc = 0;
    if (st->candidates == 0) goto out;
    /* latest first: a case that broke the library runs after the cases it broke */
    g_tr = tr;
    qsort(cand, st->candidates, sizeof *cand, by_seq_desc);
    size_t np = 0, nd = 0;
    if ((rc = run_fresh(&r, cand, st->candidates)) != 0) goto out;
    sort_out(&r, cand, st->candidates, pass, &np, diff, &nd);
    if ((rc = second_look(&r, diff, nd, pass, &np)) != 0) goto out;
    rc = confirm(&r, pass, np);
out:
    st->seconds = (double)(br_now_ns() - t0) / 1e9;
    free(r.rec_of_case); free(r.oc); free(r.beh); free(cand); free(pass); free(diff);
    return rc;
}
