// The vm/simd_impl.h loops compiled for sse2 (flags in vm/CMakeLists.txt).
#define PIR_SIMD_NAME sse2
#define PIR_SIMD_BYTES 16
#define PIR_SIMD_FMA 0
#include "vm/simd_impl.h"
