/* report_depends.h - the text report's group of cases that depend on earlier ones (judge/rerun.c). */
#ifndef BR_REPORT_DEPENDS_H
#define BR_REPORT_DEPENDS_H
#include "base/util.h"
#include "results/report.h"

/* "depends on earlier cases (N): ..." and one line per trigger, with its
 * finding and a few of the cases; nothing when no record has depends_on. */
void br_write_depends_text(const br_report *r, br_buf *out);

#endif
