/* select.h - case selection: filters, their validation against the case set, and --shard slicing. */
#ifndef BR_SELECT_H
#define BR_SELECT_H

#include <stddef.h>
#include "case/caseio.h"

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

/* Checks every --suite, --tag and --id value against the loaded cases: a
 * typo ("seed" for "seeds") must not select nothing silently. 0, or -1 with
 * err naming the value (and, for a suite, the suites there are). */
int br_filter_validate(const br_filter *f, const br_caseset *cs, char *err, size_t cap);

/* "--suite ops --op add", or "(no filter)". */
void br_filter_describe(const br_filter *f, char *buf, size_t cap);

/* Parses "K/N" (1 <= K <= N). 0 on success. */
int br_parse_shard(const char *s, long *k, long *n);
/* The shard keeps the cases whose id hashes (FNV-1a 64) to h with h mod N == K-1: a case's
 * shard never depends on which other cases exist, so adding cases to the suite leaves every
 * existing case in its shard, and shard 1/(S*n) is a subset of shard 1/S. */
int br_shard_keeps(const char *id, long k, long n);

#endif
