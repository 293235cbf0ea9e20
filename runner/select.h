/* select.h - case selection: filters, --shard slicing, and the expectations (known failures) file. */
#ifndef BR_SELECT_H
#define BR_SELECT_H

#include <stddef.h>
#include "caseio.h"

enum { BR_F_SUITE, BR_F_TAG, BR_F_OP, BR_F_DTYPE, BR_F_ID, BR_F_KINDS };

typedef struct br_filter {
    const char **v[BR_F_KINDS];
    size_t n[BR_F_KINDS];
} br_filter;

/* Adds a value of one kind (the strings are not copied). -1 when out of memory. */
int br_filter_add(br_filter *f, int kind, const char *value);
void br_filter_free(br_filter *f);

/* OR within a kind, AND across kinds. The `large` suite is only selected when
 * asked for by --suite large. --dtype matches any arg's dtype or the result's. */
int br_filter_match(const br_filter *f, const br_case *c);

/* fnmatch, or plain equality (ids may hold glob characters such as '['). */
int br_glob_match(const char *pattern, const char *s);

/* Parses "K/N" (1 <= K <= N). 0 on success. */
int br_parse_shard(const char *s, long *k, long *n);
/* The shard keeps positions i (over the selected, sorted cases) with i mod N == K-1. */
int br_shard_keeps(size_t i, long k, long n);

typedef struct br_expectation { const char *glob, *reason; int line; } br_expectation;
typedef struct br_expectations {
    br_expectation *v;      /* in file order */
    size_t n;
    char *buf;
    size_t *exact;          /* indices of entries without glob characters, sorted by id */
    size_t nexact;
} br_expectations;

/* Reads "ID-or-GLOB<whitespace>REASON" lines; '#' starts a comment line; blank
 * lines are skipped; a reason is optional. Returns 0 or -1 with err "FILE:LINE: why". */
int br_expectations_load(br_expectations *x, const char *path, br_err *err);
int br_expectations_parse(br_expectations *x, const char *name, char *buf, br_err *err);
/* The matching entry's reason ("" if none given), or NULL when id is not
 * expected to fail. *exact (if not NULL) tells whether an entry names the id
 * itself rather than a glob matching it: only those make a pass "unexpected". */
const char *br_expectations_find(const br_expectations *x, const char *id, int *exact);
void br_expectations_free(br_expectations *x);

#endif
