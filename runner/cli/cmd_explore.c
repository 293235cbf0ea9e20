/* cmd_explore.c - `bcast-run explore --target T`: generated cases judged against ref, run in the isolated workers; each failure family shrunk and written out as case records.
 *
 * Cases are generated in rounds into a live set (live.h) the workers see,
 * run, judged, and forgotten: only failures are listed as records (up to
 * LIST_PER_SIG per signature and LIST_TOTAL in all; the rest are counted),
 * so memory stays bounded however long the exploration. Case i of the stream
 * comes from its own seed (br_rng_case_seed), so a listed failure is rebuilt
 * from its index to be shrunk, and --shard K/N takes the cases i with
 * i mod N == K-1 without the other shards. */
#include "cli/commands.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "case/casewrite.h"
#include "explore/explore_gen.h"
#include "results/findings.h"
#include "judge/judge.h"
#include "results/describe.h"
#include "target/skip.h"
#include "case/live.h"
#include "cli/output.h"
#include "cli/session.h"
#include "explore/shrink.h"
#include "cli/stop.h"

#define DEFAULT_SEED 1ull
#define ROUND_MAX 2048                 /* cases per round */
#define ROUND_BYTES ((size_t)256 << 20) /* live memory per round (touched as used: a large case needs ~100 MB) */
#define LIST_PER_SIG 100               /* failing cases listed per signature */
#define LIST_TOTAL 20000               /* ... and in all */
#define SHRINK_RUNS 100                /* per finding */
#define SHRINK_SECONDS 5.0
#define SHRINK_GRACE_S 5.0             /* with --seconds: shrinking's time past the generation deadline */
#define SHRINK_MAX 40                  /* findings shrunk; the rest keep their smallest case as found */


typedef struct sigcount { char *sig; size_t listed, total; } sigcount;

typedef struct xp {
    const br_opts *o;
    br_caseset cs;
    br_live lv, slv;                   /* the round's cases; shrink candidates */
    br_iso *iso;
    br_target_info info;
    int profile;
    br_gen_cfg gen;
    uint64_t seed, next_j, stride, first;   /* stream index of the j-th case of this shard: first + stride*j */
    uint64_t limit;                    /* --cases: stream indices below it; 0 none */
    br_spec spec;
    br_report rep, scratch;
    uint64_t *stream;                  /* per listed record: its stream index */
    sigcount *sigs;
    size_t nsigs;
    uint64_t ran, failures, too_large;
    uint64_t round_stream[ROUND_MAX];
    unsigned char round_probed[ROUND_MAX];
    const char *round_limit[ROUND_MAX];
    int64_t t0, last_progress;
    int tty;
    br_buf all;                        /* --emit-all: every case's record */
} xp;

static sigcount *sig_of(xp *x, const char *sig)
{
    for (size_t i = 0; i < x->nsigs; i++) if (strcmp(x->sigs[i].sig, sig) == 0) return &x->sigs[i];
    sigcount *v = realloc(x->sigs, (x->nsigs + 1) * sizeof *v);
    if (v == NULL) return NULL;
    x->sigs = v;
    sigcount *s = &v[x->nsigs];
    s->sig = strdup(sig);
    if (s->sig == NULL) return NULL;
    s->listed = s->total = 0;
    x->nsigs++;
    return s;
}

/* A case's id: explore/SEED/INDEX (the index zero-padded to 9 digits, so ids sort in stream order). */
static void case_id(const xp *x, uint64_t i, char *buf, size_t cap)
{
    snprintf(buf, cap, "explore/%llu/%09llu", (unsigned long long)x->seed, (unsigned long long)i);
}

/* Lists a failing case: described and judged into the report, its strings copied out of the live set. */
static void list_case(xp *x, const br_case *c, size_t pos, int kind, const br_wres *res, const char *base, const br_loss *loss)
{
    char id[80];
    case_id(x, x->round_stream[pos], id, sizeof id);
    uint64_t *v = realloc(x->stream, (x->rep.n + 1) * sizeof *v);
    if (v == NULL) return;
    x->stream = v;
    br_rec *y = br_report_add(&x->rep);
    br_rec_describe(&x->rep, y, c, x->profile);
    br_judge(&x->rep, y, c, x->profile, kind, res, base, loss);
    y->id = br_report_str(&x->rep, id);   /* the live case carries no id unless --emit-all */
    y->suite = br_report_str(&x->rep, c->suite);
    y->tags = br_report_str(&x->rep, c->tags);
    y->rules = br_report_str(&x->rep, c->rules);
    y->file = "explore";
    y->probed = x->round_probed[pos];
    y->limit = x->round_limit[pos] ? br_report_str(&x->rep, x->round_limit[pos]) : "";
    x->stream[x->rep.n - 1] = x->round_stream[pos];
}

static void progress(xp *x, int last);

static void on_done(void *ctx, size_t ci, int kind, const br_wres *res, const char *base, const br_loss *loss)
{
    xp *x = ctx;
    size_t pos = ci - x->lv.first;
    const br_case *c = &x->cs.cases[ci];
    br_rec *r = br_report_add(&x->scratch);
    br_judge(&x->scratch, r, c, x->profile, kind, res, base, loss);
    x->ran++;
    if ((x->ran & 255) == 0) progress(x, 0);   /* a slow target's round takes long */
    if (r->outcome == BR_O_PASS || r->outcome == BR_O_SKIP) {
        if (x->round_probed[pos]) x->rep.unlisted_probed++;
        else x->rep.unlisted[r->outcome]++;
        x->scratch.n = 0;
        return;
    }
    char sig[800];
    br_finding_signature(r, sig, sizeof sig);
    x->scratch.n = 0;
    if (!x->round_probed[pos]) x->failures++;
    sigcount *s = sig_of(x, sig);
    if (s != NULL) s->total++;
    if (s != NULL && s->listed < LIST_PER_SIG && x->rep.n < LIST_TOTAL) {
        s->listed++;
        list_case(x, c, pos, kind, res, base, loss);
    } else if (x->round_probed[pos]) x->rep.unlisted_probed++;
    else x->rep.unlisted[r->outcome]++;
}

static double elapsed(const xp *x) { return (double)(br_now_ns() - x->t0) / 1e9; }

/* The stream index of this shard's next case, or 0 when the budget is spent. */
static int peek_index(const xp *x, uint64_t *i)
{
    *i = x->first + x->stride * x->next_j;
    if (x->limit && *i >= x->limit) return 0;
    return !(x->o->seconds > 0 && elapsed(x) >= x->o->seconds);
}

static void progress(xp *x, int last)
{
    int64_t now = br_now_ns();
    if (!last && now - x->last_progress < (x->tty ? 200000000 : 10000000000)) return;
    x->last_progress = now;
    double t = elapsed(x);
    fprintf(stderr, "%sexplore: %llu cases, %.0f cases/s, %llu failures, %zu signatures%s", x->tty ? "\r" : "",
            (unsigned long long)x->ran, t > 0 ? (double)x->ran / t : 0.0, (unsigned long long)x->failures, x->nsigs,
            x->tty && !last ? "   " : "\n");
    fflush(stderr);
}

/* Builds case i into the round (with both profiles' expectations and its
 * record written out under --emit-all). 1 built, 0 no room left, -1 out of memory. */
static int build(xp *x, uint64_t i, size_t *ci)
{
    if (br_gen_case(&x->gen, x->seed, i, &x->spec) != 0) return -1;
    char id[80] = "explore";   /* formatted only when written: listing formats its own */
    int all = x->o->emit_all;
    if (all) case_id(x, i, id, sizeof id);
    br_spec_meta m = { id, "explore", "explored", "", "ref", "explore", all ? br_all_profiles() : 1u << x->profile, all };
    if (br_spec_to_live(&x->lv, &x->spec, &m, ci) != 0) return 0;
    if (all) br_case_write(&x->cs.cases[*ci], &x->all);
    return 1;
}

/* Generates the next round into the live set: the indices to run in torun.
 * Cases outside the target's claim are counted as skipped (or, probing, run
 * and marked). *more: the budget is not spent. Returns how many to run, or (size_t)-1 out of memory. */
static size_t fill_round(xp *x, size_t *torun, int *profs, int *more)
{
    size_t n = 0;
    br_live_rewind(&x->lv);
    *more = 1;
    while (x->lv.n < ROUND_MAX && !br_stop_flag) {
        uint64_t i;
        size_t ci;
        if (!peek_index(x, &i)) { *more = 0; break; }
        int b = build(x, i, &ci);
        if (b < 0) return (size_t)-1;
        if (b == 0 && x->lv.n > 0) break;   /* full: the case goes first in the next round */
        x->next_j++;
        if (b == 0) { x->too_large++; continue; }
        size_t slot = ci - x->lv.first;
        char why[200];
        const char *sk = br_skip_reason(&x->cs.cases[ci], &x->info, x->profile, why, sizeof why);
        x->round_stream[slot] = i;
        x->round_probed[slot] = sk != NULL;
        x->round_limit[slot] = sk != NULL ? br_live_str(&x->lv, sk) : NULL;
        if (sk != NULL && !x->o->probe_limits) { x->rep.unlisted[BR_O_SKIP]++; continue; }
        torun[n] = ci;
        profs[n++] = x->profile;
    }
    return n;
}

/* The exploration proper: rounds until the budget is spent or SIGINT. 0, or 2 out of memory. */
static int explore_loop(xp *x)
{
    size_t torun[ROUND_MAX];
    int profs[ROUND_MAX], more = 1;
    while (more && !br_stop_flag) {
        size_t n = fill_round(x, torun, profs, &more);
        if (n == (size_t)-1) { fprintf(stderr, "bcast-run: explore: out of memory\n"); return 2; }
        if (n > 0) br_iso_run(x->iso, torun, profs, n, on_done, x, &br_stop_flag);
        br_report_free(&x->scratch);   /* its strings: the round's judged failures */
        progress(x, 0);
    }
    x->rep.complete = !br_interrupted();
    return 0;
}

/* After the generation phase: the --seconds deadline (if it stopped the
 * round in flight) is a spent budget, not a stop; shrinking gets what is
 * left of --seconds plus SHRINK_GRACE_S, then the deadline stops it too. */
static void rearm_for_shrinking(xp *x)
{
    if (!(x->o->seconds > 0) || br_interrupted()) return;
    br_stop_flag = 0;
    double left = x->o->seconds - elapsed(x);
    br_stop_after((left > 0 ? left : 0) + SHRINK_GRACE_S);
}

/* ---- after the exploration: one shrunk case per finding ---- */

/* Shrinks finding f's smallest case (rebuilt from its stream index) and
 * appends its record to out (a comment line naming the finding first); the
 * record becomes the finding's `shrunk`. 0, or 2 out of memory. */
static int shrink_finding(xp *x, size_t f, br_buf *out)
{
    br_finding *g = &x->rep.findings[f];
    const br_rec *r = &x->rep.recs[g->smallest];
    uint64_t i = x->stream[g->smallest];
    char want[800], sig[800], id[100];
    int oc = -1;
    br_finding_signature(r, want, sizeof want);
    if (br_gen_case(&x->gen, x->seed, i, &x->spec) != 0) return 2;
    br_shrink_cfg cfg = { x->iso, &x->slv, &x->info, x->profile, x->o->jobs, r->probed,
                          x->o->max_runs > 0 ? x->o->max_runs : SHRINK_RUNS, SHRINK_SECONDS, &br_stop_flag };
    br_shrink_stats st;
    memset(&st, 0, sizeof st);
    int same = br_shrink_judge(&cfg, &x->spec, sig, sizeof sig, &oc) == 0 && strcmp(sig, want) == 0;
    if (same && br_shrink(&cfg, &x->spec, want, &st) != 0) return 2;
    snprintf(id, sizeof id, "%s/shrunk", r->id);
    br_spec_meta m = { same ? id : r->id, "explore", same ? "explored shrunk" : "explored", "", "ref", "explore", br_all_profiles(), 1 };
    size_t ci;
    br_live_rewind(&x->slv);
    if (br_spec_to_live(&x->slv, &x->spec, &m, &ci) != 0) return 2;
    br_buf rec = { 0 };
    br_case_write(&x->cs.cases[ci], &rec);
    g->shrunk = br_report_str(&x->rep, rec.s);
    br_buf_printf(out, "\n# F%zu: %s\n", f + 1, g->name);
    if (!same)
        br_buf_printf(out, "# (not shrunk: rebuilt from its seed, the case %s: '%s', not '%s')\n",
                      oc == BR_O_PASS ? "passed" : "failed otherwise", sig, want);
    else br_buf_printf(out, "# shrunk from %s in %ld runs (%.1f s)\n", r->id, st.runs, st.seconds);
    br_buf_puts(out, rec.s);
    br_buf_free(&rec);
    return 0;
}

/* Shrinks up to SHRINK_MAX failure findings; writes --emit. 0 or 2. */
static int shrink_and_emit(xp *x)
{
    br_buf out = { 0 };
    char head[600];
    snprintf(head, sizeof head, "Written by `bcast-run explore --target %s --seed %llu`: %s.\n"
             "Expectations from ref (bc_eval) under both profiles; ids are explore/SEED/INDEX of the case stream.",
             x->o->target, (unsigned long long)x->seed,
             x->o->emit_all ? "every generated case" : "one shrunk case per finding");
    br_casefile_header(&out, head, "explore");
    if (x->o->emit_all) { br_buf_puts(&out, "\n"); br_buf_put(&out, x->all.s ? x->all.s : "", x->all.len); }
    size_t done = 0;
    int64_t t = br_now_ns();
    br_buf sink = { 0 };   /* --emit-all: the shrunk cases are in the report only */
    for (size_t f = 0; f < x->rep.nfindings && !br_stop_flag; f++) {
        if (strcmp(x->rep.findings[f].kind, "failure") != 0 || done >= SHRINK_MAX) continue;
        if (shrink_finding(x, f, x->o->emit_all ? &sink : &out) != 0) { br_buf_free(&out); br_buf_free(&sink); return 2; }
        done++;
    }
    br_buf_free(&sink);
    if (done) fprintf(stderr, "explore: %zu findings shrunk in %.1f s\n", done, (double)(br_now_ns() - t) / 1e9);
    int rc = 0;
    if (x->o->emit != NULL && br_write_atomic(x->o->emit, out.s ? out.s : "", out.len) != 0) {
        fprintf(stderr, "bcast-run: cannot write --emit %s\n", x->o->emit);
        rc = 2;
    }
    br_buf_free(&out);
    return rc;
}

/* ---- setup ---- */

/* The ops or dtypes the filter names (all when it names none), as a mask. */
static uint64_t filter_mask(const br_filter *f, int kind, int count, int (*from_name)(const char *))
{
    if (f->n[kind] == 0) return count >= 64 ? UINT64_MAX : ((uint64_t)1 << count) - 1;
    uint64_t m = 0;
    for (size_t i = 0; i < f->n[kind]; i++) {
        int v = from_name(f->v[kind][i]);
        if (v >= 0 && v < count) m |= (uint64_t)1 << v;
    }
    return m;
}

/* The generator's settings from the target's claim and the filters. 0, or 2 when nothing is left to generate. */
static int gen_config(xp *x)
{
    const br_opts *o = x->o;
    uint64_t ops = filter_mask(&o->filter, BR_F_OP, BCT_OP_COUNT, bc_op_from_name);
    uint32_t dts = (uint32_t)filter_mask(&o->filter, BR_F_DTYPE, BCT_DTYPE_COUNT, bc_dtype_from_name);
    br_gen_cfg *g = &x->gen;
    memset(g, 0, sizeof *g);
    g->ops = ops & x->info.ops;
    g->grad_ops = ops & x->info.grad_ops;
    g->dtypes = dts & x->info.dtypes;
    g->max_rank = x->info.max_rank > 0 && x->info.max_rank < BC_MAX_RANK ? x->info.max_rank : BC_MAX_RANK;
    g->flags = x->info.flags;
    g->profile = x->profile;
    g->probe = o->probe_limits;
    g->probe_ops = ops;
    g->probe_dtypes = dts;
    g->max_elems = BR_GEN_MAX_ELEMS;
    if ((g->ops == 0 || g->dtypes == 0) && !o->probe_limits) {
        fprintf(stderr, "bcast-run: explore: %s declares none of the %s asked for (--probe-limits explores outside "
                "its claim)\n", x->info.name, g->ops == 0 ? "ops" : "dtypes");
        return 2;
    }
    if (g->ops == 0) g->ops = ops;
    if (g->dtypes == 0) g->dtypes = dts;
    return 0;
}

/* Reserves the live sets and starts the workers. 0 or 2. */
static int start(xp *x)
{
    const br_opts *o = x->o;
    if (br_live_init(&x->lv, &x->cs, ROUND_MAX, ROUND_BYTES) != 0 ||
        br_live_init(&x->slv, &x->cs, 17, (size_t)384 << 20) != 0) {
        fprintf(stderr, "bcast-run: explore: out of memory\n");
        return 2;
    }
    char tbuf[PATH_MAX + 32];
    br_iso_cfg cfg = br_iso_config(o, &x->cs, NULL, 0, tbuf, sizeof tbuf);
    /* the generator's bound: an operand's storage is at most a few times
     * max_elems, or (a large case) about twice its 2^21 elements, padded */
    cfg.arena_cap = (int64_t)BR_GEN_LARGE_ELEMS * 4 * 8;
    cfg.in_cap = 4 * (cfg.arena_cap + 2 * 4096);
    br_err err;
    x->iso = br_iso_start(&x->cs, &cfg, &x->info, &err);
    if (x->iso == NULL) { fprintf(stderr, "bcast-run: %s\n", err.msg); return 2; }
    x->profile = br_profile_used(o, &x->info);
    return gen_config(x);
}

static void summary(const xp *x, double secs)
{
    size_t nf = 0;
    for (size_t f = 0; f < x->rep.nfindings; f++) nf += strcmp(x->rep.findings[f].kind, "failure") == 0;
    fprintf(stderr, "explore: seed %llu%s: %llu cases in %.1f s (%.0f cases/s), %llu failures (%zu listed), %zu findings\n",
            (unsigned long long)x->seed, x->o->shard_n ? " (a shard)" : "", (unsigned long long)x->ran, secs,
            secs > 0 ? (double)x->ran / secs : 0.0, (unsigned long long)x->failures, x->rep.n, nf);
    if (x->too_large)
        fprintf(stderr, "explore: %llu generated cases did not fit a round's memory and were dropped (a generator bug)\n",
                (unsigned long long)x->too_large);
}

static void xp_free(xp *x)
{
    br_iso_stop(x->iso);
    br_spec_free(&x->spec);
    br_report_free(&x->rep);
    br_report_free(&x->scratch);
    for (size_t i = 0; i < x->nsigs; i++) free(x->sigs[i].sig);
    free(x->sigs);
    free(x->stream);
    br_buf_free(&x->all);
    br_caseset_free(&x->cs);
}

int br_cmd_explore(const br_opts *o)
{
    static xp x;   /* large (the round's bookkeeping) */
    memset(&x, 0, sizeof x);
    x.o = o;
    x.seed = o->has_seed ? o->seed : DEFAULT_SEED;
    x.first = o->shard_n > 0 ? (uint64_t)(o->shard_k - 1) : 0;
    x.stride = o->shard_n > 0 ? (uint64_t)o->shard_n : 1;
    x.limit = o->max_cases > 0 ? (uint64_t)o->max_cases : 0;
    x.tty = isatty(2);
    br_spec_init(&x.spec);
    br_stop_catch();
    br_outputs outs;
    int rc = br_outputs_open(&outs, o) != 0 ? 2 : 0;
    if (rc == 0) rc = start(&x);
    if (rc == 0) {
        fprintf(stderr, "explore: seed %llu, target %s (profile %s)%s\n", (unsigned long long)x.seed, x.info.name,
                bc_profile_name(x.profile), o->shard_n ? ", one shard" : "");
        x.t0 = x.last_progress = br_now_ns();
        br_stop_after(o->seconds);
        rc = explore_loop(&x);
        rearm_for_shrinking(&x);
    }
    double secs = elapsed(&x);
    if (rc == 0) {
        progress(&x, 1);
        br_report_describe_target(&x.rep, &x.info, x.profile, "");
        x.rep.target_path = o->target;
        char cs[64];
        snprintf(cs, sizeof cs, "explore-%llu", (unsigned long long)x.seed);
        x.rep.caseset_version = br_report_str(&x.rep, cs);
        x.rep.has_explore = 1;
        x.rep.explore_seed = x.seed;
        x.rep.explore_cases = x.ran;
        x.rep.explore_shard_k = o->shard_n ? o->shard_k : 1;
        x.rep.explore_shard_n = o->shard_n ? o->shard_n : 1;
        x.rep.explore_seconds = secs;
        br_findings_build(&x.rep);
        rc = shrink_and_emit(&x);
        summary(&x, secs);
    }
    if (rc == 0) {
        int erc = br_outputs_emit(&outs, &x.rep, o, NULL);
        br_totals t;
        br_report_totals(&x.rep, &t);
        rc = br_interrupted() ? 130 : erc ? erc : br_report_exit(&t);
    } else br_outputs_abort(&outs);
    xp_free(&x);
    return rc;
}
