// cxx_mangled.cpp - test target: a C++ adapter that defines its entry point without the header's extern "C", so it exports the mangled _Z15bcast_target_v1v; the runner must say so.
#include <cstdint>

namespace {
struct descriptor { int abi_version; };
const descriptor d = { 1 };
}

const void *bcast_target_v1(void);
const void *bcast_target_v1(void) { return &d; }
