/* eigen_common.hpp - shared vocabulary of the Eigen Tensor adapter: types, dtypes, the adapter's own errors. */
#ifndef BCT_EIGEN_COMMON_HPP
#define BCT_EIGEN_COMMON_HPP

#include <unsupported/Eigen/CXX11/Tensor>

#include <cstdint>
#include <string>
#include <type_traits>

extern "C" {
#include "bcast_target.h"
}

namespace bct_eigen {

using Index = Eigen::Index;
template <int K> using Dims = Eigen::array<Index, K>;

/* Every map is RowMajor: bcast storage is C order. (Eigen's default is
 * ColMajor; RowMajor is the layout TensorFlow uses on NumPy-ordered data.) */
template <class T, int K> using Map = Eigen::TensorMap<Eigen::Tensor<T, K, Eigen::RowMajor>>;
template <class T, int K> using Owned = Eigen::Tensor<T, K, Eigen::RowMajor>;

/* An error the adapter itself reports: a calling-convention limit or a
 * dtype combination that does not compile in Eigen. Never a shape check. */
struct adapter_error {
    int status;
    std::string message;
};

/* bct dtype of a C++ type (static_assert keeps it total). */
template <class T> constexpr int dtype_of()
{
    static_assert(std::is_same<T, bool>::value || std::is_same<T, int8_t>::value ||
                      std::is_same<T, uint8_t>::value || std::is_same<T, int16_t>::value ||
                      std::is_same<T, int32_t>::value || std::is_same<T, int64_t>::value ||
                      std::is_same<T, float>::value || std::is_same<T, double>::value,
                  "not a bcast dtype");
    return std::is_same<T, bool>::value      ? BCT_BOOL
           : std::is_same<T, int8_t>::value  ? BCT_I8
           : std::is_same<T, uint8_t>::value ? BCT_U8
           : std::is_same<T, int16_t>::value ? BCT_I16
           : std::is_same<T, int32_t>::value ? BCT_I32
           : std::is_same<T, int64_t>::value ? BCT_I64
           : std::is_same<T, float>::value   ? BCT_F32
                                             : BCT_F64;
}

/* The C++ type name a user would write for a bct dtype (for messages). */
inline const char *cxx_name(int dt)
{
    static const char *const names[] = {"bool",    "int8_t",  "uint8_t", "int16_t",
                                        "int32_t", "int64_t", "float",   "double"};
    return dt >= 0 && dt < BCT_DTYPE_COUNT ? names[dt] : "?";
}

/* Calls f(T()) with T the C++ type of bct dtype dt (the runner only passes
 * declared dtypes, all eight). */
template <class F> int with_type(int dt, F &&f)
{
    switch (dt) {
    case BCT_BOOL: return f(bool());
    case BCT_I8: return f(int8_t());
    case BCT_U8: return f(uint8_t());
    case BCT_I16: return f(int16_t());
    case BCT_I32: return f(int32_t());
    case BCT_I64: return f(int64_t());
    case BCT_F32: return f(float());
    case BCT_F64: return f(double());
    default: break;
    }
    throw adapter_error{BCT_ERR_DTYPE, "not a bcast dtype"};
}

} // namespace bct_eigen

#endif
