/* dims_overflow.c - XNNPACK's N-d add accepts input shapes whose broadcast output has >= 2^63 elements.
 *
 * Stand-alone reproduction (no bcast) of the overflow family in
 * targets/xnnpack/FINDINGS.md. xnn_setup_add_nd_f32 validates the two input
 * shapes; it is given (2^60, 1) + (1, 2), an output of 2^61 floats = 2^63
 * bytes, and (0, 2^60, 1) + (1, 1, 4), an empty output whose non-zero
 * extents multiply to 2^62 (NumPy checks the product of the non-zero extents
 * too). NumPy raises "array is too big" / overflow for both (B16). Setup only
 * stores the data pointers and reads no data, so tiny buffers are passed;
 * the empty case is also run (it has no element to read or write).
 *
 * Build and run:
 *   cc -std=c11 -Wall -o /tmp/xnn_overflow targets/xnnpack/repro/dims_overflow.c -lXNNPACK -lpthreadpool -lm && /tmp/xnn_overflow
 * Exit 0 and "reproduced" when XNNPACK accepted both. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <xnnpack.h>

/* Sets up (and, when run is 1, runs) add_nd_f32 on shapes a and b; prints the
 * statuses; returns 1 when every call succeeded. */
static int try_shapes(size_t na, const size_t *a, size_t nb, const size_t *b, int run)
{
    static float buf[16];
    xnn_operator_t op = NULL;
    enum xnn_status s = xnn_create_add_nd_f32(-INFINITY, INFINITY, 0, &op);
    if (s != xnn_status_success)
        return 0;
    s = xnn_setup_add_nd_f32(op, na, a, nb, b, buf, buf, buf, NULL);
    printf("setup: status %d", (int)s);
    int ok = s == xnn_status_success;
    if (ok && run) {
        s = xnn_run_operator(op, NULL);
        printf(", run: status %d", (int)s);
        ok = s == xnn_status_success;
    }
    printf("\n");
    xnn_delete_operator(op);
    return ok;
}

int main(void)
{
    const size_t a1[] = {(size_t)1 << 60, 1}, b1[] = {1, 2};
    const size_t a2[] = {0, (size_t)1 << 60, 1}, b2[] = {1, 1, 4};
    int accepted = 0;
    if (xnn_initialize(NULL) != xnn_status_success)
        return 2;
    printf("(2^60, 1) + (1, 2), output 2^63 bytes of f32: ");
    accepted += try_shapes(2, a1, 2, b1, 0);
    printf("(0, 2^60, 1) + (1, 1, 4), non-zero extents 2^62: ");
    accepted += try_shapes(3, a2, 3, b2, 1);
    printf(accepted == 2 ? "reproduced\n" : "not reproduced\n");
    return accepted == 2 ? 0 : 1;
}
