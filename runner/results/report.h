/* report.h - the result model every output format is written from, whether it
 * comes from a live run or from merged JSON files. */
#ifndef BR_REPORT_H
#define BR_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include "base/util.h"

enum { BR_O_PASS = 0, BR_O_FAIL, BR_O_SKIP, BR_O_CRASH, BR_O_TIMEOUT, BR_O_VIOLATION, BR_O_COUNT };
extern const char *const br_outcome_names[BR_O_COUNT];   /* "pass", "fail", ... */
int br_outcome_from_name(const char *s);

typedef struct br_rec {
    const char *id, *suite, *tags, *rules, *op, *mode, *dtypes, *shapes, *strides;
    int outcome;              /* BR_O_* */
    int expected_failure;     /* listed in --expectations and did not pass */
    int unexpected_pass;      /* listed in --expectations but passed */
    const char *reason;       /* why it did not pass / was skipped; "" on pass */
    const char *expected, *actual;   /* summaries, "" when not applicable */
    const char *mismatch;     /* first differing index, e.g. "(1,2)", or "" */
    const char *error_class, *error_message;   /* what the target returned, or "" */
    const char *known_reason; /* the expectations file's reason, or "" */
    double duration_ms;
    const char *file;
    int line;
    /* What went wrong, structured (findings group on these; docs/findings.md):
     * failure is one of br_failure_names ("" on pass/skip), detail its
     * qualifier (the value class, the shape relation, the error classes, the
     * signal, the violation kind). */
    const char *failure, *detail;
    const char *behaviour;    /* what the target did, normalised: "raises other: TypeError: ''...",
                                 "succeeds with the zero-size operand's shape", "crashes with SIGFPE" */
    const char *stderr_tail;  /* crash/violation/timeout: the worker's last stderr lines, or "" */
    const char *diff;         /* wrong values: br_diff_describe's summary, or "" */
    const char *features;     /* what the case exercises, space-separated (runner/results/case_features.c) */
    int probed;               /* run only because of --probe-limits: outside the declared claim */
    const char *limit;        /* probed: the declared limit that excludes the case (the skip reason) */
    long finding;             /* index in br_report.findings, -1 for none */
    /* The re-run in a fresh worker (runner/judge/rerun.c; docs/runner.md "Re-run"):
     * depends_on is the id of the case after which this one began to fail (it
     * passes in a fresh worker and fails again when replayed after that case),
     * or ""; such a case is in no finding and not counted as failed. rerun says
     * what the re-run saw, or "" when the case was not re-run. */
    const char *depends_on, *rerun;
} br_rec;

/* The failure kinds (br_rec.failure). */
#define BR_FAILURES(X) \
    X(EXPECTED_ERROR, "expected-error")   /* an error was expected; the call succeeded */ \
    X(UNEXPECTED_ERROR, "unexpected-error") /* success was expected; the call raised */ \
    X(WRONG_CLASS, "wrong-class")         /* both raised, different classes */ \
    X(WRONG_SHAPE, "wrong-shape") \
    X(WRONG_DTYPE, "wrong-dtype") \
    X(WRONG_VALUES, "wrong-values") \
    X(NO_OUTPUT, "no-output")             /* OK without a result, or alloc_output misuse */ \
    X(BAD_STATUS, "bad-status")           /* a return value that is not a bct_status */ \
    X(OUT_METADATA, "out-metadata")       /* a failed out= call left out resized (B22) */ \
    X(CRASH, "crash") \
    X(TIMEOUT, "timeout") \
    X(VIOLATION, "violation") \
    X(RUNNER, "runner")                   /* the runner could not judge (no expectation...) */
#define BR_FAILURE_ENUM(id, name) BR_FK_##id,
enum { BR_FAILURES(BR_FAILURE_ENUM) BR_FK_COUNT };
extern const char *const br_failure_names[BR_FK_COUNT];

/* One finding: a family of non-passing results with one root cause
 * (runner/results/findings.c; docs/findings.md). */
typedef struct br_finding {
    const char *key;          /* the signature the family was merged on */
    const char *name;         /* one line, from what the cases share */
    const char *kind;         /* "failure" or "limit" (a declared capability that narrows the profile) */
    size_t count;             /* cases (for a limit: cases the limit excludes) */
    size_t known;             /* of them, listed in --expectations */
    size_t smallest;          /* record index of the smallest case */
    const char *ops, *dtypes, *rules, *outcomes;   /* what the cases span, space-separated */
    const char *shrunk;       /* a shrunk case record (bcast-run shrink), or "" */
    const char *keys;         /* every level-1 key merged into it, '\n'-separated (key first) */
} br_finding;

typedef struct br_report {
    br_rec *recs;
    size_t n, cap;
    const char *target_name, *target_version, *target_profile;
    const char *target_ops, *target_dtypes, *target_flags;   /* space-separated */
    int target_max_rank;
    const char *bcast_version, *caseset_version, *profile_used;
    const char *target_path;  /* as given on the command line (repro hints), or "" */
    int complete;
    br_pool strs;
    /* --expectations entries that match no case of the loaded case set */
    const char **unmatched;   /* "FILE:LINE: ENTRY" */
    size_t nunmatched;
    br_finding *findings;     /* after br_findings_build; in the order shown */
    size_t nfindings;
    /* Cases that ran but are not listed as records, by outcome (BR_O_*):
     * explore lists only (a bounded number of) the failing cases it ran.
     * Counted in the totals as if listed; none is an expected failure. */
    size_t unlisted[BR_O_COUNT];
    size_t unlisted_probed;   /* ran only because of --probe-limits, not listed */
    /* explore: where the cases came from ("explore" in the JSON result when has_explore) */
    int has_explore;
    unsigned long long explore_seed, explore_cases;
    long explore_shard_k, explore_shard_n;
    double explore_seconds;
    /* From merged JSON results: each input finding's smallest case id and
     * shrunk record, to give back to the rebuilt findings (br_report_reattach_shrunk). */
    const char **hint_id, **hint_shrunk;
    size_t nhints;
} br_report;

/* Counts. passed..timed_out count what the gate sees: expected failures are
 * counted apart (xfail) and not in failed/crashed/timed_out/violations.
 * actual[] counts by what happened, known failures included, so a known
 * crash is never shown as zero crashes; known[] is the part of actual[]
 * the expectations file listed. Probed cases are counted only in probed. */
typedef struct br_totals {
    size_t passed, failed, skipped, crashed, timed_out, violations, xfail, xpass, total;
    size_t actual[6], known[6];   /* indexed by BR_O_* */
    size_t probed, unmatched;
    size_t depends;           /* failed only after an earlier case broke the library (rec.depends_on) */
} br_totals;

const char *br_report_str(br_report *r, const char *s);   /* copies s into the report */
br_rec *br_report_add(br_report *r);                       /* a zeroed record, strings "" */
void br_report_free(br_report *r);
void br_report_totals(const br_report *r, br_totals *t);
/* "N passed, N failed, N skipped[, N crashed][, N timed out][, N expected failures
 * (N failed, N crashed, N memory violations, N timed out)][, N depend on earlier cases]" */
void br_totals_line(const br_totals *t, char *buf, size_t cap);
/* 0 all passed or only expected failures; 1 any unexpected failure, crash, timeout, violation. */
int br_report_exit(const br_totals *t);

/* Writers. text: the human report (color when color is set; every failing
 * case only when verbose, else the findings); the others as
 * documented in docs/runner.md. All append to out. */
void br_write_text(const br_report *r, br_buf *out, int color, int verbose);
void br_write_json(const br_report *r, br_buf *out);
void br_write_tap(const br_report *r, br_buf *out);
void br_write_junit(const br_report *r, br_buf *out);

/* Reads a JSON result written by br_write_json into r (appending its cases;
 * cases its totals count but it does not list go to r->unlisted; its
 * findings' shrunk records to r's hints). 0, or -1 with a message in err (cap bytes). */
int br_read_json(br_report *r, const char *path, char *err, size_t cap);

/* After br_findings_build on merged results: a finding that holds the
 * smallest case of an input finding with a shrunk record gets that record. */
void br_report_reattach_shrunk(br_report *r);

#ifndef BCAST_VERSION
#error "BCAST_VERSION must be defined (the top Makefile passes it with -D)"
#endif

#endif
