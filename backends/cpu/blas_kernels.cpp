// CPU matrix multiply through OpenBLAS.
//
// Note [Passing transposed operands to BLAS]
// BLAS takes each matrix as (pointer, transpose flag, leading dimension). A row-major matrix
// whose rows are `ld` elements apart is passed as is ('N'); a transposed view (column stride
// > row stride == 1) is the same memory read the other way, so it is passed with 'T' and its
// column stride as the leading dimension. No copy is needed for either. Only layouts neither
// form can express (e.g. both strides > 1 after slicing with a step) are copied first. The
// trace records the flags, lda/ldb/ldc and any copy.
#include <cblas.h>

#include <string>

#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/cpu_loops.h"
#include "backends/cpu/into_kernels.h"
#include "backends/cpu/wrapping.h"
#include "core/ops/out_rules.h"
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/parallel/parallel.h"
#include "core/trace/recorder.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

struct BlasOperand {
  Tensor t;    // the tensor BLAS reads (the input, or a contiguous copy of it)
  bool trans;  // read as its transpose
  int64_t ld;  // leading dimension
  bool copied;
};

BlasOperand blas_operand(const Tensor& m) {
  const int64_t rows = m.sizes()[0], cols = m.sizes()[1];
  const int64_t s0 = m.strides()[0], s1 = m.strides()[1];
  if (s1 == 1 && s0 >= std::max<int64_t>(1, cols)) return {m, false, s0, false};
  if (s0 == 1 && s1 >= std::max<int64_t>(1, rows)) return {m, true, s1, false};
  if (rows <= 1 || cols <= 1) {  // a vector: any positive stride works as the leading dim
    if (cols <= 1 && rows > 1 && s0 == 1) return {m, true, std::max<int64_t>(1, rows), false};
    if (rows <= 1 && s1 == 1) return {m, false, std::max<int64_t>(1, cols), false};
  }
  Tensor c = ops::clone(m, MemoryFormat::Contiguous);
  return {c, false, std::max<int64_t>(1, cols), true};
}

template <typename T>
void naive_mm(const Tensor& a, const Tensor& b, const Tensor& out) {
  const int64_t m = a.sizes()[0], k = a.sizes()[1], n = b.sizes()[1];
  const T* pa = a.data_ptr<T>();
  const T* pb = b.data_ptr<T>();
  T* pc = out.data_ptr<T>();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      T acc = 0;
      for (int64_t p = 0; p < k; ++p) {
        if constexpr (std::is_same_v<T, bool>)
          acc = acc || (pa[i * a.strides()[0] + p * a.strides()[1]] && pb[p * b.strides()[0] + j * b.strides()[1]]);
        else
          acc = cpu::wrapping_add(acc, cpu::wrapping_mul(pa[i * a.strides()[0] + p * a.strides()[1]],
                                                         pb[p * b.strides()[0] + j * b.strides()[1]]));
      }
      pc[i * n + j] = acc;
    }
}

// bfloat16 (and float16) have no BLAS routine: as PyTorch's fallback gemm does, each element
// is a dot product accumulated in float in four interleaved partial sums (element l goes to sum
// l % 4; the rest after the last full group to the first), added together at the end, then
// scaled and rounded once to T.
template <typename T>
void reduced_float_mm(const Tensor& a, const Tensor& b, const Tensor& out, float alpha, float beta) {
  const int64_t m = a.sizes()[0], k = a.sizes()[1], n = b.sizes()[1];
  const int64_t as0 = a.strides()[0], as1 = a.strides()[1], bs0 = b.strides()[0], bs1 = b.strides()[1];
  const T* pa = a.data_ptr<T>();
  const T* pb = b.data_ptr<T>();
  T* pc = out.data_ptr<T>();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float part[4] = {0.f, 0.f, 0.f, 0.f};
      auto term = [&](int64_t l) {
        return static_cast<float>(pb[l * bs0 + j * bs1]) * static_cast<float>(pa[i * as0 + l * as1]);
      };
      int64_t l = 0;
      for (; l + 4 <= k; l += 4)
        for (int q = 0; q < 4; ++q) part[q] += term(l + q);
      for (; l < k; ++l) part[0] += term(l);
      const float dot = part[0] + part[1] + part[2] + part[3];
      T& c = pc[i * n + j];
      c = beta == 0.f ? T(alpha * dot) : T(beta * static_cast<float>(c) + alpha * dot);
    }
}

// Note [BLAS on the team] (core/parallel/parallel.h): a product of at least 64^3 multiply-adds
// is split over the team along C's longer side, in blocks of at least 16 rows or columns, each
// block one single-threaded gemm. Smaller ones, and any inside a parallel region, are one call.
constexpr int64_t kTeamGemmWork = int64_t(1) << 18;
constexpr int64_t kTeamGemmBlock = 16;
bool team_gemm(int64_t m, int64_t n, int64_t k) {
  return blas_on_team() && get_num_threads() > 1 && !in_parallel_region() && std::max(m, n) >= 2 * kTeamGemmBlock &&
         m * n * k >= kTeamGemmWork;
}

// out = beta * out + alpha * (a @ b) for a contiguous (m, n) `out` (BLAS's C; with beta == 0
// its old contents are ignored, NaN included). Integer and bool operands use a plain loop.
void gemm_into(const Tensor& out, const Tensor& a_in, const Tensor& b_in, const Scalar& alpha, const Scalar& beta) {
  const int64_t m = a_in.sizes()[0], k = a_in.sizes()[1], n = b_in.sizes()[1];
  if (m == 0 || n == 0) return;
  const bool beta_zero = beta.to_double() == 0.0;
  if (!is_floating(out.dtype())) {
    visit_dtype(out.dtype(), [&]<typename T>() {
      Tensor prod = make_empty(std::vector<int64_t>{m, n}, out.dtype(), out.device());
      naive_mm<T>(a_in, b_in, prod);
      T* po = out.data_ptr<T>();
      const T* pp = prod.data_ptr<T>();
      const T al = alpha.to<T>(), be = beta.to<T>();
      for (int64_t i = 0; i < m * n; ++i) {
        if constexpr (std::is_same_v<T, bool>) po[i] = (!beta_zero && be && po[i]) || (al && pp[i]);
        else po[i] = static_cast<T>((beta_zero ? T(0) : static_cast<T>(be * po[i])) + al * pp[i]);
      }
    });
    return;
  }
  if (k == 0) {  // nothing to multiply: out = beta * out
    if (beta_zero) ops::fill__Scalar(out, 0);
    else ops::mul__Tensor(out, wrapped_scalar_tensor(beta));
    return;
  }
  if (out.dtype() == ScalarType::BFloat16 || out.dtype() == ScalarType::Half) {
    const float al = static_cast<float>(alpha.to_double()), be = static_cast<float>(beta.to_double());
    visit_dtype(out.dtype(), [&]<typename T>() {
      if constexpr (is_reduced_float_v<T>) reduced_float_mm<T>(a_in, b_in, out, al, be);
    });
    return;
  }
  BlasOperand a = blas_operand(a_in), b = blas_operand(b_in);
  const bool dbl = out.dtype() == ScalarType::Double;
  const bool by_rows = m >= n;
  const int64_t side = by_rows ? m : n;
  const int threads = team_gemm(m, n, k) ? detail::threads_for(0, side, kTeamGemmBlock) : 1;
  if (trace::tracing_enabled()) {
    trace::KernelDetail d;
    d.fields = {{"function", dbl ? "cblas_dgemm" : "cblas_sgemm"},
                {"layout", "CblasRowMajor"},
                {"transa", a.trans ? "CblasTrans" : "CblasNoTrans"},
                {"transb", b.trans ? "CblasTrans" : "CblasNoTrans"},
                {"m", std::to_string(m)},
                {"n", std::to_string(n)},
                {"k", std::to_string(k)},
                {"lda", std::to_string(a.ld)},
                {"ldb", std::to_string(b.ld)},
                {"ldc", std::to_string(n)},
                {"copied", std::string(a.copied ? "self " : "") + (b.copied ? "mat2" : "") +
                               (a.copied || b.copied ? "" : "none")},
                {"threads", threads > 1 ? std::to_string(threads) +
                                              (by_rows ? ", a block of rows each" : ", a block of columns each")
                                        : "1"}};
    if (!(alpha.to_double() == 1.0 && beta_zero)) {
      d.fields.emplace_back("alpha", std::to_string(alpha.to_double()));
      d.fields.emplace_back("beta", std::to_string(beta.to_double()));
    }
    trace::Recorder::current().begin(trace::Category::Kernel, dbl ? "cblas_dgemm" : "cblas_sgemm", std::move(d));
  }
  const auto ta = a.trans ? CblasTrans : CblasNoTrans, tb = b.trans ? CblasTrans : CblasNoTrans;
  // One block of C: rows [r, r + mm) and columns [c, c + nn) (Note [BLAS on the team]).
  auto block = [&](int64_t r, int64_t mm, int64_t c, int64_t nn) {
    // Row r of op(A) starts at column r of a transposed A; column c of op(B) at row c of a transposed B.
    const int64_t a_off = a.trans ? r : r * a.ld, b_off = b.trans ? c * b.ld : c;
    if (dbl)
      cblas_dgemm(CblasRowMajor, ta, tb, mm, nn, k, alpha.to_double(), a.t.data_ptr<double>() + a_off, a.ld,
                  b.t.data_ptr<double>() + b_off, b.ld, beta.to_double(), out.data_ptr<double>() + r * n + c, n);
    else
      cblas_sgemm(CblasRowMajor, ta, tb, mm, nn, k, static_cast<float>(alpha.to_double()),
                  a.t.data_ptr<float>() + a_off, a.ld, b.t.data_ptr<float>() + b_off, b.ld,
                  static_cast<float>(beta.to_double()), out.data_ptr<float>() + r * n + c, n);
  };
  if (threads > 1)
    parallel_for(0, side, kTeamGemmBlock, [&](int64_t lo, int64_t hi) {
      if (by_rows) block(lo, hi - lo, 0, n);
      else block(0, m, lo, hi - lo);
    });
  else block(0, m, 0, n);
  if (trace::tracing_enabled())
    trace::Recorder::current().end(trace::Category::Kernel, dbl ? "cblas_dgemm" : "cblas_sgemm");
}

}  // namespace

void gemm_into_cpu(const Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha, const Scalar& beta) {
  gemm_into(out, a, b, alpha, beta);
}

void mm_into_cpu(const Tensor& out, const Tensor& self, const Tensor& mat2) {
  check_mm(self, mat2);
  check_mm_cpu_dtypes(self, mat2);
  check_not_bool(out, "addmm_impl_cpu_");
  gemm_into(out, self, mat2, Scalar(int64_t(1)), Scalar(int64_t(0)));
}
namespace {
// A new [n, m] product (dot and bmm use it per row or batch).
Tensor mm_result(const Tensor& self, const Tensor& mat2) {
  check_mm(self, mat2);  // before the sizes are read
  Tensor out = make_empty(std::vector<int64_t>{self.sizes()[0], mat2.sizes()[1]}, self.dtype(), self.device());
  mm_into_cpu(out, self, mat2);
  return out;
}
}  // namespace

// mm's structured impl: `out` has the product's shape and dtype; BLAS writes a contiguous
// result, so a strided `out` (of the right shape, kept as it is) gets the product copied in.
void mm_out_cpu(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  if (out.is_contiguous()) {
    mm_into_cpu(out, self, mat2);
    return;
  }
  Tensor product = make_empty(out.sizes(), out.dtype(), out.device());
  mm_into_cpu(product, self, mat2);
  copy_cpu_(out, product, false);
}

// addmm: out = beta * self + alpha * (mat1 @ mat2), self broadcast to the product's shape.
// BLAS does it in one call: C starts as the broadcast self and gemm's beta scales it.
Tensor addmm_cpu(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  std::vector<int64_t> sizes = addmm_geometry(self, mat1, mat2);
  Tensor expanded = ops::expand(self, sizes);
  Tensor out = make_empty(sizes, self.dtype(), self.device());
  check_not_bool(out, "addmm_impl_cpu_");
  if (beta.to_double() != 0.0) ops::copy_(out, expanded);
  gemm_into(out, mat1, mat2, alpha, beta);
  return out;
}

// dot and mv reuse mm's BLAS path on 2-D views of their operands (no copies).
Tensor dot_cpu(const Tensor& self, const Tensor& tensor) {
  check_dot(self, tensor);
  Tensor r = mm_result(make_view(self, {1, self.numel()}, {0, self.strides()[0]}, self.storage_offset()),
                       make_view(tensor, {tensor.numel(), 1}, {tensor.strides()[0], 0}, tensor.storage_offset()));
  return make_view(r, {}, {}, 0);
}

// addmv: out = beta * self + alpha * (mat @ vec), self broadcast to mat's rows; mv is addmv
// with beta 0 (core/ops/out_composite_kernels.cpp). One gemm on (n, 1) views, as for addmm;
// a strided `out` gets the result through a contiguous buffer.
namespace {
void check_addmv_cpu(const Tensor& self, const Tensor& mat, const Tensor& vec) {
  check_addmv(self, mat, vec);
  check_not_bool(mat, "addmv_impl_cpu");
}
void addmv_into(const Tensor& out, const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                const Scalar& alpha) {
  const int64_t n = mat.sizes()[0];
  Tensor c = out.is_contiguous() ? out : make_empty(std::vector<int64_t>{n}, out.dtype(), out.device());
  if (beta.to_double() != 0.0 && !c.is_same(self)) copy_cpu_(c, self, false);
  gemm_into(make_view(c, {n, 1}, {1, 1}, c.storage_offset()), mat,
            make_view(vec, {vec.numel(), 1}, {vec.strides()[0], 0}, vec.storage_offset()), alpha, beta);
  if (!c.is_same(out)) copy_cpu_(out, c, false);
}
}  // namespace

Tensor addmv_cpu(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) {
  check_addmv_cpu(self, mat, vec);
  Tensor out = make_empty(std::vector<int64_t>{mat.sizes()[0]}, vec.dtype(), vec.device());
  addmv_into(out, self, mat, vec, beta, alpha);
  return out;
}
Tensor addmv_cpu_(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) {
  check_addmv_cpu(self, mat, vec);
  check_inplace_result(self, std::vector<int64_t>{mat.sizes()[0]}, vec.dtype());
  addmv_into(self, self, mat, vec, beta, alpha);
  return self;
}
Tensor addmv_out_cpu(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha,
                     const Tensor& out) {
  check_addmv_cpu(self, mat, vec);
  check_structured_out_dtype(out, vec.dtype());
  resize_output(out, std::vector<int64_t>{mat.sizes()[0]});
  addmv_into(out, self, mat, vec, beta, alpha);
  return out;
}

// One sgemm/dgemm per batch (the trace shows each call's flags).
Tensor bmm_cpu(const Tensor& self, const Tensor& mat2) {
  check_bmm(self, mat2);
  check_not_bool(self, "bmm");
  const int64_t b = self.sizes()[0], m = self.sizes()[1], n = mat2.sizes()[2];
  Tensor out = make_empty(std::vector<int64_t>{b, m, n}, self.dtype(), self.device());
  for (int64_t i = 0; i < b; ++i) {
    Tensor r = mm_result(ops::select_int(self, 0, i), ops::select_int(mat2, 0, i));
    ops::copy_(ops::select_int(out, 0, i), r);
  }
  return out;
}

}  // namespace ipt::native
