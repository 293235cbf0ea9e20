/* expect.h - the expectations (known failures) file: reading it, entries that match no case, and rewriting it without losing what people wrote. */
#ifndef BR_EXPECT_H
#define BR_EXPECT_H

#include <stddef.h>
#include "case/caseio.h"
#include "results/report.h"
#include "base/util.h"

typedef struct br_expectation { const char *glob, *reason; int line; } br_expectation;
typedef struct br_expectations {
    const char *name;       /* the file, for messages */
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

/* Whether entry i matches some case of the (sorted) case set. */
int br_expectation_matches_set(const br_expectations *x, size_t i, const br_caseset *cs);

/* Records every entry that matches no case of the loaded set in rep->unmatched
 * ("FILE:LINE: ENTRY"); returns how many. */
size_t br_expectations_unmatched(const br_expectations *x, const br_caseset *cs, br_report *rep);

/* The text of an expectations file after this run. existing: the current
 * contents of the file being written, or NULL for a new one. An existing
 * file keeps every comment, blank line and entry as written; an entry whose
 * cases ran and all passed becomes "# [no longer fails] <entry>", one that
 * matches no case "# [matches no case] <entry>"; failures no entry covers are
 * appended, one block per finding headed by its name. A new file is one
 * block per finding. Appends to out. */
void br_expectations_render(const char *existing, const br_report *rep, const br_caseset *cs, br_buf *out);

#endif
