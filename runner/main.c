/* main.c - bcast-run's command line: run (default), show, merge. See docs/runner.md. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bcast_ref.h"
#include "caseio.h"
#include "isolate.h"
#include "judge.h"
#include "report.h"
#include "select.h"
#include "show.h"

static const char usage_text[] =
    "usage: bcast-run [OPTIONS] [CASEFILE|DIR ...]       (default: cases/)\n"
    "       bcast-run show ID [CASEFILE|DIR ...]\n"
    "       bcast-run merge FILE.json ... [--format F] [--output FILE]\n"
    "options:\n"
    "  --target PATH|NAME   target library (default build/targets/ref.so; NAME: <bindir>/targets/NAME.so)\n"
    "  --target-arg STR     passed to the target's init()\n"
    "  --profile numpy|torch  override the target's declared profile\n"
    "  --suite S --tag T --op O --dtype D --id GLOB   filters (repeatable)\n"
    "  --list               print the selected case ids and exit\n"
    "  --expectations FILE  known failures: ID-or-GLOB REASON per line\n"
    "  --write-expectations FILE   write the current failures as a baseline\n"
    "  --jobs N             worker processes (default 1)\n"
    "  --shard K/N          run the selected cases with index mod N == K-1\n"
    "  --format text|tap|junit|json  (default text)   --output FILE\n"
    "  --timeout SECONDS    per case (default 10)\n"
    "  --no-color           (NO_COLOR is honoured too)\n";

static int usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "bcast-run: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage_text);
    return 2;
}

enum { FMT_TEXT, FMT_TAP, FMT_JUNIT, FMT_JSON };

typedef struct opts {
    const char *target, *target_arg, *expectations, *write_expectations, *output;
    int profile, list, jobs, format, no_color;
    long shard_k, shard_n;
    double timeout;
    br_filter filter;
    const char **paths;
    size_t npaths;
} opts;

static volatile sig_atomic_t stop_flag;
static void on_stop(int sig) { stop_flag = sig; }

/* --opt VALUE or --opt=VALUE */
static const char *optval(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] != '\0') return NULL;
    if (*i + 1 >= argc) return "";
    return argv[++*i];
}

static int parse_format(const char *v, int *f)
{
    if (strcmp(v, "text") == 0) *f = FMT_TEXT;
    else if (strcmp(v, "tap") == 0) *f = FMT_TAP;
    else if (strcmp(v, "junit") == 0) *f = FMT_JUNIT;
    else if (strcmp(v, "json") == 0) *f = FMT_JSON;
    else return -1;
    return 0;
}

/* Parses options; positional args go to o->paths. Returns 0 or the exit status. */
static int parse_opts(int argc, char **argv, int start, opts *o)
{
    o->paths = calloc((size_t)argc + 1, sizeof *o->paths);
    if (o->paths == NULL) return 2;
    for (int i = start; i < argc; i++) {
        const char *a = argv[i], *v;
        static const char *const fnames[BR_F_KINDS] = { "--suite", "--tag", "--op", "--dtype", "--id" };
        int matched = 0;
        for (int k = 0; k < BR_F_KINDS && !matched; k++)
            if ((v = optval(argc, argv, &i, fnames[k])) != NULL) {
                if (!*v) return usage("%s needs a value", fnames[k]);
                if (k == BR_F_OP && bc_op_from_name(v) < 0) return usage("unknown op '%s'", v);
                if (k == BR_F_DTYPE && bc_dtype_from_name(v) < 0) return usage("unknown dtype '%s'", v);
                br_filter_add(&o->filter, k, v);
                matched = 1;
            }
        if (matched) continue;
        if ((v = optval(argc, argv, &i, "--target")) != NULL) { if (!*v) return usage("%s needs a value", "--target"); o->target = v; }
        else if ((v = optval(argc, argv, &i, "--target-arg")) != NULL) o->target_arg = v;
        else if ((v = optval(argc, argv, &i, "--profile")) != NULL) {
            o->profile = bc_profile_from_name(v);
            if (o->profile < 0) return usage("--profile takes numpy or torch, not '%s'", v);
        } else if (strcmp(a, "--list") == 0) o->list = 1;
        else if ((v = optval(argc, argv, &i, "--expectations")) != NULL) { if (!*v) return usage("%s needs a file", a); o->expectations = v; }
        else if ((v = optval(argc, argv, &i, "--write-expectations")) != NULL) { if (!*v) return usage("%s needs a file", a); o->write_expectations = v; }
        else if ((v = optval(argc, argv, &i, "--jobs")) != NULL) {
            char *e;
            long j = strtol(v, &e, 10);
            if (*v == '\0' || *e || j < 1 || j > 256) return usage("--jobs takes a number in [1, 256], not '%s'", v);
            o->jobs = (int)j;
        } else if ((v = optval(argc, argv, &i, "--shard")) != NULL) {
            if (br_parse_shard(v, &o->shard_k, &o->shard_n) != 0) return usage("--shard takes K/N with 1 <= K <= N, not '%s'", v);
        } else if ((v = optval(argc, argv, &i, "--format")) != NULL) {
            if (parse_format(v, &o->format) != 0) return usage("--format takes text, tap, junit or json, not '%s'", v);
        } else if ((v = optval(argc, argv, &i, "--output")) != NULL) { if (!*v) return usage("%s needs a file", a); o->output = v; }
        else if ((v = optval(argc, argv, &i, "--timeout")) != NULL) {
            char *e;
            double t = strtod(v, &e);
            if (*v == '\0' || *e || !(t > 0 && t <= 86400)) return usage("--timeout takes seconds in (0, 86400], not '%s'", v);
            o->timeout = t;
        } else if (strcmp(a, "--no-color") == 0) o->no_color = 1;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { fputs(usage_text, stdout); exit(0); }
        else if (a[0] == '-' && a[1] != '\0') return usage("unknown option '%s'", a);
        else o->paths[o->npaths++] = a;
    }
    return 0;
}

/* A bare NAME means <dir of bcast-run>/targets/NAME.so. */
static const char *resolve_target(const char *t, char *buf, size_t cap)
{
    if (t != NULL && (strchr(t, '/') != NULL || (strlen(t) > 3 && strcmp(t + strlen(t) - 3, ".so") == 0))) return t;
    const char *name = t != NULL ? t : "ref";
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return t != NULL ? t : "build/targets/ref.so";
    exe[n] = '\0';
    char *sl = strrchr(exe, '/');
    if (sl) *sl = '\0';
    snprintf(buf, cap, "%s/targets/%s.so", exe, name);
    /* the default: the ref.so built beside this bcast-run, else build/'s */
    if (t == NULL && access(buf, R_OK) != 0) return "build/targets/ref.so";
    return buf;
}

static int load_all(br_caseset *cs, const opts *o)
{
    br_err err;
    if (o->npaths == 0) {
        if (br_load_path(cs, "cases", &err) != 0) { fprintf(stderr, "bcast-run: %s\n", err.msg); return 2; }
    }
    for (size_t i = 0; i < o->npaths; i++)
        if (br_load_path(cs, o->paths[i], &err) != 0) { fprintf(stderr, "bcast-run: %s\n", err.msg); return 2; }
    if (br_finish(cs, &err) != 0) { fprintf(stderr, "bcast-run: %s\n", err.msg); return 2; }
    return 0;
}

typedef struct run_ctx {
    br_caseset *cs;
    br_report *rep;
    size_t *rec_of;        /* case index -> record index */
    unsigned char *ran;    /* per record: finished */
    int *prof_of;          /* per case index */
    size_t done, total;
    int progress;
    int64_t last_draw;
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

static void on_done(void *ctx, size_t ci, int kind, const br_wres *res, const char *base, const char *why)
{
    run_ctx *r = ctx;
    size_t ri = r->rec_of[ci];
    br_judge(r->rep, &r->rep->recs[ri], &r->cs->cases[ci], r->prof_of[ci], kind, res, base, why);
    r->ran[ri] = 1;
    r->done++;
    if (r->progress) progress(r, 0);
}

static char *caps_string(uint64_t bits, int count, const char *(*name)(int))
{
    br_buf b = { 0 };
    br_buf_puts(&b, "");
    for (int i = 0; i < count; i++)
        if (bits & ((uint64_t)1 << i)) { if (b.len) br_buf_puts(&b, " "); br_buf_puts(&b, name(i)); }
    return b.s;
}

/* Writes the report in o->format to o->output (or stdout) and the closing line. */
static int emit(br_report *rep, const opts *o)
{
    br_buf doc = { 0 };
    int color = !o->no_color && isatty(1) && (getenv("NO_COLOR") == NULL || getenv("NO_COLOR")[0] == '\0');
    switch (o->format) {
    case FMT_TAP: br_write_tap(rep, &doc); break;
    case FMT_JUNIT: br_write_junit(rep, &doc); break;
    case FMT_JSON: br_write_json(rep, &doc); break;
    default: br_write_text(rep, &doc, o->output ? 0 : color); break;
    }
    br_buf_puts(&doc, "");
    int rc = 0;
    if (o->output != NULL) {
        if (br_write_atomic(o->output, doc.s, doc.len) != 0) {
            fprintf(stderr, "bcast-run: cannot write %s: %s\n", o->output, strerror(errno));
            rc = 2;
        }
        if (o->format != FMT_TEXT) {     /* the human report still goes to stdout */
            br_buf t = { 0 };
            br_write_text(rep, &t, color);
            br_buf_puts(&t, "");
            fputs(t.s, stdout);
            br_buf_free(&t);
        }
    } else fputs(doc.s, stdout);
    br_buf_free(&doc);
    br_totals t;
    br_report_totals(rep, &t);
    char line[256];
    br_totals_line(&t, line, sizeof line);
    printf("%s%s\n", line, rep->complete ? "" : " (incomplete: interrupted)");
    fflush(stdout);
    return rc;
}

static int write_expectations(const br_report *rep, const char *path)
{
    br_buf b = { 0 };
    br_buf_puts(&b, "# Known failures written by bcast-run --write-expectations: ID REASON\n");
    for (size_t i = 0; i < rep->n; i++) {
        const br_rec *x = &rep->recs[i];
        if (x->outcome == BR_O_PASS || x->outcome == BR_O_SKIP) continue;
        br_buf_printf(&b, "%s %s: ", x->id, br_outcome_names[x->outcome]);
        for (const char *s = x->reason; *s; s++) br_buf_put(&b, (*s == '\n' || *s == '\r') ? " " : s, 1);
        br_buf_puts(&b, "\n");
    }
    int rc = br_write_atomic(path, b.s, b.len);
    if (rc != 0) fprintf(stderr, "bcast-run: cannot write %s: %s\n", path, strerror(errno));
    br_buf_free(&b);
    return rc ? 2 : 0;
}

static int cmd_run(opts *o)
{
    br_caseset cs;
    br_report rep;
    br_expectations ex;
    br_err err;
    br_iso *iso = NULL;
    memset(&cs, 0, sizeof cs);
    memset(&rep, 0, sizeof rep);
    memset(&ex, 0, sizeof ex);
    run_ctx rc_ = { &cs, &rep, NULL, NULL, NULL, 0, 0, 0, 0 };
    size_t *sel = NULL, *torun = NULL, nsel = 0, pos = 0;
    int *profs = NULL;
    int code = load_all(&cs, o);
    if (code) goto out;
    code = 2;
    sel = malloc((cs.n ? cs.n : 1) * sizeof *sel);
    if (sel == NULL) goto out;
    for (size_t i = 0; i < cs.n; i++) {
        if (!br_filter_match(&o->filter, &cs.cases[i])) continue;
        if (o->shard_n > 0 && !br_shard_keeps(pos++, o->shard_k, o->shard_n)) continue;
        sel[nsel++] = i;
    }
    if (o->list) {
        for (size_t i = 0; i < nsel; i++) puts(cs.cases[sel[i]].id);
        code = 0;
        goto out;
    }
    if (o->expectations && br_expectations_load(&ex, o->expectations, &err) != 0) {
        fprintf(stderr, "bcast-run: %s\n", err.msg);
        goto out;
    }
    for (size_t i = 0; i < nsel; i++)
        if (br_materialize(&cs, &cs.cases[sel[i]], &err) != 0) { fprintf(stderr, "bcast-run: %s\n", err.msg); goto out; }

    char tbuf[PATH_MAX + 32];
    br_iso_cfg cfg = { resolve_target(o->target, tbuf, sizeof tbuf), o->target_arg, o->jobs, o->timeout,
                       (int64_t)1 << 30, 0, 0 };
    for (size_t i = 0; i < nsel; i++) {   /* size the arenas for the largest case */
        const br_case *c = &cs.cases[sel[i]];
        int64_t b = br_case_result_bytes(c);
        for (int k = 0; k < c->nargs; k++)
            if (c->args[k].dtype != BCT_NONE && c->args[k].storage * bc_dtype_size(c->args[k].dtype) > b)
                b = c->args[k].storage * bc_dtype_size(c->args[k].dtype);
        if (b > cfg.arena_cap) cfg.arena_cap = b;
    }
    if (getenv("BCAST_RUN_NO_RLIMIT")) cfg.no_rlimit = 1;
    br_target_info info;
    iso = br_iso_start(&cs, &cfg, &info, &err);
    if (iso == NULL) { fprintf(stderr, "bcast-run: %s\n", err.msg); goto out; }
    int profile = o->profile >= 0 ? o->profile : info.profile;
    if (profile != BCT_PROFILE_NUMPY && profile != BCT_PROFILE_TORCH) profile = BCT_PROFILE_NUMPY;

    rep.target_name = br_report_str(&rep, info.name);
    rep.target_version = br_report_str(&rep, info.version);
    rep.target_profile = bc_profile_name(info.profile) ? bc_profile_name(info.profile) : "?";
    char *s1 = caps_string(info.ops, BCT_OP_COUNT, bc_op_name), *s2 = caps_string(info.dtypes, BCT_DTYPE_COUNT, bc_dtype_name);
    rep.target_ops = br_report_str(&rep, s1);
    rep.target_dtypes = br_report_str(&rep, s2);
    free(s1);
    free(s2);
    br_buf fl = { 0 };
    br_buf_puts(&fl, "");
    if (info.flags & BCT_CAP_STRIDED) br_buf_puts(&fl, "strided ");
    if (info.flags & BCT_CAP_INPLACE) br_buf_puts(&fl, "inplace ");
    if (info.flags & BCT_CAP_OUT) br_buf_puts(&fl, "out");
    rep.target_flags = br_report_str(&rep, fl.s);
    br_buf_free(&fl);
    rep.target_max_rank = info.max_rank;
    rep.bcast_version = BCAST_VERSION;
    rep.caseset_version = br_report_str(&rep, cs.caseset_version);
    rep.profile_used = bc_profile_name(profile);

    rc_.rec_of = malloc((cs.n ? cs.n : 1) * sizeof *rc_.rec_of);
    rc_.prof_of = malloc((cs.n ? cs.n : 1) * sizeof *rc_.prof_of);
    rc_.ran = calloc(nsel ? nsel : 1, 1);
    torun = malloc((nsel ? nsel : 1) * sizeof *torun);
    profs = malloc((nsel ? nsel : 1) * sizeof *profs);
    if (!rc_.rec_of || !rc_.prof_of || !rc_.ran || !torun || !profs) goto out;
    size_t nrun = 0;
    for (size_t i = 0; i < nsel; i++) {
        const br_case *c = &cs.cases[sel[i]];
        br_rec *x = br_report_add(&rep);
        br_rec_describe(&rep, x, c);
        rc_.rec_of[sel[i]] = i;
        rc_.prof_of[sel[i]] = profile;
        char why[200];
        const char *sk = br_skip_reason(c, &info, profile, why, sizeof why);
        if (sk != NULL) {
            x->outcome = BR_O_SKIP;
            x->reason = br_report_str(&rep, sk);
            rc_.ran[i] = 1;
            continue;
        }
        torun[nrun] = sel[i];
        profs[nrun++] = profile;
    }
    rc_.total = nrun;
    rc_.progress = isatty(2);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    size_t fin = br_iso_run(iso, torun, profs, nrun, on_done, &rc_, &stop_flag);
    br_iso_stop(iso);
    iso = NULL;
    if (rc_.progress) progress(&rc_, 1);
    rep.complete = fin == nrun && !stop_flag;
    if (!rep.complete) {   /* keep only what finished */
        size_t k = 0;
        for (size_t i = 0; i < rep.n; i++) if (rc_.ran[i]) rep.recs[k++] = rep.recs[i];
        rep.n = k;
    }
    for (size_t i = 0; i < rep.n; i++) {
        br_rec *x = &rep.recs[i];
        int exact = 0;
        const char *kr = ex.n ? br_expectations_find(&ex, x->id, &exact) : NULL;
        if (kr == NULL || x->outcome == BR_O_SKIP) continue;
        if (x->outcome == BR_O_PASS && !exact) continue;   /* a glob only covers failures */
        x->known_reason = kr[0] ? kr : "(no reason given)";
        if (x->outcome == BR_O_PASS) x->unexpected_pass = 1;
        else x->expected_failure = 1;
    }
    int erc = emit(&rep, o);
    if (o->write_expectations && write_expectations(&rep, o->write_expectations) != 0) erc = 2;
    br_totals t;
    br_report_totals(&rep, &t);
    code = stop_flag ? 130 : erc ? erc : br_report_exit(&t);
    if (!rep.complete && code == 0) code = 1;
out:
    br_iso_stop(iso);
    br_report_free(&rep);
    br_expectations_free(&ex);
    free(rc_.rec_of); free(rc_.prof_of); free(rc_.ran); free(torun); free(profs); free(sel);
    br_caseset_free(&cs);
    return code;
}

static int cmd_show(opts *o, const char *id)
{
    br_caseset cs;
    memset(&cs, 0, sizeof cs);
    int rc = load_all(&cs, o);
    if (rc) { br_caseset_free(&cs); return rc; }
    int found = 0;
    for (size_t i = 0; i < cs.n; i++) {
        if (!br_glob_match(id, cs.cases[i].id)) continue;
        br_err err;
        if (br_materialize(&cs, &cs.cases[i], &err) != 0) {
            fprintf(stderr, "bcast-run: %s\n", err.msg);
            br_caseset_free(&cs);
            return 2;
        }
        br_buf b = { 0 };
        br_show_case(&cs.cases[i], &b);
        fputs(b.s, stdout);
        br_buf_free(&b);
        found++;
    }
    br_caseset_free(&cs);
    if (!found) { fprintf(stderr, "bcast-run: no case matches '%s'\n", id); return 2; }
    return 0;
}

static int cmp_rec(const void *a, const void *b)
{
    return strcmp(((const br_rec *)a)->id, ((const br_rec *)b)->id);
}

static int cmd_merge(opts *o)
{
    if (o->npaths == 0) return usage("%s", "merge needs at least one JSON file");
    br_report rep;
    memset(&rep, 0, sizeof rep);
    rep.complete = 1;
    for (size_t i = 0; i < o->npaths; i++) {
        char err[600];
        if (br_read_json(&rep, o->paths[i], err, sizeof err) != 0) {
            fprintf(stderr, "bcast-run: %s\n", err);
            br_report_free(&rep);
            return 2;
        }
    }
    /* shards interleave; the merged result is in id order like a single run */
    if (rep.n > 1) qsort(rep.recs, rep.n, sizeof *rep.recs, cmp_rec);
    for (size_t i = 1; i < rep.n; i++)
        if (strcmp(rep.recs[i - 1].id, rep.recs[i].id) == 0) {
            fprintf(stderr, "bcast-run: case %s appears in more than one merged file\n", rep.recs[i].id);
            br_report_free(&rep);
            return 2;
        }
    int erc = emit(&rep, o);
    br_totals t;
    br_report_totals(&rep, &t);
    int code = erc ? erc : br_report_exit(&t);
    if (!rep.complete && code == 0) code = 1;
    br_report_free(&rep);
    return code;
}

int main(int argc, char **argv)
{
    opts o;
    memset(&o, 0, sizeof o);
    o.profile = -1;
    o.jobs = 1;
    o.timeout = 10;
    int start = 1, cmd = 0;
    const char *show_id = NULL;
    if (argc > 1 && strcmp(argv[1], "show") == 0) {
        if (argc < 3) return usage("%s", "show needs a case ID");
        cmd = 1; show_id = argv[2]; start = 3;
    } else if (argc > 1 && strcmp(argv[1], "merge") == 0) { cmd = 2; start = 2; }
    int rc = parse_opts(argc, argv, start, &o);
    if (rc == 0) {
        if (cmd == 1) rc = cmd_show(&o, show_id);
        else if (cmd == 2) rc = cmd_merge(&o);
        else rc = cmd_run(&o);
    }
    br_filter_free(&o.filter);
    free(o.paths);
    return rc;
}
