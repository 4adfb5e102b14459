// The vm/simd_impl.h loops compiled for avx2 (flags in vm/CMakeLists.txt).
#define PIR_SIMD_NAME avx2
#define PIR_SIMD_BYTES 32
#define PIR_SIMD_FMA 1
#include "vm/simd_impl.h"
