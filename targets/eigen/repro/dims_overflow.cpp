// dims_overflow.cpp - an Eigen Tensor whose element count overflows int64 is refused only by std::bad_alloc.
//
// Stand-alone check (no bcast) of the overflow family in targets/eigen/FINDINGS.md:
// constructing Tensor<float, 2> with dims whose product is >= 2^63 (NumPy: overflow,
// B16) or whose byte size is >= 2^63. Eigen has no overflow error of its own: it
// multiplies the extents in Index (int64, signed: a product past 2^63 is C++
// undefined behaviour: UBSan names CXX11Meta.h:297 for (2^63 - 1) * 2) and the
// allocation throws std::bad_alloc.
//
// Build and run (one command line):
//   c++ -std=c++17 -isystem /usr/include/eigen3 -o /tmp/eigen_dims targets/eigen/repro/dims_overflow.cpp
//       && /tmp/eigen_dims
#include <cstdint>
#include <cstdio>
#include <new>

#include <unsupported/Eigen/CXX11/Tensor>

// Constructs a (d0, d1) float tensor; prints what happened.
static void try_dims(Eigen::Index d0, Eigen::Index d1)
{
    std::printf("Tensor<float, 2>(%lld, %lld): ", (long long)d0, (long long)d1);
    try {
        Eigen::Tensor<float, 2> t(d0, d1);
        std::printf("constructed, size() = %lld\n", (long long)t.size());
    } catch (const std::bad_alloc &) {
        std::printf("std::bad_alloc\n");
    }
}

int main()
{
    try_dims(INT64_C(1152921504606846976), 2);      // 2^61 floats: 2^63 bytes
    try_dims(INT64_C(9223372036854775807), 2);      // 2^64 - 2 elements
    try_dims(INT64_C(2147483648), INT64_C(4294967296)); // 2^63 elements
    return 0;
}
