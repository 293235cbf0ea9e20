/* sum_bench.c - times ref's sum-to-shape (bc_sum_to_shape, grad mode's reduction, B23) on large reductions, or, with --rss, one reduction's peak RSS in a fresh process.
 *
 *   sum_bench [--runs N]      timing lines (TSV, below)
 *   sum_bench --rss NAME      one "sumrss" line
 *   sum_bench --list          the reduction names
 *
 * Output lines (tab-separated), read by bench/report.py:
 *   sum     NAME  MEDIAN_NS  IN_BYTES  OUT_BYTES  RUNS
 *   sumrss  NAME  MAXRSS_KIB  IN_BYTES  OUT_BYTES
 * The incoming gradient is filled with bench/numpy_sum_bench.py's formula,
 * and each timed call zeroes the (small) sum first: bc_sum_to_shape adds
 * into its output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bcast_ref.h"

/* One reduction: g of shape `in` summed to `out` (same rank, or () for all). */
typedef struct sspec {
    const char *name;
    int dtype, rank, out_rank;
    int64_t in[3], out[3];
} sspec;

/* Keep the names in step with CASES in bench/numpy_sum_bench.py. */
static const sspec SUMS[] = {
    { "sum_f32_4096x4096->4096x1", BCT_F32, 2, 2, { 4096, 4096 }, { 4096, 1 } },
    { "sum_f32_4096x4096->1x4096", BCT_F32, 2, 2, { 4096, 4096 }, { 1, 4096 } },
    { "sum_f32_4096x4096->()", BCT_F32, 2, 0, { 4096, 4096 }, { 0 } },
    { "sum_f32_64x128x256->64x1x256", BCT_F32, 3, 3, { 64, 128, 256 }, { 64, 1, 256 } },
    { "sum_f32_64x128x256->1x128x1", BCT_F32, 3, 3, { 64, 128, 256 }, { 1, 128, 1 } },
    { "sum_f64_4096x4096->4096x1", BCT_F64, 2, 2, { 4096, 4096 }, { 4096, 1 } },
};
#define NSUMS ((int)(sizeof SUMS / sizeof SUMS[0]))

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n > 0 ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "sum_bench: out of memory allocating %zu bytes\n", n);
        exit(2);
    }
    return p;
}

/* A prepared reduction: g filled ((i*7 + 3) mod 101 - 50) / 8, exact in f32,
 * and the views bc_sum_to_shape takes. */
typedef struct prepared {
    bct_array g, out;
    int64_t gst[3], ost[3];
    void *gdata, *odata;
    size_t in_bytes, out_bytes;
} prepared;

static void prepare(const sspec *s, prepared *p)
{
    int64_t n = 1, m = 1;
    int z = bc_dtype_size(s->dtype);
    for (int d = s->rank - 1; d >= 0; d--) { p->gst[d] = n; n *= s->in[d]; }
    for (int d = s->out_rank - 1; d >= 0; d--) { p->ost[d] = m; m *= s->out[d]; }
    p->in_bytes = (size_t)n * (size_t)z;
    p->out_bytes = (size_t)m * (size_t)z;
    p->gdata = xmalloc(p->in_bytes);
    p->odata = xmalloc(p->out_bytes);
    for (int64_t i = 0; i < n; i++) {
        double v = (double)((i * 7 + 3) % 101 - 50) / 8.0;
        if (s->dtype == BCT_F32) ((float *)p->gdata)[i] = (float)v;
        else ((double *)p->gdata)[i] = v;
    }
    memset(p->odata, 0, p->out_bytes);
    p->g = (bct_array){ s->dtype, s->rank, s->in, p->gst, 0, p->gdata };
    p->out = (bct_array){ s->dtype, s->out_rank, s->out, p->ost, 0, p->odata };
}

static void sum_or_die(const sspec *s, prepared *p)
{
    bc_error err;
    memset(p->odata, 0, p->out_bytes);
    if (bc_sum_to_shape(&p->g, &p->out, &err) != BCT_OK) {
        fprintf(stderr, "sum_bench: %s: %s\n", s->name, err.message);
        exit(1);
    }
}

/* One warm-up call, then `runs` timed calls; prints the median. */
static void time_sum(const sspec *s, int runs)
{
    prepared p;
    double *t = xmalloc((size_t)runs * sizeof *t);
    prepare(s, &p);
    sum_or_die(s, &p);
    for (int r = 0; r < runs; r++) {
        double t0 = now_ns();
        sum_or_die(s, &p);
        t[r] = now_ns() - t0;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    printf("sum\t%s\t%.0f\t%zu\t%zu\t%d\n", s->name, runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2,
           p.in_bytes, p.out_bytes, runs);
    fflush(stdout);
    free(p.gdata);
    free(p.odata);
    free(t);
}

/* --rss NAME: the peak RSS of a fresh child that fills g, sums it once and
 * exits (getrusage(RUSAGE_CHILDREN)); "none" measures the baseline. Nothing
 * at the broadcast's shape is allocated beyond g itself. */
static int rss_of(const char *name)
{
    const sspec *s = NULL;
    struct rusage ru;
    prepared p = { 0 };
    int status;
    if (strcmp(name, "none") != 0) {
        for (int i = 0; i < NSUMS; i++) if (strcmp(SUMS[i].name, name) == 0) s = &SUMS[i];
        if (s == NULL) { fprintf(stderr, "sum_bench: --rss: unknown reduction '%s'\n", name); return 2; }
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) { perror("sum_bench: fork"); return 1; }
    if (pid == 0) {
        if (s != NULL) { prepare(s, &p); sum_or_die(s, &p); }
        exit(0);
    }
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "sum_bench: --rss %s: the child failed\n", name);
        return 1;
    }
    getrusage(RUSAGE_CHILDREN, &ru);
    if (s != NULL) {
        int64_t n = 1, m = 1;
        for (int d = 0; d < s->rank; d++) n *= s->in[d];
        for (int d = 0; d < s->out_rank; d++) m *= s->out[d];
        p.in_bytes = (size_t)n * (size_t)bc_dtype_size(s->dtype);
        p.out_bytes = (size_t)m * (size_t)bc_dtype_size(s->dtype);
    }
    printf("sumrss\t%s\t%ld\t%zu\t%zu\n", name, ru.ru_maxrss, p.in_bytes, p.out_bytes);
    return 0;
}

int main(int argc, char **argv)
{
    int runs = 7;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            for (int k = 0; k < NSUMS; k++) puts(SUMS[k].name);
            return 0;
        } else if (strcmp(argv[i], "--rss") == 0 && i + 1 < argc) {
            return rss_of(argv[i + 1]);
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: sum_bench [--runs N] | --rss NAME | --list\n");
            return 2;
        }
    }
    if (runs < 1) runs = 1;
    for (int k = 0; k < NSUMS; k++) time_sum(&SUMS[k], runs);
    return 0;
}
