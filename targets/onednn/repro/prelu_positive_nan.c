/* prelu_positive_nan.c - oneDNN's PReLU turns a positive src into NaN when its weight is inf or NaN.
 *
 * Stand-alone reproduction (no bcast) of the PReLU family in
 * targets/onednn/FINDINGS.md. dev_guide_prelu defines
 *     dst = src             if src > 0
 *     dst = src * weights   if src <= 0
 * so a positive src is returned whatever its weight. oneDNN 2.6.3's CPU
 * kernel gives NaN for src = 1 (and 0) with a weight of inf, -inf or NaN,
 * as max(0, src) + weights * min(0, src) would (inf * 0 = NaN). ONNX's
 * PRelu (x < 0 ? slope * x : x, np.where(x < 0, x * slope, x)) gives 1.
 * At a zero src the documented formula itself differs from ONNX (it
 * multiplies, ONNX returns x): 0 * inf is NaN, -0 * -1 is +0 (design).
 * src is (4,3), rows of 1, 0, -0, -2; weights (1,3) [inf, nan, -1]
 * broadcast over the rows (dev_guide_prelu's "shared axes").
 *
 * Build and run:
 *   cc -std=c11 -Wall -o /tmp/prelu_positive_nan targets/onednn/repro/prelu_positive_nan.c -ldnnl && /tmp/prelu_positive_nan
 * Exit 0 and "reproduced" when some dst differs from the documented formula. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>

#define CHECK(call)                                                         \
    do {                                                                    \
        dnnl_status_t s_ = (call);                                          \
        if (s_ != dnnl_success) {                                           \
            printf("%s: status %d\n", #call, (int)s_);                      \
            return 2;                                                       \
        }                                                                   \
    } while (0)

/* The documented formula's value of one element, for comparison. */
static float documented(float src, float w)
{
    return src > 0 ? src : src * w;
}

/* ONNX's PRelu of one element. */
static float onnx(float src, float w)
{
    return src < 0 ? src * w : src;
}

/* Same float, NaN equal to NaN and -0 told from +0? */
static int same(float a, float b)
{
    return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

int main(void)
{
    float src[12] = {1, 1, 1, 0, 0, 0, -0.0f, -0.0f, -0.0f, -2, -2, -2};
    float w[3] = {INFINITY, NAN, -1}, dst[12];
    dnnl_dims_t ds = {4, 3}, dw = {1, 3};
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    dnnl_memory_desc_t ms, mw;
    dnnl_prelu_desc_t pd;
    dnnl_primitive_desc_t ppd;
    dnnl_primitive_t prim;
    dnnl_memory_t m_src, m_w, m_dst;
    CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0));
    CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
    CHECK(dnnl_memory_desc_init_by_tag(&ms, 2, ds, dnnl_f32, dnnl_ab));
    CHECK(dnnl_memory_desc_init_by_tag(&mw, 2, dw, dnnl_f32, dnnl_ab));
    CHECK(dnnl_prelu_forward_desc_init(&pd, dnnl_forward_inference, &ms, &mw));
    CHECK(dnnl_primitive_desc_create(&ppd, &pd, NULL, engine, NULL));
    CHECK(dnnl_primitive_create(&prim, ppd));
    CHECK(dnnl_memory_create(&m_src, &ms, engine, src));
    CHECK(dnnl_memory_create(&m_w, &mw, engine, w));
    CHECK(dnnl_memory_create(&m_dst, &ms, engine, dst));
    dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, m_src}, {DNNL_ARG_WEIGHTS, m_w}, {DNNL_ARG_DST, m_dst}};
    CHECK(dnnl_primitive_execute(prim, stream, 3, args));
    CHECK(dnnl_stream_wait(stream));
    int differ = 0;
    for (int i = 0; i < 12; i++) {
        float doc = documented(src[i], w[i % 3]), ref = onnx(src[i], w[i % 3]);
        printf("src %2g  weight %4g  oneDNN %4g  documented %4g  ONNX %4g%s\n", src[i], w[i % 3],
               dst[i], doc, ref, same(doc, dst[i]) ? "" : "   <- not the documented value");
        differ += !same(doc, dst[i]);
    }
    dnnl_memory_destroy(m_src);
    dnnl_memory_destroy(m_w);
    dnnl_memory_destroy(m_dst);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(ppd);
    dnnl_stream_destroy(stream);
    dnnl_engine_destroy(engine);
    printf("%s: %d of 12 elements differ from dev_guide_prelu's formula\n",
           differ ? "reproduced" : "not reproduced", differ);
    return differ ? 0 : 1;
}
