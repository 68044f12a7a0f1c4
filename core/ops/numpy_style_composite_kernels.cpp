// NumPy-style stacking, splitting and axis helpers and the small aliases of the tensor API,
// written with other operators as PyTorch 2.15 writes them (CompositeImplicitAutograd, so the
// Dispatch view shows the same chain of calls and autograd differentiates the parts):
// atleast_1d/2d/3d, hstack / vstack / dstack / column_stack, hsplit / vsplit / dsplit, movedim
// with lists, swapaxes, ravel, positive, fix, absolute, true_divide, diff, take_along_dim,
// count_nonzero, nansum / nanmean, cartesian_prod, block_diag; cat.out, trace, nan_to_num (over its out=
// form), deg2rad / rad2deg (CompositeExplicitAutograd, each with its own backward node).
#include <algorithm>
#include <sstream>

#include "core/ops/out_rules.h"
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"
#include "generated/ops.h"

namespace ipt::native {

namespace {

std::string list_text(IntArrayRef v) {
  std::ostringstream s;
  s << "[";
  for (size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i];
  s << "]";
  return s.str();
}

// out = result, as a structured out= kernel leaves it: resized (with PyTorch's warning when it
// had elements) and written in its own dtype.
Tensor write_out(const Tensor& result, const Tensor& out) {
  resize_output(out, result.sizes());
  ops::copy_(out, result, false);
  return out;
}

template <typename F>
std::vector<Tensor> each(std::span<const Tensor> tensors, F f) {
  std::vector<Tensor> out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) out.push_back(f(t));
  return out;
}

}  // namespace

Tensor cat_out(std::span<const Tensor> tensors, int64_t dim, const Tensor& out) {
  Tensor result = ops::cat(tensors, dim);
  IPT_CHECK(can_cast(result.dtype(), out.dtype()), RuntimeError,
            "torch.cat(): input types can't be cast to the desired output type ", dtype_cpp_name(out.dtype()));
  return write_out(result, out);
}

Tensor atleast_1d(const Tensor& self) { return self.dim() == 0 ? ops::reshape(self, std::vector<int64_t>{1}) : self; }
Tensor atleast_2d(const Tensor& self) {
  if (self.dim() == 0) return ops::reshape(self, std::vector<int64_t>{1, 1});
  if (self.dim() == 1) return ops::unsqueeze(self, 0);
  return self;
}
Tensor atleast_3d(const Tensor& self) {
  if (self.dim() == 0) return ops::reshape(self, std::vector<int64_t>{1, 1, 1});
  if (self.dim() == 1) return ops::unsqueeze(ops::unsqueeze(self, 0), -1);
  if (self.dim() == 2) return ops::unsqueeze(self, -1);
  return self;
}
std::vector<Tensor> atleast_1d(std::span<const Tensor> tensors) {
  return each(tensors, [](const Tensor& t) { return ops::atleast_1d(t); });
}
std::vector<Tensor> atleast_2d(std::span<const Tensor> tensors) {
  return each(tensors, [](const Tensor& t) { return ops::atleast_2d(t); });
}
std::vector<Tensor> atleast_3d(std::span<const Tensor> tensors) {
  return each(tensors, [](const Tensor& t) { return ops::atleast_3d(t); });
}

Tensor hstack(std::span<const Tensor> tensors) {
  IPT_CHECK(!tensors.empty(), RuntimeError, "hstack expects a non-empty TensorList");
  const std::vector<Tensor> rep = ops::atleast_1d_Sequence(tensors);
  return ops::cat(rep, rep[0].dim() == 1 ? 0 : 1);
}
Tensor hstack_out(std::span<const Tensor> tensors, const Tensor& out) {
  IPT_CHECK(!tensors.empty(), RuntimeError, "hstack expects a non-empty TensorList");
  const std::vector<Tensor> rep = ops::atleast_1d_Sequence(tensors);
  return ops::cat_out(rep, rep[0].dim() == 1 ? 0 : 1, out);
}
Tensor vstack(std::span<const Tensor> tensors) {
  IPT_CHECK(!tensors.empty(), RuntimeError, "vstack expects a non-empty TensorList");
  return ops::cat(ops::atleast_2d_Sequence(tensors), 0);
}
Tensor vstack_out(std::span<const Tensor> tensors, const Tensor& out) {
  IPT_CHECK(!tensors.empty(), RuntimeError, "vstack expects a non-empty TensorList");
  return ops::cat_out(ops::atleast_2d_Sequence(tensors), 0, out);
}
Tensor dstack(std::span<const Tensor> tensors) {
  IPT_CHECK(!tensors.empty(), RuntimeError, "dstack expects a non-empty TensorList");
  return ops::cat(ops::atleast_3d_Sequence(tensors), 2);
}
Tensor dstack_out(std::span<const Tensor> tensors, const Tensor& out) {
  IPT_CHECK(!tensors.empty(), RuntimeError, "dstack expects a non-empty TensorList");
  return ops::cat_out(ops::atleast_3d_Sequence(tensors), 2, out);
}
namespace {
// column_stack's columns: 0-D and 1-D tensors as (numel, 1), the rest as they are.
std::vector<Tensor> as_columns(std::span<const Tensor> tensors) {
  IPT_CHECK(!tensors.empty(), RuntimeError, "column_stack expects a non-empty TensorList");
  return each(tensors, [](const Tensor& t) {
    return t.dim() <= 1 ? ops::reshape(t, std::vector<int64_t>{t.numel(), 1}) : t;
  });
}
}  // namespace
Tensor column_stack(std::span<const Tensor> tensors) { return ops::hstack(as_columns(tensors)); }
Tensor column_stack_out(std::span<const Tensor> tensors, const Tensor& out) {
  return ops::hstack_out(as_columns(tensors), out);
}

namespace {
// hsplit / vsplit / dsplit: at least `min_dims` dims, split along `dim`.
void check_split_dims(const Tensor& self, const char* name, int64_t min_dims) {
  IPT_CHECK(self.dim() >= min_dims, RuntimeError, "torch.", name, " requires a tensor with at least ", min_dims,
            " dimension, but got a tensor with ", self.dim(), " dimensions!");
}
std::vector<Tensor> split_sections(const Tensor& self, const char* name, int64_t min_dims, int64_t dim,
                                   int64_t sections) {
  check_split_dims(self, name, min_dims);
  const int64_t size = self.sizes()[static_cast<size_t>(dim)];
  IPT_CHECK(sections != 0 && size % sections == 0, RuntimeError, "torch.", name, " attempted to split along dimension ",
            dim, ", but the size of the dimension ", size, " is not divisible by the split_size ", sections, "!");
  return ops::tensor_split_sections(self, sections, dim);
}
}  // namespace
std::vector<Tensor> hsplit(const Tensor& self, int64_t sections) {
  return split_sections(self, "hsplit", 1, self.dim() == 1 ? 0 : 1, sections);
}
std::vector<Tensor> hsplit(const Tensor& self, IntArrayRef indices) {
  check_split_dims(self, "hsplit", 1);
  return ops::tensor_split_indices(self, indices, self.dim() == 1 ? 0 : 1);
}
std::vector<Tensor> vsplit(const Tensor& self, int64_t sections) {
  return split_sections(self, "vsplit", 2, 0, sections);
}
std::vector<Tensor> vsplit(const Tensor& self, IntArrayRef indices) {
  check_split_dims(self, "vsplit", 2);
  return ops::tensor_split_indices(self, indices, 0);
}
std::vector<Tensor> dsplit(const Tensor& self, int64_t sections) {
  return split_sections(self, "dsplit", 3, 2, sections);
}
std::vector<Tensor> dsplit(const Tensor& self, IntArrayRef indices) {
  check_split_dims(self, "dsplit", 3);
  return ops::tensor_split_indices(self, indices, 2);
}

// movedim(source, destination) with lists: the named dims go to their places, the others keep
// their order in the places left, as one permute.
Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  IPT_CHECK(source.size() == destination.size(), RuntimeError, "movedim: Invalid source or destination dims: source (",
            list_text(source), " dims) should contain the same number of dims as destination (", list_text(destination),
            " dims)");
  const int64_t nd = self.dim();
  std::vector<int64_t> src, dst;
  for (int64_t d : source) src.push_back(wrap_dim(d, nd));
  for (int64_t d : destination) dst.push_back(wrap_dim(d, nd));
  for (size_t i = 0; i < src.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      IPT_CHECK(src[i] != src[j], RuntimeError, "movedim: repeated dim in `source` (", list_text(source), ")");
      IPT_CHECK(dst[i] != dst[j], RuntimeError, "movedim: repeated dim in `destination` (", list_text(destination),
                ")");
    }
  if (nd <= 1) return ops::alias(self);
  std::vector<int64_t> order(static_cast<size_t>(nd), -1);
  std::vector<bool> used(static_cast<size_t>(nd), false);
  for (size_t i = 0; i < src.size(); ++i) {
    order[static_cast<size_t>(dst[i])] = src[i];
    used[static_cast<size_t>(src[i])] = true;
  }
  int64_t next = 0;
  for (int64_t& o : order) {
    if (o != -1) continue;
    while (used[static_cast<size_t>(next)]) ++next;
    o = next++;
  }
  return ops::permute(self, order);
}

Tensor swapaxes(const Tensor& self, int64_t axis0, int64_t axis1) { return ops::transpose_int(self, axis0, axis1); }
Tensor ravel(const Tensor& self) { return ops::view(ops::contiguous(self), std::vector<int64_t>{-1}); }
Tensor positive(const Tensor& self) {
  IPT_CHECK(self.dtype() != ScalarType::Bool, NotImplementedError,
            "The `+` operator, on a bool tensor is not supported.");
  return self;
}
Tensor fix(const Tensor& self) { return ops::trunc(self); }
Tensor fix_(const Tensor& self) { return ops::trunc_(self); }
Tensor fix_out(const Tensor& self, const Tensor& out) { return ops::trunc_out(self, out); }
Tensor absolute(const Tensor& self) { return ops::abs(self); }
Tensor absolute_(const Tensor& self) { return ops::abs_(self); }
Tensor absolute_out(const Tensor& self, const Tensor& out) { return ops::abs_out(self, out); }
Tensor true_divide(const Tensor& self, const Tensor& other) { return ops::div_Tensor(self, other); }
Tensor true_divide_(const Tensor& self, const Tensor& other) { return ops::div__Tensor(self, other); }
Tensor true_divide_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return ops::div_out(self, other, out);
}
Tensor true_divide(const Tensor& self, const Scalar& other) { return ops::div_Scalar(self, other); }
Tensor true_divide_(const Tensor& self, const Scalar& other) { return ops::div__Scalar(self, other); }

namespace {
void check_diff_operand(const Tensor& self, const std::optional<Tensor>& other, int64_t dim) {
  if (!other || !other->defined()) return;
  IPT_CHECK(other->dim() == self.dim(), RuntimeError,
            "diff expects prepend or append to be the same dimension as input");
  for (int64_t i = 0; i < self.dim(); ++i)
    if (i != dim)
      IPT_CHECK(other->size(i) == self.size(i), RuntimeError,
                "diff expects the shape of tensor to prepend or append to match that of input except along the "
                "differencing dimension; input.size(",
                i, ") = ", self.size(i), ", but got tensor.size(", i, ") = ", other->size(i));
}

Tensor diff_of(const Tensor& self, int64_t n, int64_t dim, const std::optional<Tensor>& prepend,
               const std::optional<Tensor>& append) {
  IPT_CHECK(self.dim() >= 1, RuntimeError, "diff expects input to be at least one-dimensional");
  IPT_CHECK(n >= 0, RuntimeError, "order must be non-negative but got ", n);
  const int64_t d = wrap_dim(dim, self.dim());
  check_diff_operand(self, prepend, d);
  check_diff_operand(self, append, d);
  Tensor x = self;
  const bool pre = prepend && prepend->defined(), app = append && append->defined();
  if (pre || app) {
    std::vector<Tensor> parts;
    if (pre) parts.push_back(*prepend);
    parts.push_back(self);
    if (app) parts.push_back(*append);
    x = ops::cat(parts, d);
  }
  if (n == 0) {
    Tensor result = ops::zeros_like(x);
    ops::copy_(result, x, false);
    return result;
  }
  int64_t len = x.size(d) - 1;
  n = std::min(n, x.size(d));
  const bool is_bool = x.dtype() == ScalarType::Bool;
  for (int64_t i = 0; i < n; ++i, --len) {
    const Tensor hi = ops::narrow(x, d, 1, len), lo = ops::narrow(x, d, 0, len);
    x = is_bool ? ops::logical_xor(hi, lo) : ops::sub_Tensor(hi, lo);
  }
  return x;
}
}  // namespace

Tensor diff(const Tensor& self, int64_t n, int64_t dim, const std::optional<Tensor>& prepend,
            const std::optional<Tensor>& append) {
  return diff_of(self, n, dim, prepend, append);
}
Tensor diff_out(const Tensor& self, int64_t n, int64_t dim, const std::optional<Tensor>& prepend,
                const std::optional<Tensor>& append, const Tensor& out) {
  return write_out(diff_of(self, n, dim, prepend, append), out);
}

Tensor take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim) {
  IPT_CHECK(indices.dtype() == ScalarType::Long, RuntimeError,
            "torch.take_along_dim(): dtype of indices should be Long but got ", dtype_cpp_name(indices.dtype()));
  if (!dim)
    return ops::gather(ops::view(self, std::vector<int64_t>{-1}), 0, ops::view(indices, std::vector<int64_t>{-1}));
  IPT_CHECK(self.dim() == indices.dim(), RuntimeError,
            "torch.take_along_dim(): input and indices should have the same number of dimensions, but got ", self.dim(),
            " dimensions for input, and ", indices.dim(), " dimensions for indices");
  const int64_t d = wrap_dim(*dim, self.dim());
  std::vector<int64_t> self_sizes(self.sizes().begin(), self.sizes().end());
  std::vector<int64_t> index_sizes(indices.sizes().begin(), indices.sizes().end());
  self_sizes[static_cast<size_t>(d)] = indices.size(d);
  const Tensor index = ops::broadcast_to(indices, broadcast_shapes(self_sizes, indices.sizes()));
  index_sizes[static_cast<size_t>(d)] = self.size(d);
  const Tensor source = ops::broadcast_to(self, broadcast_shapes(index_sizes, self.sizes()));
  return ops::gather(source, d, index);
}
Tensor take_along_dim_out(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim, const Tensor& out) {
  return write_out(take_along_dim(self, indices, dim), out);
}

Tensor count_nonzero(const Tensor& self, IntArrayRef dim) {
  return ops::sum_dim_IntList(ops::ne_Scalar(self, 0), dim, false, std::nullopt);
}
Tensor count_nonzero(const Tensor& self, std::optional<int64_t> dim) {
  if (dim) return ops::count_nonzero_dim_IntList(self, std::vector<int64_t>{*dim});
  return ops::count_nonzero_dim_IntList(self, std::vector<int64_t>{});
}

// nansum: the sum with NaN read as 0 (the bits of 2.15's sum kernel, which loads NaN as 0).
Tensor nansum(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  const Tensor x = is_floating(self.dtype()) ? ops::where_self(ops::isnan(self), ops::zeros_like(self), self) : self;
  return ops::sum_dim_IntList(x, dim, keepdim, dtype);
}
Tensor nanmean(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  IPT_CHECK(is_floating(self.dtype()), NotImplementedError,
            "nanmean(): expected input to have floating point or complex dtype but got ", dtype_cpp_name(self.dtype()));
  const Tensor factor = ops::sum_dim_IntList(ops::logical_not(ops::isnan(self)), dim, keepdim, std::nullopt);
  return ops::div_Tensor(ops::nansum(self, dim, keepdim, dtype), factor);
}

Tensor cartesian_prod(std::span<const Tensor> tensors) {
  for (const Tensor& t : tensors)
    IPT_CHECK(t.dim() == 1, RuntimeError, "Expect a 1D vector, but got shape ", list_text(t.sizes()));
  if (tensors.size() == 1) return tensors[0];
  std::vector<Tensor> grids = ops::meshgrid_indexing(tensors, "ij");
  for (Tensor& g : grids) g = ops::flatten_using_ints(g, 0, -1);
  return ops::stack(grids, 1);
}

// The tensors (0-D as 1x1, 1-D as one row) down the diagonal of a zero matrix of their promoted dtype.
Tensor block_diag(std::span<const Tensor> tensors) {
  if (tensors.empty())
    return ops::empty_memory_format(std::vector<int64_t>{1, 0}, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                    std::nullopt);
  ScalarType dtype = tensors[0].dtype();
  int64_t rows = 0, cols = 0;
  std::vector<Tensor> blocks;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    IPT_CHECK(t.device() == tensors[0].device(), RuntimeError,
              "torch.block_diag: input tensors must all be on the same device. Input 0 is on device ",
              tensors[0].device().str(), " and input ", i, " is on device ", t.device().str());
    IPT_CHECK(t.dim() <= 2, RuntimeError, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input ", i,
              " has ", t.dim(), " dimensions");
    dtype = promote_types(dtype, t.dtype());
    const Tensor b = t.dim() == 0   ? ops::reshape(t, std::vector<int64_t>{1, 1})
                     : t.dim() == 1 ? ops::reshape(t, std::vector<int64_t>{1, t.numel()})
                                    : t;
    rows += b.size(0);
    cols += b.size(1);
    blocks.push_back(b);
  }
  Tensor result = ops::zeros(std::vector<int64_t>{rows, cols}, dtype, std::nullopt, tensors[0].device());
  int64_t r = 0, c = 0;
  for (const Tensor& b : blocks) {
    if (b.numel() > 0)
      ops::copy_(ops::slice_Tensor(ops::slice_Tensor(result, 0, r, r + b.size(0), 1), 1, c, c + b.size(1), 1), b,
                 false);
    r += b.size(0);
    c += b.size(1);
  }
  return result;
}

// nan_to_num over its out= form (a new tensor like self, or self).
Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  return ops::nan_to_num_out(self, nan, posinf, neginf, ops::empty_like(self));
}
Tensor nan_to_num_(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                   std::optional<double> neginf) {
  return ops::nan_to_num_out(self, nan, posinf, neginf, self);
}

// deg2rad / rad2deg: one multiplication by a wrapped number (integers and bools give the default
// float dtype; in place, a non-floating tensor fails mul_'s cast check), as 2.15 writes them.
namespace {
constexpr double kPiOver180 = 0.017453292519943295769236907684886127134428718885417;
constexpr double k180OverPi = 57.295779513082320876798154814105170332405472466564;
}  // namespace
Tensor deg2rad(const Tensor& self) { return ops::mul_Tensor(self, wrapped_scalar_tensor(Scalar(kPiOver180))); }
Tensor deg2rad_(const Tensor& self) { return ops::mul__Tensor(self, wrapped_scalar_tensor(Scalar(kPiOver180))); }
Tensor deg2rad_out(const Tensor& self, const Tensor& out) {
  return ops::mul_out(self, wrapped_scalar_tensor(Scalar(kPiOver180)), out);
}
Tensor rad2deg(const Tensor& self) { return ops::mul_Tensor(self, wrapped_scalar_tensor(Scalar(k180OverPi))); }
Tensor rad2deg_(const Tensor& self) { return ops::mul__Tensor(self, wrapped_scalar_tensor(Scalar(k180OverPi))); }
Tensor rad2deg_out(const Tensor& self, const Tensor& out) {
  return ops::mul_out(self, wrapped_scalar_tensor(Scalar(k180OverPi)), out);
}

// The diagonal's sum; floating values are added in double, as 2.15's CPU kernel does, and
// integers give int64.
Tensor trace(const Tensor& self) {
  IPT_CHECK(self.dim() == 2, RuntimeError, "trace: expected a matrix, but got tensor with dim ", self.dim());
  IPT_CHECK(self.dtype() != ScalarType::Bool, NotImplementedError, "\"trace\" not implemented for 'Bool'");
  const Tensor d = ops::diagonal(self, 0, 0, 1);
  if (!is_floating(self.dtype())) return ops::sum(d, ScalarType::Long);
  return ops::_to_copy(ops::sum(d, ScalarType::Double), self.dtype());
}

}  // namespace ipt::native
