// dims_overflow.cpp - xtensor checks no element count: an overflowing broadcast throws std::bad_alloc, or, at exactly 2^64 elements, wraps to size 0 silently.
//
// Stand-alone check (no bcast) of the bad_alloc family in targets/xtensor/FINDINGS.md:
// xt::broadcast of a 1-element xarray to (2^63 - 1, 2) (NumPy: overflow, B16), then
// evaluated into an xarray, as the adapter does. xtensor checks no element count:
// the view is created, and the allocation of the result throws std::bad_alloc.
// An empty broadcast whose non-zero extents overflow, (0, 2^62) + (4,) shaped
// (0, 2^62, 4), is created without error (the overflow family). A broadcast of exactly
// 2^64 elements, (2^62, 4), wraps the element count to 0: it is evaluated into an
// xarray of that shape and size() 0, with no exception (the 12 silent wraps of the
// overflow-as-bad_alloc family).
//
// Build and run (one command line):
//   c++ -std=c++17 -o /tmp/xt_dims targets/xtensor/repro/dims_overflow.cpp && /tmp/xt_dims
#include <cstdint>
#include <cstdio>
#include <new>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xbroadcast.hpp>

int main()
{
    xt::xarray<float> one = {1.0f};
    std::vector<std::size_t> huge = {std::size_t(INT64_MAX), 2};
    int reproduced = 0;
    std::printf("xt::broadcast({1}, (2^63 - 1, 2)) evaluated into an xarray: ");
    try {
        auto view = xt::broadcast(one, huge);
        xt::xarray<float> r = view;
        std::printf("evaluated, size %zu\n", r.size());
    } catch (const std::bad_alloc &) {
        std::printf("std::bad_alloc\n");
        reproduced++;
    }
    xt::xarray<float> a = xt::xarray<float>::from_shape({0, std::size_t(1) << 62, 1});
    xt::xarray<float> b = xt::xarray<float>::from_shape({1, 1, 4});
    xt::xarray<float> sum = a + b;
    std::printf("(0, 2^62, 1) + (1, 1, 4): shape (%zu, %zu, %zu), no error\n", sum.shape()[0], sum.shape()[1],
                sum.shape()[2]);
    reproduced += sum.shape()[1] == std::size_t(1) << 62;
    std::vector<std::size_t> wraps = {std::size_t(1) << 62, 4};
    try {
        xt::xarray<float> w = xt::broadcast(one, wraps);
        std::printf("xt::broadcast({1}, (2^62, 4)) evaluated: shape (%zu, %zu), size %zu, no error\n",
                    w.shape()[0], w.shape()[1], w.size());
        reproduced += w.size() == 0 && w.shape()[0] == wraps[0];
    } catch (const std::bad_alloc &) {
        std::printf("xt::broadcast({1}, (2^62, 4)): std::bad_alloc\n");
    }
    std::printf(reproduced == 3 ? "reproduced\n" : "not reproduced\n");
    return reproduced == 3 ? 0 : 1;
}
