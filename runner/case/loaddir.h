/* loaddir.h - a directory of case files read on two threads. */
#ifndef BR_LOADDIR_H
#define BR_LOADDIR_H

#include "case/caseio.h"

/* br_load_path, with a directory's files split in two runs of about equal
 * bytes, the second parsed on a thread of its own into a case set that is
 * then appended: the same cases, file names, lines and case-set version, and
 * the same error (the first in file order) as br_load_path. Files and single
 * files load as br_load_path does. 0, or -1 with err. */
int br_load_path_parallel(br_caseset *cs, const char *path, br_err *err);

#endif
