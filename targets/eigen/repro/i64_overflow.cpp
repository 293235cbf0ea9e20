// i64_overflow.cpp - Eigen's Tensor sum/difference/product of int64_t is C++ signed arithmetic: overflow is undefined behaviour.
//
// Stand-alone check (no bcast) of what `make sanitize`-style builds report on
// ops/{add,sub,mul}/i64/values: Eigen's scalar_sum_op, scalar_difference_op
// and scalar_product_op compute a + b, a - b, a * b in the element type, so
// INT64_MAX + 1 is signed overflow, undefined in C++ (on x86 without a
// sanitizer it wraps, which is NumPy's answer). NumPy wraps modulo 2^64.
//
// Build and run (one command line; UBSan reports the overflow inside Eigen's functors and aborts):
//   c++ -std=c++17 -isystem /usr/include/eigen3 -fsanitize=signed-integer-overflow
//       -fno-sanitize-recover=all -o /tmp/eigen_i64 targets/eigen/repro/i64_overflow.cpp && /tmp/eigen_i64
// Without -fsanitize it prints the wrapped values (what the bcast run sees).
#include <cstdint>
#include <cstdio>

#include <unsupported/Eigen/CXX11/Tensor>

int main()
{
    Eigen::Tensor<int64_t, 1> a(1), b(1);
    a(0) = INT64_MAX;
    b(0) = 1;
    Eigen::Tensor<int64_t, 1> sum = a + b;
    std::printf("INT64_MAX + 1 = %lld (NumPy: %lld)\n", (long long)sum(0), (long long)INT64_MIN);
    a(0) = INT64_MIN;
    Eigen::Tensor<int64_t, 1> diff = a - b;
    std::printf("INT64_MIN - 1 = %lld (NumPy: %lld)\n", (long long)diff(0), (long long)INT64_MAX);
    a(0) = INT64_MAX;
    b(0) = 2;
    Eigen::Tensor<int64_t, 1> prod = a * b;
    std::printf("INT64_MAX * 2 = %lld (NumPy: -2)\n", (long long)prod(0));
    return 0;
}
