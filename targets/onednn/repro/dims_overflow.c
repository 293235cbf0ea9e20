/* dims_overflow.c - oneDNN accepts a binary dst whose element count overflows int64, and its sizes wrap.
 *
 * Stand-alone reproduction (no bcast) of the overflow family in
 * targets/onednn/FINDINGS.md. src0 is (n,1) and src1 (1,m), both stride-0
 * views of one s8 element; dst is the dense (n,m) result. For n*m >= 2^63
 * NumPy raises "iterator is too large" / "array is too big" (B16). oneDNN
 * 2.6.3 creates every descriptor and the primitive without an error, and
 * dnnl_memory_desc_get_size reports the byte count modulo 2^64: (2^62, 4)
 * is 4 bytes, and (2^62 + 1, 4) is 4 bytes too, into which execution writes
 * 4 elements and reports success, a "result" of 4 elements for 2^64 + 4.
 *
 * Build and run:
 *   cc -std=c11 -Wall -o /tmp/dims_overflow targets/onednn/repro/dims_overflow.c -ldnnl && /tmp/dims_overflow
 * Exit 0 and "reproduced" when every overflowing dst was accepted. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>

static dnnl_engine_t engine;
static dnnl_stream_t stream;

/* Describes, creates and (when its size fits a 4 KiB buffer) executes
 * s8 (n,1) + (1,m) -> dense (n,m); prints what oneDNN said. Returns 1 when
 * every step succeeded. */
static int try_dims(int64_t n, int64_t m)
{
    dnnl_dims_t d0 = {n, 1}, s0 = {0, 0}, d1 = {1, m}, s1 = {0, 0}, dd = {n, m};
    dnnl_memory_desc_t m0, m1, md;
    dnnl_binary_desc_t bd;
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t prim;
    int8_t a = 3, b = 4;
    static int8_t buf[4096];

    printf("dst (%lld, %lld) s8: ", (long long)n, (long long)m);
    if (dnnl_memory_desc_init_by_strides(&m0, 2, d0, dnnl_s8, s0) != dnnl_success ||
        dnnl_memory_desc_init_by_strides(&m1, 2, d1, dnnl_s8, s1) != dnnl_success ||
        dnnl_memory_desc_init_by_tag(&md, 2, dd, dnnl_s8, dnnl_ab) != dnnl_success) {
        printf("a memory descriptor was refused\n");
        return 0;
    }
    size_t size = dnnl_memory_desc_get_size(&md);
    printf("descriptors accepted, dnnl_memory_desc_get_size = %zu bytes; ", size);
    if (dnnl_binary_desc_init(&bd, dnnl_binary_add, &m0, &m1, &md) != dnnl_success ||
        dnnl_primitive_desc_create(&pd, &bd, NULL, engine, NULL) != dnnl_success ||
        dnnl_primitive_create(&prim, pd) != dnnl_success) {
        printf("the primitive was refused\n");
        return 0;
    }
    printf("primitive created");
    if (size <= sizeof buf) {
        dnnl_memory_t x, y, z;
        memset(buf, 0x55, sizeof buf);
        dnnl_memory_create(&x, &m0, engine, &a);
        dnnl_memory_create(&y, &m1, engine, &b);
        dnnl_memory_create(&z, &md, engine, buf);
        dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC_0, x}, {DNNL_ARG_SRC_1, y}, {DNNL_ARG_DST, z}};
        dnnl_status_t s = dnnl_primitive_execute(prim, stream, 3, args);
        dnnl_stream_wait(stream);
        size_t written = 0;
        for (size_t i = 0; i < sizeof buf; i++)
            if (buf[i] != 0x55)
                written = i + 1;
        printf("; executed: status %d, %zu bytes of dst written", (int)s, written);
        dnnl_memory_destroy(x);
        dnnl_memory_destroy(y);
        dnnl_memory_destroy(z);
    }
    printf("\n");
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    return 1;
}

int main(void)
{
    const dnnl_version_t *v = dnnl_version();
    int accepted = 0;
    if (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success ||
        dnnl_stream_create(&stream, engine, dnnl_stream_default_flags) != dnnl_success)
        return 2;
    printf("oneDNN %d.%d.%d; every dst below has >= 2^63 elements (NumPy: overflow error)\n",
           v->major, v->minor, v->patch);
    accepted += try_dims(INT64_C(4611686018427387904), 4);      /* 2^64 elements */
    accepted += try_dims(INT64_C(4611686018427387905), 4);      /* 2^64 + 4 */
    accepted += try_dims(INT64_C(9223372036854775807), 2);      /* 2^64 - 2 */
    accepted += try_dims(INT64_C(2147483648), INT64_C(4294967296)); /* 2^63 */
    printf(accepted == 4 ? "reproduced\n" : "not reproduced\n");
    dnnl_stream_destroy(stream);
    dnnl_engine_destroy(engine);
    return accepted == 4 ? 0 : 1;
}
