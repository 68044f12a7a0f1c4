#pragma once
// Output shapes and dtypes shared by every backend's kernels (PyTorch's "meta functions"):
// the CPU kernel and the Meta kernel of an operator compute the same result geometry here,
// so a meta tensor reports exactly the shape and dtype the real computation would produce.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generated/ops.h"

namespace ipt {

// Type promotion across operands (PyTorch's result_type): dimensioned tensors outrank 0-dim
// tensors, which outrank Python numbers, unless a lower group is of a higher category
// (bool < integer < floating).
ScalarType result_type(std::initializer_list<const Tensor*> operands);
// The default floating dtype used when integers are promoted (torch.get_default_dtype()).
constexpr ScalarType kDefaultFloat = ScalarType::Float;

enum class PromoteInts { No, ToFloat };  // div and exp make integer inputs floating

struct PointwiseGeometry {
  std::vector<int64_t> sizes;
  ScalarType compute_dtype;  // dtype the math is done in
  ScalarType out_dtype;      // dtype of the result
};

// Geometry of `a op b` (broadcast shapes, promoted dtype).
PointwiseGeometry binary_geometry(const Tensor& a, const Tensor& b, PromoteInts promote = PromoteInts::No);
// Geometry of `self op= other`: checks `other` broadcasts to self's shape and the result
// dtype can be cast to self's ("result type Float can't be cast to the desired output type Long").
PointwiseGeometry inplace_binary_geometry(const Tensor& self, const Tensor& other,
                                          PromoteInts promote = PromoteInts::No);
// The dtype `a op b` computes in (binary_geometry's compute_dtype, without the shapes).
ScalarType binary_dtype(const Tensor& a, const Tensor& b, PromoteInts promote);
// Result dtype of a unary op on `t`.
ScalarType unary_dtype(const Tensor& t, PromoteInts promote);
// Checks the sub/neg restrictions on bool tensors with PyTorch's messages.
void check_sub_bool(const Tensor& a, const Tensor& b);
// add and sub: "For integral input tensors, argument alpha must not be a floating point number."
void check_alpha(const Tensor& a, const Tensor& b, const Scalar& alpha);
void check_neg_bool(const Tensor& t);
// Whether a value of dtype `from` may be written into a tensor of dtype `to` by an in-place op.
bool can_cast(ScalarType from, ScalarType to);

struct ReductionGeometry {
  std::vector<int64_t> out_sizes;  // with or without kept dims
  std::vector<bool> reduced;       // per input dim
  ScalarType out_dtype;
};
// all / any's result dtype: bool, or uint8 for uint8 input (as PyTorch 2.15).
ScalarType all_any_dtype(const Tensor& self);
// self's sizes with dim d left out (kept as 1 when keepdim): a reduction along one dim.
std::vector<int64_t> sizes_without_dim(const Tensor& self, int64_t d, bool keepdim);
// amax / amin (op_name): the reduction's geometry in self's dtype, with PyTorch's errors for an
// empty input or an empty reduced dim.
ReductionGeometry amax_geometry(const Tensor& self, IntArrayRef dim, bool keepdim, const char* op_name);
// `op_name` is "sum" or "mean" (mean rejects integer inputs with PyTorch's message).
ReductionGeometry reduction_geometry(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                                     std::optional<ScalarType> dtype, const char* op_name);

// Checks dot / mv / bmm operands with PyTorch's messages.
void check_dot(const Tensor& self, const Tensor& other);
// addmv's checks (mv is addmv into a fresh result): the result has mat's rows and vec's dtype.
void check_addmv(const Tensor& self, const Tensor& mat, const Tensor& vec);
// A structured in-place kernel's self must have its result's sizes and dtype: "Bad in-place
// call: input tensor size [1] and output tensor size [2] should match".
void check_inplace_result(const Tensor& self, IntArrayRef sizes, ScalarType dtype);
void check_bmm(const Tensor& self, const Tensor& mat2);

// The shapes of a matrix product's operands (2-D, inner sizes match), the message prefixed with
// the operator: "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x4)".
void check_mm_shapes(const Tensor& self, const Tensor& mat2, const char* op);
// mm's meta checks: the shapes only (see Note [mm's checks]).
void check_mm(const Tensor& self, const Tensor& mat2);
// mm's checks on the Meta device, 2.15's Python meta function's: "b must be 2D".
void check_meta_mm(const Tensor& a, const Tensor& b);
// The CPU matrix product's own dtype check: "expected m1 and m2 to have the same dtype, but got:
// float != double".
void check_mm_cpu_dtypes(const Tensor& m1, const Tensor& m2);

// ---- what torch.nn needs ---------------------------------------------------------------------

// Geometry of three operands broadcast together (addcmul, addcdiv, where): shape and result dtype.
PointwiseGeometry ternary_geometry(const Tensor& a, const Tensor& b, const Tensor& c);
// Same, written into `self` (addcmul_): self must have the broadcast shape and take the dtype.
PointwiseGeometry inplace_ternary_geometry(const Tensor& self, const Tensor& b, const Tensor& c);
// addcdiv refuses integer tensor1 / tensor2 with PyTorch's message.
void check_addcdiv(const Tensor& tensor1, const Tensor& tensor2);
// addmm's output shape [mat1 rows, mat2 cols], with PyTorch's checks (matrices, inner sizes,
// dtypes); `self` must expand to it (checked by the caller's expand).
std::vector<int64_t> addmm_geometry(const Tensor& self, const Tensor& mat1, const Tensor& mat2);
// The wrapped softmax dim; floating inputs only, unless empty ("\"softmax_lastdim_kernel_impl\"
// not implemented for 'Long'"). `log` selects log_softmax's kernel names.
int64_t softmax_dim(const Tensor& self, int64_t dim, bool log);
// nll_loss_forward (1-D or 2-D input) and nll_loss2d_forward (4-D): the input as (N, C, S)
// with S spatial positions per sample, the output shape for reduction=none, PyTorch's checks.
struct NllLossGeometry {
  int64_t n = 1, c = 1, s = 1;
  std::vector<int64_t> none_sizes;  // output shape with reduction=none
};
NllLossGeometry nll_loss_geometry(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                                  bool spatial);
// mse_loss: output shape (broadcast shape for reduction=none, [] otherwise) and dtype checks.
std::vector<int64_t> mse_loss_geometry(const Tensor& self, const Tensor& target, int64_t reduction);

// ---- elementwise math ------------------------------------------------------------------------

// Kernels without a bool version: "\"abs_cpu\" not implemented for 'Bool'".
void check_not_bool(const Tensor& self, const char* kernel);
// clamp's result dtype (self promoted with the bounds, as numbers); needs at least one bound.
ScalarType clamp_dtype(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max);
// clamp_: the promoted dtype must be writable into self.
void check_clamp_inplace(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max);
// where(condition, self, other): the three broadcast; condition must be bool; dtype of self and other.
PointwiseGeometry where_geometry(const Tensor& condition, const Tensor& self, const Tensor& other);

// ---- comparisons, masks and indexing ------------------------------------------------------------

// masked_fill_: a bool mask that broadcasts to self's shape.
void check_masked_fill(const Tensor& self, const Tensor& mask);
// index_select's output shape (self's, with index.numel() at dim), with PyTorch's checks.
std::vector<int64_t> index_select_geometry(const Tensor& self, int64_t dim, const Tensor& index);

// Advanced indexing, x[i0, :, i2] (see Note [Advanced indexing] in backends/cpu/index_kernels.cpp):
// what the index tensors select, without reading their values, shared by the CPU and Meta
// kernels. Bool masks become their nonzero() columns here (through the dispatcher, so a mask
// on the Meta device fails as PyTorch's does: nonzero has no Meta kernel).
struct IndexGeometry {
  std::vector<std::optional<Tensor>> idx;  // per dim of self: a long index tensor, or none for `:`
  std::vector<int64_t> b_sizes;            // the index tensors' broadcast shape B
  std::vector<int64_t> dims;               // the indexed dims, in order
  int64_t b_pos = 0;                       // where B sits in the result
  std::vector<int64_t> out_sizes;          // the result's shape
};
IndexGeometry index_geometry(const Tensor& self, std::span<const std::optional<Tensor>> indices);
// index_put_: values of self's dtype (checked first, before the indices), which broadcast to
// the indexing result's shape.
void check_index_put_dtype(const Tensor& self, const Tensor& values);
void check_index_put_values(const std::vector<int64_t>& result_sizes, const Tensor& values);
// gather's and scatter's checks (index dtype, dims and sizes; src, when there is one, of self's
// dtype), with PyTorch's messages; they return the wrapped dim. A 0-dim tensor counts as [1].
int64_t gather_check(const Tensor& self, int64_t dim, const Tensor& index);
// A tensor's legacy type name, as PyTorch's messages give it: torch.FloatTensor, torch.cuda.LongTensor.
std::string tensor_type_name(const Tensor& t);
int64_t scatter_check(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src);
// scatter_reduce's reduction, from its `reduce` argument (2.15 also takes "max" and "min").
enum class ScatterReduction { Sum, Prod, Mean, Amax, Amin };
ScatterReduction scatter_reduction(std::string_view reduce);
// masked_select: a bool mask broadcast with self; the broadcast shape.
std::vector<int64_t> masked_select_shape(const Tensor& self, const Tensor& mask);
// index_add_'s checks (vector of long indices, one per source slice, matching dtypes and shapes).
void index_add_geometry(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);

// ---- reductions ------------------------------------------------------------------------------

// max() / min() of an empty tensor is an error (PyTorch's message names the op).
void check_minmax_all(const Tensor& self, const char* name);
// The wrapped dim of max.dim / min.dim / argmax; the reduced dim must not be empty.
int64_t minmax_dim_check(const Tensor& self, int64_t dim, const char* name);
// prod's result dtype: `dtype`, else int64 for integers and bools, else self's.
ScalarType prod_dtype(const Tensor& self, std::optional<ScalarType> dtype);
// cumsum's result dtype (the same rule as prod).
ScalarType cumsum_dtype(const Tensor& self, std::optional<ScalarType> dtype);
// tril_indices / triu_indices: checks the sizes and the index dtype (int64 or int32) and returns
// the (2, n) result's n, the elements (r, c) of a row x col matrix with c - r <= offset
// (lower) or >= offset (upper).
int64_t triangle_indices_count(int64_t row, int64_t col, int64_t offset, ScalarType dtype, bool lower,
                               const char* name);
// var / std over dims (all when none or empty): floating inputs only.
ReductionGeometry var_geometry(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim);
// norm over dims (all when empty): floating inputs only.
ReductionGeometry norm_geometry(const Tensor& self, IntArrayRef dim, bool keepdim);
// linalg.vector_norm: a floating input, and a dtype= it converts to without narrowing.
void check_vector_norm_args(const Tensor& self, std::optional<ScalarType> dtype);

// ---- joining, splitting and repeating ----------------------------------------------------------

// cat: PyTorch's checks, the wrapped dim, the output shape and dtype. Legacy empty 1-D inputs
// ([0]) are skipped (`skip[i]`).
struct CatGeometry {
  int64_t dim = 0;
  std::vector<int64_t> sizes;
  ScalarType dtype = ScalarType::Float;
  std::vector<bool> skip;
};
CatGeometry cat_geometry(std::span<const Tensor> tensors, int64_t dim);
// index_copy_: PyTorch's checks (index vector of longs, matching dtypes and slice shapes).
void check_index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
// index_fill_: PyTorch's checks (a 0-dim value tensor, an int64 index vector, dim in range);
// the dim, wrapped.
int64_t check_index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* value);
// take: an int64 index, and something to take from.
void check_take(const Tensor& self, const Tensor& index);

// ---- factories -------------------------------------------------------------------------------

// linspace / logspace: steps >= 0 and no bool output ("\"linspace_cpu\" not implemented for 'Bool'").
void check_space(int64_t steps, const Tensor& out, const char* kernel);
// random_(from, to): how many values a draw picks from, [from, to) or, without `to`, [from, the
// largest integer self's dtype holds exactly]; nullopt for the whole 64-bit range (from =
// INT64_MIN without `to`). PyTorch's check that from < to.
std::optional<uint64_t> random_range(const Tensor& self, int64_t from, std::optional<int64_t> to);
// normal with a std tensor: every element >= 0.
void check_normal_std(const Tensor& std);
// Elementwise operands on one device: the first that is not the CPU sets it, and a 0-dim CPU
// tensor may go along ("Expected all tensors to be on the same device, but found at least two
// devices, meta and cpu!"). Returns that device (the CPU when all are on the CPU).
Device check_same_device(std::initializer_list<const Tensor*> operands);

// ---- elementwise operations on the Meta device (Note [Elementwise checks on the Meta device]) --
// Whether one of the operands is on the Meta device (the Meta kernel then runs for all).
bool involves_meta(std::initializer_list<const Tensor*> operands);
// The operands' broadcast shape in the words of 2.15's Python reference: "Attempting to broadcast
// a dimension of length 4 at -1! Mismatching argument at index 1 had torch.Size([4]); but
// expected shape should be broadcastable to [2, 3]".
std::vector<int64_t> meta_broadcast_shapes(std::initializer_list<const Tensor*> operands);
// "torch.Size([2, 3])", as PyTorch's Python meta kernels print sizes in their messages.
std::string torch_size_str(IntArrayRef sizes);
// "" when the operands share a device (a 0-dim CPU tensor may go along), else 2.15's Python
// message: "Tensor on device cpu is not on the expected device meta!".
std::string meta_device_mismatch(std::initializer_list<const Tensor*> operands);
// An in-place Meta operation's shape check: "output with shape torch.Size([3]) doesn't match
// the broadcast shape (2, 3)".
void check_meta_inplace_shape(const Tensor& self, IntArrayRef sizes);
// multinomial: a 1- or 2-dim floating tensor, n_sample > 0, no more samples than categories
// without replacement, at most 2^24 categories.
void check_multinomial(const Tensor& self, int64_t n_sample, bool replacement);

}  // namespace ipt
