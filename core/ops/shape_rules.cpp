#include "core/ops/shape_rules.h"

#include <algorithm>

#include "core/ops/scalar_tensor.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"

namespace ipt {

namespace {
enum class Category { None = -1, Bool = 0, Int = 1, Float = 2 };
Category category(ScalarType t) {
  if (t == ScalarType::Bool) return Category::Bool;
  if (is_integral(t, false)) return Category::Int;
  return Category::Float;
}
struct Group {
  std::optional<ScalarType> t;
  void add(ScalarType s) { t = t ? promote_types(*t, s) : s; }
};
// Keeps the higher-priority group's type unless the lower group is of a higher category.
std::optional<ScalarType> combine(std::optional<ScalarType> higher, std::optional<ScalarType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (category(*higher) >= category(*lower)) return higher;
  return promote_types(*higher, *lower);
}
}  // namespace

ScalarType result_type(std::initializer_list<const Tensor*> operands) {
  Group dimensioned, zero_dim, wrapped;
  for (const Tensor* t : operands) {
    if (t->impl()->is_wrapped_number()) {
      // A Python float participates as the default dtype, not as float64.
      wrapped.add(is_floating(t->dtype()) ? kDefaultFloat : t->dtype());
    } else if (t->dim() == 0) {
      zero_dim.add(t->dtype());
    } else {
      dimensioned.add(t->dtype());
    }
  }
  return *combine(dimensioned.t, combine(zero_dim.t, wrapped.t));
}

bool can_cast(ScalarType from, ScalarType to) {
  // Within a category any cast is fine; going down a category (float -> int, int -> bool) is not.
  return static_cast<int>(category(from)) <= static_cast<int>(category(to));
}

static ScalarType promote_ints(ScalarType t, PromoteInts p) {
  return (p == PromoteInts::ToFloat && !is_floating(t)) ? kDefaultFloat : t;
}

Device check_same_device(std::initializer_list<const Tensor*> operands) {
  std::optional<Device> common;
  for (const Tensor* t : operands)
    if (t->defined() && t->device().type != DeviceType::CPU) {
      common = t->device();
      break;
    }
  if (!common) return Device(DeviceType::CPU);
  for (const Tensor* t : operands) {
    if (!t->defined() || t->device() == *common) continue;
    if (t->device().type == DeviceType::CPU && t->dim() == 0) continue;  // a CPU scalar goes along
    IPT_FAIL(RuntimeError, "Expected all tensors to be on the same device, but found at least two devices, ",
             common->str(), " and ", t->device().str(), "!");
  }
  return *common;
}

// Note [Elementwise checks on the Meta device]
// PyTorch 2.15 gives the Meta key Python kernels (torch/_meta_registrations.py, torch/_refs)
// for the elementwise operations, and they check in their own order and words. A functional
// (or out=) form broadcasts first ("Attempting to broadcast a dimension ...") and then wants
// one device, the first operand's that is not a 0-dim CPU tensor ("Tensor on device cpu is not
// on the expected device meta!"); an in-place form checks only that the others broadcast to
// self's shape ("output with shape torch.Size([3]) doesn't match the broadcast shape (2, 3)"),
// so `cpu.add_(meta)` passes and leaves self as it was (addcmul_ and addcdiv_ run the functional
// checks first, devices included). A Meta operand makes the Meta kernel
// run for every operand, so "one operand is on Meta" is exactly when these rules apply.
bool involves_meta(std::initializer_list<const Tensor*> operands) {
  for (const Tensor* t : operands)
    if (t->defined() && t->device().type == DeviceType::Meta) return true;
  return false;
}

std::string torch_size_str(IntArrayRef sizes) { return "torch.Size(" + int_list_str(sizes) + ")"; }

namespace {
std::string python_tuple_str(IntArrayRef sizes) {
  std::string s = "(";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + (sizes.size() == 1 ? ",)" : ")");
}
}  // namespace

std::vector<int64_t> meta_broadcast_shapes(std::initializer_list<const Tensor*> operands) {
  size_t nd = 0;
  for (const Tensor* t : operands)
    if (t->defined()) nd = std::max(nd, static_cast<size_t>(t->dim()));
  std::vector<int64_t> common(nd, 1);
  int64_t arg = 0;
  for (const Tensor* t : operands) {
    if (!t->defined()) continue;
    const auto& s = t->sizes();
    for (int64_t k = 1; k <= t->dim(); ++k) {
      const int64_t have = s[s.size() - k];
      int64_t& want = common[nd - k];
      if (have == want) continue;
      if (want == 1) want = have;
      if (have == 1) continue;
      IPT_CHECK(want == have, RuntimeError, "Attempting to broadcast a dimension of length ", have, " at ", -k,
                "! Mismatching argument at index ", arg, " had ", torch_size_str(s),
                "; but expected shape should be broadcastable to ", int_list_str(common));
    }
    ++arg;
  }
  return common;
}

std::string meta_device_mismatch(std::initializer_list<const Tensor*> operands) {
  std::optional<Device> expected;
  for (const Tensor* t : operands) {
    if (!t->defined() || (t->device().type == DeviceType::CPU && t->dim() == 0)) continue;
    if (!expected) expected = t->device();
    if (t->device() != *expected)
      return "Tensor on device " + t->device().str() + " is not on the expected device " + expected->str() + "!";
  }
  return "";
}

void check_meta_inplace_shape(const Tensor& self, IntArrayRef sizes) {
  IPT_CHECK(std::equal(sizes.begin(), sizes.end(), self.sizes().begin(), self.sizes().end()), RuntimeError,
            "output with shape ", torch_size_str(self.sizes()), " doesn't match the broadcast shape ",
            python_tuple_str(sizes));
}

namespace {
// The shape and device of an elementwise operation; a functional one (`inplace` false) on the
// Meta device also wants one device.
std::vector<int64_t> pointwise_sizes(std::initializer_list<const Tensor*> operands, bool inplace) {
  if (!involves_meta(operands)) {
    std::vector<int64_t> sizes;
    bool first = true;
    for (const Tensor* t : operands) {
      sizes = first ? t->sizes() : broadcast_shapes(sizes, t->sizes());
      first = false;
    }
    check_same_device(operands);
    return sizes;
  }
  std::vector<int64_t> sizes = meta_broadcast_shapes(operands);
  if (!inplace) {
    const std::string mismatch = meta_device_mismatch(operands);
    IPT_CHECK(mismatch.empty(), RuntimeError, mismatch);
  }
  return sizes;
}

void check_inplace_shape(const Tensor& self, const std::vector<int64_t>& sizes,
                         std::initializer_list<const Tensor*> operands) {
  if (involves_meta(operands)) {
    check_meta_inplace_shape(self, sizes);
    return;
  }
  IPT_CHECK(sizes == self.sizes(), RuntimeError, "output with shape ", int_list_str(self.sizes()),
            " doesn't match the broadcast shape ", int_list_str(sizes));
}
}  // namespace

PointwiseGeometry binary_geometry(const Tensor& a, const Tensor& b, PromoteInts promote) {
  PointwiseGeometry g;
  g.sizes = pointwise_sizes({&a, &b}, false);
  g.compute_dtype = binary_dtype(a, b, promote);
  g.out_dtype = g.compute_dtype;
  return g;
}

PointwiseGeometry inplace_binary_geometry(const Tensor& self, const Tensor& other, PromoteInts promote) {
  PointwiseGeometry g;
  g.sizes = pointwise_sizes({&self, &other}, true);
  g.compute_dtype = binary_dtype(self, other, promote);
  check_inplace_shape(self, g.sizes, {&self, &other});
  IPT_CHECK(can_cast(g.compute_dtype, self.dtype()), RuntimeError, "result type ", dtype_cpp_name(g.compute_dtype),
            " can't be cast to the desired output type ", dtype_cpp_name(self.dtype()));
  g.out_dtype = self.dtype();
  return g;
}

ScalarType binary_dtype(const Tensor& a, const Tensor& b, PromoteInts promote) {
  return promote_ints(result_type({&a, &b}), promote);
}
ScalarType unary_dtype(const Tensor& t, PromoteInts promote) { return promote_ints(t.dtype(), promote); }

void check_alpha(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  IPT_CHECK(!(alpha.is_floating() && !is_floating(result_type({&a, &b}))), RuntimeError,
            "For integral input tensors, argument alpha must not be a floating point number.");
}

void check_sub_bool(const Tensor& a, const Tensor& b) {
  IPT_CHECK(!(a.dtype() == ScalarType::Bool && b.dtype() == ScalarType::Bool), NotImplementedError,
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
            "`logical_xor()` operator instead.");
  IPT_CHECK(!(a.dtype() == ScalarType::Bool || b.dtype() == ScalarType::Bool), NotImplementedError,
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead.");
}

void check_neg_bool(const Tensor& t) {
  IPT_CHECK(t.dtype() != ScalarType::Bool, NotImplementedError,
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a "
            "mask, use the `~` or `logical_not()` operator instead.");
}

ReductionGeometry reduction_geometry(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                                     std::optional<ScalarType> dtype, const char* op_name) {
  ReductionGeometry g;
  const int64_t nd = self.dim();
  g.reduced.assign(static_cast<size_t>(nd), false);
  if (!dim || dim->empty()) {
    g.reduced.assign(static_cast<size_t>(nd), true);
  } else {
    for (int64_t d : *dim) {
      int64_t w = wrap_dim(d, nd);
      if (nd == 0) continue;
      IPT_CHECK(!g.reduced[w], RuntimeError, "dim ", w, " appears multiple times in the list of dims");
      g.reduced[w] = true;
    }
  }
  for (int64_t d = 0; d < nd; ++d) {
    if (!g.reduced[d]) g.out_sizes.push_back(self.sizes()[d]);
    else if (keepdim) g.out_sizes.push_back(1);
  }
  if (dtype) {
    g.out_dtype = *dtype;
  } else if (std::string_view(op_name) == "mean") {
    IPT_CHECK(is_floating(self.dtype()), NotImplementedError,
              "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
              "dtype. Got: ",
              dtype_cpp_name(self.dtype()));
    g.out_dtype = self.dtype();
  } else {
    g.out_dtype = is_integral(self.dtype(), true) ? ScalarType::Long : self.dtype();
  }
  return g;
}

ScalarType all_any_dtype(const Tensor& self) {
  return self.dtype() == ScalarType::Byte ? ScalarType::Byte : ScalarType::Bool;
}

std::vector<int64_t> sizes_without_dim(const Tensor& self, int64_t d, bool keepdim) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < self.dim(); ++i) {
    if (i != d) out.push_back(self.sizes()[i]);
    else if (keepdim) out.push_back(1);
  }
  return out;
}

ReductionGeometry amax_geometry(const Tensor& self, IntArrayRef dim, bool keepdim, const char* op_name) {
  ReductionGeometry g = reduction_geometry(self, dim, keepdim, self.dtype(), op_name);
  if (self.numel() == 0) {
    IPT_CHECK(!dim.empty(), RuntimeError, op_name,
              "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with "
              "the 'dim' argument.");
    for (int64_t d = 0; d < self.dim(); ++d)
      IPT_CHECK(!g.reduced[static_cast<size_t>(d)] || self.sizes()[d] != 0, IndexError, op_name,
                "(): Expected reduction dim ", d, " to have non-zero size.");
  }
  return g;
}

void check_dot(const Tensor& self, const Tensor& other) {
  IPT_CHECK(self.dim() == 1 && other.dim() == 1, RuntimeError, "1D tensors expected, but got ", self.dim(), "D and ",
            other.dim(), "D tensors");
  IPT_CHECK(self.numel() == other.numel(), RuntimeError, "inconsistent tensor size, expected tensor [", self.numel(),
            "] and src [", other.numel(), "] to have the same number of elements, but got ", self.numel(), " and ",
            other.numel(), " elements respectively");
  IPT_CHECK(self.dtype() == other.dtype(), RuntimeError, "dot : expected both vectors to have same dtype, but found ",
            dtype_cpp_name(self.dtype()), " and ", dtype_cpp_name(other.dtype()));
}

void check_addmv(const Tensor& self, const Tensor& mat, const Tensor& vec) {
  IPT_CHECK(mat.dim() == 2 && vec.dim() == 1 && self.dim() <= 1, RuntimeError,
            "vector + matrix @ vector expected, got ", self.dim(), ", ", mat.dim(), ", ", vec.dim());
  if (!(mat.sizes()[1] == vec.sizes()[0] && (mat.sizes()[0] == self.numel() || self.numel() == 1)))
    IPT_FAIL(RuntimeError, "size mismatch, got input (", self.size(0), "), mat (", mat.sizes()[0], "x", mat.sizes()[1],
             "), vec (", vec.sizes()[0], ")");
  IPT_CHECK(self.dtype() == mat.dtype() && mat.dtype() == vec.dtype(), RuntimeError,
            "addmv input tensors must have the same dtype, but got ", dtype_cpp_name(self.dtype()), ", ",
            dtype_cpp_name(mat.dtype()), ", and ", dtype_cpp_name(vec.dtype()));
}

void check_inplace_result(const Tensor& self, IntArrayRef sizes, ScalarType dtype) {
  IPT_CHECK(self.dtype() == dtype, RuntimeError, "Bad in-place call: input tensor dtype ",
            dtype_element_name(self.dtype()), " and output tensor dtype ", dtype_element_name(dtype), " should match");
  IPT_CHECK(std::equal(sizes.begin(), sizes.end(), self.sizes().begin(), self.sizes().end()), RuntimeError,
            "Bad in-place call: input tensor size ", int_list_str(self.sizes()), " and output tensor size ",
            int_list_str(sizes), " should match");
}

void check_bmm(const Tensor& self, const Tensor& mat2) {
  IPT_CHECK(self.dim() == 3, RuntimeError, "batch1 must be a 3D tensor");
  IPT_CHECK(mat2.dim() == 3, RuntimeError, "batch2 must be a 3D tensor");
  IPT_CHECK(mat2.sizes()[0] == self.sizes()[0] && mat2.sizes()[1] == self.sizes()[2], RuntimeError,
            "Expected size for first two dimensions of batch2 tensor to be: [", self.sizes()[0], ", ", self.sizes()[2],
            "] but got: [", mat2.sizes()[0], ", ", mat2.sizes()[1], "].");
  IPT_CHECK(self.dtype() == mat2.dtype(), RuntimeError, "expected scalar type ", dtype_cpp_name(self.dtype()),
            " but found ", dtype_cpp_name(mat2.dtype()));
}

void check_mm_shapes(const Tensor& self, const Tensor& mat2, const char* op) {
  IPT_CHECK(self.dim() == 2, RuntimeError, op, ": self must be a matrix, got ", self.dim(), "-D tensor");
  IPT_CHECK(mat2.dim() == 2, RuntimeError, op, ": mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  IPT_CHECK(self.sizes()[1] == mat2.sizes()[0], RuntimeError, op, ": mat1 and mat2 shapes cannot be multiplied (",
            self.sizes()[0], "x", self.sizes()[1], " and ", mat2.sizes()[0], "x", mat2.sizes()[1], ")");
}

// Note [mm's checks]
// As in PyTorch 2.15, mm's meta function checks only the shapes (a meta mm of two dtypes is
// fine); the CPU kernel then refuses operands of two dtypes in its own words.
void check_mm(const Tensor& self, const Tensor& mat2) { check_mm_shapes(self, mat2, "mm"); }

// PyTorch 2.15's Meta mm is Python (meta_mm in torch/_meta_registrations.py), in its own words.
void check_meta_mm(const Tensor& a, const Tensor& b) {
  IPT_CHECK(a.dim() == 2, RuntimeError, "a must be 2D");
  IPT_CHECK(b.dim() == 2, RuntimeError, "b must be 2D");
  IPT_CHECK(a.sizes()[1] == b.sizes()[0], RuntimeError, "a and b must have same reduction dim, but got [", a.sizes()[0],
            ", ", a.sizes()[1], "] X [", b.sizes()[0], ", ", b.sizes()[1], "].");
}

void check_mm_cpu_dtypes(const Tensor& m1, const Tensor& m2) {
  IPT_CHECK(m1.dtype() == m2.dtype(), RuntimeError,
            "expected m1 and m2 to have the same dtype, but got: ", dtype_element_name(m1.dtype()),
            " != ", dtype_element_name(m2.dtype()));
}

// ---- what torch.nn needs ---------------------------------------------------------------------

PointwiseGeometry ternary_geometry(const Tensor& a, const Tensor& b, const Tensor& c) {
  PointwiseGeometry g;
  g.sizes = pointwise_sizes({&a, &b, &c}, false);
  g.compute_dtype = result_type({&a, &b, &c});
  g.out_dtype = g.compute_dtype;
  return g;
}

PointwiseGeometry inplace_ternary_geometry(const Tensor& self, const Tensor& b, const Tensor& c) {
  PointwiseGeometry g;
  // addcmul_ / addcdiv_ on Meta are 2.15's functional meta followed by the in-place shape check.
  g.sizes = pointwise_sizes({&self, &b, &c}, false);
  g.compute_dtype = result_type({&self, &b, &c});
  check_inplace_shape(self, g.sizes, {&self, &b, &c});
  IPT_CHECK(can_cast(g.compute_dtype, self.dtype()), RuntimeError, "result type ", dtype_cpp_name(g.compute_dtype),
            " can't be cast to the desired output type ", dtype_cpp_name(self.dtype()));
  g.out_dtype = self.dtype();
  return g;
}

void check_addcdiv(const Tensor& tensor1, const Tensor& tensor2) {
  IPT_CHECK(!(is_integral(tensor1.dtype(), true) && is_integral(tensor2.dtype(), true)), RuntimeError,
            "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a "
            "true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + "
            "value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * "
            "tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes.");
}

std::vector<int64_t> addmm_geometry(const Tensor& self, const Tensor& mat1, const Tensor& mat2) {
  IPT_CHECK(self.dtype() == mat2.dtype(), RuntimeError, "self and mat2 must have the same dtype, but got ",
            dtype_cpp_name(self.dtype()), " and ", dtype_cpp_name(mat2.dtype()));
  IPT_CHECK(mat1.dtype() == mat2.dtype(), RuntimeError, "mat1 and mat2 must have the same dtype, but got ",
            dtype_cpp_name(mat1.dtype()), " and ", dtype_cpp_name(mat2.dtype()));
  check_mm_shapes(mat1, mat2, "addmm");
  return {mat1.sizes()[0], mat2.sizes()[1]};
}

int64_t softmax_dim(const Tensor& self, int64_t dim, bool log) {
  const int64_t d = wrap_dim(dim, self.dim());
  const bool last = self.dim() == 0 || d == self.dim() - 1;
  // An empty input never reaches 2.15's kernel, so any dtype gives an empty result.
  IPT_CHECK(is_floating(self.dtype()) || self.numel() == 0, NotImplementedError, "\"", log ? "log_softmax" : "softmax",
            last ? "_lastdim" : "", "_kernel_impl\" not implemented for '", dtype_cpp_name(self.dtype()), "'");
  return d;
}

NllLossGeometry nll_loss_geometry(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                                  bool spatial) {
  NllLossGeometry g;
  if (!spatial) {
    IPT_CHECK(self.dim() > 0 && self.dim() <= 2, RuntimeError, "input tensor should be 1D or 2D");
    IPT_CHECK(target.dim() <= 1, RuntimeError, "0D or 1D target tensor expected, multi-target not supported");
    const bool no_batch_dim = self.dim() == 1 && target.dim() == 0;
    IPT_CHECK(no_batch_dim || self.sizes()[0] == target.sizes()[0], RuntimeError,
              "size mismatch (got input: ", int_list_str(self.sizes()), ", target: ", int_list_str(target.sizes()),
              ")");
    g.c = self.sizes().back();
    IPT_CHECK(!weight || (weight->dim() == 1 && weight->numel() == g.c), RuntimeError,
              "weight tensor should be defined either for all ", g.c,
              " classes or no classes but got weight tensor of shape: ",
              int_list_str(weight ? weight->sizes() : std::vector<int64_t>{}));
    g.n = self.dim() == 2 ? self.sizes()[0] : 1;
    if (self.dim() == 2) g.none_sizes = {g.n};
  } else {
    IPT_CHECK(target.dim() == 3, RuntimeError,
              "only batches of spatial targets supported (3D tensors) but got targets of dimension: ", target.dim());
    IPT_CHECK(self.dim() == 4, RuntimeError,
              "only batches of spatial inputs supported (4D tensors), but got input of dimension: ", self.dim());
    IPT_CHECK(!weight || weight->numel() == self.sizes()[1], RuntimeError,
              "weight tensor should be defined either for all or no classes");
    const auto& in = self.sizes();
    const auto& t = target.sizes();
    IPT_CHECK(in[0] == t[0] && in[2] == t[1] && in[3] == t[2], RuntimeError,
              "size mismatch (got input: ", int_list_str(in), " , target: ", int_list_str(t));
    g.n = in[0];
    g.c = in[1];
    g.s = in[2] * in[3];
    g.none_sizes = {in[0], in[2], in[3]};
  }
  // 2.15 takes uint8 class indices too (the CPU kernels read them as int64).
  IPT_CHECK(target.dtype() == ScalarType::Long || target.dtype() == ScalarType::Byte, RuntimeError,
            "expected target dtype to be Long or Byte, but got ", dtype_cpp_name(target.dtype()));
  return g;
}

std::vector<int64_t> mse_loss_geometry(const Tensor& self, const Tensor& target, int64_t reduction) {
  std::vector<int64_t> sizes = broadcast_shapes(self.sizes(), target.sizes());
  ScalarType dt = result_type({&self, &target});
  IPT_CHECK(is_floating(dt), NotImplementedError, "\"mse_cpu\" not implemented for '", dtype_cpp_name(dt), "'");
  IPT_CHECK(reduction >= 0 && reduction <= 2, RuntimeError,
            "reduction == Reduction::Mean || reduction == Reduction::Sum");
  if (reduction != 0) return {};
  return sizes;
}

// ---- elementwise math ------------------------------------------------------------------------

void check_not_bool(const Tensor& self, const char* kernel) {
  IPT_CHECK(self.dtype() != ScalarType::Bool, NotImplementedError, "\"", kernel, "\" not implemented for 'Bool'");
}

ScalarType clamp_dtype(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  IPT_CHECK(min || max, RuntimeError, "torch.clamp: At least one of 'min' or 'max' must not be None");
  Tensor lo = native::wrapped_scalar_tensor(min.value_or(Scalar(false)));
  Tensor hi = native::wrapped_scalar_tensor(max.value_or(Scalar(false)));
  return result_type({&self, &lo, &hi});
}

void check_clamp_inplace(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  ScalarType dt = clamp_dtype(self, min, max);
  IPT_CHECK(can_cast(dt, self.dtype()), RuntimeError, "result type ", dtype_cpp_name(dt),
            " can't be cast to the desired output type ", dtype_element_name(self.dtype()));
}

// where's operands share one device, the first that is not a 0-dim CPU tensor (which may go
// along): "Tensor on device meta is not on the expected device cpu!".
static void check_where_devices(std::initializer_list<const Tensor*> operands) {
  std::optional<Device> expected;
  for (const Tensor* t : operands) {
    if (t->device().type == DeviceType::CPU && t->dim() == 0) continue;
    if (!expected) expected = t->device();
    IPT_CHECK(t->device() == *expected, RuntimeError, "Tensor on device ", t->device().str(),
              " is not on the expected device ", expected->str(), "!");
  }
}

PointwiseGeometry where_geometry(const Tensor& condition, const Tensor& self, const Tensor& other) {
  check_where_devices({&condition, &self, &other});
  IPT_CHECK(condition.dtype() == ScalarType::Bool, RuntimeError,
            "where expected condition to be a boolean tensor, but got a tensor with dtype ",
            dtype_cpp_name(condition.dtype()));
  PointwiseGeometry g;
  g.sizes = involves_meta({&condition, &self, &other})
                ? meta_broadcast_shapes({&condition, &self, &other})
                : broadcast_shapes(broadcast_shapes(condition.sizes(), self.sizes()), other.sizes());
  g.compute_dtype = result_type({&self, &other});
  g.out_dtype = g.compute_dtype;
  return g;
}

// ---- reductions ------------------------------------------------------------------------------

void check_minmax_all(const Tensor& self, const char* name) {
  IPT_CHECK(self.numel() > 0, RuntimeError, name,
            "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
            "'dim' argument.");
}

int64_t minmax_dim_check(const Tensor& self, int64_t dim, const char* name) {
  const int64_t d = wrap_dim(dim, self.dim());
  IPT_CHECK(self.dim() == 0 || self.sizes()[d] > 0, IndexError, name, "(): Expected reduction dim ", d,
            " to have non-zero size.");
  return d;
}

ScalarType prod_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return is_integral(self.dtype(), true) ? ScalarType::Long : self.dtype();
}

ScalarType cumsum_dtype(const Tensor& self, std::optional<ScalarType> dtype) { return prod_dtype(self, dtype); }

int64_t triangle_indices_count(int64_t row, int64_t col, int64_t offset, ScalarType dtype, bool lower,
                               const char* name) {
  IPT_CHECK(row >= 0, RuntimeError, "row must be non-negative, got", row);
  IPT_CHECK(col >= 0, RuntimeError, "col must be non-negative, got", col);
  IPT_CHECK(dtype == ScalarType::Long || dtype == ScalarType::Int, NotImplementedError, "\"", name,
            "\" not implemented for '", dtype_cpp_name(dtype), "'");
  int64_t n = 0;
  for (int64_t r = 0; r < row; ++r)
    n += lower ? std::clamp<int64_t>(r + offset + 1, 0, col) : col - std::clamp<int64_t>(r + offset, 0, col);
  return n;
}

ReductionGeometry var_geometry(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim) {
  IPT_CHECK(is_floating(self.dtype()), NotImplementedError,
            "std and var only support floating point and complex dtypes");
  return reduction_geometry(self, dim, keepdim, self.dtype(), "var");
}

void check_vector_norm_args(const Tensor& self, std::optional<ScalarType> dtype) {
  IPT_CHECK(is_floating(self.dtype()), NotImplementedError,
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got ",
            dtype_cpp_name(self.dtype()));
  if (dtype)
    IPT_CHECK(promote_types(self.dtype(), *dtype) == *dtype, RuntimeError,
              "linalg.vector_norm: the dtype of the input (", dtype_cpp_name(self.dtype()),
              ") should be convertible without narrowing to the specified dtype (", dtype_cpp_name(*dtype), ")");
}

ReductionGeometry norm_geometry(const Tensor& self, IntArrayRef dim, bool keepdim) {
  IPT_CHECK(is_floating(self.dtype()), NotImplementedError,
            "norm(): input dtype should be either floating point or complex. Got ", dtype_cpp_name(self.dtype()),
            " instead.");
  return reduction_geometry(self, dim, keepdim, self.dtype(), "norm");
}

// ---- joining, splitting and repeating ----------------------------------------------------------

CatGeometry cat_geometry(std::span<const Tensor> tensors, int64_t dim) {
  IPT_CHECK(!tensors.empty(), ValueError, "torch.cat(): expected a non-empty list of Tensors");
  CatGeometry g;
  std::optional<ScalarType> dt;
  for (size_t i = 0; i < tensors.size(); ++i) {
    IPT_CHECK(tensors[i].dim() > 0, RuntimeError, "zero-dimensional tensor (at position ", i,
              ") cannot be concatenated");
    dt = dt ? promote_types(*dt, tensors[i].dtype()) : tensors[i].dtype();
    g.skip.push_back(tensors[i].dim() == 1 && tensors[i].sizes()[0] == 0);
  }
  g.dtype = *dt;
  size_t valid = tensors.size();
  for (size_t i = 0; i < tensors.size(); ++i)
    if (!g.skip[i]) {
      valid = i;
      break;
    }
  if (valid == tensors.size()) {  // only legacy empty tensors
    g.dim = wrap_dim(dim, 1);
    g.sizes = {0};
    return g;
  }
  const Tensor& first = tensors[valid];
  g.dim = wrap_dim(dim, first.dim());
  g.sizes = first.sizes();
  g.sizes[static_cast<size_t>(g.dim)] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (g.skip[i]) continue;
    const Tensor& t = tensors[i];
    IPT_CHECK(t.dim() == first.dim(), RuntimeError, "Tensors must have same number of dimensions: got ", first.dim(),
              " and ", t.dim());
    for (int64_t d = 0; d < first.dim(); ++d) {
      if (d == g.dim) continue;
      IPT_CHECK(first.sizes()[d] == t.sizes()[d], RuntimeError, "Sizes of tensors must match except in dimension ",
                g.dim, ". Expected size ", first.sizes()[d], " but got size ", t.sizes()[d], " for tensor number ", i,
                " in the list.");
    }
    g.sizes[static_cast<size_t>(g.dim)] += t.sizes()[g.dim];
  }
  return g;
}

int64_t check_index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* value) {
  IPT_CHECK(!value || value->dim() == 0, RuntimeError,
            "index_fill_ only supports a 0-dimensional value tensor, but got tensor with ", value ? value->dim() : 0,
            " dimension(s).");
  IPT_CHECK(index.dtype() == ScalarType::Long, IndexError, "index_fill_(): Expected dtype int64 for index.");
  const int64_t d = wrap_dim(dim, self.dim());
  IPT_CHECK(index.dim() <= 1, RuntimeError, "Index has to be a vector/scalar");
  return d;
}

void check_take(const Tensor& self, const Tensor& index) {
  IPT_CHECK(index.dtype() == ScalarType::Long, RuntimeError, "take(): Expected a long tensor for index, but got ",
            dtype_cpp_name(index.dtype()));
  IPT_CHECK(self.numel() > 0 || index.numel() == 0, IndexError, "take(): tried to take from an empty tensor");
}

void check_index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  const int64_t d = wrap_dim(dim, self.dim());
  IPT_CHECK(index.dim() < 2, IndexError, "index_copy_(): Index should have dimension 1 or 0 (got ", index.dim(), ")");
  const int64_t n = index.numel();
  IPT_CHECK(!(source.dim() == 0 && n != 1), IndexError,
            "index_copy_(): When source is scalar, index should have one element (got ", n, ")");
  IPT_CHECK(!(source.dim() != self.dim() && source.dim() != 0 && self.dim() != 0), IndexError,
            "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source "
            "dimensionality (",
            source.dim(), "), destination dimensionality (", self.dim(), ")");
  IPT_CHECK(index.dtype() == ScalarType::Long, RuntimeError,
            "index_copy_(): Expected a long tensor for index, but got ", dtype_cpp_name(index.dtype()));
  IPT_CHECK(self.dtype() == source.dtype(), RuntimeError,
            "index_copy_(): self and source expected to have the same dtype, but got (self) ",
            dtype_cpp_name(self.dtype()), " and (source) ", dtype_cpp_name(source.dtype()));
  if (self.dim() > 0 && source.dim() > 0) {
    bool same = true;
    for (int64_t i = 0; i < self.dim(); ++i) same = same && (i == d || self.sizes()[i] == source.sizes()[i]);
    if (!same) {
      std::string dst, src;
      for (int64_t i = 0; i < self.dim(); ++i)
        if (i != d) dst += (dst.empty() ? "" : ", ") + std::to_string(self.sizes()[i]);
      for (int64_t i = 0; i < source.dim(); ++i)
        if (i != d) src += (src.empty() ? "" : ", ") + std::to_string(source.sizes()[i]);
      IPT_FAIL(RuntimeError,
               "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: ", dst,
               " at dimension ", d, " and source slice shape: ", src, " at dimension 0.");
    }
  }
  IPT_CHECK(d == 0 || d < source.dim(), IndexError, "index_copy_(): Indexing dim ", d, " is out of bounds of tensor");
  IPT_CHECK(source.dim() == 0 || n == source.sizes()[d], IndexError, "index_copy_(): Number of indices (", n,
            ") should be equal to source.size(dim) (", source.sizes()[d], ")");
}

// ---- factories -------------------------------------------------------------------------------

void check_space(int64_t steps, const Tensor& out, const char* kernel) {
  IPT_CHECK(steps >= 0, RuntimeError, "number of steps must be non-negative");
  IPT_CHECK(out.dtype() != ScalarType::Bool, NotImplementedError, "\"", kernel, "\" not implemented for 'Bool'");
}

std::optional<uint64_t> random_range(const Tensor& self, int64_t from, std::optional<int64_t> to) {
  if (to) {
    IPT_CHECK(from < *to, RuntimeError, "random_ expects 'from' to be less than 'to', but got from=", from,
              " >= to=", *to);
    // Both ends must be values of the dtype (PyTorch's check_from_to_in_range).
    const auto holds = [dt = self.dtype()](int64_t v) {
      switch (dt) {
        case ScalarType::Bool: return v >= 0 && v <= 1;
        case ScalarType::Byte: return v >= 0 && v <= UINT8_MAX;
        case ScalarType::Char: return v >= INT8_MIN && v <= INT8_MAX;
        case ScalarType::Short: return v >= INT16_MIN && v <= INT16_MAX;
        case ScalarType::Int: return v >= INT32_MIN && v <= INT32_MAX;
        case ScalarType::Half: return v >= -65504 && v <= 65504;
        default: return true;  // int64, and the float types whose range holds every int64
      }
    };
    IPT_CHECK(holds(from), RuntimeError, "from is out of bounds for ", dtype_element_name(self.dtype()));
    IPT_CHECK(holds(*to - 1), RuntimeError, "to - 1 is out of bounds for ", dtype_element_name(self.dtype()));
    return static_cast<uint64_t>(*to) - static_cast<uint64_t>(from);
  }
  if (from == INT64_MIN) return std::nullopt;
  int64_t to_inc = 0;  // the largest value the dtype holds exactly
  switch (self.dtype()) {
    case ScalarType::Bool: to_inc = 1; break;
    case ScalarType::Byte: to_inc = 255; break;
    case ScalarType::Char: to_inc = INT8_MAX; break;
    case ScalarType::Short: to_inc = INT16_MAX; break;
    case ScalarType::Int: to_inc = INT32_MAX; break;
    case ScalarType::Long: to_inc = INT64_MAX; break;
    case ScalarType::Half: to_inc = int64_t(1) << 11; break;
    case ScalarType::BFloat16: to_inc = int64_t(1) << 8; break;
    case ScalarType::Float: to_inc = int64_t(1) << 24; break;
    case ScalarType::Double: to_inc = int64_t(1) << 53; break;
  }
  IPT_CHECK(from <= to_inc, RuntimeError, "random_ expects 'from' to be less than 'to', but got from=", from,
            " >= to=", to_inc + 1);
  return static_cast<uint64_t>(to_inc) - static_cast<uint64_t>(from) + 1;
}

void check_normal_std(const Tensor& std) {
  if (std.device().type == DeviceType::Meta) return;
  for (double v : to_double_vector(std)) IPT_CHECK(v >= 0.0, RuntimeError, "normal expects all elements of std >= 0.0");
}

void check_multinomial(const Tensor& self, int64_t n_sample, bool replacement) {
  IPT_CHECK(self.dim() > 0 && self.dim() <= 2, RuntimeError, "prob_dist must be 1 or 2 dim");
  IPT_CHECK(is_floating(self.dtype()), RuntimeError,
            "multinomial only supports floating-point dtypes for input, got: ", dtype_cpp_name(self.dtype()));
  IPT_CHECK(n_sample > 0, RuntimeError, "cannot sample n_sample <= 0 samples");
  const int64_t n_categories = self.sizes().back();
  IPT_CHECK(replacement || n_sample <= n_categories, RuntimeError,
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  IPT_CHECK(n_categories <= (int64_t(1) << 24), RuntimeError, "number of categories cannot exceed 2^24");
}

}  // namespace ipt
