// CPU kernels of embedding's backward and of native_dropout, as PyTorch 2.15 writes them
// (aten/src/ATen/native/Embedding.cpp, Dropout.cpp).
#include <tuple>

#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/reduction_rows.h"
#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

// grad_weight[k] = the sum, in the indices' order, of grad's rows whose index is k (not
// padding_idx), each scaled by 1 / count(k) with scale_grad_by_freq. The weight's rows are split
// over the threads in grains of 1000, each thread walking all the indices for its rows.
Tensor embedding_dense_backward_cpu(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                    int64_t padding_idx, bool scale_grad_by_freq) {
  IPT_CHECK(indices.dtype() == ScalarType::Long || indices.dtype() == ScalarType::Int, RuntimeError,
            "Expected tensor for argument #2 'indices' to have one of the following scalar types: Long, Int; but got ",
            dtype_cpp_name(indices.dtype()), " instead (while checking arguments for embedding_backward)");
  const int64_t dim = grad_output.dim() == 0 ? 1 : grad_output.sizes().back();
  const int64_t n = indices.numel();
  IPT_CHECK(grad_output.numel() == n * dim, RuntimeError, "embedding_backward: grad_output has ", grad_output.numel(),
            " elements, expected ", n * dim, " (indices x embedding_dim)");
  Tensor grad_weight = make_empty(std::vector<int64_t>{num_weights, dim}, grad_output.dtype(), grad_output.device());
  fill_cpu_(grad_weight, 0);
  const Tensor g = contiguous_data(grad_output);
  const Tensor idx = contiguous_data(indices);
  std::vector<int64_t> index(static_cast<size_t>(n));
  visit_dtype(idx.dtype(), [&]<typename I>() {
    if constexpr (std::is_same_v<I, int64_t> || std::is_same_v<I, int32_t>) {
      const I* p = idx.data_ptr<I>();
      for (int64_t i = 0; i < n; ++i) {
        IPT_CHECK(p[i] >= 0 && p[i] < num_weights, IndexError, "index ", static_cast<int64_t>(p[i]),
                  " is out of bounds for dimension 0 with size ", num_weights);
        index[static_cast<size_t>(i)] = p[i];
      }
    }
  });
  std::vector<int64_t> counts;
  if (scale_grad_by_freq) {
    counts.assign(static_cast<size_t>(num_weights), 0);
    for (int64_t k : index) ++counts[static_cast<size_t>(k)];
  }
  visit_dtype(g.dtype(), [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      const T* gp = g.data_ptr<T>();
      T* wp = grad_weight.data_ptr<T>();
      parallel_for(0, num_weights, 1000, [&](int64_t lo, int64_t hi) {
        for (int64_t i = 0; i < n; ++i) {
          const int64_t k = index[static_cast<size_t>(i)];
          if (k == padding_idx || k < lo || k >= hi) continue;
          T* row = wp + k * dim;
          const T* src = gp + i * dim;
          if (scale_grad_by_freq) {
            const double scale = 1.0 / static_cast<double>(counts[static_cast<size_t>(k)]);
            for (int64_t j = 0; j < dim; ++j) row[j] = static_cast<T>(row[j] + static_cast<T>(scale) * src[j]);
          } else {
            for (int64_t j = 0; j < dim; ++j) row[j] = static_cast<T>(row[j] + src[j]);
          }
        }
      });
    } else {
      IPT_CHECK(false, NotImplementedError, "\"embedding_dense_backward_cpu\" not implemented for '",
                dtype_cpp_name(g.dtype()), "'");
    }
  });
  return grad_weight;
}

// native_dropout (CPU): a bool mask drawn with bernoulli_(1 - p), then (input * mask) * scale;
// not training, the input's copy and a mask of ones. Through the dispatcher, as PyTorch's kernel
// calls these operators. The simulated GPU runs the same calls (its dropout is not CUDA's fused
// kernel, whose random numbers come from Philox).
std::tuple<Tensor, Tensor> native_dropout_from_ops(const Tensor& input, double p, std::optional<bool> train) {
  if (input.numel() == 0)
    return {input, ops::empty_like(input, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt)};
  if (!train || *train) {
    const double p1m = 1. - p;
    const double scale = p1m == 0 ? 0. : 1. / p1m;
    Tensor mask =
        ops::empty_like(input, ScalarType::Bool, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Contiguous);
    ops::bernoulli__float(mask, p1m, std::nullopt);
    Tensor output = ops::mul_Tensor(input, mask);
    ops::mul__Scalar(output, scale);
    return {output, mask};
  }
  return {ops::clone(input, std::nullopt),
          ops::ones_like(input, ScalarType::Bool, std::nullopt, std::nullopt, std::nullopt, std::nullopt)};
}

// grad * mask * scale, element by element (the mask read as the gradient's type).
Tensor native_dropout_backward_from_ops(const Tensor& grad_output, const Tensor& mask, double scale) {
  IPT_CHECK(mask.dtype() == ScalarType::Bool, RuntimeError, "Mask should be Bool Scalar Type",
            dtype_cpp_name(mask.dtype()));
  return ops::mul_Scalar(ops::mul_Tensor(grad_output, mask), scale);
}

}  // namespace ipt::native
