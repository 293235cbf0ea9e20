/* cmd_merge.c - `bcast-run merge`: shard results (JSON) combined into one result, its findings rebuilt over all of them. */
#include "cli/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/findings.h"
#include "cli/output.h"

static int cmp_rec(const void *a, const void *b)
{
    return strcmp(((const br_rec *)a)->id, ((const br_rec *)b)->id);
}

int br_cmd_merge(const br_opts *o)
{
    if (o->npaths == 0) return br_usage("%s", "merge needs at least one JSON file");
    br_report rep;
    memset(&rep, 0, sizeof rep);
    rep.complete = 1;
    br_outputs outs;
    if (br_outputs_open(&outs, o) != 0) return 2;
    for (size_t i = 0; i < o->npaths; i++) {
        char err[600];
        if (br_read_json(&rep, o->paths[i], err, sizeof err) != 0) {
            fprintf(stderr, "bcast-run: %s\n", err);
            br_outputs_abort(&outs);
            br_report_free(&rep);
            return 2;
        }
    }
    /* shards interleave; the merged result is in id order like a single run */
    if (rep.n > 1) qsort(rep.recs, rep.n, sizeof *rep.recs, cmp_rec);
    for (size_t i = 1; i < rep.n; i++)
        if (strcmp(rep.recs[i - 1].id, rep.recs[i].id) == 0) {
            fprintf(stderr, "bcast-run: case %s appears in more than one merged file\n", rep.recs[i].id);
            br_outputs_abort(&outs);
            br_report_free(&rep);
            return 2;
        }
    /* findings are rebuilt over the union: one family across shards */
    br_findings_build(&rep);
    br_report_reattach_shrunk(&rep);
    int erc = br_outputs_emit(&outs, &rep, o, NULL);
    br_totals t;
    br_report_totals(&rep, &t);
    int code = erc ? erc : br_report_exit(&t);
    if (!rep.complete && code == 0) code = 1;
    br_report_free(&rep);
    return code;
}
