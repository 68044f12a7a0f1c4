// The Meta backend: tensors with shapes, strides and dtypes but no memory. Its kernels run
// the same shape rules as the CPU kernels (core/ops/shape_rules.h) and touch no data, which
// is how PyTorch traces shapes without computing.
#include "core/ops/distance_rules.h"
#include "core/ops/embedding_bag_rules.h"
#include "core/ops/conv_rules.h"
#include "core/ops/norm_rules.h"
#include "core/ops/out_rules.h"
#include "core/ops/pool_rules.h"
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/backend.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt {

void register_Meta_kernels(Dispatcher& d);  // generated RegisterMeta.cpp

namespace {
void* meta_allocate(size_t) { return nullptr; }
void meta_deallocate(void*) {}
const BackendInterface kMetaBackend = {
    "meta", DeviceType::Meta, meta_allocate, meta_deallocate, register_Meta_kernels, nullptr, nullptr, nullptr,
};
const Device kMeta(DeviceType::Meta);
}  // namespace

void register_meta_backend() { register_backend(&kMetaBackend); }

namespace native {

int64_t arange_length(const Scalar& start, const Scalar& end, const Scalar& step);

Tensor empty_meta(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
                  std::optional<bool>, std::optional<MemoryFormat>) {
  return make_empty(size, dtype.value_or(ScalarType::Float), kMeta);
}

Tensor empty_strided_meta(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype, std::optional<Layout>,
                          std::optional<Device>, std::optional<bool>) {
  IPT_CHECK(size.size() == stride.size(), RuntimeError, "mismatch in length of strides and shape");
  Tensor base = make_empty(size, dtype.value_or(ScalarType::Float), kMeta);
  Tensor out = make_view(base, std::vector<int64_t>(size.begin(), size.end()),
                         std::vector<int64_t>(stride.begin(), stride.end()), 0);
  out.impl()->set_is_view(false);  // a new tensor, not a view
  return out;
}

Tensor fill_meta_(const Tensor& self, const Scalar&) { return self; }
Tensor fill_meta_random_(const Tensor& self, double, double, std::optional<Generator>) { return self; }
Tensor arange_out_meta(const Scalar& start, const Scalar& end, const Scalar& step, const Tensor& out) {
  out.impl()->resize_contiguous({arange_length(start, end, step)});
  return out;
}

static Tensor meta_like(const PointwiseGeometry& g) { return make_empty(g.sizes, g.out_dtype, kMeta); }

Tensor binary_meta(const Tensor& self, const Tensor& other) { return meta_like(binary_geometry(self, other)); }
Tensor binary_meta_(const Tensor& self, const Tensor& other) {
  inplace_binary_geometry(self, other);
  return self;
}
Tensor unary_meta(const Tensor& self) { return make_empty(self.sizes(), self.dtype(), kMeta); }
Tensor unary_meta_float(const Tensor& self) {
  return make_empty(self.sizes(), unary_dtype(self, PromoteInts::ToFloat), kMeta);
}
Tensor unary_meta_(const Tensor& self) { return self; }
Tensor pow_scalar_meta(const Tensor& self, const Scalar& e) {
  Tensor w = wrapped_scalar_tensor(e);
  return make_empty(self.sizes(), result_type({&self, &w}), kMeta);
}
Tensor pow_scalar_meta_(const Tensor& self, const Scalar&) { return self; }

Tensor reduce_meta(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  auto g = reduction_geometry(self, dim, keepdim, dtype, "sum");
  return make_empty(g.out_sizes, g.out_dtype, kMeta);
}

Tensor dot_meta(const Tensor& self, const Tensor& tensor) {
  check_dot(self, tensor);
  return make_empty(std::vector<int64_t>{}, self.dtype(), kMeta);
}
Tensor addmv_meta(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar&, const Scalar&) {
  check_addmv(self, mat, vec);
  return make_empty(std::vector<int64_t>{mat.sizes()[0]}, vec.dtype(), kMeta);
}
Tensor addmv_meta_(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar&, const Scalar&) {
  check_addmv(self, mat, vec);
  check_inplace_result(self, std::vector<int64_t>{mat.sizes()[0]}, vec.dtype());
  return self;
}
Tensor addmv_out_meta(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar&, const Scalar&,
                      const Tensor& out) {
  check_addmv(self, mat, vec);
  check_structured_out_dtype(out, vec.dtype());
  resize_output(out, std::vector<int64_t>{mat.sizes()[0]});
  return out;
}
Tensor bmm_meta(const Tensor& self, const Tensor& mat2) {
  check_bmm(self, mat2);
  return make_empty(std::vector<int64_t>{self.sizes()[0], self.sizes()[1], mat2.sizes()[2]}, self.dtype(), kMeta);
}

// ---- what torch.nn needs ---------------------------------------------------------------------

Tensor unary_meta_float_(const Tensor& self) {
  ScalarType dt = unary_dtype(self, PromoteInts::ToFloat);
  IPT_CHECK(can_cast(dt, self.dtype()), RuntimeError, "result type ", dtype_cpp_name(dt),
            " can't be cast to the desired output type ", dtype_cpp_name(self.dtype()));
  return self;
}
Tensor ternary_meta(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar&) {
  return meta_like(ternary_geometry(self, tensor1, tensor2));
}
Tensor ternary_meta_(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar&) {
  inplace_ternary_geometry(self, tensor1, tensor2);
  return self;
}

// PyTorch 2.15 runs addmm on the Meta device as its decomposition, mm(mat1, mat2) + beta *
// self.expand_as(product): mm's Meta checks, the broadcast of self, no dtype check (the sum
// promotes).
Tensor addmm_meta(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar&, const Scalar&) {
  check_meta_mm(mat1, mat2);
  const std::vector<int64_t> sizes{mat1.sizes()[0], mat2.sizes()[1]};
  ops::expand(self, sizes);
  return make_empty(sizes, promote_types(mat1.dtype(), self.dtype()), kMeta);
}

Tensor softmax_meta(const Tensor& self, int64_t dim, bool) {
  softmax_dim(self, dim, false);
  return make_empty(self.sizes(), self.dtype(), kMeta);
}

static std::tuple<Tensor, Tensor> nll_meta(const Tensor& self, const Tensor& target,
                                           const std::optional<Tensor>& weight, int64_t reduction, bool spatial) {
  NllLossGeometry g = nll_loss_geometry(self, target, weight, spatial);
  return {make_empty(reduction == 0 ? g.none_sizes : std::vector<int64_t>{}, self.dtype(), kMeta),
          make_empty(std::vector<int64_t>{}, self.dtype(), kMeta)};
}
std::tuple<Tensor, Tensor> nll_loss_forward_meta(const Tensor& self, const Tensor& target,
                                                 const std::optional<Tensor>& weight, int64_t reduction, int64_t) {
  return nll_meta(self, target, weight, reduction, false);
}
std::tuple<Tensor, Tensor> nll_loss2d_forward_meta(const Tensor& self, const Tensor& target,
                                                   const std::optional<Tensor>& weight, int64_t reduction, int64_t) {
  return nll_meta(self, target, weight, reduction, true);
}
Tensor nll_loss_backward_meta(const Tensor&, const Tensor& self, const Tensor& target,
                              const std::optional<Tensor>& weight, int64_t, int64_t, const Tensor&) {
  nll_loss_geometry(self, target, weight, self.dim() == 4);
  return make_empty(self.sizes(), self.dtype(), kMeta);
}

Tensor mse_loss_meta(const Tensor& self, const Tensor& target, int64_t reduction) {
  return make_empty(mse_loss_geometry(self, target, reduction), result_type({&self, &target}), kMeta);
}

// ---- elementwise math ------------------------------------------------------------------------

Tensor abs_out_meta(const Tensor& self, const Tensor& out) {
  check_not_bool(self, "abs_cpu");
  check_out_dtype_is(out, self.dtype());
  resize_output_like(out, self.sizes(), self);
  return out;
}
Tensor logical_not_out_meta(const Tensor& self, const Tensor& out) {
  resize_output_like(out, self.sizes(), self);
  return out;
}
Tensor logical_binary_out_meta(const Tensor& self, const Tensor& other, const Tensor& out) {
  PointwiseGeometry g = binary_geometry(self, other);
  resize_output_like(out, g.sizes, self.sizes() == g.sizes ? self : other);
  return out;
}
Tensor rounding_meta(const Tensor& self) { return unary_meta(self); }
Tensor rounding_meta_(const Tensor& self) { return self; }
Tensor clamp_meta(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return make_empty(self.sizes(), clamp_dtype(self, min, max), kMeta);
}
Tensor clamp_meta_(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  check_clamp_inplace(self, min, max);
  return self;
}
Tensor where_meta(const Tensor& condition, const Tensor& self, const Tensor& other) {
  return meta_like(where_geometry(condition, self, other));
}

// ---- comparisons, masks and indexing ------------------------------------------------------------

Tensor compare_meta(const Tensor& self, const Tensor& other) {
  return make_empty(binary_geometry(self, other).sizes, ScalarType::Bool, kMeta);
}
Tensor compare_scalar_meta(const Tensor& self, const Scalar&) {
  return make_empty(self.sizes(), ScalarType::Bool, kMeta);
}
Tensor bool_unary_meta(const Tensor& self) { return make_empty(self.sizes(), ScalarType::Bool, kMeta); }
Tensor masked_fill_meta_(const Tensor& self, const Tensor& mask, const Scalar&) {
  check_masked_fill(self, mask);
  return self;
}
Tensor index_select_meta(const Tensor& self, int64_t dim, const Tensor& index) {
  return make_empty(index_select_geometry(self, dim, index), self.dtype(), kMeta);
}
Tensor index_meta(const Tensor& self, std::span<const std::optional<Tensor>> indices) {
  return make_empty(index_geometry(self, indices).out_sizes, self.dtype(), kMeta);
}
// PyTorch 2.15's Meta kernel for _index_put_impl_ checks neither the indices nor the values
// (a mis-shaped index_put_ on meta tensors passes silently), and so does this one.
Tensor index_put_impl_meta_(const Tensor& self, std::span<const std::optional<Tensor>>, const Tensor&, bool, bool) {
  return self;
}
Tensor gather_meta(const Tensor& self, int64_t dim, const Tensor& index, bool) {
  gather_check(self, dim, index);
  return make_empty(index.sizes(), self.dtype(), kMeta);
}
Tensor scatter_src_meta_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  scatter_check(self, dim, index, &src);
  return self;
}
Tensor _cdist_forward_meta(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  check_cdist(x1, x2, p, compute_mode);
  return make_empty(cdist_plan(x1, x2).out_sizes, x1.dtype(), x1.device());
}
Tensor _pdist_forward_meta(const Tensor& self, double) {
  IPT_CHECK(self.dim() == 2, RuntimeError, "pdist only supports 2D tensors, got: ", self.dim(), "D");
  IPT_CHECK(self.is_contiguous(), RuntimeError, "_pdist_forward requires contiguous input");
  const int64_t rows = self.sizes()[0];
  return make_empty(std::vector<int64_t>{rows <= 1 ? 0 : rows * (rows - 1) / 2}, self.dtype(), self.device());
}
std::tuple<Tensor, Tensor, Tensor, Tensor> _embedding_bag_meta(const Tensor& weight, const Tensor& indices,
                                                               const Tensor& offsets, bool, int64_t mode, bool,
                                                               const std::optional<Tensor>& per_sample_weights,
                                                               bool include_last_offset, int64_t padding_idx) {
  IPT_CHECK(indices.dim() == 1 || indices.dim() == 2, RuntimeError,
            "input has to be a 1D or 2D Tensor, but got Tensor of dimension ", indices.dim());
  IPT_CHECK(offsets.dim() == 1, RuntimeError, "offsets has to be a 1D Tensor, but got Tensor of dimension ",
            offsets.dim());
  const EmbeddingBagShapes s =
      embedding_bag_shapes(weight, indices, offsets, mode, per_sample_weights, include_last_offset, padding_idx, false);
  const ScalarType itype = embedding_bag_index_dtype(indices, offsets);
  return {make_empty(s.output, weight.dtype(), weight.device()), make_empty(s.offset2bag, itype, weight.device()),
          make_empty(s.bag_size, itype, weight.device()), make_empty(s.max_indices, itype, weight.device())};
}
Tensor grid_sampler_2d_meta(const Tensor& input, const Tensor& grid, int64_t, int64_t, bool) {
  IPT_CHECK(input.dim() == 4 && grid.dim() == 4 && input.sizes()[0] == grid.sizes()[0] && grid.sizes()[3] == 2,
            RuntimeError,
            "grid_sampler(): expected 4D input and grid with same number of dimensions, but got input with "
            "sizes ",
            int_list_str(input.sizes()), " and grid with sizes ", int_list_str(grid.sizes()));
  return make_empty(std::vector<int64_t>{input.sizes()[0], input.sizes()[1], grid.sizes()[1], grid.sizes()[2]},
                    input.dtype(), input.device());
}
Tensor _cdist_backward_meta(const Tensor&, const Tensor& x1, const Tensor& x2, double p, const Tensor&) {
  check_cdist(x1, x2, p, std::nullopt);
  const CdistPlan plan = cdist_plan(x1, x2);
  std::vector<int64_t> sizes(plan.out_sizes.begin(), plan.out_sizes.end() - 1);
  sizes.push_back(plan.cols);
  return make_empty(sizes, x1.dtype(), x1.device());
}
Tensor _pdist_backward_meta(const Tensor&, const Tensor& self, double, const Tensor&) {
  IPT_CHECK(self.dim() == 2, RuntimeError, "pdist only supports 2D tensors, got: ", self.dim(), "D");
  return make_empty(self.sizes(), self.dtype(), self.device());
}
// _euclidean_dist's result: the operands' batch dims broadcast, then [r1, r2].
Tensor _euclidean_dist_meta(const Tensor& x1, const Tensor& x2) {
  IPT_CHECK(x1.dim() >= 2 && x2.dim() >= 2, RuntimeError, "_euclidean_dist: expected operands of at least 2 dims, got ",
            x1.dim(), "D and ", x2.dim(), "D");
  const std::vector<int64_t> s1 = x1.sizes(), s2 = x2.sizes();
  std::vector<int64_t> sizes =
      broadcast_shapes(std::vector<int64_t>(s1.begin(), s1.end() - 2), std::vector<int64_t>(s2.begin(), s2.end() - 2));
  sizes.push_back(s1[s1.size() - 2]);
  sizes.push_back(s2[s2.size() - 2]);
  return make_empty(sizes, x1.dtype(), x1.device());
}
Tensor scatter_reduce_two_meta_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                                std::string_view reduce, bool) {
  scatter_check(self, dim, index, &src);
  (void)scatter_reduction(reduce);
  return self;
}
Tensor scatter_value_meta_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar&) {
  scatter_check(self, dim, index, nullptr);
  return self;
}
Tensor index_add_meta_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar&) {
  index_add_geometry(self, dim, index, source);
  return self;
}

// ---- reductions ------------------------------------------------------------------------------

Tensor minmax_all_meta(const Tensor& self) {
  check_minmax_all(self, "max");
  return make_empty(std::vector<int64_t>{}, self.dtype(), kMeta);
}
std::tuple<Tensor, Tensor> minmax_dim_meta(const Tensor& self, int64_t dim, bool keepdim) {
  auto sizes = sizes_without_dim(self, minmax_dim_check(self, dim, "max"), keepdim);
  return {make_empty(sizes, self.dtype(), kMeta), make_empty(sizes, ScalarType::Long, kMeta)};
}
Tensor argminmax_meta(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  if (!dim)
    return make_empty(keepdim ? std::vector<int64_t>(static_cast<size_t>(self.dim()), 1) : std::vector<int64_t>{},
                      ScalarType::Long, kMeta);
  return make_empty(sizes_without_dim(self, minmax_dim_check(self, *dim, "argmax"), keepdim), ScalarType::Long, kMeta);
}
Tensor prod_meta(const Tensor& self, std::optional<ScalarType> dtype) {
  return make_empty(std::vector<int64_t>{}, prod_dtype(self, dtype), kMeta);
}
Tensor bool_reduce_meta(const Tensor& self) { return make_empty(std::vector<int64_t>{}, all_any_dtype(self), kMeta); }
Tensor bool_reduce_dim_meta(const Tensor& self, int64_t dim, bool keepdim) {
  return make_empty(sizes_without_dim(self, wrap_dim(dim, self.dim()), keepdim), all_any_dtype(self), kMeta);
}
Tensor any_dims_meta(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim) {
  std::vector<bool> reduced(static_cast<size_t>(self.dim()), !dim || dim->empty());
  if (dim)
    for (int64_t d : *dim) reduced[static_cast<size_t>(wrap_dim(d, self.dim()))] = true;
  std::vector<int64_t> sizes;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!reduced[static_cast<size_t>(d)]) sizes.push_back(self.sizes()[static_cast<size_t>(d)]);
    else if (keepdim) sizes.push_back(1);
  }
  return make_empty(sizes, all_any_dtype(self), kMeta);
}
// masked_scatter_ checks: a bool mask that broadcasts to self, source of self's dtype.
Tensor masked_scatter_meta_(const Tensor& self, const Tensor& mask, const Tensor& source) {
  IPT_CHECK(mask.dtype() == ScalarType::Bool, RuntimeError,
            "masked_scatter_ only supports boolean masks, but got mask with dtype ", dtype_cpp_name(mask.dtype()));
  IPT_CHECK(self.dtype() == source.dtype(), RuntimeError,
            "masked_scatter: expected self and source to have same dtypes but got", dtype_cpp_name(self.dtype()),
            " and ", dtype_cpp_name(source.dtype()));
  (void)broadcast_shapes(mask.sizes(), self.sizes());
  return self;
}
Tensor amax_meta(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return make_empty(amax_geometry(self, dim, keepdim, "amax").out_sizes, self.dtype(), kMeta);
}
Tensor amin_meta(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return make_empty(amax_geometry(self, dim, keepdim, "amin").out_sizes, self.dtype(), kMeta);
}
Tensor prod_dim_meta(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  return make_empty(sizes_without_dim(self, wrap_dim(dim, self.dim()), keepdim), prod_dtype(self, dtype), kMeta);
}
Tensor var_correction_meta(const Tensor& self, std::optional<IntArrayRef> dim, std::optional<int64_t>, bool keepdim) {
  return make_empty(var_geometry(self, dim, keepdim).out_sizes, self.dtype(), kMeta);
}
Tensor linalg_vector_norm_meta(const Tensor& self, const Scalar&, std::optional<IntArrayRef> dim, bool keepdim,
                               std::optional<ScalarType> dtype) {
  check_vector_norm_args(self, dtype);
  return make_empty(norm_geometry(self, dim.value_or(IntArrayRef{}), keepdim).out_sizes, dtype.value_or(self.dtype()),
                    kMeta);
}
Tensor norm_meta(const Tensor& self, const std::optional<Scalar>&, IntArrayRef dim, bool keepdim) {
  return make_empty(norm_geometry(self, dim, keepdim).out_sizes, self.dtype(), kMeta);
}
Tensor tril_indices_meta(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                         std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  const ScalarType dt = dtype.value_or(ScalarType::Long);
  return make_empty(std::vector<int64_t>{2, triangle_indices_count(row, col, offset, dt, true, "tril_indices")}, dt,
                    kMeta);
}
Tensor triu_indices_meta(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                         std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  const ScalarType dt = dtype.value_or(ScalarType::Long);
  return make_empty(std::vector<int64_t>{2, triangle_indices_count(row, col, offset, dt, false, "triu_indices")}, dt,
                    kMeta);
}
Tensor cumsum_meta(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  wrap_dim(dim, self.dim());
  return make_empty(self.sizes(), cumsum_dtype(self, dtype), kMeta);
}

// ---- joining, splitting and repeating ----------------------------------------------------------

// PyTorch 2.15's Meta cat is its Python reference, which first wants one device for all the
// tensors, the first one's ("Tensor on device cpu is not on the expected device meta!").
Tensor cat_meta(std::span<const Tensor> tensors, int64_t dim) {
  for (const Tensor& t : tensors)
    IPT_CHECK(t.device() == tensors[0].device(), RuntimeError, "Tensor on device ", t.device().str(),
              " is not on the expected device ", tensors[0].device().str(), "!");
  CatGeometry g = cat_geometry(tensors, dim);
  return make_empty(g.sizes, g.dtype, kMeta);
}
Tensor index_copy_meta_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  check_index_copy(self, dim, index, source);
  return self;
}
Tensor index_fill_scalar_meta_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar&) {
  check_index_fill(self, dim, index, nullptr);
  return self;
}
Tensor index_fill_tensor_meta_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  check_index_fill(self, dim, index, &value);
  return self;
}
Tensor take_meta(const Tensor& self, const Tensor& index) {
  check_take(self, index);
  return make_empty(index.sizes(), self.dtype(), kMeta);
}

// ---- factories -------------------------------------------------------------------------------

Tensor space_out_meta(const Scalar&, const Scalar&, int64_t steps, const Tensor& out) {
  check_space(steps, out, "linspace_cpu");
  out.impl()->resize_contiguous({steps});
  return out;
}
Tensor logspace_out_meta(const Scalar&, const Scalar&, int64_t steps, double, const Tensor& out) {
  check_space(steps, out, "logspace_cpu");
  out.impl()->resize_contiguous({steps});
  return out;
}
Tensor random_from_meta_(const Tensor& self, int64_t from, std::optional<int64_t> to, std::optional<Generator>) {
  random_range(self, from, to);
  return self;
}
Tensor random_meta_(const Tensor& self, std::optional<Generator>) { return self; }
Tensor exponential_meta_(const Tensor& self, double lambd, std::optional<Generator>) {
  IPT_CHECK(lambd >= 0.0, RuntimeError, "exponential_ expects lambda >= 0.0, but found lambda=", lambd);
  return self;
}
Tensor bernoulli_scalar_meta_(const Tensor& self, double p, std::optional<Generator>) {
  IPT_CHECK(0 <= p && p <= 1, RuntimeError, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  return self;
}
Tensor bernoulli_tensor_meta_(const Tensor& self, const Tensor& p, std::optional<Generator>) {
  ops::expand(p, self.sizes());
  return self;
}
Tensor randperm_out_meta(int64_t n, std::optional<Generator>, const Tensor& out) {
  IPT_CHECK(out.dtype() != ScalarType::Bool, NotImplementedError, "\"randperm\" not implemented for 'Bool'");
  out.impl()->resize_contiguous({n});
  return out;
}
// Note [Meta kernels of data-dependent operators]
// PyTorch 2.15 registers Meta kernels for these too (torch/_meta_registrations.py): multinomial's
// shape depends only on its arguments; nonzero's and item()'s depend on the data, so their Meta
// kernels refuse with 2.15's messages instead of leaving the call to the Meta fallback.
Tensor multinomial_meta(const Tensor& self, int64_t num_samples, bool, std::optional<Generator>) {
  IPT_CHECK(self.dim() > 0 && self.dim() <= 2, RuntimeError,
            "The probability distributions dimensions must be 1 or 2, but got ", self.dim());
  std::vector<int64_t> sizes =
      self.dim() == 1 ? std::vector<int64_t>{num_samples} : std::vector<int64_t>{self.sizes()[0], num_samples};
  return make_empty(sizes, ScalarType::Long, kMeta);
}
Tensor nonzero_meta(const Tensor&) {
  IPT_FAIL(NotImplementedError,
           "The register_meta function for torch.nonzero() raises unimplemented by default, as a correct "
           "data-independent implementation does not exist. This implementation returns a fake value, assuming all "
           "elements of the tensor are non-zero. To enable this registration, please set "
           "'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True.");
}
Scalar _local_scalar_dense_meta(const Tensor&) {
  IPT_FAIL(RuntimeError, "Tensor.item() cannot be called on meta tensors");
}
Tensor normal_tensor_float_meta(const Tensor& mean, double, std::optional<Generator>) { return unary_meta(mean); }
Tensor normal_float_tensor_meta(double, const Tensor& std, std::optional<Generator>) { return unary_meta(std); }
Tensor normal_tensor_tensor_meta(const Tensor& mean, const Tensor& std, std::optional<Generator>) {
  return make_empty(broadcast_shapes(mean.sizes(), std.sizes()), promote_types(mean.dtype(), std.dtype()), kMeta);
}

}  // namespace native
}  // namespace ipt

// Normalization and convolution: the shapes their CPU kernels give, from the same checks.
namespace ipt::native {

std::tuple<Tensor, Tensor, Tensor> layer_norm_meta(const Tensor& input, IntArrayRef normalized_shape,
                                                   const std::optional<Tensor>& weight,
                                                   const std::optional<Tensor>& bias, double) {
  const LayerNormGeometry g = check_layer_norm(input, normalized_shape, weight, bias);
  return {make_empty(input.sizes(), input.dtype(), kMeta), make_empty(g.stat_sizes, input.dtype(), kMeta),
          make_empty(g.stat_sizes, input.dtype(), kMeta)};
}

std::tuple<Tensor, Tensor, Tensor> layer_norm_backward_meta(const Tensor&, const Tensor& input,
                                                            IntArrayRef normalized_shape, const Tensor&, const Tensor&,
                                                            const std::optional<Tensor>& weight,
                                                            const std::optional<Tensor>& bias,
                                                            std::array<bool, 3> output_mask) {
  check_layer_norm(input, normalized_shape, weight, bias);
  const std::vector<int64_t> p(normalized_shape.begin(), normalized_shape.end());
  return {output_mask[0] ? make_empty(input.sizes(), input.dtype(), kMeta) : Tensor(),
          output_mask[1] ? make_empty(p, input.dtype(), kMeta) : Tensor(),
          output_mask[2] ? make_empty(p, input.dtype(), kMeta) : Tensor()};
}

namespace {
std::tuple<Tensor, Tensor, Tensor> conv_backward_meta(const Tensor& grad_output, const Tensor& input,
                                                      const Tensor& weight, const ConvParams&,
                                                      std::array<bool, 3> output_mask) {
  return {
      output_mask[0] ? make_empty(input.sizes(), input.dtype(), kMeta) : Tensor(),
      output_mask[1] ? make_empty(weight.sizes(), weight.dtype(), kMeta) : Tensor(),
      output_mask[2] ? make_empty(std::vector<int64_t>{grad_output.sizes()[1]}, grad_output.dtype(), kMeta) : Tensor()};
}
[[maybe_unused]] const bool kMetaConvBackwardRegistered =
    (register_conv_backward(DeviceType::Meta, &conv_backward_meta), true);
}  // namespace

}  // namespace ipt::native

namespace ipt::native {

// A meta convolution's output: PyTorch registers its shape function for the Meta key.
Tensor _convolution_meta(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                         IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                         IntArrayRef output_padding, int64_t groups, bool, bool, bool, bool) {
  const int64_t spatial = input.dim() - 2;
  IPT_CHECK(spatial >= 1 && spatial <= 3, RuntimeError,
            "Expected 3D, 4D or 5D input to convolution, but got input of size: ", int_list_str(input.sizes()));
  const ConvParams p = conv_params(stride, padding, dilation, output_padding, transposed, groups, spatial);
  check_conv_forward(input, weight, bias, p);
  return make_empty(conv_output_sizes(input.sizes(), weight.sizes(), p), input.dtype(), kMeta);
}

std::tuple<Tensor, Tensor, Tensor> convolution_backward_meta(const Tensor& grad_output, const Tensor& input,
                                                             const Tensor& weight, std::optional<IntArrayRef>,
                                                             IntArrayRef, IntArrayRef, IntArrayRef, bool, IntArrayRef,
                                                             int64_t, std::array<bool, 3> output_mask) {
  return conv_backward_stub(DeviceType::Meta)(grad_output, input, weight, ConvParams(), output_mask);
}

Tensor slow_conv_transpose2d_meta(const Tensor& self, const Tensor& weight, IntArrayRef,
                                  const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                                  IntArrayRef output_padding, IntArrayRef dilation) {
  const ConvParams p = conv_params(stride, padding, dilation, output_padding, true, 1, 2);
  check_conv_forward(self, weight, bias, p);
  return make_empty(conv_output_sizes(self.sizes(), weight.sizes(), p), self.dtype(), kMeta);
}

}  // namespace ipt::native

namespace ipt::native {

Tensor hardtanh_meta(const Tensor& self, const Scalar&, const Scalar&) {
  IPT_CHECK(self.dtype() != ScalarType::Bool, NotImplementedError, "Bool inputs not supported for hardtanh");
  return unary_meta(self);
}
Tensor hardtanh_meta_(const Tensor& self, const Scalar&, const Scalar&) {
  IPT_CHECK(self.dtype() != ScalarType::Bool, NotImplementedError, "Bool inputs not supported for hardtanh");
  return self;
}
Tensor hardtanh_backward_meta(const Tensor& grad_output, const Tensor& self, const Scalar&, const Scalar&) {
  const PointwiseGeometry g = binary_geometry(grad_output, self);
  return make_empty(g.sizes, g.out_dtype, kMeta);
}

}  // namespace ipt::native

namespace ipt::native {

Tensor embedding_dense_backward_meta(const Tensor& grad_output, const Tensor&, int64_t num_weights, int64_t, bool) {
  const int64_t dim = grad_output.dim() == 0 ? 1 : grad_output.sizes().back();
  return make_empty(std::vector<int64_t>{num_weights, dim}, grad_output.dtype(), kMeta);
}
std::tuple<Tensor, Tensor> native_dropout_meta(const Tensor& input, double, std::optional<bool>) {
  return {make_empty(input.sizes(), input.dtype(), kMeta), make_empty(input.sizes(), ScalarType::Bool, kMeta)};
}
Tensor native_dropout_backward_meta(const Tensor& grad_output, const Tensor&, double) {
  return make_empty(grad_output.sizes(), grad_output.dtype(), kMeta);
}

}  // namespace ipt::native

// Pooling: the output sizes from the same checks as the CPU kernels.
namespace ipt::native {

std::tuple<Tensor, Tensor> max_pool2d_with_indices_meta(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                        IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  const PoolGeometry g = pool_geometry(self, kernel_size, stride, padding, dilation, ceil_mode, 2, "max_pool2d");
  return {make_empty(g.out_sizes, self.dtype(), kMeta), make_empty(g.out_sizes, ScalarType::Long, kMeta)};
}
std::tuple<Tensor, Tensor> max_pool3d_with_indices_meta(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                        IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  const PoolGeometry g = pool_geometry(self, kernel_size, stride, padding, dilation, ceil_mode, 3, "max_pool3d");
  return {make_empty(g.out_sizes, self.dtype(), kMeta), make_empty(g.out_sizes, ScalarType::Long, kMeta)};
}
Tensor max_pool2d_with_indices_backward_meta(const Tensor&, const Tensor& self, IntArrayRef, IntArrayRef, IntArrayRef,
                                             IntArrayRef, bool, const Tensor&) {
  return unary_meta(self);
}
Tensor max_pool3d_with_indices_backward_meta(const Tensor&, const Tensor& self, IntArrayRef, IntArrayRef, IntArrayRef,
                                             IntArrayRef, bool, const Tensor&) {
  return unary_meta(self);
}
std::tuple<Tensor, Tensor> adaptive_max_pool2d_meta(const Tensor& self, IntArrayRef output_size) {
  const PoolGeometry g = adaptive_max_pool_geometry(self, output_size, 2, "adaptive_max_pool2d");
  return {make_empty(g.out_sizes, self.dtype(), kMeta), make_empty(g.out_sizes, ScalarType::Long, kMeta)};
}
std::tuple<Tensor, Tensor> adaptive_max_pool3d_meta(const Tensor& self, IntArrayRef output_size) {
  const PoolGeometry g = adaptive_max_pool_geometry(self, output_size, 3, "adaptive_max_pool3d");
  return {make_empty(g.out_sizes, self.dtype(), kMeta), make_empty(g.out_sizes, ScalarType::Long, kMeta)};
}
Tensor adaptive_max_pool_backward_meta(const Tensor&, const Tensor& self, const Tensor&) { return unary_meta(self); }
Tensor avg_pool2d_meta(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                       bool ceil_mode, bool, std::optional<int64_t> divisor_override) {
  IPT_CHECK(!divisor_override || *divisor_override != 0, RuntimeError, "divisor must be not zero");
  return make_empty(pool_geometry(self, kernel_size, stride, padding, {}, ceil_mode, 2, "avg_pool2d").out_sizes,
                    self.dtype(), kMeta);
}
Tensor avg_pool3d_meta(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                       bool ceil_mode, bool, std::optional<int64_t> divisor_override) {
  IPT_CHECK(!divisor_override || *divisor_override != 0, RuntimeError, "divisor must be not zero");
  return make_empty(pool_geometry(self, kernel_size, stride, padding, {}, ceil_mode, 3, "avg_pool3d").out_sizes,
                    self.dtype(), kMeta);
}
Tensor avg_pool2d_backward_meta(const Tensor&, const Tensor& self, IntArrayRef, IntArrayRef, IntArrayRef, bool, bool,
                                std::optional<int64_t>) {
  return unary_meta(self);
}
Tensor avg_pool3d_backward_meta(const Tensor&, const Tensor& self, IntArrayRef, IntArrayRef, IntArrayRef, bool, bool,
                                std::optional<int64_t>) {
  return unary_meta(self);
}
Tensor adaptive_avg_pool2d_meta(const Tensor& self, IntArrayRef output_size) {
  return make_empty(adaptive_pool_geometry(self, output_size, 2, "adaptive_avg_pool2d").out_sizes, self.dtype(), kMeta);
}
Tensor adaptive_avg_pool3d_meta(const Tensor& self, IntArrayRef output_size) {
  return make_empty(adaptive_pool_geometry(self, output_size, 3, "adaptive_avg_pool3d").out_sizes, self.dtype(), kMeta);
}
Tensor adaptive_avg_pool_backward_meta(const Tensor&, const Tensor& self) { return unary_meta(self); }

}  // namespace ipt::native

// Batch norm: the output, and the saved statistics (one per channel when training, none otherwise).
namespace ipt::native {

std::tuple<Tensor, Tensor, Tensor> batch_norm_meta(const Tensor& input, const std::optional<Tensor>&,
                                                   const std::optional<Tensor>&, const std::optional<Tensor>&,
                                                   const std::optional<Tensor>&, bool training, double, double) {
  IPT_CHECK(input.dim() >= 2, RuntimeError, "batch_norm: expected an input with at least 2 dims, got ", input.dim());
  const std::vector<int64_t> stat = {training ? input.sizes()[1] : 0};
  return {make_empty(input.sizes(), input.dtype(), kMeta), make_empty(stat, input.dtype(), kMeta),
          make_empty(stat, input.dtype(), kMeta)};
}
std::tuple<Tensor, Tensor, Tensor> batch_norm_backward_meta(const Tensor&, const Tensor& input,
                                                            const std::optional<Tensor>&, const std::optional<Tensor>&,
                                                            const std::optional<Tensor>&, const std::optional<Tensor>&,
                                                            const std::optional<Tensor>&, bool, double,
                                                            std::array<bool, 3> output_mask) {
  const std::vector<int64_t> c = {input.sizes()[1]};
  return {output_mask[0] ? make_empty(input.sizes(), input.dtype(), kMeta) : Tensor(),
          output_mask[1] ? make_empty(c, input.dtype(), kMeta) : Tensor(),
          output_mask[2] ? make_empty(c, input.dtype(), kMeta) : Tensor()};
}
std::tuple<Tensor, Tensor, Tensor> _batch_norm_legit_meta(const Tensor& input, const std::optional<Tensor>& weight,
                                                          const std::optional<Tensor>& bias, const Tensor& rm,
                                                          const Tensor& rv, bool training, double momentum,
                                                          double eps) {
  return batch_norm_meta(input, weight, bias, rm, rv, training, momentum, eps);
}
std::tuple<Tensor, Tensor, Tensor> _batch_norm_legit_no_stats_meta(const Tensor& input,
                                                                   const std::optional<Tensor>& weight,
                                                                   const std::optional<Tensor>& bias, bool training,
                                                                   double momentum, double eps) {
  return batch_norm_meta(input, weight, bias, std::nullopt, std::nullopt, training, momentum, eps);
}

}  // namespace ipt::native

namespace ipt::native {

std::tuple<Tensor, Tensor, Tensor> group_norm_meta(const Tensor& input, const std::optional<Tensor>& weight,
                                                   const std::optional<Tensor>& bias, int64_t N, int64_t C, int64_t HxW,
                                                   int64_t group, double) {
  check_group_norm(input, weight, bias, N, C, HxW, group);
  const std::vector<int64_t> stat = {N, group};
  return {make_empty(input.sizes(), input.dtype(), kMeta), make_empty(stat, input.dtype(), kMeta),
          make_empty(stat, input.dtype(), kMeta)};
}
std::tuple<Tensor, Tensor, Tensor> group_norm_backward_meta(const Tensor&, const Tensor& input, const Tensor&,
                                                            const Tensor&, const std::optional<Tensor>&, int64_t,
                                                            int64_t C, int64_t, int64_t,
                                                            std::array<bool, 3> output_mask) {
  const std::vector<int64_t> c = {C};
  return {output_mask[0] ? make_empty(input.sizes(), input.dtype(), kMeta) : Tensor(),
          output_mask[1] ? make_empty(c, input.dtype(), kMeta) : Tensor(),
          output_mask[2] ? make_empty(c, input.dtype(), kMeta) : Tensor()};
}

}  // namespace ipt::native
