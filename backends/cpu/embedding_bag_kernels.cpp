// CPU kernels of embedding_bag (Note [embedding_bag's results] in core/ops/embedding_bag_rules.h):
// the forward (with and without the results the backward needs), the dense weight gradient and
// the gradient of per_sample_weights.
//
// Note [embedding_bag's gradient order]
// The weight gradient visits the indices sorted by row (2.15 sorts them), adding
// scale * grad[bag] to the row with a fused multiply-add, scale = per-sample weight (or 1)
// divided by the row's count (scale_grad_by_freq) and by the bag's size (mean), computed in
// double. Rows met more than twice (or twice, weighted) add in the order of equal keys in that
// sort: stable here, as 2.15's is up to 16 indices; from 17 to 32767 indices 2.15 sorts with
// x86-simd-sort, which is not stable, so such a row's gradient may differ in its last bits.
// The per_sample_weights gradient is each index's dot product of grad[bag] and weight[row], in
// the order MKL's ?dot adds them (4 accumulators of 4 floats or 2 doubles, then the tail).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/ops/embedding_bag_rules.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

using Result4 = std::tuple<Tensor, Tensor, Tensor, Tensor>;

std::vector<int64_t> index_values(const Tensor& t) {
  const Tensor c = ops::contiguous(t, MemoryFormat::Contiguous);
  std::vector<int64_t> v(static_cast<size_t>(c.numel()));
  if (c.dtype() == ScalarType::Int) {
    const int32_t* p = c.data_ptr<int32_t>();
    for (size_t i = 0; i < v.size(); ++i) v[i] = p[i];
  } else {
    const int64_t* p = c.data_ptr<int64_t>();
    std::copy(p, p + v.size(), v.begin());
  }
  return v;
}

Tensor index_tensor(const std::vector<int64_t>& v, std::vector<int64_t> sizes, ScalarType dtype, Device device) {
  Tensor t = make_empty(sizes, dtype, device);
  if (dtype == ScalarType::Int) {
    int32_t* p = t.data_ptr<int32_t>();
    for (size_t i = 0; i < v.size(); ++i) p[i] = static_cast<int32_t>(v[i]);
  } else {
    std::copy(v.begin(), v.end(), t.data_ptr<int64_t>());
  }
  return t;
}

// Each index's bag, from the first `bags` offsets (2.15's index_add_ / cumsum).
std::vector<int64_t> offset2bag_of(const std::vector<int64_t>& offsets, int64_t bags, int64_t n) {
  std::vector<int64_t> t(static_cast<size_t>(n + 1), 0);
  for (int64_t b = 0; b < bags; ++b) {
    const int64_t o = offsets[static_cast<size_t>(b)];
    IPT_CHECK(o >= 0 && o <= n, RuntimeError, "embedding_bag: offsets[", b, "] is ", o, ", outside [0, ", n,
              "], the range of positions in input");
    ++t[static_cast<size_t>(o)];
  }
  t[0] -= 1;
  std::vector<int64_t> o2b(static_cast<size_t>(n));
  int64_t run = 0;
  for (int64_t i = 0; i < n; ++i) o2b[static_cast<size_t>(i)] = run += t[static_cast<size_t>(i)];
  return o2b;
}

// The backward operators can be called directly (torch.ops.aten): each position they follow must
// lie in its tensor, or they would write outside it.
void check_positions(const std::vector<int64_t>& v, int64_t size, const char* what) {
  for (int64_t x : v)
    IPT_CHECK(x >= 0 && x < size, RuntimeError, "embedding_bag backward: ", what, " holds ", x, ", outside [0, ", size,
              ")");
}

[[noreturn]] void bad_index_fast(int64_t pos, int64_t v, int64_t rows) {
  IPT_FAIL(RuntimeError, "Index ", pos, " of input takes value ", v, " which is not in the valid range [0, ", rows,
           ")");
}
[[noreturn]] void bad_index(int64_t v) {
  IPT_FAIL(RuntimeError, "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be ", v);
}

Result4 embedding_bag_forward(const Tensor& weight, const Tensor& indices_in, const Tensor& offsets_in, int64_t mode,
                              const std::optional<Tensor>& per_sample_weights, bool include_last_offset,
                              int64_t padding_idx, bool forward_only) {
  const ScalarType itype = embedding_bag_index_dtype(indices_in, offsets_in);
  const Tensor indices = indices_in.dtype() == itype ? indices_in : ops::_to_copy(indices_in, itype);
  const Tensor offsets = offsets_in.dtype() == itype ? offsets_in : ops::_to_copy(offsets_in, itype);
  check_embedding_bag(weight, indices, offsets, mode, per_sample_weights, include_last_offset);
  const EmbeddingBagShapes shapes = embedding_bag_shapes(weight, indices, offsets, mode, per_sample_weights,
                                                         include_last_offset, padding_idx, forward_only);
  const std::vector<int64_t> idx = index_values(indices), off = index_values(offsets);
  const int64_t n = static_cast<int64_t>(idx.size()), bags = shapes.bags, rows = weight.sizes()[0];
  // 2.15 checks only the first and last offsets and reads past its buffers for the others; here
  // an offset outside [0, N] is an error.
  for (size_t b = 0; b < off.size(); ++b)
    IPT_CHECK(off[b] >= 0 && off[b] <= n, RuntimeError, "embedding_bag: offsets[", b, "] is ", off[b], ", outside [0, ",
              n, "], the range of positions in input");
  const int64_t dim = weight.sizes()[1];
  const Device dev = weight.device();
  Tensor output = ops::zeros(shapes.output, weight.dtype(), std::nullopt, dev);
  // bag_size before the padding entries come off: offsets' differences, the last bag to N.
  std::vector<int64_t> bag_size(static_cast<size_t>(bags), 0);
  for (int64_t b = 0; b < bags; ++b)
    bag_size[static_cast<size_t>(b)] =
        (b + 1 < bags ? off[static_cast<size_t>(b + 1)] : n) - off[static_cast<size_t>(b)];
  const std::vector<int64_t> o2b = offset2bag_of(off, bags, n);
  std::vector<int64_t> max_idx(mode == 2 ? static_cast<size_t>(bags * dim) : 0, 0);
  const bool psw = per_sample_weights && per_sample_weights->defined();
  const Tensor w = weight;  // rows read through their strides
  const int64_t ws0 = w.strides()[0], ws1 = w.strides()[1];
  visit_dtype(weight.dtype(), [&]<typename T>() {
    if (bags == 0) return;  // no bag to put an index in (every offset2bag entry would be -1)
    if constexpr (is_float_v<T>) {
      using A = opmath_t<T>;
      const T* wp = w.data_ptr<T>();
      T* out = output.data_ptr<T>();
      const Tensor ps = psw ? ops::contiguous(*per_sample_weights, MemoryFormat::Contiguous) : Tensor();
      const T* pp = psw ? ps.data_ptr<T>() : nullptr;
      // The generic path: every index in order, padding_idx entries taken off their bag's size.
      auto for_each_index = [&](auto body) {
        for (int64_t i = 0; i < n; ++i) {
          const int64_t b = o2b[static_cast<size_t>(i)], k = idx[static_cast<size_t>(i)];
          if (k < 0 || k >= rows) bad_index(k);
          if (k == padding_idx) --bag_size[static_cast<size_t>(b)];
          else body(i, b, k);
        }
      };
      if (mode == 2) {
        std::vector<bool> seen(static_cast<size_t>(bags), false);
        for_each_index([&](int64_t, int64_t b, int64_t k) {
          T* o = out + b * dim;
          for (int64_t d = 0; d < dim; ++d) {
            const T v = wp[k * ws0 + d * ws1];
            if (!seen[static_cast<size_t>(b)] || A(v) > A(o[d])) {
              o[d] = v;
              max_idx[static_cast<size_t>(b * dim + d)] = k;
            }
          }
          seen[static_cast<size_t>(b)] = true;
        });
        return;
      }
      if (shapes.fast_path) {
        for (int64_t i = 0; i < n; ++i)
          if (idx[static_cast<size_t>(i)] < 0 || idx[static_cast<size_t>(i)] >= rows)
            bad_index_fast(i, idx[static_cast<size_t>(i)], rows);
        for (int64_t b = 0; b < bags; ++b) {
          const int64_t end = b + 1 < static_cast<int64_t>(off.size()) ? off[static_cast<size_t>(b + 1)] : n;
          T* o = out + b * dim;
          for (int64_t i = off[static_cast<size_t>(b)]; i < end; ++i) {
            const T* row = wp + idx[static_cast<size_t>(i)] * ws0;
            if (pp)
              for (int64_t d = 0; d < dim; ++d) o[d] = T(std::fma(A(pp[i]), A(row[d]), A(o[d])));
            else
              for (int64_t d = 0; d < dim; ++d) o[d] = T(A(o[d]) + A(row[d]));
          }
        }
      } else if (is_reduced_float_v<T> && padding_idx < 0 && ws1 == 1 && !pp) {
        // float16 / bfloat16 rows: summed in float, rounded once per bag (fbgemm's half tables).
        std::vector<A> acc(static_cast<size_t>(dim));
        for (int64_t b = 0; b < bags; ++b) {
          const int64_t end = b + 1 < static_cast<int64_t>(off.size()) ? off[static_cast<size_t>(b + 1)] : n;
          std::fill(acc.begin(), acc.end(), A(0));
          for (int64_t i = off[static_cast<size_t>(b)]; i < end; ++i) {
            const int64_t k = idx[static_cast<size_t>(i)];
            if (k < 0 || k >= rows) bad_index_fast(i, k, rows);
            for (int64_t d = 0; d < dim; ++d) acc[static_cast<size_t>(d)] += A(wp[k * ws0 + d]);
          }
          for (int64_t d = 0; d < dim; ++d) out[b * dim + d] = T(acc[static_cast<size_t>(d)]);
        }
      } else {
        for_each_index([&](int64_t i, int64_t b, int64_t k) {
          T* o = out + b * dim;
          for (int64_t d = 0; d < dim; ++d) {
            const T v = wp[k * ws0 + d * ws1];
            o[d] = pp ? T(A(o[d]) + A(T(A(v) * A(pp[i])))) : T(A(o[d]) + A(v));
          }
        });
      }
      if (mode == 1)
        for (int64_t b = 0; b < bags; ++b) {
          const A div = A(T(static_cast<float>(std::max<int64_t>(bag_size[static_cast<size_t>(b)], 1))));
          for (int64_t d = 0; d < dim; ++d) out[b * dim + d] = T(A(out[b * dim + d]) / div);
        }
    }
  });
  check_interrupt();
  if (mode == 0) std::fill(bag_size.begin(), bag_size.end(), 0);
  std::vector<int64_t> bag_size_out = bag_size;
  bag_size_out.resize(static_cast<size_t>(shapes.bag_size[0]), 0);
  Tensor offset2bag =
      shapes.offset2bag[0] == 0 ? index_tensor({}, {0}, itype, dev) : index_tensor(o2b, {n}, itype, dev);
  Tensor bag_size_t = index_tensor(bag_size_out, shapes.bag_size, itype, dev);
  Tensor max_indices = mode == 2 ? index_tensor(max_idx, shapes.max_indices, itype, dev)
                                 : index_tensor(bag_size_out, shapes.max_indices, itype, dev);
  return {output, offset2bag, bag_size_t, max_indices};
}

// MKL's ?dot order for x . y of n elements.
template <typename T, typename X>
T mkl_dot(const X* xs, const X* ys, int64_t n) {
  constexpr int64_t L = sizeof(T) == 4 ? 4 : 2;
  auto x = [&](int64_t i) { return T(xs[i]); };
  auto y = [&](int64_t i) { return T(ys[i]); };
  if (n < L) {
    T s = 0;
    for (int64_t i = 0; i < n; ++i) s = s + x(i) * y(i);
    return s;
  }
  T acc[4][L] = {};
  int64_t i = 0;
  for (; i + 4 * L <= n; i += 4 * L)
    for (int64_t u = 0; u < 4; ++u)
      for (int64_t l = 0; l < L; ++l) acc[u][l] += x(i + u * L + l) * y(i + u * L + l);
  if (sizeof(T) == 4 && i + 2 * L <= n) {
    for (int64_t u = 0; u < 2; ++u)
      for (int64_t l = 0; l < L; ++l) acc[u][l] += x(i + u * L + l) * y(i + u * L + l);
    i += 2 * L;
  }
  for (; i + L <= n; i += L)
    for (int64_t l = 0; l < L; ++l) acc[0][l] += x(i + l) * y(i + l);
  for (; i < n; ++i) acc[0][0] += x(i) * y(i);
  T a[L];
  for (int64_t l = 0; l < L; ++l) a[l] = ((acc[0][l] + acc[1][l]) + acc[2][l]) + acc[3][l];
  for (int64_t h = L / 2; h >= 1; h /= 2)
    for (int64_t l = 0; l < h; ++l) a[l] = a[l] + a[l + h];
  return a[0];
}

}  // namespace

Result4 _embedding_bag_cpu(const Tensor& weight, const Tensor& indices, const Tensor& offsets, bool, int64_t mode, bool,
                           const std::optional<Tensor>& per_sample_weights, bool include_last_offset,
                           int64_t padding_idx) {
  return embedding_bag_forward(weight, indices, offsets, mode, per_sample_weights, include_last_offset, padding_idx,
                               false);
}

Result4 _embedding_bag_forward_only_cpu(const Tensor& weight, const Tensor& indices, const Tensor& offsets, bool,
                                        int64_t mode, bool, const std::optional<Tensor>& per_sample_weights,
                                        bool include_last_offset, int64_t padding_idx) {
  return embedding_bag_forward(weight, indices, offsets, mode, per_sample_weights, include_last_offset, padding_idx,
                               true);
}

Tensor _embedding_bag_backward_cpu(const Tensor& grad, const Tensor& indices, const Tensor& offsets,
                                   const Tensor& offset2bag, const Tensor& bag_size, const Tensor& maximum_indices,
                                   int64_t num_weights, bool scale_grad_by_freq, int64_t mode, bool sparse,
                                   const std::optional<Tensor>& per_sample_weights, int64_t padding_idx) {
  IPT_CHECK(!sparse, NotImplementedError,
            "embedding_bag with sparse=True (a sparse gradient) is not supported here: this runtime has no sparse "
            "tensors");
  Tensor o2b = offset2bag;
  if (offset2bag.numel() == 0 && indices.numel() > 0) {
    // The fast path left offset2bag empty: rebuild it from every offset.
    const std::vector<int64_t> off = index_values(offsets);
    o2b = index_tensor(offset2bag_of(off, static_cast<int64_t>(off.size()), indices.numel()), {indices.numel()},
                       offset2bag.dtype(), indices.device());
  }
  return ops::_embedding_bag_dense_backward(grad, indices, o2b, bag_size, maximum_indices, num_weights,
                                            scale_grad_by_freq, mode, per_sample_weights, padding_idx);
}

Tensor _embedding_bag_dense_backward_cpu(const Tensor& grad_in, const Tensor& indices, const Tensor& offset2bag,
                                         const Tensor& bag_size, const Tensor& maximum_indices, int64_t num_weights,
                                         bool scale_grad_by_freq, int64_t mode,
                                         const std::optional<Tensor>& per_sample_weights, int64_t padding_idx) {
  const Tensor grad = ops::contiguous(grad_in, MemoryFormat::Contiguous);
  const int64_t dim = grad.dim() == 2 ? grad.sizes()[1] : 0;
  Tensor out = ops::zeros(std::vector<int64_t>{num_weights, dim}, grad.dtype(), std::nullopt, grad.device());
  const std::vector<int64_t> idx = index_values(indices), o2b = index_values(offset2bag), bs = index_values(bag_size);
  const int64_t bags_in_grad = grad.dim() == 2 ? grad.sizes()[0] : 0;
  check_positions(idx, num_weights, "indices");
  check_positions(o2b, bags_in_grad, "offset2bag");
  IPT_CHECK(o2b.size() >= idx.size(), RuntimeError, "embedding_bag backward: offset2bag has ", o2b.size(),
            " entries for ", idx.size(), " indices");
  visit_dtype(grad.dtype(), [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      using A = opmath_t<T>;
      const T* g = grad.data_ptr<T>();
      T* gw = out.data_ptr<T>();
      if (mode == 2) {
        const std::vector<int64_t> mi = index_values(maximum_indices);
        const int64_t bags = std::min<int64_t>(static_cast<int64_t>(bs.size()), bags_in_grad);
        IPT_CHECK(static_cast<int64_t>(mi.size()) >= bags * dim, RuntimeError,
                  "embedding_bag backward: maximum_indices has too few entries");
        for (int64_t d = 0; d < dim; ++d)
          for (int64_t b = 0; b < bags; ++b)
            if (bs[static_cast<size_t>(b)] != 0) {
              const int64_t r = mi[static_cast<size_t>(b * dim + d)];
              IPT_CHECK(r >= 0 && r < num_weights, RuntimeError, "embedding_bag backward: maximum_indices holds ", r,
                        ", outside [0, ", num_weights, ")");
              gw[r * dim + d] = T(A(gw[r * dim + d]) + A(g[b * dim + d]));
            }
        return;
      }
      const Tensor ps = per_sample_weights && per_sample_weights->defined()
                            ? ops::contiguous(*per_sample_weights, MemoryFormat::Contiguous)
                            : Tensor();
      const T* pp = ps.defined() ? ps.data_ptr<T>() : nullptr;
      std::vector<int64_t> order(idx.size());
      std::iota(order.begin(), order.end(), int64_t{0});
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return idx[static_cast<size_t>(a)] < idx[static_cast<size_t>(b)]; });
      std::vector<int64_t> counts;
      if (scale_grad_by_freq) {
        counts.assign(static_cast<size_t>(num_weights), 0);
        for (int64_t k : idx) ++counts[static_cast<size_t>(k)];
      }
      for (int64_t j : order) {
        const int64_t r = idx[static_cast<size_t>(j)], bag = o2b[static_cast<size_t>(j)];
        if (r == padding_idx) continue;
        double scale = pp ? static_cast<double>(pp[j]) : 1.0;
        if (scale_grad_by_freq) scale /= static_cast<double>(counts[static_cast<size_t>(r)]);
        if (mode == 1 && bs[static_cast<size_t>(bag)] != 0) scale /= static_cast<double>(bs[static_cast<size_t>(bag)]);
        const A a = A(T(scale));
        for (int64_t d = 0; d < dim; ++d) gw[r * dim + d] = T(std::fma(a, A(g[bag * dim + d]), A(gw[r * dim + d])));
      }
    }
  });
  return out;
}

Tensor _embedding_bag_per_sample_weights_backward_cpu(const Tensor& grad_in, const Tensor& weight,
                                                      const Tensor& indices, const Tensor& offsets,
                                                      const Tensor& offset2bag, int64_t mode, int64_t padding_idx) {
  IPT_CHECK(mode == 0, RuntimeError, "embedding_bag_backward: per_sample_weights only supported for mode='sum'");
  const Tensor grad = ops::contiguous(grad_in, MemoryFormat::Contiguous);
  const Tensor w = ops::contiguous(weight, MemoryFormat::Contiguous);
  const std::vector<int64_t> idx = index_values(indices);
  const int64_t n = static_cast<int64_t>(idx.size()), dim = w.sizes()[1];
  std::vector<int64_t> o2b = index_values(offset2bag);
  if (o2b.empty() && n > 0) {
    const std::vector<int64_t> off = index_values(offsets);
    o2b = offset2bag_of(off, static_cast<int64_t>(off.size()), n);
  }
  check_positions(idx, w.sizes()[0], "indices");
  check_positions(o2b, grad.dim() == 2 ? grad.sizes()[0] : 0, "offset2bag");
  IPT_CHECK(o2b.size() >= idx.size() && grad.dim() == 2 && grad.sizes()[1] == dim, RuntimeError,
            "embedding_bag backward: offset2bag and grad do not match the indices and the weight");
  Tensor out = ops::zeros(std::vector<int64_t>{n}, grad.dtype(), std::nullopt, grad.device());
  visit_dtype(grad.dtype(), [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      using A = opmath_t<T>;
      const T *g = grad.data_ptr<T>(), *wp = w.data_ptr<T>();
      T* o = out.data_ptr<T>();
      for (int64_t i = 0; i < n; ++i) {
        const int64_t r = idx[static_cast<size_t>(i)];
        if (r == padding_idx) continue;
        o[i] = T(mkl_dot<A>(g + o2b[static_cast<size_t>(i)] * dim, wp + r * dim, dim));
      }
    }
  });
  return out;
}

}  // namespace ipt::native
