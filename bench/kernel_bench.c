/* kernel_bench.c - times ref's kernels (bc_eval) on large broadcasts, a plain
 * memcpy of the same output size, and an output-size sweep; or, with --rss,
 * runs one broadcast in this fresh process and reports its peak RSS.
 *
 *   kernel_bench [--runs N] [--min-k K] [--max-k K]   timing lines (TSV, below)
 *   kernel_bench --only NAME [--runs N]               one broadcast's timing only
 *   kernel_bench --rss NAME                           one "rss" line
 *   kernel_bench --list                               the case names
 *
 * Output lines (tab-separated), read by bench/report.py:
 *   kernel  NAME  MEDIAN_NS  OUT_BYTES  IN_BYTES  RUNS
 *   memcpy  BYTES  MEDIAN_NS  RUNS
 *   scale   K  ELEMENTS  MEDIAN_NS  RUNS
 *   rss     NAME  MAXRSS_KIB  IN_BYTES  OUT_BYTES
 * Inputs are filled with the formula bench/numpy_bench.py uses, so NumPy and
 * ref see the same data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bcast_ref.h"

#define MAXARG 3

/* One operand: its dtype, shape and strides (elements) over a storage of
 * `storage` elements. */
typedef struct spec_arg {
    int dtype, rank;
    int64_t shape[3], strides[3];
    int64_t storage;
} spec_arg;

/* One benchmark broadcast, in the same terms as the case format. */
typedef struct spec {
    const char *name;
    int op, mode, nargs;
    spec_arg arg[MAXARG];
    int out_dtype, out_rank;
    int64_t out_shape[3];
} spec;

/* The broadcasts of bench.md's "Reference kernel speed" table. Keep the names
 * and the layouts in step with CASES in bench/numpy_bench.py. */
static const spec SPECS[] = {
    { "add_f32_4096x1+1x4096", BCT_ADD, BCT_MODE_VALUE, 2,
      { { BCT_F32, 2, { 4096, 1 }, { 1, 1 }, 4096 },
        { BCT_F32, 2, { 1, 4096 }, { 4096, 1 }, 4096 } },
      BCT_F32, 2, { 4096, 4096 } },
    { "add_f32_64x1x256+1x128x256", BCT_ADD, BCT_MODE_VALUE, 2,
      { { BCT_F32, 3, { 64, 1, 256 }, { 256, 256, 1 }, 64 * 256 },
        { BCT_F32, 3, { 1, 128, 256 }, { 128 * 256, 256, 1 }, 128 * 256 } },
      BCT_F32, 3, { 64, 128, 256 } },
    { "where_b4096x1_f1x4096_f0", BCT_WHERE, BCT_MODE_VALUE, 3,
      { { BCT_BOOL, 2, { 4096, 1 }, { 1, 1 }, 4096 },
        { BCT_F32, 2, { 1, 4096 }, { 4096, 1 }, 4096 },
        { BCT_F32, 0, { 0 }, { 0 }, 1 } },
      BCT_F32, 2, { 4096, 4096 } },
    /* x is a C-order (4096,4096) storage viewed transposed: strides (1,4096). */
    { "add_f32_T4096x4096+4096", BCT_ADD, BCT_MODE_VALUE, 2,
      { { BCT_F32, 2, { 4096, 4096 }, { 1, 4096 }, 4096 * 4096 },
        { BCT_F32, 1, { 4096 }, { 1 }, 4096 } },
      BCT_F32, 2, { 4096, 4096 } },
    /* self += row: the output is self, so OUT_BYTES counts self once. */
    { "iadd_f32_4096x4096+=4096", BCT_ADD, BCT_MODE_INPLACE, 2,
      { { BCT_F32, 2, { 4096, 4096 }, { 4096, 1 }, 4096 * 4096 },
        { BCT_F32, 1, { 4096 }, { 1 }, 4096 } },
      BCT_F32, 2, { 4096, 4096 } },
    { "mul_i64_4096x1*1x4096", BCT_MUL, BCT_MODE_VALUE, 2,
      { { BCT_I64, 2, { 4096, 1 }, { 1, 1 }, 4096 },
        { BCT_I64, 2, { 1, 4096 }, { 4096, 1 }, 4096 } },
      BCT_I64, 2, { 4096, 4096 } },
};
#define NSPECS ((int)(sizeof SPECS / sizeof SPECS[0]))

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

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Element i of every input storage: ((i*7 + 3) mod 101) - 50, divided by 8
 * for floats (exact in f32), != 0 for bool. numpy_bench.py's fill() is the
 * same formula. */
static void fill(void *data, int dtype, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t v = (i * 7 + 3) % 101 - 50;
        switch (dtype) {
        case BCT_BOOL: ((uint8_t *)data)[i] = (uint8_t)(v != 0); break;
        case BCT_I64: ((int64_t *)data)[i] = v; break;
        case BCT_F32: ((float *)data)[i] = (float)v / 8.0f; break;
        default: ((double *)data)[i] = (double)v / 8.0; break;
        }
    }
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n > 0 ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "kernel_bench: out of memory allocating %zu bytes\n", n);
        exit(2);
    }
    return p;
}

/* The output buffer handed out by alloc_output: allocated and touched once by
 * the caller, like NumPy's out=, so the timing is the kernel's alone. */
typedef struct outbuf {
    void *data;
    size_t bytes;
} outbuf;

static void *give_output(void *ctx, int dtype, int rank, const int64_t *shape)
{
    outbuf *o = ctx;
    size_t need = (size_t)bc_dtype_size(dtype);
    for (int i = 0; i < rank; i++) need *= (size_t)shape[i];
    return need <= o->bytes ? o->data : NULL;
}

/* A prepared broadcast: storages filled, call ready for bc_eval. */
typedef struct prepared {
    bct_array args[MAXARG];
    void *store[MAXARG];
    outbuf out;
    bct_call call;
    char message[512];
    size_t in_bytes;
} prepared;

static void prepare(const spec *s, prepared *p)
{
    size_t out_elems = 1;
    memset(p, 0, sizeof *p);
    for (int k = 0; k < s->nargs; k++) {
        const spec_arg *a = &s->arg[k];
        size_t bytes = (size_t)a->storage * (size_t)bc_dtype_size(a->dtype);
        p->store[k] = xmalloc(bytes);
        fill(p->store[k], a->dtype, a->storage);
        p->in_bytes += bytes;
        p->args[k] = (bct_array){ a->dtype, a->rank, a->shape, a->strides, 0, p->store[k] };
    }
    for (int i = 0; i < s->out_rank; i++) out_elems *= (size_t)s->out_shape[i];
    p->out.bytes = out_elems * (size_t)bc_dtype_size(s->out_dtype);
    if (s->mode == BCT_MODE_VALUE) {
        p->out.data = xmalloc(p->out.bytes);
        memset(p->out.data, 0, p->out.bytes);
    }
    p->call = (bct_call){ s->op, s->mode, BCT_PROFILE_NUMPY, s->nargs, p->args, 0, 0, NULL,
                          give_output, &p->out, p->message, sizeof p->message, NULL, 0, BCT_GRAD_VALUE };
}

static void release(prepared *p, int nargs)
{
    for (int k = 0; k < nargs; k++) free(p->store[k]);
    free(p->out.data);
}

static void eval_or_die(const char *name, const bct_call *call)
{
    bc_error err;
    if (bc_eval(call, &err) != BCT_OK) {
        fprintf(stderr, "kernel_bench: %s: bc_eval failed: %s\n", name, err.message);
        exit(1);
    }
}

/* One warm-up run, then `runs` timed runs; prints the median. */
static void time_spec(const spec *s, int runs)
{
    prepared p;
    double *t = xmalloc((size_t)runs * sizeof *t);
    prepare(s, &p);
    eval_or_die(s->name, &p.call);
    for (int r = 0; r < runs; r++) {
        double t0 = now_ns();
        eval_or_die(s->name, &p.call);
        t[r] = now_ns() - t0;
    }
    printf("kernel\t%s\t%.0f\t%zu\t%zu\t%d\n", s->name, median(t, runs), p.out.bytes,
           p.in_bytes, runs);
    fflush(stdout);
    release(&p, s->nargs);
    free(t);
}

/* memcpy between two touched buffers of `bytes`: the machine's copy bandwidth
 * at the output size, as the yardstick for the kernels. */
static void time_memcpy(size_t bytes, int runs)
{
    char *a = xmalloc(bytes), *b = xmalloc(bytes);
    double *t = xmalloc((size_t)runs * sizeof *t);
    volatile char sink;
    memset(a, 1, bytes);
    memset(b, 2, bytes);
    memcpy(b, a, bytes);
    for (int r = 0; r < runs; r++) {
        double t0 = now_ns();
        memcpy(b, a, bytes);
        t[r] = now_ns() - t0;
        a[(size_t)r % bytes] = (char)r; /* keeps the copies from being merged */
    }
    sink = b[bytes / 2];
    (void)sink;
    printf("memcpy\t%zu\t%.0f\t%d\n", bytes, median(t, runs), runs);
    fflush(stdout);
    free(a);
    free(b);
    free(t);
}

/* (n,1)+(1,m) f32 with n*m = 2^k. Small sizes repeat the call until a run
 * lasts about 2 ms, so the clock's resolution does not dominate. */
static void time_scale(int k, int runs)
{
    spec s = { "scale", BCT_ADD, BCT_MODE_VALUE, 2, { { 0 } }, BCT_F32, 2, { 0 } };
    int64_t n = (int64_t)1 << (k / 2), m = (int64_t)1 << (k - k / 2);
    prepared p;
    double *t = xmalloc((size_t)runs * sizeof *t), t0, one;
    long reps = 1;
    s.arg[0] = (spec_arg){ BCT_F32, 2, { n, 1 }, { 1, 1 }, n };
    s.arg[1] = (spec_arg){ BCT_F32, 2, { 1, m }, { m, 1 }, m };
    s.out_shape[0] = n;
    s.out_shape[1] = m;
    prepare(&s, &p);
    t0 = now_ns();
    eval_or_die("scale", &p.call);
    one = now_ns() - t0;
    if (one < 2e6) reps = (long)(2e6 / (one > 1.0 ? one : 1.0)) + 1;
    for (int r = 0; r < runs; r++) {
        t0 = now_ns();
        for (long i = 0; i < reps; i++) eval_or_die("scale", &p.call);
        t[r] = (now_ns() - t0) / (double)reps;
    }
    printf("scale\t%d\t%lld\t%.1f\t%d\n", k, (long long)(n * m), median(t, runs), runs);
    fflush(stdout);
    release(&p, 2);
    free(t);
}

/* The broadcast's part of --rss, in the forked child: allocate and fill the
 * operands and the output, run the broadcast once, exit. */
static void rss_child(const spec *s)
{
    prepared p;
    if (s != NULL) {
        prepare(s, &p);
        eval_or_die(s->name, &p.call);
        release(&p, s->nargs);
    }
    exit(0);
}

/* --rss NAME: peak RSS of a fresh child process that runs one broadcast, read
 * with getrusage(RUSAGE_CHILDREN) once it has exited. The child is forked from
 * this small process rather than started by report.py, because a child's
 * ru_maxrss starts at its forking parent's RSS (a Python interpreter's would
 * swamp the small cases). NAME "none" measures the baseline. */
static int rss_of(const char *name)
{
    struct rusage ru;
    const spec *s = NULL;
    size_t in_bytes = 0, out_bytes = 0;
    pid_t pid;
    int status;
    if (strcmp(name, "none") != 0) {
        int i;
        for (i = 0; i < NSPECS && strcmp(SPECS[i].name, name) != 0; i++) {}
        if (i == NSPECS) {
            fprintf(stderr, "kernel_bench: --rss: unknown broadcast '%s' (see --list)\n", name);
            return 2;
        }
        s = &SPECS[i];
        for (int k = 0; k < s->nargs; k++)
            in_bytes += (size_t)s->arg[k].storage * (size_t)bc_dtype_size(s->arg[k].dtype);
        if (s->mode == BCT_MODE_VALUE) {
            out_bytes = (size_t)bc_dtype_size(s->out_dtype);
            for (int d = 0; d < s->out_rank; d++) out_bytes *= (size_t)s->out_shape[d];
        }
    }
    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        perror("kernel_bench: fork");
        return 1;
    }
    if (pid == 0) rss_child(s);
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "kernel_bench: --rss %s: the child process failed\n", name);
        return 1;
    }
    getrusage(RUSAGE_CHILDREN, &ru);
    printf("rss\t%s\t%ld\t%zu\t%zu\n", name, ru.ru_maxrss, in_bytes, out_bytes);
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: kernel_bench [--runs N] [--min-k K] [--max-k K] | --only NAME [--runs N] | --rss NAME | --list\n");
    return 2;
}

int main(int argc, char **argv)
{
    int runs = 7, min_k = 10, max_k = 26;
    const char *only = NULL;
    size_t sizes[NSPECS];
    int nsizes = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            for (int k = 0; k < NSPECS; k++) puts(SPECS[k].name);
            return 0;
        } else if (strcmp(argv[i], "--rss") == 0 && i + 1 < argc) {
            return rss_of(argv[i + 1]);
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--min-k") == 0 && i + 1 < argc) {
            min_k = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--max-k") == 0 && i + 1 < argc) {
            max_k = atoi(argv[++i]);
        } else {
            return usage();
        }
    }
    if (runs < 1 || min_k < 0 || max_k > 30 || min_k > max_k) {
        fprintf(stderr, "kernel_bench: need --runs >= 1 and 0 <= --min-k <= --max-k <= 30\n");
        return 2;
    }
    if (only != NULL) {
        for (int k = 0; k < NSPECS; k++)
            if (strcmp(SPECS[k].name, only) == 0) {
                time_spec(&SPECS[k], runs);
                return 0;
            }
        fprintf(stderr, "kernel_bench: --only: unknown broadcast '%s' (see --list)\n", only);
        return 2;
    }
    for (int k = 0; k < NSPECS; k++) {
        size_t bytes;
        int seen = 0;
        time_spec(&SPECS[k], runs);
        bytes = (size_t)bc_dtype_size(SPECS[k].out_dtype);
        for (int d = 0; d < SPECS[k].out_rank; d++) bytes *= (size_t)SPECS[k].out_shape[d];
        for (int j = 0; j < nsizes; j++) seen |= sizes[j] == bytes;
        if (!seen) sizes[nsizes++] = bytes;
    }
    for (int j = 0; j < nsizes; j++) time_memcpy(sizes[j], runs);
    for (int k = min_k; k <= max_k; k++) time_scale(k, runs);
    return 0;
}
