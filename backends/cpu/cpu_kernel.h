#pragma once
// The CPU's pointwise loops on the TensorIterator (core/ops/tensor_iterator.h; PyTorch's
// native/cpu/Loops.h). cpu_kernel<T, N>(iter, op) computes output 0 = op(input 1, ..., input N)
// for every element, all operands of dtype T:
//   - a row where the output and every input are contiguous, or an input is one value for the
//     whole row (stride 0: a scalar operand, a broadcast), runs a plain loop the compiler
//     vectorizes, the one-value inputs read once;
//   - any other row runs a strided loop.
// Rows are what the iterator hands out; it also splits them over the threads.
// with_computation() runs a kernel on operands of other dtypes: it converts those inputs, and
// computes into a temporary for an output of another dtype, then copies it back.

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/cpu_loops.h"
#include "backends/cpu/vml.h"
#include "core/ops/tensor_iterator.h"
#include "core/tensor/tensor.h"
#include "core/util/error.h"

namespace ipt::cpu {

namespace detail {

// Records the kernel's iteration plan (Note [The iteration plan]) when tracing is on: the
// coalesced shape, the layout, whether its rows run as vector loops, the threads and their ranges.
void note_plan(const TensorIterator& iter, int64_t out_item, int64_t in_item, int64_t grain_size);

// One row with every operand contiguous, except the inputs whose bit is set in Mask, which are
// one value for the row. As PyTorch's vectorized loop, such a value is read once for the row's
// blocks of two 256-bit vectors and again for each element of the rest: an in-place write that
// changes it (a.add_(a[:, :1])) is seen where PyTorch sees it.
template <typename Out, typename T, size_t N, unsigned Mask, typename Op, size_t... I>
[[gnu::always_inline]] inline void contiguous_row_body(char* out, char* const* in, int64_t n, const Op& op,
                                                       std::index_sequence<I...>) {
  if constexpr ((std::is_same_v<T, bool> || std::is_same_v<Out, bool>)&&Mask == 0) {
    // GCC does not vectorize loads or stores of bool: bool runs move as bytes (0 or 1), made
    // bool only around op.
    using Load = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
    using Store = std::conditional_t<std::is_same_v<Out, bool>, uint8_t, Out>;
    Store* o = reinterpret_cast<Store*>(out);
    const Load* p[N] = {reinterpret_cast<const Load*>(in[I])...};
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<Store>(static_cast<Out>(op(static_cast<T>(p[I][i])...)));
    return;
  }
  Out* o = reinterpret_cast<Out*>(out);
  const T* p[N] = {reinterpret_cast<const T*>(in[I])...};
  if constexpr (Mask == 0) {
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<Out>(op(p[I][i]...));
  } else {
    constexpr int64_t block = 2 * (32 / static_cast<int64_t>(sizeof(T)));
    const int64_t vec_end = n - n % block;
    const T v[N] = {(((Mask >> I) & 1u) ? *p[I] : T())...};
    for (int64_t i = 0; i < vec_end; ++i) o[i] = static_cast<Out>(op((((Mask >> I) & 1u) ? v[I] : p[I][i])...));
    for (int64_t i = vec_end; i < n; ++i) o[i] = static_cast<Out>(op((((Mask >> I) & 1u) ? *p[I] : p[I][i])...));
  }
}

// The row loop compiled twice, as PyTorch compiles its kernels once per CPU capability: for any
// x86-64 (SSE2 vectors) and for AVX2 (256-bit vectors, no FMA: no multiply-add is fused), picked
// per row by what the CPU has. The same IEEE operations either way, so the same values.
template <typename Out, typename T, size_t N, unsigned Mask, typename Op, size_t... I>
void contiguous_row(char* out, char* const* in, int64_t n, const Op& op, std::index_sequence<I...> seq) {
  contiguous_row_body<Out, T, N, Mask>(out, in, n, op, seq);
}
template <typename Out, typename T, size_t N, unsigned Mask, typename Op, size_t... I>
[[gnu::target("avx2")]] void contiguous_row_avx2(char* out, char* const* in, int64_t n, const Op& op,
                                                 std::index_sequence<I...> seq) {
  contiguous_row_body<Out, T, N, Mask>(out, in, n, op, seq);
}

// The AVX2 row once more with FMA, for the ops that declare `fused_multiply_add` (their
// std::fma calls, as PyTorch's AVX2 build fuses those multiply-adds): std::fma becomes one
// instruction instead of a library call. Nothing else is contracted (-ffp-contract=off).
template <typename Out, typename T, size_t N, unsigned Mask, typename Op, size_t... I>
[[gnu::target("avx2,fma")]] void contiguous_row_avx2_fma(char* out, char* const* in, int64_t n, const Op& op,
                                                         std::index_sequence<I...> seq) {
  contiguous_row_body<Out, T, N, Mask>(out, in, n, op, seq);
}

template <typename Op>
constexpr bool uses_fma() {
  if constexpr (requires { Op::fused_multiply_add; }) return Op::fused_multiply_add;
  else return false;
}

template <typename Out, typename T, size_t N, typename Op, size_t... I>
inline void strided_row(char* out, char* const* in, const int64_t* strides, int64_t n, const Op& op,
                        std::index_sequence<I...>) {
  const int64_t so = strides[0];
  for (int64_t i = 0; i < n; ++i)
    *reinterpret_cast<Out*>(out + i * so) =
        static_cast<Out>(op(*reinterpret_cast<const T*>(in[I] + i * strides[I + 1])...));
}

// Calls f.template operator()<M>() for the M equal to mask (M < 2^N).
template <size_t N, typename F, unsigned... M>
inline void with_mask(unsigned mask, const F& f, std::integer_sequence<unsigned, M...>) {
  const bool found = ((mask == M ? (f.template operator()<M>(), true) : false) || ...);
  (void)found;
}

}  // namespace detail

// Output of type Out (the inputs' T unless given: bool for a comparison).
template <typename T, size_t N, typename Op, typename Out = T>
void cpu_kernel(const TensorIterator& iter, const Op& op) {
  constexpr int64_t item = static_cast<int64_t>(sizeof(T));
  const int nt = static_cast<int>(N + 1);
  detail::note_plan(iter, static_cast<int64_t>(sizeof(Out)), item, TensorIterator::kDefaultGrain);
  const bool avx2 = has_avx2();
  iter.for_each([&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
    // The row kind is the same for every row of this call (strides do not change between rows).
    bool fast = strides[0] == static_cast<int64_t>(sizeof(Out));
    unsigned mask = 0;
    for (size_t k = 0; k < N; ++k) {
      const int64_t s = strides[k + 1];
      if (s == 0) mask |= 1u << k;
      else if (s != item) fast = false;
    }
    char* ptrs[N + 1];
    for (int k = 0; k < nt; ++k) ptrs[k] = data[k];
    for (int64_t row = 0; row < size1; ++row) {
      if (fast) {
        detail::with_mask<N>(
            mask,
            [&]<unsigned M>() {
              if (avx2 && detail::uses_fma<Op>())
                detail::contiguous_row_avx2_fma<Out, T, N, M>(ptrs[0], ptrs + 1, size0, op,
                                                              std::make_index_sequence<N>());
              else if (avx2)
                detail::contiguous_row_avx2<Out, T, N, M>(ptrs[0], ptrs + 1, size0, op, std::make_index_sequence<N>());
              else detail::contiguous_row<Out, T, N, M>(ptrs[0], ptrs + 1, size0, op, std::make_index_sequence<N>());
            },
            std::make_integer_sequence<unsigned, (1u << N)>());
      } else {
        detail::strided_row<Out, T, N>(ptrs[0], ptrs + 1, strides, size0, op, std::make_index_sequence<N>());
      }
      for (int k = 0; k < nt; ++k) ptrs[k] += strides[nt + k];
    }
  });
}

// A unary kernel with a function for contiguous runs (PyTorch's vectorized loops): a row where
// the output and the input are contiguous goes to row(in, out, n) in one call, which may compute
// it a vector at a time; any other row runs op element by element. PyTorch's vectorized loop
// starts its vectors at each row's first element, so a function whose vector and scalar forms
// round differently (sigmoid) gives PyTorch's bits at each thread count only this way.
template <typename T, typename Op, typename Row>
void cpu_unary_kernel_rows(const TensorIterator& iter, const Op& op, const Row& row,
                           int64_t grain_size = TensorIterator::kDefaultGrain) {
  constexpr int64_t item = static_cast<int64_t>(sizeof(T));
  detail::note_plan(iter, item, item, grain_size);
  iter.for_each(
      [&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
        char* out = data[0];
        char* in = data[1];
        const bool contiguous = strides[0] == item && strides[1] == item;
        for (int64_t r = 0; r < size1; ++r, out += strides[2], in += strides[3]) {
          if (contiguous) row(reinterpret_cast<const T*>(in), reinterpret_cast<T*>(out), size0);
          else detail::strided_row<T, T, 1>(out, &in, strides, size0, op, std::make_index_sequence<1>());
        }
      },
      grain_size);
}

namespace detail {
// The row loop of cpu_binary_kernel_vec / _rows: a row whose output is contiguous and whose inputs
// are contiguous (or, with single_values, one of them a single value and the other contiguous) goes
// to row(out, a, a_step, b, b_step, n); any other row runs op element by element.
template <typename T, typename Op, typename Row>
void binary_rows(const TensorIterator& iter, const Op& op, const Row& row, bool single_values) {
  constexpr int64_t item = static_cast<int64_t>(sizeof(T));
  note_plan(iter, item, item, TensorIterator::kDefaultGrain);
  iter.for_each([&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
    char* ptrs[3] = {data[0], data[1], data[2]};
    const bool a_run = strides[1] == item, b_run = strides[2] == item;
    const bool vec = strides[0] == item && (a_run || (single_values && strides[1] == 0)) &&
                     (b_run || (single_values && strides[2] == 0)) && (a_run || b_run);
    for (int64_t r = 0; r < size1; ++r) {
      if (vec)
        row(reinterpret_cast<T*>(ptrs[0]), reinterpret_cast<const T*>(ptrs[1]), a_run ? 1 : 0,
            reinterpret_cast<const T*>(ptrs[2]), b_run ? 1 : 0, size0);
      else strided_row<T, T, 2>(ptrs[0], ptrs + 1, strides, size0, op, std::make_index_sequence<2>());
      for (int k = 0; k < 3; ++k) ptrs[k] += strides[3 + k];
    }
  });
}
}  // namespace detail

// A binary kernel as PyTorch's cpu_kernel_vec runs one: a row where the output is contiguous and
// the inputs are contiguous, or one of them a single value (stride 0) and the other contiguous,
// goes to row(out, a, a_step, b, b_step, n) (steps 1 or 0, in elements); any other row runs op
// element by element.
template <typename T, typename Op, typename Row>
void cpu_binary_kernel_vec(const TensorIterator& iter, const Op& op, const Row& row) {
  detail::binary_rows<T>(iter, op, row, true);
}

// A binary kernel with a function for contiguous runs: a row where the output and both inputs
// are contiguous goes to row(out, a, b, n); any other row runs op element by element.
template <typename T, typename Op, typename Row>
void cpu_binary_kernel_rows(const TensorIterator& iter, const Op& op, const Row& row) {
  detail::binary_rows<T>(
      iter, op, [&](T* out, const T* a, int64_t, const T* b, int64_t, int64_t n) { row(out, a, b, n); }, false);
}

// Runs kernel(iter) on operands that all have dtype `compute`: a one-element input of another
// dtype (a Python number, a 0-dim tensor) is converted to one value the iterator reads (no
// tensor is made for it); a larger one is converted into a temporary first; an output of another
// dtype than `out_dtype` (the kernel's output type: `compute` unless given) gets a temporary that
// is copied into it after (as PyTorch's CPU TensorIterator does).
template <typename Kernel>
void with_computation(const Tensor& out, std::initializer_list<Tensor> operands, ScalarType compute,
                      const Kernel& kernel, std::optional<ScalarType> out_dtype = std::nullopt) {
  const ScalarType out_type = out_dtype.value_or(compute);
  IPT_CHECK(operands.size() < static_cast<size_t>(TensorIterator::kMaxOperands), RuntimeError,
            "with_computation: too many inputs");
  struct Value {
    alignas(16) unsigned char bytes[16];
  };
  // Fixed arrays: a small tensor's call allocates nothing here, and copies no Tensor (each copy
  // is two atomic reference count updates).
  const Tensor* inputs[TensorIterator::kMaxOperands - 1];
  Tensor converted[TensorIterator::kMaxOperands - 1];
  Value values[TensorIterator::kMaxOperands - 1];
  bool is_value[TensorIterator::kMaxOperands - 1] = {};
  size_t n = 0;
  for (const Tensor& t : operands) {
    inputs[n] = &t;
    if (t.dtype() != compute) {
      if (t.numel() == 1) {
        const void* raw = t.impl()->raw_data();
        const ScalarType from = t.dtype();
        Value& v = values[n];
        visit_dtype(compute, [&]<typename T>() {
          static_assert(sizeof(T) <= sizeof(v.bytes));
          const T x = load_as<T>(raw, from, 0);
          std::memcpy(v.bytes, &x, sizeof(T));
        });
        is_value[n] = true;
      } else {
        converted[n] = make_empty_like_layout(t.sizes(), compute, t.device(), t);
        native::copy_cpu_(converted[n], t, false);
        inputs[n] = &converted[n];
      }
    }
    ++n;
  }
  auto run = [&](const Tensor& o) {
    TensorIterator iter(o, std::span<const Tensor* const>(inputs, n));
    for (size_t i = 0; i < n; ++i)
      if (is_value[i]) iter.set_scalar_operand(static_cast<int>(i) + 1, values[i].bytes);
    kernel(iter);
  };
  if (out.dtype() == out_type) {
    run(out);
    return;
  }
  Tensor tmp = make_empty_like_layout(out.sizes(), out_type, out.device(), out);
  run(tmp);
  native::copy_cpu_(out, tmp, false);
}

}  // namespace ipt::cpu
