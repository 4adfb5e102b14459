// The vm/simd_impl.h loops compiled for avx512 (flags in vm/CMakeLists.txt).
#define PIR_SIMD_NAME avx512
#define PIR_SIMD_BYTES 64
#define PIR_SIMD_FMA 1
#include "vm/simd_impl.h"
