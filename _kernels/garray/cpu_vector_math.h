// The CPU device's vectorised math (libmvec), included by cpu_runtime.h only: GPU
// compilers never see it.
#pragma once
#include <cmath>

// Note [CPU vector math]
// ~~~~~~~~~~~~~~~~~~~~~~~
// The elementwise loops (garray/loops.h, Note [CPU inner loops]) call the C math
// functions (ga::m::exp(float) -> ::expf).  g++ vectorises such a call only when the
// function is declared SIMD-callable, which glibc's <bits/math-vector.h> does under
// -ffast-math only (garray keeps IEEE semantics: no -ffast-math).  So the declarations
// are repeated here with `simd("notinbranch")`, and the loops call glibc's libmvec
// (_ZGVdN8v_expf: 8 floats per call on AVX2; every value of such an op goes through the
// one loop of Note [Value-only results] in loops.h, so no epilogue calls the SSE 'b'
// variant or the scalar function).  Only under -DGA_CPU_LIBMVEC=1, which
// garray/_compiler/gxx.py passes with -lmvec when it builds for x86-64-v3 on glibc >= 2.35 (not with
// GARRAY_CPU_ISA=baseline), and only for AVX2 builds of x86-64 glibc >= 2.35, whose
// libmvec exports every width (b, c, d, e) of the functions below.
// Every function below was measured within libmvec's 4 ULP bound, special values as
// NumPy's (docs/performance.md, "Vector math on the CPU device"; bench/vector_math_ulp.py;
// tests/elementwise/test_cpu_vector_math.py): drop one here if a glibc gets it wrong.
// Not in the GPU path's CPU build (GA_CPU_VECTOR_LOADS: the stub devices' kernels), which
// stands in for a GPU, where every element runs the same scalar function.
#if defined(GA_CPU_LIBMVEC) && GA_CPU_LIBMVEC && defined(__x86_64__) && \
    defined(__GLIBC__) && defined(__AVX2__) && !defined(__FAST_MATH__) && \
    !(defined(GA_CPU_VECTOR_LOADS) && GA_CPU_VECTOR_LOADS)
#  if __GLIBC_PREREQ(2, 35)
#    define GA_MVEC1(fn)                                                  \
        extern "C" __attribute__((simd("notinbranch"))) double fn(double) noexcept; \
        extern "C" __attribute__((simd("notinbranch"))) float fn##f(float) noexcept;
#    define GA_MVEC2(fn)                                                  \
        extern "C" __attribute__((simd("notinbranch"))) double fn(double, double) noexcept; \
        extern "C" __attribute__((simd("notinbranch"))) float fn##f(float, float) noexcept;
GA_MVEC1(exp) GA_MVEC1(exp2) GA_MVEC1(expm1) GA_MVEC1(log) GA_MVEC1(log2) GA_MVEC1(log10)
GA_MVEC1(log1p) GA_MVEC1(sin) GA_MVEC1(cos) GA_MVEC1(tan) GA_MVEC1(asin) GA_MVEC1(acos)
GA_MVEC1(atan) GA_MVEC1(sinh) GA_MVEC1(cosh) GA_MVEC1(tanh) GA_MVEC1(asinh) GA_MVEC1(acosh)
GA_MVEC1(atanh) GA_MVEC1(cbrt)
GA_MVEC2(atan2) GA_MVEC2(hypot) GA_MVEC2(pow)
#    undef GA_MVEC1
#    undef GA_MVEC2
#    define GA_CPU_VECTOR_MATH 1
#  endif
#endif
#ifndef GA_CPU_VECTOR_MATH
#  define GA_CPU_VECTOR_MATH 0
#endif
