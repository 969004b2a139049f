// User kernels in either dialect on both vendors (RawKernel, RawModule and
// ElementwiseKernel sources get this after platform.h; garray's own kernels use the
// portable GA_* macros instead).
//
// Note [Warp intrinsics across dialects]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// 1. CUDA spells warp operations with a lane mask (__shfl_down_sync, __ballot_sync,
//    __any_sync, __all_sync, __syncwarp); HIP 5.x has only the mask-less forms, and newer
//    ROCm gates the _sync forms behind a macro.  On AMD the _sync names map to garray's
//    functions over the mask-less builtins: shuffles ignore the mask (a wavefront runs in
//    lock-step), votes honour it (0xffffffff meaning the whole wavefront), ballots are
//    64-bit at warp size 64.
// 2. NVIDIA removed the mask-less forms for sm_70 and later; on NVIDIA they map to the
//    _sync forms over the full warp.
// 3. The mapping is by macro, so it wins over whatever the vendor headers declare.
#pragma once
#include "platform.h"

#if defined(GA_PLATFORM_AMD)
namespace ga_dialect {
template <class T> __device__ inline T shfl_sync(unsigned long long, T v, int l, int w = GA_WARP_SIZE) { return __shfl(v, l, w); }
template <class T> __device__ inline T shfl_up_sync(unsigned long long, T v, unsigned d, int w = GA_WARP_SIZE) { return __shfl_up(v, d, w); }
template <class T> __device__ inline T shfl_down_sync(unsigned long long, T v, unsigned d, int w = GA_WARP_SIZE) { return __shfl_down(v, d, w); }
template <class T> __device__ inline T shfl_xor_sync(unsigned long long, T v, int m, int w = GA_WARP_SIZE) { return __shfl_xor(v, m, w); }
// CUDA code's full mask 0xffffffff means the whole wavefront, also at 64 lanes.
__device__ inline unsigned long long lanes(unsigned long long m) { return (GA_WARP_SIZE == 64 && m == 0xffffffffull) ? ~0ull : m; }
__device__ inline unsigned long long ballot_sync(unsigned long long mask, int p) { return (unsigned long long)__ballot(p) & lanes(mask); }
__device__ inline int any_sync(unsigned long long mask, int p) { return ((unsigned long long)__ballot(p) & lanes(mask)) != 0; }
__device__ inline int all_sync(unsigned long long mask, int p) { return ((unsigned long long)__ballot(!p) & lanes(mask)) == 0; }
__device__ inline void syncwarp(unsigned long long = 0) { __builtin_amdgcn_wave_barrier(); }
}  // namespace ga_dialect
#  define __shfl_sync(...) ga_dialect::shfl_sync(__VA_ARGS__)
#  define __shfl_up_sync(...) ga_dialect::shfl_up_sync(__VA_ARGS__)
#  define __shfl_down_sync(...) ga_dialect::shfl_down_sync(__VA_ARGS__)
#  define __shfl_xor_sync(...) ga_dialect::shfl_xor_sync(__VA_ARGS__)
#  define __ballot_sync(...) ga_dialect::ballot_sync(__VA_ARGS__)
#  define __any_sync(...) ga_dialect::any_sync(__VA_ARGS__)
#  define __all_sync(...) ga_dialect::all_sync(__VA_ARGS__)
#  define __syncwarp(...) ga_dialect::syncwarp(__VA_ARGS__)
#elif defined(GA_PLATFORM_NVIDIA)
namespace ga_dialect {
template <class T> __device__ inline T shfl(T v, int l, int w = GA_WARP_SIZE) { return __shfl_sync(0xffffffffu, v, l, w); }
template <class T> __device__ inline T shfl_up(T v, unsigned d, int w = GA_WARP_SIZE) { return __shfl_up_sync(0xffffffffu, v, d, w); }
template <class T> __device__ inline T shfl_down(T v, unsigned d, int w = GA_WARP_SIZE) { return __shfl_down_sync(0xffffffffu, v, d, w); }
template <class T> __device__ inline T shfl_xor(T v, int m, int w = GA_WARP_SIZE) { return __shfl_xor_sync(0xffffffffu, v, m, w); }
__device__ inline unsigned long long ballot(int p) { return __ballot_sync(0xffffffffu, p); }
__device__ inline int any(int p) { return __any_sync(0xffffffffu, p); }
__device__ inline int all(int p) { return __all_sync(0xffffffffu, p); }
}  // namespace ga_dialect
#  define __shfl(...) ga_dialect::shfl(__VA_ARGS__)
#  define __shfl_up(...) ga_dialect::shfl_up(__VA_ARGS__)
#  define __shfl_down(...) ga_dialect::shfl_down(__VA_ARGS__)
#  define __shfl_xor(...) ga_dialect::shfl_xor(__VA_ARGS__)
#  define __ballot(...) ga_dialect::ballot(__VA_ARGS__)
#  define __any(...) ga_dialect::any(__VA_ARGS__)
#  define __all(...) ga_dialect::all(__VA_ARGS__)
#endif
