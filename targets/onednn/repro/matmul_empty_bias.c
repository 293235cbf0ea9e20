/* matmul_empty_bias.c - oneDNN's matmul primitive dies with SIGFPE on an empty src (M = 0), with a bias or without.
 *
 * Stand-alone reproduction (no bcast) of the gemm_bias crash in
 * targets/onednn/FINDINGS.md: src (0,2) @ weights (2,3) + bias (1,3) into dst
 * (0,3). Every descriptor and the primitive are created without an error;
 * executing it raises SIGFPE (an integer division by zero in the library),
 * where NumPy's np.matmul(a, b) + c returns an empty (0,3) array. The same
 * matmul without a bias is run first, in a child process too: it dies the
 * same way (measured), so the crash is the matmul's, not the bias's. An
 * empty K ((2,0) @ (0,3) + bias (2,3)) computes the bias (bcast's case passes).
 *
 * Build and run:
 *   cc -std=c11 -Wall -o /tmp/matmul_empty_bias targets/onednn/repro/matmul_empty_bias.c -ldnnl && /tmp/matmul_empty_bias
 * Exit 0 and "reproduced" when the run with a bias died of SIGFPE. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <oneapi/dnnl/dnnl.h>

#define CHECK(call)                                                         \
    do {                                                                    \
        dnnl_status_t s_ = (call);                                          \
        if (s_ != dnnl_success) {                                           \
            printf("%s: status %d\n", #call, (int)s_);                      \
            exit(2);                                                        \
        }                                                                   \
    } while (0)

/* src (0,2) @ weights (2,3) [+ bias (1,3)] -> dst (0,3), executed. */
static void run(int with_bias)
{
    float a[1] = {0}, b[6] = {1, 2, 3, 4, 5, 6}, c[3] = {1, 2, 3}, d[1] = {0};
    dnnl_dims_t da = {0, 2}, db = {2, 3}, dc = {1, 3}, dd = {0, 3};
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    dnnl_memory_desc_t ma, mb, mc, md;
    dnnl_matmul_desc_t desc;
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t prim;
    dnnl_memory_t m[4];
    CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0));
    CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
    CHECK(dnnl_memory_desc_init_by_tag(&ma, 2, da, dnnl_f32, dnnl_ab));
    CHECK(dnnl_memory_desc_init_by_tag(&mb, 2, db, dnnl_f32, dnnl_ab));
    CHECK(dnnl_memory_desc_init_by_tag(&mc, 2, dc, dnnl_f32, dnnl_ab));
    CHECK(dnnl_memory_desc_init_by_tag(&md, 2, dd, dnnl_f32, dnnl_ab));
    CHECK(dnnl_matmul_desc_init(&desc, &ma, &mb, with_bias ? &mc : NULL, &md));
    CHECK(dnnl_primitive_desc_create(&pd, &desc, NULL, engine, NULL));
    CHECK(dnnl_primitive_create(&prim, pd));
    CHECK(dnnl_memory_create(&m[0], &ma, engine, a));
    CHECK(dnnl_memory_create(&m[1], &mb, engine, b));
    CHECK(dnnl_memory_create(&m[2], &mc, engine, c));
    CHECK(dnnl_memory_create(&m[3], &md, engine, d));
    dnnl_exec_arg_t args[4] = {{DNNL_ARG_SRC, m[0]}, {DNNL_ARG_WEIGHTS, m[1]}, {DNNL_ARG_DST, m[3]},
                               {DNNL_ARG_BIAS, m[2]}};
    printf("%s: descriptors and primitive created; executing\n", with_bias ? "with bias" : "without bias");
    fflush(stdout);
    CHECK(dnnl_primitive_execute(prim, stream, with_bias ? 4 : 3, args));
    CHECK(dnnl_stream_wait(stream));
    printf("%s: executed, no error (NumPy: an empty (0,3) result)\n", with_bias ? "with bias" : "without bias");
    exit(0);
}

/* Runs run(with_bias) in a child; returns the signal that ended it, or 0. */
static int in_child(int with_bias)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        run(with_bias);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        printf("%s: the process died of signal %d%s\n", with_bias ? "with bias" : "without bias",
               WTERMSIG(status), WTERMSIG(status) == SIGFPE ? " (SIGFPE)" : "");
        return WTERMSIG(status);
    }
    return 0;
}

int main(void)
{
    in_child(0);
    int sig = in_child(1);
    printf("%s\n", sig == SIGFPE ? "reproduced" : "not reproduced");
    return sig == SIGFPE ? 0 : 1;
}
