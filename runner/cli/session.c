/* session.c - loading cases, resolving the target, worker settings and the report header, shared by run/show/shrink/explore. */
#include "cli/session.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bcast_ref.h"
#include "case/loaddir.h"

int br_load_cases(br_caseset *cs, const br_opts *o)
{
    br_err err;
    size_t np = o->npaths ? o->npaths : 1;
    for (size_t i = 0; i < np; i++) {
        const char *p = o->npaths ? o->paths[i] : "cases";
        size_t before = cs->n;
        if (br_load_path_parallel(cs, p, &err) != 0) { fprintf(stderr, "bcast-run: %s\n", err.msg); return 2; }
        if (cs->n == before && !o->allow_empty) {
            fprintf(stderr, "bcast-run: %s: no cases there (an empty directory, no *.cases file, or a file with "
                    "only a header): a run must not pass by testing nothing (--allow-empty if you mean it)\n", p);
            return 2;
        }
    }
    if (br_finish(cs, &err) != 0) { fprintf(stderr, "bcast-run: %s\n", err.msg); return 2; }
    return 0;
}

const char *br_resolve_target(const char *t, char *buf, size_t cap)
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

br_iso_cfg br_iso_config(const br_opts *o, const br_caseset *cs, const size_t *sel, size_t nsel, char *tbuf, size_t tcap)
{
    br_iso_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.target = br_resolve_target(o->target, tbuf, tcap);
    cfg.target_arg = o->target_arg;
    cfg.jobs = o->jobs;
    cfg.timeout_s = o->timeout;
    cfg.first_call_timeout_s = o->first_call_timeout;   /* 0: decided once the target is known (br_iso_first_call_limit) */
    cfg.out_cap = (int64_t)1 << 30;
    cfg.guard = o->guard;
    cfg.fork_server = 1;
    cfg.no_rlimit = getenv("BCAST_RUN_NO_RLIMIT") != NULL;
    for (size_t i = 0; i < nsel; i++) {   /* size the arenas for the largest case */
        const br_case *c = &cs->cases[sel[i]];
        int64_t b = br_case_result_bytes(c), in = 0;
        for (int k = 0; k < c->nargs; k++) {
            if (c->args[k].dtype == BCT_NONE) continue;
            int64_t s = c->args[k].storage * bc_dtype_size(c->args[k].dtype);
            if (s > b) b = s;
            if (s <= ((int64_t)64 << 20)) in += s + 2 * 4096;   /* a guarded copy: its pages and a guard */
        }
        if (b > cfg.arena_cap) cfg.arena_cap = b;
        if (in > cfg.in_cap) cfg.in_cap = in;
    }
    return cfg;
}

static char *caps_string(uint64_t bits, int count, const char *(*name)(int))
{
    br_buf b = { 0 };
    br_buf_puts(&b, "");
    for (int i = 0; i < count; i++)
        if (bits & ((uint64_t)1 << i)) { if (b.len) br_buf_puts(&b, " "); br_buf_puts(&b, name(i)); }
    return b.s;
}

void br_report_describe_target(br_report *rep, const br_target_info *info, int profile, const char *caseset)
{
    rep->target_name = br_report_str(rep, info->name);
    rep->target_version = br_report_str(rep, info->version);
    rep->target_profile = bc_profile_name(info->profile) ? bc_profile_name(info->profile) : "?";
    char *s1 = caps_string(info->ops, BCT_OP_COUNT, bc_op_name), *s2 = caps_string(info->dtypes, BCT_DTYPE_COUNT, bc_dtype_name);
    rep->target_ops = br_report_str(rep, s1);
    rep->target_dtypes = br_report_str(rep, s2);
    free(s1);
    free(s2);
    char fl[64];
    snprintf(fl, sizeof fl, "%s%s%s", info->flags & BCT_CAP_STRIDED ? "strided " : "",
             info->flags & BCT_CAP_INPLACE ? "inplace " : "", info->flags & BCT_CAP_OUT ? "out" : "");
    size_t l = strlen(fl);
    if (l && fl[l - 1] == ' ') fl[l - 1] = '\0';
    rep->target_flags = br_report_str(rep, fl);
    rep->target_max_rank = info->max_rank;
    rep->bcast_version = BCAST_VERSION;
    rep->caseset_version = br_report_str(rep, caseset);
    rep->profile_used = bc_profile_name(profile);
}

int br_profile_used(const br_opts *o, const br_target_info *info)
{
    int profile = o->profile >= 0 ? o->profile : info->profile;
    return profile >= 0 && profile < BCT_PROFILE_COUNT ? profile : BCT_PROFILE_NUMPY;
}
