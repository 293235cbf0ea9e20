/* output.c - writing a run's report and expectations file: created first, committed atomically last. */
#include "cli/output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/expect.h"

int br_outputs_open(br_outputs *o, const br_opts *opt)
{
    memset(o, 0, sizeof *o);
    o->out.fd = o->wexp.fd = -1;
    if (opt->output != NULL) {
        if (br_outfile_open(&o->out, opt->output) != 0) {
            fprintf(stderr, "bcast-run: cannot write --output %s: %s (checked before running any case)\n",
                    opt->output, strerror(errno));
            return -1;
        }
        o->has_out = 1;
    }
    if (opt->write_expectations != NULL) {
        if (br_outfile_open(&o->wexp, opt->write_expectations) != 0) {
            fprintf(stderr, "bcast-run: cannot write --write-expectations %s: %s (checked before running any case)\n",
                    opt->write_expectations, strerror(errno));
            br_outputs_abort(o);
            return -1;
        }
        o->has_wexp = 1;
    }
    return 0;
}

void br_outputs_abort(br_outputs *o)
{
    if (o->has_out) br_outfile_abort(&o->out);
    if (o->has_wexp) br_outfile_abort(&o->wexp);
    o->has_out = o->has_wexp = 0;
}

static int use_color(const br_opts *opt)
{
    const char *nc = getenv("NO_COLOR");
    return !opt->no_color && isatty(1) && (nc == NULL || nc[0] == '\0');
}

/* The expectations file: merged into the existing one when there is one. */
static int write_expectations(br_outputs *o, const br_report *rep, const br_opts *opt, const br_caseset *cs)
{
    size_t len;
    char *existing = access(opt->write_expectations, F_OK) == 0 ? br_read_file(opt->write_expectations, &len) : NULL;
    br_buf b = { 0 };
    br_expectations_render(existing, rep, cs, &b);
    free(existing);
    int rc = br_outfile_commit(&o->wexp, b.s ? b.s : "", b.len);
    o->has_wexp = 0;
    if (rc != 0) fprintf(stderr, "bcast-run: cannot write %s: %s\n", opt->write_expectations, strerror(errno));
    br_buf_free(&b);
    return rc ? 2 : 0;
}

int br_outputs_emit(br_outputs *o, br_report *rep, const br_opts *opt, const br_caseset *cs)
{
    br_buf doc = { 0 };
    int color = use_color(opt);
    switch (opt->format) {
    case BR_FMT_TAP: br_write_tap(rep, &doc); break;
    case BR_FMT_JUNIT: br_write_junit(rep, &doc); break;
    case BR_FMT_JSON: br_write_json(rep, &doc); break;
    default: br_write_text(rep, &doc, o->has_out ? 0 : color, opt->verbose); break;
    }
    br_buf_puts(&doc, "");
    int rc = 0;
    if (o->has_out) {
        if (br_outfile_commit(&o->out, doc.s, doc.len) != 0) {
            fprintf(stderr, "bcast-run: cannot write %s: %s\n", opt->output, strerror(errno));
            rc = 2;
        }
        o->has_out = 0;
        if (opt->format != BR_FMT_TEXT) {     /* the human report still goes to stdout */
            br_buf t = { 0 };
            br_write_text(rep, &t, color, opt->verbose);
            br_buf_puts(&t, "");
            fputs(t.s, stdout);
            br_buf_free(&t);
        }
    } else fputs(doc.s, stdout);
    br_buf_free(&doc);
    if (o->has_wexp && write_expectations(o, rep, opt, cs) != 0) rc = 2;
    br_totals t;
    br_report_totals(rep, &t);
    char line[512];
    br_totals_line(&t, line, sizeof line);
    printf("%s%s\n", line, rep->complete ? "" : " (incomplete: interrupted)");
    fflush(stdout);
    return rc;
}
