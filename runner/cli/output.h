/* output.h - where a run's results go: the report file and the expectations file, both created before the run and written atomically after it. */
#ifndef BR_OUTPUT_H
#define BR_OUTPUT_H

#include "case/caseio.h"
#include "cli/options.h"
#include "results/report.h"
#include "base/util.h"

typedef struct br_outputs {
    br_outfile out, wexp;
    int has_out, has_wexp;
} br_outputs;

/* Creates FILE.tmp for --output and --write-expectations now, so that an
 * unwritable path fails before any case runs. 0, or -1 after saying why. */
int br_outputs_open(br_outputs *o, const br_opts *opt);

/* Writes the report (in --format) to --output or stdout, the text report to
 * stdout when --output took another format, the expectations file, and the
 * closing totals line last. 0, or 2 when a file could not be written. */
int br_outputs_emit(br_outputs *o, br_report *rep, const br_opts *opt, const br_caseset *cs);

/* Removes the temporary files of outputs not written (an error before the end). */
void br_outputs_abort(br_outputs *o);

#endif
