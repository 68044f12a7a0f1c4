#pragma once
// The SLEEF functions of 1.0-ULP accuracy (Sleef_<name>f8_u10 / Sleef_<name>d4_u10) the CPU
// kernels call, as an X-macro: X(name) for each. sleef_avx2.cpp defines a lane and a run
// function for each name; vml.h declares them. Macros only: sleef_avx2.cpp is compiled for AVX2
// and must not include code that other files compile too.
#define IPT_SLEEF_FUNCTIONS(X) \
  X(exp)                       \
  X(log)                       \
  X(sin)                       \
  X(cos)                       \
  X(tan)                       \
  X(tanh)                      \
  X(asin)                      \
  X(acos)                      \
  X(atan)                      \
  X(sinh)                      \
  X(cosh)                      \
  X(atanh)                     \
  X(log2)                      \
  X(log10)                     \
  X(log1p)                     \
  X(expm1)                     \
  X(erf)
