/* options.h - bcast-run's command line: the subcommands, their options, and the rules that refuse conflicts. */
#ifndef BR_OPTIONS_H
#define BR_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "case/select.h"
#include "isolate/iso_types.h"

enum { BR_CMD_RUN, BR_CMD_SHOW, BR_CMD_MERGE, BR_CMD_SHRINK, BR_CMD_EXPLORE, BR_CMD_COUNT };
enum { BR_FMT_TEXT, BR_FMT_TAP, BR_FMT_JUNIT, BR_FMT_JSON };

typedef struct br_opts {
    int cmd;                       /* BR_CMD_* */
    const char *case_id;           /* show / shrink: the case ID (or glob, for show) */
    const char *target, *target_arg, *expectations, *write_expectations, *output;
    int profile;                   /* -1: the target's */
    int list, jobs, format, no_color, allow_empty, strict_expectations, verbose, probe_limits;
    int no_rerun;           /* --no-rerun: no re-run of unexpected failures in fresh workers */
    int guard;                     /* BR_GUARD_*: where inputs meet their guard page */
    long shard_k, shard_n;         /* 0/0: no sharding */
    double timeout;
    double first_call_timeout;   /* a worker's first call of an op and mode (--first-call-timeout); 0: not given */
    br_filter filter;
    const char **paths;
    size_t npaths;
    /* explore and shrink */
    uint64_t seed;
    int has_seed;
    long max_cases;                /* explore --cases N; 0: unbounded */
    double seconds;                /* explore --seconds / shrink budget; 0: default */
    long max_runs;                 /* shrink: candidate runs; 0: default */
    const char *emit;              /* explore: write the shrunk failures here (--emit FILE) */
    int emit_all;                  /* explore --emit-all: write every generated case instead */
} br_opts;

extern const char br_usage_text[];

/* Parses argv into o (zeroed defaults are set here). Returns 0, or 2 after
 * printing "bcast-run: why" and the usage to stderr. Refuses: unknown
 * options, an option given twice that takes one value, options the
 * subcommand does not take, combinations that would silently ignore one of
 * them, and a subcommand written after options. */
int br_parse_opts(int argc, char **argv, br_opts *o);

void br_opts_free(br_opts *o);

/* The usage error exit: prints "bcast-run: " + message and the usage; returns 2. */
int br_usage(const char *fmt, const char *arg);

#endif
