/* report.h - the result model every output format is written from, whether it
 * comes from a live run or from merged JSON files. */
#ifndef BR_REPORT_H
#define BR_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include "util.h"

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
} br_rec;

typedef struct br_report {
    br_rec *recs;
    size_t n, cap;
    const char *target_name, *target_version, *target_profile;
    const char *target_ops, *target_dtypes, *target_flags;   /* space-separated */
    int target_max_rank;
    const char *bcast_version, *caseset_version, *profile_used;
    int complete;
    br_pool strs;
} br_report;

typedef struct br_totals {
    size_t passed, failed, skipped, crashed, timed_out, violations, xfail, xpass, total;
} br_totals;

const char *br_report_str(br_report *r, const char *s);   /* copies s into the report */
br_rec *br_report_add(br_report *r);                       /* a zeroed record, strings "" */
void br_report_free(br_report *r);
void br_report_totals(const br_report *r, br_totals *t);
/* "N passed, N failed, N skipped[, N crashed][, N timed out][, N expected failures]" */
void br_totals_line(const br_totals *t, char *buf, size_t cap);
/* 0 all passed or only expected failures; 1 any unexpected failure, crash, timeout, violation. */
int br_report_exit(const br_totals *t);

/* Writers. text: the human report (color when color is set); the others as
 * documented in docs/runner.md. All append to out. */
void br_write_text(const br_report *r, br_buf *out, int color);
void br_write_json(const br_report *r, br_buf *out);
void br_write_tap(const br_report *r, br_buf *out);
void br_write_junit(const br_report *r, br_buf *out);

/* Reads a JSON result written by br_write_json into r (appending its cases).
 * 0, or -1 with a message in err (cap bytes). */
int br_read_json(br_report *r, const char *path, char *err, size_t cap);

#ifndef BCAST_VERSION
#error "BCAST_VERSION must be defined (the top Makefile passes it with -D)"
#endif

#endif
