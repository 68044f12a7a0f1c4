#pragma once
// oneDNN's eltwise_gelu_erf AVX2 kernel, forward and backward, one element at a time: PyTorch
// 2.15 runs float gelu without the tanh approximation through it (Note [Activations' bits] in
// activation_kernels.cpp). Inline, so that gelu_avx2.cpp compiles it for AVX2 and FMA (std::fma
// one instruction there, a library call in a portable build); a file that includes it is
// compiled with -ffp-contract=off.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace ipt::native::onednn {

constexpr float f32(uint32_t bits) { return std::bit_cast<float>(bits); }

// oneDNN's AVX2 exp (jit_uni_eltwise_injector's exp_compute_vector_fwd).
inline float onednn_exp(float v) {
  const bool underflow = v < f32(0xc2aeac50);
  v = std::max(std::min(v, f32(0x42b17218)), f32(0xc2aeac50));
  const float fx = std::floor(v * f32(0x3fb8aa3b) + 0.5f);
  const float r = std::fma(-fx, f32(0x3f317218), v);
  const int32_t k = static_cast<int32_t>(fx - 1.0f);
  const float p2 = underflow ? 0.0f : std::bit_cast<float>(static_cast<uint32_t>(k + 127) << 23);
  float q = std::fma(f32(0x3c07cfce), r, f32(0x3d2b9d0d));
  q = std::fma(q, r, f32(0x3e2aad40));
  q = std::fma(q, r, f32(0x3efffee3));
  q = std::fma(q, r, f32(0x3f7ffffb));
  q = std::fma(q, r, 1.0f);
  return (q * p2) * 2.0f;
}

// oneDNN's erf polynomial in t.
inline float onednn_erf_poly(float t) {
  return std::fma(
      std::fma(std::fma(std::fma(f32(0x3f87dc22), t, f32(0xbfba00e3)), t, f32(0x3fb5f0e3)), t, f32(0xbe91a98e)), t,
      f32(0x3e827906));
}

inline float with_sign_of(float v, float s) {
  return std::bit_cast<float>(std::bit_cast<uint32_t>(v) ^ (std::bit_cast<uint32_t>(s) & 0x80000000u));
}

// oneDNN's eltwise_gelu_erf, forward and backward (AVX2).
inline float onednn_gelu(float s) {
  const float x = s * f32(0x3f3504f3);
  const float t = 1.0f / std::fma(f32(0x3ea7ba05), std::fabs(x), 1.0f);
  const float u = (-onednn_exp(-(x * x))) * t;
  const float erf = with_sign_of(std::fma(u, onednn_erf_poly(t), 1.0f), s);
  const float half = s * 0.5f;
  return std::fma(erf, half, half);
}
inline float onednn_gelu_backward(float dy, float s) {
  const float r = s * f32(0x3f3504f3);
  const float q = onednn_exp(-(r * r));
  const float t = (r * f32(0x3f106eba)) * q;
  const float w = 1.0f / std::fma(f32(0x3ea7ba05), std::fabs(r), 1.0f);
  const float erf = with_sign_of(std::fma((-q) * w, onednn_erf_poly(w), 1.0f), r);
  return std::fma(erf, 0.5f, t + 0.5f) * dy;
}

}  // namespace ipt::native::onednn
