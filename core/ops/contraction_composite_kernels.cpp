// einsum, tensordot and kron: contractions written, as PyTorch writes them
// (CompositeImplicitAutograd), from views, sums, bmm / mm and mul, so the Dispatch view shows
// PyTorch's chain of calls and autograd differentiates the pieces.
//
// Note [einsum's plan]
// einsum gives every label (and the ellipsis's dims) one place in a common dim order: the
// output's labels first, then the labels summed out. Each operand is brought to that order:
// a repeated label takes a diagonal, a missing label is unsqueezed, then one permute. The
// operands are then contracted left to right (or in the order `path` gives): a dim that only
// one of the pair still has is summed first; the dims both have and no later operand has are
// contracted by one bmm (sum_product_pair). The summed dims, by then of size 1, are viewed away.
#include <algorithm>
#include <array>
#include <cctype>
#include <deque>
#include <numeric>
#include <string>

#include "core/ops/out_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

constexpr int kLetters = 26;
constexpr int kLabels = 2 * kLetters;
constexpr int kEllipsis = kLabels;  // the ellipsis's code among an operand's labels

int label_code(unsigned char c) { return std::isupper(c) ? c - 'A' : c - 'a' + kLetters; }
char label_char(int code) { return static_cast<char>(code < kLetters ? code + 'A' : code - kLetters + 'a'); }

// (left * right).sum(sum_dims, keepdim=true) for operands of one rank (size-1 dims broadcast):
// dims in both and the output batch a bmm, dims in one only are its rows or columns, and the
// summed dims its inner dim.
Tensor sum_product_pair(Tensor left, Tensor right, const std::vector<int64_t>& sum_dims) {
  if (sum_dims.empty()) return ops::mul_Tensor(left, right);
  const int64_t nd = left.dim();
  std::vector<bool> summed(static_cast<size_t>(nd), false);
  for (int64_t d : sum_dims) summed[static_cast<size_t>(d)] = true;
  std::vector<int64_t> both, left_only, right_only;
  int64_t both_size = 1, left_size = 1, right_size = 1, sum_size = 1;
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t sl = left.sizes()[static_cast<size_t>(d)], sr = right.sizes()[static_cast<size_t>(d)];
    if (summed[static_cast<size_t>(d)]) {
      if (sl != 1 && sr != 1) {
        IPT_CHECK(sl == sr, RuntimeError, "non-broadcast dimensions must match");
        sum_size *= sl;
      } else if (sl != 1) {
        left = ops::sum_dim_IntList(left, std::vector<int64_t>{d}, true);
      } else if (sr != 1) {
        right = ops::sum_dim_IntList(right, std::vector<int64_t>{d}, true);
      }
    } else if (sl != 1 && sr != 1) {
      IPT_CHECK(sl == sr, RuntimeError, "non-broadcast dimensions must match");
      both.push_back(d);
      both_size *= sl;
    } else if (sl != 1) {
      left_only.push_back(d);
      left_size *= sl;
    } else {
      right_only.push_back(d);
      right_size *= sr;
    }
  }
  // left as [both, left_only, summed], right as [both, summed, right_only]; the product's
  // [both, left_only, 1 per summed dim, right_only] is permuted back to the dims' order.
  auto joined = [](std::initializer_list<const std::vector<int64_t>*> parts) {
    std::vector<int64_t> v;
    for (const auto* p : parts) v.insert(v.end(), p->begin(), p->end());
    return v;
  };
  const std::vector<int64_t> left_perm = joined({&both, &left_only, &sum_dims, &right_only});
  const std::vector<int64_t> right_perm = joined({&both, &sum_dims, &right_only, &left_only});
  std::vector<int64_t> out_sizes;
  for (int64_t d : both) out_sizes.push_back(left.sizes()[static_cast<size_t>(d)]);
  for (int64_t d : left_only) out_sizes.push_back(left.sizes()[static_cast<size_t>(d)]);
  out_sizes.insert(out_sizes.end(), sum_dims.size(), 1);
  for (int64_t d : right_only) out_sizes.push_back(right.sizes()[static_cast<size_t>(d)]);
  std::vector<int64_t> out_perm(static_cast<size_t>(nd));
  for (size_t k = 0; k < left_perm.size(); ++k) out_perm[static_cast<size_t>(left_perm[k])] = static_cast<int64_t>(k);
  left = ops::reshape(ops::permute(left, left_perm), std::vector<int64_t>{both_size, left_size, sum_size});
  right = ops::reshape(ops::permute(right, right_perm), std::vector<int64_t>{both_size, sum_size, right_size});
  return ops::permute(ops::view(ops::bmm(left, right), out_sizes), out_perm);
}

// The equation's operands as label codes (kEllipsis for "..."), 2.15's checks and messages.
std::vector<std::vector<int>> parse_operands(std::string_view lhs, size_t num_ops) {
  std::vector<std::vector<int>> labels(num_ops);
  bool ellipsis = false;
  size_t op = 0;
  for (size_t i = 0; i < lhs.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(lhs[i]);
    if (c == ' ') continue;
    if (c == '.') {
      IPT_CHECK(!ellipsis, RuntimeError, "einsum(): found '.' for operand ", op,
                " for which an ellipsis was already found");
      IPT_CHECK(i + 2 < lhs.size() && lhs[i + 1] == '.' && lhs[i + 2] == '.', RuntimeError,
                "einsum(): found '.' for operand ", op, " that is not part of any ellipsis");
      i += 2;
      labels[op].push_back(kEllipsis);
      ellipsis = true;
    } else if (c == ',') {
      ++op;
      IPT_CHECK(op < num_ops, RuntimeError, "einsum(): fewer operands were provided than specified in the equation");
      ellipsis = false;
    } else {
      IPT_CHECK(std::isalpha(c), RuntimeError, "einsum(): invalid subscript given at index ", i,
                " in the equation string, subscripts must be in [a-zA-Z]");
      labels[op].push_back(label_code(c));
    }
  }
  IPT_CHECK(op == num_ops - 1, RuntimeError, "einsum(): more operands were provided than specified in the equation");
  return labels;
}

}  // namespace

Tensor einsum(std::string_view equation, std::span<const Tensor> tensors, std::optional<IntArrayRef> path) {
  IPT_CHECK(!tensors.empty(), RuntimeError, "einsum(): must provide at least one operand");
  const size_t num_ops = tensors.size();
  if (path) {
    const size_t want = num_ops == 1 ? 1 : (num_ops - 1) * 2;
    IPT_CHECK(path->size() == want, RuntimeError,
              "einsum(): expected contraction path given in path parameter to have size ", want, " but got ",
              path->size());
  }
  const size_t arrow = equation.find("->");
  const std::string_view lhs = equation.substr(0, arrow);
  const std::vector<std::vector<int>> op_labels = parse_operands(lhs, num_ops);

  std::array<int64_t, kLabels> label_count{};
  int64_t ell_dims = 0;  // the most dims any ellipsis covers
  for (size_t i = 0; i < num_ops; ++i) {
    const int64_t nd = tensors[i].dim();
    int64_t named = static_cast<int64_t>(op_labels[i].size());
    bool has_ellipsis = false;
    for (int l : op_labels[i]) {
      if (l == kEllipsis) {
        --named;
        has_ellipsis = true;
        ell_dims = std::max(ell_dims, nd - named);
      } else {
        ++label_count[static_cast<size_t>(l)];
      }
    }
    IPT_CHECK(
        has_ellipsis ? named <= nd : named == nd, RuntimeError, "einsum(): the number of subscripts in the equation (",
        named,
        has_ellipsis ? ") is more than the number of dimensions (" : ") does not match the number of dimensions (", nd,
        ") for operand ", i, has_ellipsis ? "" : " and no ellipsis was given");
  }

  // Each label's place in the common order: the output's, then the summed ones.
  std::array<int64_t, kLabels> place;
  place.fill(-1);
  int64_t places = 0, ell_place = 0;
  bool ell_in_output = false;
  if (arrow == std::string_view::npos) {
    // Implicit output: the ellipsis, then the labels seen once, in alphabetical order.
    places = ell_dims;
    ell_in_output = true;
    for (int l = 0; l < kLabels; ++l)
      if (label_count[static_cast<size_t>(l)] == 1) place[static_cast<size_t>(l)] = places++;
  } else {
    const std::string_view rhs = equation.substr(arrow + 2);
    for (size_t i = 0; i < rhs.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(rhs[i]);
      if (c == ' ') continue;
      if (c == '.') {
        IPT_CHECK(!ell_in_output, RuntimeError,
                  "einsum(): found '.' for output but an ellipsis (...) was already found");
        IPT_CHECK(i + 2 < rhs.size() && rhs[i + 1] == '.' && rhs[i + 2] == '.', RuntimeError,
                  "einsum(): found '.' for output that is not part of any ellipsis (...)");
        i += 2;
        ell_place = places;
        places += ell_dims;
        ell_in_output = true;
        continue;
      }
      IPT_CHECK(std::isalpha(c), RuntimeError, "einsum(): invalid subscript given at index ", lhs.size() + 2 + i,
                " in the equation string, subscripts must be in [a-zA-Z]");
      const size_t l = static_cast<size_t>(label_code(c));
      IPT_CHECK(label_count[l] > 0 && place[l] == -1, RuntimeError, "einsum(): output subscript ", static_cast<char>(c),
                place[l] > -1 ? " appears more than once in the output"
                              : " does not appear in the equation for any input operand");
      place[l] = places++;
    }
  }
  const int64_t out_dims = places;
  if (!ell_in_output) {
    ell_place = places;
    places += ell_dims;
  }
  for (size_t l = 0; l < kLabels; ++l)
    if (label_count[l] > 0 && place[l] == -1) place[l] = places++;

  // Bring each operand to the common order; count, per place, the operands whose size there is not 1.
  std::array<int64_t, kLabels> label_size;
  label_size.fill(1);
  std::vector<int64_t> ell_sizes(static_cast<size_t>(ell_dims), 1);
  std::vector<int64_t> dim_counts(static_cast<size_t>(places), 0);
  std::deque<Tensor> operands;
  for (size_t i = 0; i < num_ops; ++i) {
    Tensor op = tensors[i];
    std::vector<int64_t> perm(static_cast<size_t>(places), -1);
    int64_t dim = 0;
    for (int l : op_labels[i]) {
      if (l == kEllipsis) {
        const int64_t covered = tensors[i].dim() - (static_cast<int64_t>(op_labels[i].size()) - 1);
        for (int64_t j = ell_dims - covered; j < ell_dims; ++j) {
          const int64_t size = op.sizes()[static_cast<size_t>(dim)];
          if (size != 1) {
            int64_t& seen = ell_sizes[static_cast<size_t>(j)];
            IPT_CHECK(seen == 1 || seen == size, RuntimeError, "einsum(): dimension ", dim,
                      " covered by ellipsis in operand ", i, "has size ", size,
                      " which does not broadcast with previously seen ellipsis with size ", seen,
                      " for the respective dimension");
            seen = size;
            ++dim_counts[static_cast<size_t>(ell_place + j)];
          }
          perm[static_cast<size_t>(ell_place + j)] = dim++;
        }
        continue;
      }
      const size_t p = static_cast<size_t>(place[static_cast<size_t>(l)]);
      const int64_t size = op.sizes()[static_cast<size_t>(dim)];
      if (perm[p] == -1) {
        if (size != 1) {
          int64_t& seen = label_size[static_cast<size_t>(l)];
          IPT_CHECK(seen == 1 || seen == size, RuntimeError, "einsum(): subscript ", label_char(l), " has size ", size,
                    " for operand ", i, " which does not broadcast with previously seen size ", seen);
          seen = size;
          ++dim_counts[p];
        }
        perm[p] = dim++;
      } else {
        // A repeated label: its diagonal, put where the label was first seen.
        const int64_t prev = perm[p];
        const int64_t prev_size = op.sizes()[static_cast<size_t>(prev)];
        IPT_CHECK(size == prev_size, RuntimeError, "einsum(): subscript ", label_char(l), " is repeated for operand ",
                  i, " but the sizes don't match, ", size, " != ", prev_size);
        op = ops::movedim_int(ops::diagonal(op, 0, prev, dim), -1, prev);
      }
    }
    for (int64_t& p : perm)
      if (p == -1) {
        op = ops::unsqueeze(op, dim);
        p = dim++;
      }
    operands.push_back(ops::permute(op, perm));
  }

  // Contract pairs: left to right, or as `path` says (the result then goes last).
  size_t step = 0;
  while (operands.size() > 1) {
    int64_t i = 0, j = 1;
    if (path) {
      i = (*path)[step++];
      j = (*path)[step++];
      if (j < i) std::swap(i, j);
      IPT_CHECK(i != j && i >= 0 && j < static_cast<int64_t>(operands.size()), RuntimeError,
                "einsum(): invalid contraction (", i, ", ", j,
                i == j ? ") cannot contract an operand with itself" : ") operand index is out of bounds");
    }
    Tensor a = operands[static_cast<size_t>(i)], b = operands[static_cast<size_t>(j)];
    operands.erase(operands.begin() + j);
    operands.erase(operands.begin() + i);
    std::vector<int64_t> sum_dims, a_sum, b_sum;
    for (int64_t d = out_dims; d < places; ++d) {
      const bool in_a = a.sizes()[static_cast<size_t>(d)] != 1, in_b = b.sizes()[static_cast<size_t>(d)] != 1;
      int64_t& count = dim_counts[static_cast<size_t>(d)];
      if (in_a && in_b) {
        if (--count == 1) {
          sum_dims.push_back(d);
          count = 0;
        }
      } else if (count == 1) {
        if (in_a) {
          a_sum.push_back(d);
          count = 0;
        } else if (in_b) {
          b_sum.push_back(d);
          count = 0;
        }
      }
    }
    if (!a_sum.empty()) a = ops::sum_dim_IntList(a, a_sum, true);
    if (!b_sum.empty()) b = ops::sum_dim_IntList(b, b_sum, true);
    Tensor r = sum_product_pair(a, b, sum_dims);
    if (path) operands.push_back(r);
    else operands.push_front(r);
  }

  const Tensor& result = operands.front();
  if (places == out_dims) return result;
  if (num_ops > 1) {
    // Every summed dim is now of size 1.
    std::vector<int64_t> sizes = result.sizes();
    sizes.resize(static_cast<size_t>(out_dims));
    return ops::view(result, sizes);
  }
  std::vector<int64_t> sum_dims(static_cast<size_t>(places - out_dims));
  std::iota(sum_dims.begin(), sum_dims.end(), out_dims);
  return ops::sum_dim_IntList(result, sum_dims, false);
}

// tensordot: the contracted dims of each operand permuted together and flattened, one mm, the
// result reshaped to the free dims of self then of other.
Tensor tensordot(const Tensor& self, const Tensor& other, IntArrayRef dims_self, IntArrayRef dims_other) {
  IPT_CHECK(dims_self.size() == dims_other.size(), RuntimeError, "both dimension lists should have same length");
  IPT_CHECK(self.dtype() == other.dtype(), RuntimeError, "both inputs should have same dtype");
  int64_t contracted = 1;
  Tensor t1 = self, t2 = other;
  for (size_t k = 0; k < dims_self.size(); ++k) {
    const int64_t s1 = self.size(dims_self[k]), s2 = other.size(dims_other[k]);
    if (s2 == 1) {
      t1 = ops::sum_dim_IntList(t1, std::vector<int64_t>{dims_self[k]}, true);
    } else if (s1 == 1) {
      t2 = ops::sum_dim_IntList(t2, std::vector<int64_t>{dims_other[k]}, true);
    } else {
      IPT_CHECK(s1 == s2, RuntimeError, "contracted dimensions need to match, but first has size ", s1, " in dim ",
                dims_self[k], " and second has size ", s2, " in dim ", dims_other[k]);
      contracted *= s1;
    }
  }
  auto contracted_set = [](const Tensor& t, IntArrayRef dims) {
    std::vector<bool> in(static_cast<size_t>(t.dim()), false);
    for (int64_t d : dims) {
      const size_t w = static_cast<size_t>(wrap_dim(d, t.dim()));
      IPT_CHECK(!in[w], RuntimeError, "dim ", w, " appears multiple times in the list of dims");
      in[w] = true;
    }
    return in;
  };
  const std::vector<bool> c1 = contracted_set(self, dims_self), c2 = contracted_set(other, dims_other);
  std::vector<int64_t> p1, p2, result_sizes;
  int64_t free1 = 1, free2 = 1;
  for (int64_t d = 0; d < self.dim(); ++d)
    if (!c1[static_cast<size_t>(d)]) {
      p1.push_back(d);
      free1 *= t1.sizes()[static_cast<size_t>(d)];
      result_sizes.push_back(t1.sizes()[static_cast<size_t>(d)]);
    }
  p1.insert(p1.end(), dims_self.begin(), dims_self.end());
  p2.assign(dims_other.begin(), dims_other.end());
  for (int64_t d = 0; d < other.dim(); ++d)
    if (!c2[static_cast<size_t>(d)]) {
      p2.push_back(d);
      free2 *= t2.sizes()[static_cast<size_t>(d)];
      result_sizes.push_back(t2.sizes()[static_cast<size_t>(d)]);
    }
  t1 = ops::reshape(ops::permute(t1, p1), std::vector<int64_t>{free1, contracted});
  t2 = ops::reshape(ops::permute(t2, p2), std::vector<int64_t>{contracted, free2});
  return ops::reshape(ops::mm(t1, t2), result_sizes);
}

// kron: self viewed as [s0, 1, s1, 1, ...] and other as [1, o0, 1, o1, ...] (both padded in
// front to one rank), multiplied, viewed as [s0 * o0, s1 * o1, ...].
Tensor kron(const Tensor& self, const Tensor& other) {
  const int64_t nd = std::max(self.dim(), other.dim());
  const int64_t pad_self = nd - self.dim(), pad_other = nd - other.dim();
  std::vector<int64_t> a(static_cast<size_t>(2 * nd)), b(static_cast<size_t>(2 * nd)), r(static_cast<size_t>(nd));
  for (int64_t i = 0; i < nd; ++i) {
    const size_t k = static_cast<size_t>(i);
    a[2 * k] = i >= pad_self ? self.sizes()[static_cast<size_t>(i - pad_self)] : 1;
    a[2 * k + 1] = 1;
    b[2 * k] = 1;
    b[2 * k + 1] = i >= pad_other ? other.sizes()[static_cast<size_t>(i - pad_other)] : 1;
    r[k] = a[2 * k] * b[2 * k + 1];
  }
  return ops::_unsafe_view(ops::mul_Tensor(ops::_unsafe_view(self, a), ops::_unsafe_view(other, b)), r);
}

// tensordot's out= form: no type promotion, so out must have the result's dtype.
Tensor tensordot_out(const Tensor& self, const Tensor& other, IntArrayRef dims_self, IntArrayRef dims_other,
                     const Tensor& out) {
  const Tensor r = ops::tensordot(self, other, dims_self, dims_other);
  IPT_CHECK(out.device() == self.device() && self.device() == other.device(), RuntimeError,
            "tensordot: Expected the output and input tensors to be on the same device, but got the output tensor on ",
            out.device().str(), ", input tensor a on ", self.device().str(), ", and input tensor b on ",
            other.device().str());
  IPT_CHECK(r.dtype() == out.dtype(), RuntimeError, "tensordot: Expected the output tensor to have dtype ",
            dtype_cpp_name(r.dtype()), ", but got an output tensor with dtype ", dtype_cpp_name(out.dtype()));
  resize_output(out, r.sizes());
  ops::copy_(out, r, false);
  return out;
}

}  // namespace ipt::native
