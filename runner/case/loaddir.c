/* loaddir.c - a directory of case files read on two threads: loading was half of a run against ref, and serial. */
#include "case/loaddir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <threads.h>

/* One run of files, loaded into its own case set. */
typedef struct run_job {
    br_caseset set;
    char **names;
    size_t from, to;
    br_err err;
    int rc;
} run_job;

static int load_run(void *arg)
{
    run_job *j = arg;
    j->rc = 0;
    for (size_t i = j->from; i < j->to && j->rc == 0; i++) j->rc = br_load_path(&j->set, j->names[i], &j->err);
    return 0;
}

/* The first file of the second run: where the files' bytes are split most
 * evenly (at least one file on each side; n >= 2). */
static size_t split_point(char **names, size_t n)
{
    off_t *sz = calloc(n, sizeof *sz), total = 0, before = 0;
    size_t best = n / 2;
    if (sz == NULL) return best;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        sz[i] = stat(names[i], &st) == 0 ? st.st_size : 0;
        total += sz[i];
    }
    off_t best_gap = -1;
    for (size_t k = 1; k < n; k++) {
        before += sz[k - 1];
        off_t gap = before * 2 > total ? before * 2 - total : total - before * 2;
        if (best_gap < 0 || gap < best_gap) { best_gap = gap; best = k; }
    }
    free(sz);
    return best;
}

/* Loads names[0..k) into cs here and names[k..n) on a thread (here too when
 * no thread can be started), then appends the second set. 0 or -1 with err. */
static int load_split(br_caseset *cs, char **names, size_t n, br_err *err)
{
    run_job *j = calloc(1, sizeof *j);
    if (j == NULL) { snprintf(err->msg, sizeof err->msg, "out of memory"); return -1; }
    size_t k = split_point(names, n);
    *j = (run_job){ .names = names, .from = k, .to = n };
    thrd_t t;
    int threaded = thrd_create(&t, load_run, j) == thrd_success;
    int rc = 0;
    for (size_t i = 0; i < k && rc == 0; i++) rc = br_load_path(cs, names[i], err);
    if (threaded) thrd_join(t, NULL);
    else if (rc == 0) load_run(j);
    if (rc == 0 && j->rc != 0) { *err = j->err; rc = -1; }
    if (rc == 0 && br_caseset_append(cs, &j->set) != 0) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        rc = -1;
    }
    br_caseset_free(&j->set);
    free(j);
    return rc;
}

int br_load_path_parallel(br_caseset *cs, const char *path, br_err *err)
{
    char **names = NULL;
    size_t n = 0;
    int rc = br_case_files(path, &names, &n, err);
    if (rc < 0) return -1;
    if (rc > 0) return br_load_path(cs, path, err);
    if (n < 2 || cs->live > 0) {
        for (size_t i = 0; i < n && rc == 0; i++) rc = br_load_path(cs, names[i], err);
    } else rc = load_split(cs, names, n, err);
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    return rc;
}
