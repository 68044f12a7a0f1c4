#include "core/ops/shape_rules.h"

#include "core/tensor/index_math.h"
#include "core/util/error.h"

namespace ipt {

namespace {
enum class Category { None = -1, Bool = 0, Int = 1, Float = 2 };
Category category(ScalarType t) {
  if (t == ScalarType::Bool) return Category::Bool;
  if (t == ScalarType::Long) return Category::Int;
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

PointwiseGeometry binary_geometry(const Tensor& a, const Tensor& b, PromoteInts promote) {
  PointwiseGeometry g;
  g.sizes = broadcast_shapes(a.sizes(), b.sizes());
  g.compute_dtype = promote_ints(result_type({&a, &b}), promote);
  g.out_dtype = g.compute_dtype;
  return g;
}

PointwiseGeometry inplace_binary_geometry(const Tensor& self, const Tensor& other, PromoteInts promote) {
  PointwiseGeometry g = binary_geometry(self, other, promote);
  IPT_CHECK(g.sizes == self.sizes(), RuntimeError, "output with shape ", int_list_str(self.sizes()),
            " doesn't match the broadcast shape ", int_list_str(g.sizes));
  IPT_CHECK(can_cast(g.compute_dtype, self.dtype()), RuntimeError, "result type ", dtype_cpp_name(g.compute_dtype),
            " can't be cast to the desired output type ", dtype_cpp_name(self.dtype()));
  g.out_dtype = self.dtype();
  return g;
}

ScalarType unary_dtype(const Tensor& t, PromoteInts promote) { return promote_ints(t.dtype(), promote); }

void check_sub_bool(const Tensor& a, const Tensor& b) {
  IPT_CHECK(!(a.dtype() == ScalarType::Bool && b.dtype() == ScalarType::Bool), RuntimeError,
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
            "`logical_xor()` operator instead.");
  IPT_CHECK(!(a.dtype() == ScalarType::Bool || b.dtype() == ScalarType::Bool), RuntimeError,
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead.");
}

void check_neg_bool(const Tensor& t) {
  IPT_CHECK(t.dtype() != ScalarType::Bool, RuntimeError,
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
    IPT_CHECK(is_floating(self.dtype()), RuntimeError,
              "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
              "dtype. Got: ", dtype_cpp_name(self.dtype()));
    g.out_dtype = self.dtype();
  } else {
    g.out_dtype = is_integral(self.dtype(), true) ? ScalarType::Long : self.dtype();
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

void check_mv(const Tensor& self, const Tensor& vec) {
  IPT_CHECK(self.dim() == 2 && vec.dim() == 1, RuntimeError, "vector + matrix @ vector expected, got 1, ", self.dim(),
            ", ", vec.dim());
  IPT_CHECK(self.sizes()[1] == vec.sizes()[0], RuntimeError, "size mismatch, got ", self.sizes()[0], ", ",
            self.sizes()[0], "x", self.sizes()[1], ",", vec.sizes()[0]);
  IPT_CHECK(self.dtype() == vec.dtype(), RuntimeError, "expected scalar type ", dtype_cpp_name(self.dtype()),
            " but found ", dtype_cpp_name(vec.dtype()));
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

void check_mm(const Tensor& self, const Tensor& mat2) {
  IPT_CHECK(self.dim() == 2, RuntimeError, "self must be a matrix");
  IPT_CHECK(mat2.dim() == 2, RuntimeError, "mat2 must be a matrix");
  IPT_CHECK(self.sizes()[1] == mat2.sizes()[0], RuntimeError, "mat1 and mat2 shapes cannot be multiplied (",
            self.sizes()[0], "x", self.sizes()[1], " and ", mat2.sizes()[0], "x", mat2.sizes()[1], ")");
  IPT_CHECK(self.dtype() == mat2.dtype(), RuntimeError, "expected scalar type ", dtype_cpp_name(self.dtype()),
            " but found ", dtype_cpp_name(mat2.dtype()));
}

}  // namespace ipt
