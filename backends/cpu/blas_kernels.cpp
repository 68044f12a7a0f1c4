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

#include "core/ops/shape_rules.h"
#include "core/trace/recorder.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

struct BlasOperand {
  Tensor t;          // the tensor BLAS reads (the input, or a contiguous copy of it)
  bool trans;        // read as its transpose
  int64_t ld;        // leading dimension
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
        if constexpr (std::is_same_v<T, bool>) acc = acc || (pa[i * a.strides()[0] + p * a.strides()[1]] && pb[p * b.strides()[0] + j * b.strides()[1]]);
        else acc += pa[i * a.strides()[0] + p * a.strides()[1]] * pb[p * b.strides()[0] + j * b.strides()[1]];
      }
      pc[i * n + j] = acc;
    }
}

}  // namespace

Tensor mm_cpu(const Tensor& self, const Tensor& mat2) {
  check_mm(self, mat2);
  const int64_t m = self.sizes()[0], k = self.sizes()[1], n = mat2.sizes()[1];
  Tensor out = make_empty(std::vector<int64_t>{m, n}, self.dtype(), self.device());
  if (m == 0 || n == 0) return out;
  if (!is_floating(self.dtype())) {
    visit_dtype(self.dtype(), [&]<typename T>() { naive_mm<T>(self, mat2, out); });
    return out;
  }
  if (k == 0) return ops::fill__Scalar(out, 0);
  BlasOperand a = blas_operand(self), b = blas_operand(mat2);
  const bool dbl = self.dtype() == ScalarType::Double;
  if (trace::tracing_enabled()) {
    trace::KernelDetail d;
    d.fields = {{"function", dbl ? "cblas_dgemm" : "cblas_sgemm"}, {"layout", "CblasRowMajor"},
                {"transa", a.trans ? "CblasTrans" : "CblasNoTrans"}, {"transb", b.trans ? "CblasTrans" : "CblasNoTrans"},
                {"m", std::to_string(m)}, {"n", std::to_string(n)}, {"k", std::to_string(k)},
                {"lda", std::to_string(a.ld)}, {"ldb", std::to_string(b.ld)}, {"ldc", std::to_string(n)},
                {"copied", std::string(a.copied ? "self " : "") + (b.copied ? "mat2" : "") + (a.copied || b.copied ? "" : "none")}};
    trace::Recorder::current().begin(trace::Category::Kernel, dbl ? "cblas_dgemm" : "cblas_sgemm", std::move(d));
  }
  const auto ta = a.trans ? CblasTrans : CblasNoTrans, tb = b.trans ? CblasTrans : CblasNoTrans;
  if (dbl)
    cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, a.t.data_ptr<double>(), a.ld, b.t.data_ptr<double>(), b.ld, 0.0,
                out.data_ptr<double>(), n);
  else
    cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a.t.data_ptr<float>(), a.ld, b.t.data_ptr<float>(), b.ld, 0.0f,
                out.data_ptr<float>(), n);
  if (trace::tracing_enabled())
    trace::Recorder::current().end(trace::Category::Kernel, dbl ? "cblas_dgemm" : "cblas_sgemm");
  return out;
}

// dot and mv reuse mm's BLAS path on 2-D views of their operands (no copies).
Tensor dot_cpu(const Tensor& self, const Tensor& tensor) {
  check_dot(self, tensor);
  Tensor r = mm_cpu(make_view(self, {1, self.numel()}, {0, self.strides()[0]}, self.storage_offset()),
                    make_view(tensor, {tensor.numel(), 1}, {tensor.strides()[0], 0}, tensor.storage_offset()));
  return make_view(r, {}, {}, 0);
}

Tensor mv_cpu(const Tensor& self, const Tensor& vec) {
  check_mv(self, vec);
  Tensor r = mm_cpu(self, make_view(vec, {vec.numel(), 1}, {vec.strides()[0], 0}, vec.storage_offset()));
  return make_view(r, {self.sizes()[0]}, {1}, 0);
}

// One sgemm/dgemm per batch (the trace shows each call's flags).
Tensor bmm_cpu(const Tensor& self, const Tensor& mat2) {
  check_bmm(self, mat2);
  const int64_t b = self.sizes()[0], m = self.sizes()[1], n = mat2.sizes()[2];
  Tensor out = make_empty(std::vector<int64_t>{b, m, n}, self.dtype(), self.device());
  for (int64_t i = 0; i < b; ++i) {
    Tensor r = mm_cpu(ops::select_int(self, 0, i), ops::select_int(mat2, 0, i));
    ops::copy_(ops::select_int(out, 0, i), r);
  }
  return out;
}

}  // namespace ipt::native
