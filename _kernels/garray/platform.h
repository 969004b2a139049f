// garray platform header: every vendor difference lives here, so kernel files have no #ifdef.
//
// Note [Platforms]
// ~~~~~~~~~~~~~~~~
// One kernel source compiles three ways:
//   1. NVRTC (NVIDIA):  __CUDACC_RTC__ is defined; CUDA built-ins, *_sync warp ops.
//   2. hiprtc (AMD):    __HIPCC_RTC__ (hiprtc 5.2 does not define __HIP_PLATFORM_AMD__).
//   3. g++ (CPU device): GARRAY_HOST is defined; the host runtime in cpu_runtime.h
//      supplies threadIdx/blockIdx, __shared__, atomics and the launch loops.
// The warp size is never read from `warpSize` (not a compile-time constant on newer
// ROCm): the compile layer passes -DGA_WARP_SIZE=32|64 for the target device.
// Op kernels use only the GA_* names below and contain no #ifdef.
#pragma once

#ifndef GA_WARP_SIZE
#error "GA_WARP_SIZE must be defined by the compile layer (32 or 64)"
#endif

// GA_BYVAL(T): a large by-value kernel parameter (Strided<N>).  GPUs take kernel
// parameters by value; on the CPU a const reference avoids copying ~800 bytes per
// element in the launch loops.
// GA_VECTOR_LOADS: contiguous kernels move several elements per thread as one aligned
// vector on GPUs.  GA_CPU_LOOPS: on the CPU a thread walks a chunk of GA_CPU_CHUNK
// elements in counted loops the compiler vectorises (garray/loops.h, Note [CPU inner
// loops]).  A test build of the CPU device defines GA_CPU_VECTOR_LOADS=1 to run the GPU
// path here instead.
// GA_FORCE_INLINE: a device function the CPU build must inline too (g++ vectorises a
// loop only when its calls are inlined; GA_DEVICE is a plain `inline` there).
// GA_BLOCK_LINEAR(I): the block's index in the grid.  GPU launches past 2**31 threads
// use rows of gridDim.x blocks (blockIdx.y); the CPU device launches 1-d grids only.
// GA_LAUNCH_BLOCK: the block of every built-in launch on GPUs (the launch layer's _BLOCK,
// checked at import).  GA_GLOBAL declares it as the kernels' launch bound: without one,
// hiprtc compiles for 1024-thread workgroups and caps a kernel at 128 VGPRs, so kernels
// that need more spill to scratch although 256 threads would allow 512; NVRTC likewise
// budgets registers for the largest block.  A launch of more threads fails.
#define GA_LAUNCH_BLOCK 256

#if defined(GARRAY_HOST)
#  define GA_BLOCK_LINEAR(I) ((I)blockIdx.x)
#else
#  define GA_BLOCK_LINEAR(I) ((I)blockIdx.y * (I)gridDim.x + (I)blockIdx.x)
#endif

#if defined(GARRAY_HOST)
#  include "cpu_runtime.h"
#  if defined(GA_CPU_VECTOR_LOADS) && GA_CPU_VECTOR_LOADS
#    define GA_VECTOR_LOADS 1
#    define GA_CPU_LOOPS 0
#  else
#    define GA_VECTOR_LOADS 0
#    define GA_CPU_LOOPS 1
#  endif
#  define GA_BYVAL(T) const T&
#  define GA_DEVICE inline
#  define GA_FORCE_INLINE inline __attribute__((always_inline))
#  define GA_HOST_DEVICE inline
#  define GA_GLOBAL
#elif defined(__HIPCC_RTC__) || defined(__HIP_PLATFORM_AMD__) || defined(__HIP__)
#  define GA_PLATFORM_AMD 1
#  define GA_VECTOR_LOADS 1
#  define GA_BYVAL(T) T
#  define GA_DEVICE __device__ __forceinline__
#  define GA_FORCE_INLINE __device__ __forceinline__
#  define GA_HOST_DEVICE __host__ __device__ __forceinline__
#  define GA_GLOBAL __global__ __launch_bounds__(GA_LAUNCH_BLOCK)
#elif defined(__CUDACC_RTC__) || defined(__CUDACC__)
#  define GA_PLATFORM_NVIDIA 1
#  define GA_VECTOR_LOADS 1
#  define GA_BYVAL(T) T
#  define GA_DEVICE __device__ __forceinline__
#  define GA_FORCE_INLINE __device__ __forceinline__
#  define GA_HOST_DEVICE __host__ __device__ __forceinline__
#  define GA_GLOBAL __global__ __launch_bounds__(GA_LAUNCH_BLOCK)
#else
#  error "garray kernels compile with NVRTC, hiprtc or the CPU host runtime"
#endif

// GA_CPU_AVX512: the CPU device's build may call functions built for AVX-512F (the
// compiler layer sets it where /proc/cpuinfo has avx512f; only rng::blocks16 does).
#ifndef GA_CPU_AVX512
#  define GA_CPU_AVX512 0
#endif
#ifndef GA_CPU_LOOPS
#  define GA_CPU_LOOPS 0
#endif
// Elements per CPU thread in the elementwise skeletons (the launch layer's _CPU_CHUNK).
// Each emulated thread costs a TLS lookup, the loop's set-up and two loop exits: at 256
// elements that was a tenth of a one-thread float32 multiply of 2**22 elements (1.38 ms
// against NumPy's 1.2); at 2048 it is 1.2 ms.  2**16 elements are still 32 threads, so
// the launch pool's chunks stay balanced.
#define GA_CPU_CHUNK 2048

// Fixed-width integers: NVRTC and hiprtc have no <cstdint> by default.
namespace ga {
typedef signed char int8;
typedef short int16;
typedef int int32;
typedef long long int64;
typedef unsigned char uint8;
typedef unsigned short uint16;
typedef unsigned int uint32;
typedef unsigned long long uint64;
}  // namespace ga

// Bit casts and the high half of a 64x64-bit product, spelled per platform (the GPU
// compilers' intrinsics; g++ gets memcpy and __int128).
namespace ga {
#if defined(GARRAY_HOST)
inline double u64_as_double(uint64 v) { double d; __builtin_memcpy(&d, &v, 8); return d; }
inline uint64 double_as_u64(double d) { uint64 v; __builtin_memcpy(&v, &d, 8); return v; }
inline uint64 mulhi64(uint64 a, uint64 b) {
    return (uint64)(((unsigned __int128)a * b) >> 64);
}
#else
__device__ __forceinline__ double u64_as_double(uint64 v) { return __longlong_as_double((long long)v); }
__device__ __forceinline__ uint64 double_as_u64(double d) { return (uint64)__double_as_longlong(d); }
__device__ __forceinline__ uint64 mulhi64(uint64 a, uint64 b) { return __umul64hi(a, b); }
#endif
}  // namespace ga

// ga_store_repeatable(p, v): a store that other threads may repeat with the same value
// (the CPU's, in cpu_entries.h, is recorded as atomic by the sanitizer build).
#if !defined(GARRAY_HOST)
template <class T> __device__ __forceinline__ void ga_store_repeatable(T* p, T v) { *p = v; }
#endif

// Warp-level operations: lanes are GA_WARP_SIZE wide on every platform.
#if defined(GA_PLATFORM_NVIDIA)
#  define GA_SHFL_DOWN(v, d) __shfl_down_sync(0xffffffffu, (v), (d), GA_WARP_SIZE)
#  define GA_SHFL(v, l) __shfl_sync(0xffffffffu, (v), (l), GA_WARP_SIZE)
#  define GA_BALLOT(p) ((ga::uint64)__ballot_sync(0xffffffffu, (p)))
#  define GA_SYNCTHREADS() __syncthreads()
#  define GA_DYNAMIC_SHARED(type, name) extern __shared__ type name[]
#elif defined(GA_PLATFORM_AMD)
#  define GA_SHFL_DOWN(v, d) __shfl_down((v), (d), GA_WARP_SIZE)
#  define GA_SHFL(v, l) __shfl((v), (l), GA_WARP_SIZE)
#  define GA_BALLOT(p) ((ga::uint64)__ballot(p))
#  define GA_SYNCTHREADS() __syncthreads()
#  define GA_DYNAMIC_SHARED(type, name) extern __shared__ type name[]
#else   // CPU: provided by cpu_runtime.h
#  define GA_SHFL_DOWN(v, d) ga_host::shfl_down((v), (d), ~0ull, __LINE__)
#  define GA_SHFL(v, l) ga_host::shfl((v), (l), ~0ull, __LINE__)
#  define GA_BALLOT(p) ga_host::ballot((p), ~0ull, __LINE__)
#  define GA_SYNCTHREADS() __syncthreads()
#  define GA_DYNAMIC_SHARED(type, name) type* name = (type*)ga_host::dynamic_shared()
#endif
// GA_SHARED_VAR(name): after each static __shared__ declaration; the CPU sanitizer build
// learns the variable's bytes from it (Note [CPU sanitizer], 4), other builds ignore it.
#if defined(GA_CPU_SANITIZE)
#  define GA_SHARED_VAR(name) ga_host::san::shared_var((const void*)&(name), sizeof(name))
#else
#  define GA_SHARED_VAR(name) ((void)0)
#endif
