/* options.c - bcast-run's command line: one table of options, which subcommands take each, and the conflict rules. */
#include "cli/options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bcast_ref.h"

const char br_usage_text[] =
    "usage: bcast-run [run] [OPTIONS] [CASEFILE|DIR ...]     run the cases (default: cases/)\n"
    "       bcast-run show ID [OPTIONS] [CASEFILE|DIR ...]   print a case and its NumPy/torch one-liners;\n"
    "                                                        with --target, also what the target returns\n"
    "       bcast-run shrink ID --target T [OPTIONS] [CASEFILE|DIR ...]   reduce a failing case\n"
    "       bcast-run explore --target T [OPTIONS]           random cases judged against ref\n"
    "       bcast-run merge FILE.json ... [--format F] [--output FILE]   merge shard results into one\n"
    "options (each subcommand takes the ones that make sense for it):\n"
    "  --target PATH|NAME   target library (default build/targets/ref.so; NAME: <bindir>/targets/NAME.so)\n"
    "  --target-arg STR     passed to the target's init()\n"
    "  --profile P          override the target's declared profile: numpy (1.24), torch (1.13),\n"
    "                       numpy2 or torch2 (cases without an expectation for it are skipped)\n"
    "  --suite S --tag T --op O --dtype D --id GLOB   filters (repeatable; each must match some case)\n"
    "  --allow-empty        a selection with no case to run is not an error\n"
    "  --list               print the selected case ids and exit\n"
    "  --expectations FILE  known failures: ID-or-GLOB REASON per line\n"
    "  --strict-expectations  an expectations entry that matches no case is an error\n"
    "  --write-expectations FILE   write the current failures, one block per finding (keeps an\n"
    "                       existing file's comments and reasons)\n"
    "  --jobs N             worker processes (default 1)\n"
    "  --shard K/N          run the selected cases with index mod N == K-1\n"
    "  --format text|tap|junit|json  (default text)   --output FILE\n"
    "  --verbose            text: list every non-passing case, not only the findings\n"
    "  --timeout SECONDS    per case (default 10)\n"
    "  --first-call-timeout SECONDS  a worker's first call of each op and mode, where compiling\n"
    "                       libraries compile (default: 60 for a target that declares it compiles,\n"
    "                       --timeout for others; never below --timeout)\n"
    "  --probe-limits       also run the cases the target's declared limits exclude\n"
    "  --no-rerun           do not re-run unexpected failures in fresh workers\n"
    "  --guard both|end|start|off  where each input's storage meets a guard page: both (default) calls\n"
    "                       each case with inputs against the guard after them, then before them\n"
    "  --seed S --cases N --seconds S   explore: the stream (default seed 1) and its budget\n"
    "  --emit FILE          explore: write one shrunk case per finding there (--emit-all: every generated case)\n"
    "  --max-runs N         shrink: candidate runs (default 200); --seconds: time budget (default 30);\n"
    "                       explore: candidate runs per finding shrunk (default 100)\n"
    "  --no-color           (NO_COLOR is honoured too)\n";

int br_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "bcast-run: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", br_usage_text);
    return 2;
}

static const char *const cmd_names[BR_CMD_COUNT] = { "run", "show", "merge", "shrink", "explore" };

#define RUN (1u << BR_CMD_RUN)
#define SHOW (1u << BR_CMD_SHOW)
#define MERGE (1u << BR_CMD_MERGE)
#define SHRINK (1u << BR_CMD_SHRINK)
#define EXPLORE (1u << BR_CMD_EXPLORE)
#define ALL (RUN | SHOW | MERGE | SHRINK | EXPLORE)

enum {
    O_TARGET, O_TARGET_ARG, O_PROFILE, O_SUITE, O_TAG, O_OP, O_DTYPE, O_ID, O_ALLOW_EMPTY, O_LIST,
    O_EXPECT, O_STRICT, O_WRITE_EXPECT, O_JOBS, O_SHARD, O_FORMAT, O_OUTPUT, O_VERBOSE, O_TIMEOUT, O_FIRST_TIMEOUT,
    O_PROBE, O_GUARD, O_SEED, O_CASES, O_SECONDS, O_MAX_RUNS, O_EMIT, O_EMIT_ALL, O_NO_COLOR, O_NO_RERUN, O_COUNT
};

typedef struct opt_def {
    const char *name;
    int takes_value;
    int repeatable;     /* filters; a single-valued option given twice is refused */
    unsigned cmds;
} opt_def;

static const opt_def defs[O_COUNT] = {
    [O_TARGET] = { "--target", 1, 0, RUN | SHOW | SHRINK | EXPLORE },
    [O_TARGET_ARG] = { "--target-arg", 1, 0, RUN | SHOW | SHRINK | EXPLORE },
    [O_PROFILE] = { "--profile", 1, 0, RUN | SHOW | SHRINK | EXPLORE },
    [O_SUITE] = { "--suite", 1, 1, RUN },
    [O_TAG] = { "--tag", 1, 1, RUN },
    [O_OP] = { "--op", 1, 1, RUN | EXPLORE },
    [O_DTYPE] = { "--dtype", 1, 1, RUN | EXPLORE },
    [O_ID] = { "--id", 1, 1, RUN },
    [O_ALLOW_EMPTY] = { "--allow-empty", 0, 0, RUN },
    [O_LIST] = { "--list", 0, 0, RUN },
    [O_EXPECT] = { "--expectations", 1, 0, RUN },
    [O_STRICT] = { "--strict-expectations", 0, 0, RUN },
    [O_WRITE_EXPECT] = { "--write-expectations", 1, 0, RUN },
    [O_JOBS] = { "--jobs", 1, 0, RUN | SHRINK | EXPLORE },
    [O_SHARD] = { "--shard", 1, 0, RUN | EXPLORE },
    [O_FORMAT] = { "--format", 1, 0, RUN | MERGE | EXPLORE },
    [O_OUTPUT] = { "--output", 1, 0, RUN | MERGE | EXPLORE },
    [O_VERBOSE] = { "--verbose", 0, 0, RUN | MERGE | EXPLORE },
    [O_TIMEOUT] = { "--timeout", 1, 0, RUN | SHOW | SHRINK | EXPLORE },
    [O_FIRST_TIMEOUT] = { "--first-call-timeout", 1, 0, RUN | SHOW | SHRINK | EXPLORE },
    [O_PROBE] = { "--probe-limits", 0, 0, RUN | SHRINK | EXPLORE },
    [O_GUARD] = { "--guard", 1, 0, RUN | SHOW | SHRINK | EXPLORE },
    [O_SEED] = { "--seed", 1, 0, EXPLORE },
    [O_CASES] = { "--cases", 1, 0, EXPLORE },
    [O_SECONDS] = { "--seconds", 1, 0, EXPLORE | SHRINK },
    [O_MAX_RUNS] = { "--max-runs", 1, 0, SHRINK | EXPLORE },
    [O_EMIT] = { "--emit", 1, 0, EXPLORE },
    [O_EMIT_ALL] = { "--emit-all", 0, 0, EXPLORE },
    [O_NO_COLOR] = { "--no-color", 0, 0, ALL },
    [O_NO_RERUN] = { "--no-rerun", 0, 0, RUN },
};

static int parse_long(const char *v, long lo, long hi, long *out)
{
    char *e;
    errno = 0;
    long x = strtol(v, &e, 10);
    if (*v == '\0' || *e || errno || x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

static int parse_seconds(const char *v, double *out)
{
    char *e;
    double t = strtod(v, &e);
    if (*v == '\0' || *e || !(t > 0 && t <= 86400)) return -1;
    *out = t;
    return 0;
}

/* Applies option k with value v (NULL for a flag). 0, or the usage exit. */
static int apply(br_opts *o, int k, const char *v)
{
    long n;
    switch (k) {
    case O_TARGET: o->target = v; break;
    case O_TARGET_ARG: o->target_arg = v; break;
    case O_PROFILE:
        o->profile = bc_profile_from_name(v);
        if (o->profile < 0) return br_usage("--profile takes numpy, torch, numpy2 or torch2, not '%s'", v);
        break;
    case O_SUITE: case O_TAG: case O_OP: case O_DTYPE: case O_ID: {
        static const int kind[] = { BR_F_SUITE, BR_F_TAG, BR_F_OP, BR_F_DTYPE, BR_F_ID };
        if (k == O_OP && bc_op_from_name(v) < 0) return br_usage("unknown op '%s'", v);
        if (k == O_DTYPE && bc_dtype_from_name(v) < 0) return br_usage("unknown dtype '%s'", v);
        if (br_filter_add(&o->filter, kind[k - O_SUITE], v) != 0) return br_usage("%s", "out of memory");
        break;
    }
    case O_ALLOW_EMPTY: o->allow_empty = 1; break;
    case O_LIST: o->list = 1; break;
    case O_EXPECT: o->expectations = v; break;
    case O_STRICT: o->strict_expectations = 1; break;
    case O_WRITE_EXPECT: o->write_expectations = v; break;
    case O_JOBS:
        if (parse_long(v, 1, 256, &n) != 0) return br_usage("--jobs takes a number in [1, 256], not '%s'", v);
        o->jobs = (int)n;
        break;
    case O_SHARD:
        if (br_parse_shard(v, &o->shard_k, &o->shard_n) != 0)
            return br_usage("--shard takes K/N with 1 <= K <= N, not '%s'", v);
        break;
    case O_FORMAT:
        if (strcmp(v, "text") == 0) o->format = BR_FMT_TEXT;
        else if (strcmp(v, "tap") == 0) o->format = BR_FMT_TAP;
        else if (strcmp(v, "junit") == 0) o->format = BR_FMT_JUNIT;
        else if (strcmp(v, "json") == 0) o->format = BR_FMT_JSON;
        else return br_usage("--format takes text, tap, junit or json, not '%s'", v);
        break;
    case O_OUTPUT: o->output = v; break;
    case O_VERBOSE: o->verbose = 1; break;
    case O_TIMEOUT:
        if (parse_seconds(v, &o->timeout) != 0) return br_usage("--timeout takes seconds in (0, 86400], not '%s'", v);
        break;
    case O_FIRST_TIMEOUT:
        if (parse_seconds(v, &o->first_call_timeout) != 0)
            return br_usage("--first-call-timeout takes seconds in (0, 86400], not '%s'", v);
        break;
    case O_PROBE: o->probe_limits = 1; break;
    case O_GUARD:
        if (strcmp(v, "both") == 0) o->guard = BR_GUARD_BOTH;
        else if (strcmp(v, "end") == 0) o->guard = BR_GUARD_END;
        else if (strcmp(v, "start") == 0) o->guard = BR_GUARD_START;
        else if (strcmp(v, "off") == 0) o->guard = BR_GUARD_OFF;
        else return br_usage("--guard takes both, end, start or off, not '%s'", v);
        break;
    case O_SEED: {
        char *e;
        errno = 0;
        unsigned long long s = strtoull(v, &e, 0);
        if (*v == '\0' || *v == '-' || *e || errno) return br_usage("--seed takes an unsigned 64-bit number, not '%s'", v);
        o->seed = (uint64_t)s;
        o->has_seed = 1;
        break;
    }
    case O_CASES:
        if (parse_long(v, 1, 2000000000L, &o->max_cases) != 0) return br_usage("--cases takes a number in [1, 2e9], not '%s'", v);
        break;
    case O_SECONDS:
        if (parse_seconds(v, &o->seconds) != 0) return br_usage("--seconds takes seconds in (0, 86400], not '%s'", v);
        break;
    case O_MAX_RUNS:
        if (parse_long(v, 1, 1000000L, &o->max_runs) != 0) return br_usage("--max-runs takes a number in [1, 1e6], not '%s'", v);
        break;
    case O_EMIT: o->emit = v; break;
    case O_EMIT_ALL: o->emit_all = 1; break;
    case O_NO_COLOR: o->no_color = 1; break;
    case O_NO_RERUN: o->no_rerun = 1; break;
    default: break;
    }
    return 0;
}

/* The option definition argv[*i] names (--opt or --opt=VALUE); *val gets
 * its value. -1 when it is not a known option. */
static int lookup(int argc, char **argv, int *i, const char **val, int *missing)
{
    *missing = 0;
    for (int k = 0; k < O_COUNT; k++) {
        size_t n = strlen(defs[k].name);
        const char *a = argv[*i];
        if (strncmp(a, defs[k].name, n) != 0) continue;
        if (a[n] == '=' && defs[k].takes_value) { *val = a + n + 1; return k; }
        if (a[n] != '\0') continue;
        if (!defs[k].takes_value) { *val = NULL; return k; }
        if (*i + 1 >= argc) { *missing = 1; return k; }
        *val = argv[++*i];
        return k;
    }
    return -1;
}

static int command_of(const char *s)
{
    for (int c = 0; c < BR_CMD_COUNT; c++) if (strcmp(s, cmd_names[c]) == 0) return c;
    return -1;
}

/* Combinations where one option would silently be ignored. */
static int check_conflicts(const br_opts *o, const unsigned char *seen)
{
    if (o->list && (seen[O_WRITE_EXPECT] || seen[O_OUTPUT] || seen[O_FORMAT]))
        return br_usage("%s", "--list prints case ids only: it cannot be combined with --write-expectations, --output or --format");
    if (o->list && (seen[O_EXPECT] || seen[O_STRICT]))
        return br_usage("%s", "--list runs nothing: --expectations/--strict-expectations would be ignored");
    if (seen[O_STRICT] && !seen[O_EXPECT])
        return br_usage("%s", "--strict-expectations needs --expectations FILE");
    if (o->output && o->write_expectations && strcmp(o->output, o->write_expectations) == 0)
        return br_usage("--output and --write-expectations name the same file '%s'", o->output);
    if (o->cmd == BR_CMD_EXPLORE && (seen[O_CASES] + seen[O_SECONDS]) == 0)
        return br_usage("%s", "explore needs a budget: --cases N or --seconds S (or both)");
    if (o->cmd == BR_CMD_EXPLORE && o->npaths > 0)
        return br_usage("explore generates its cases: it takes no case file ('%s')", o->paths[0]);
    if (seen[O_EMIT_ALL] && !seen[O_EMIT])
        return br_usage("%s", "--emit-all needs --emit FILE (where the cases go)");
    if ((o->cmd == BR_CMD_SHRINK || o->cmd == BR_CMD_EXPLORE) && !seen[O_TARGET])
        return br_usage("%s needs --target", cmd_names[o->cmd]);
    return 0;
}

static void defaults(br_opts *o)
{
    memset(o, 0, sizeof *o);
    o->profile = -1;
    o->jobs = 1;
    o->timeout = 10;
    o->guard = BR_GUARD_BOTH;
}

/* The subcommand from argv[1] (default run); *start is the first option. */
static int parse_command(int argc, char **argv, br_opts *o, int *start)
{
    *start = 1;
    o->cmd = BR_CMD_RUN;
    if (argc < 2) return 0;
    int c = command_of(argv[1]);
    if (c < 0) return 0;
    o->cmd = c;
    *start = 2;
    if (c == BR_CMD_SHOW || c == BR_CMD_SHRINK) {
        if (argc < 3 || argv[2][0] == '-') return br_usage("%s needs a case ID right after it", cmd_names[c]);
        o->case_id = argv[2];
        *start = 3;
    }
    return 0;
}

int br_parse_opts(int argc, char **argv, br_opts *o)
{
    int start, rc;
    defaults(o);
    if ((rc = parse_command(argc, argv, o, &start)) != 0) return rc;
    o->paths = calloc((size_t)argc + 1, sizeof *o->paths);
    if (o->paths == NULL) return br_usage("%s", "out of memory");
    unsigned char seen[O_COUNT] = { 0 };
    for (int i = start; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int missing;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { fputs(br_usage_text, stdout); exit(0); }
        int k = a[0] == '-' && a[1] != '\0' ? lookup(argc, argv, &i, &v, &missing) : -2;
        if (k == -1) return br_usage("unknown option '%s'", a);
        if (k == -2) {   /* a positional: a path, unless it is a subcommand written too late */
            if (command_of(a) >= 0 && access(a, F_OK) != 0) {
                fprintf(stderr, "bcast-run: '%s' is a subcommand: it comes first, before any option "
                        "(bcast-run %s%s ...)\n", a, a, command_of(a) == BR_CMD_SHOW || command_of(a) == BR_CMD_SHRINK ? " ID" : "");
                return 2;
            }
            o->paths[o->npaths++] = a;
            continue;
        }
        if (missing) return br_usage("%s needs a value", defs[k].name);
        if (defs[k].takes_value && *v == '\0') return br_usage("%s needs a value", defs[k].name);
        if (!(defs[k].cmds & (1u << o->cmd))) {
            fprintf(stderr, "bcast-run: %s does not take %s\n%s", cmd_names[o->cmd], defs[k].name, br_usage_text);
            return 2;
        }
        if (seen[k] && !defs[k].repeatable) return br_usage("%s given twice: give it once", defs[k].name);
        seen[k] = 1;
        if ((rc = apply(o, k, v)) != 0) return rc;
    }
    return check_conflicts(o, seen);
}

void br_opts_free(br_opts *o)
{
    br_filter_free(&o->filter);
    free(o->paths);
    o->paths = NULL;
}
