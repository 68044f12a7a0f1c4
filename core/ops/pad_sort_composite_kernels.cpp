// Composite kernels (CompositeImplicitAutograd / CompositeExplicitAutograd) of padding, the
// scatters into a slice, fill, squeeze of several dims and sorting: each calls the operators
// PyTorch 2.15's composite calls, so the Dispatch view shows its chain.
#include <string>

#include "core/ops/remap_rules.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"
#include "generated/ops.h"

namespace ipt::native {

namespace {
// at::padding_mode's values.
enum PaddingMode : int64_t { kReflect = 0, kReplicate = 1, kCircular = 2, kConstant = 3 };
const char* mode_name(int64_t m) {
  switch (m) {
    case kReflect: return "reflect";
    case kReplicate: return "replicate";
    case kCircular: return "circular";
    default: return "constant";
  }
}
}  // namespace

// F.pad: the mode's name to its number, then _pad_enum.
Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode, std::optional<double> value) {
  int64_t m;
  if (mode == "reflect") m = kReflect;
  else if (mode == "replicate") m = kReplicate;
  else if (mode == "circular") m = kCircular;
  else if (mode == "constant") m = kConstant;
  else IPT_FAIL(NotImplementedError, "Unrecognised padding mode ", std::string(mode));
  return ops::_pad_enum(self, pad, m, value);
}

// The mode's operator for 1, 2 or 3 padded dims (an input with or without a batch dim).
Tensor _pad_enum(const Tensor& self, IntArrayRef pad, int64_t mode, std::optional<double> value) {
  const int64_t nd = self.dim();
  IPT_CHECK(pad.size() % 2 == 0, RuntimeError, "Padding length must be divisible by 2");
  IPT_CHECK(static_cast<int64_t>(pad.size()) <= nd * 2, RuntimeError,
            "Padding length should be less than or equal to two times the input dimension but got padding length ",
            pad.size(), " and input of dimension ", nd);
  if (mode == kConstant) return ops::constant_pad_nd(self, pad, value.value_or(0.0));
  IPT_CHECK(!value || *value == 0.0, RuntimeError, "Padding mode \"", mode_name(mode),
            "\" doesn't take in value argument");
  const int64_t spatial = static_cast<int64_t>(pad.size()) / 2;
  if (spatial >= 1 && spatial <= 3 && (nd == spatial + 1 || nd == spatial + 2)) {
    if (mode == kCircular) return ops::_pad_circular(self, pad);
    const bool reflect = mode == kReflect;
    if (spatial == 1) return reflect ? ops::reflection_pad1d(self, pad) : ops::replication_pad1d(self, pad);
    if (spatial == 2) return reflect ? ops::reflection_pad2d(self, pad) : ops::replication_pad2d(self, pad);
    return reflect ? ops::reflection_pad3d(self, pad) : ops::replication_pad3d(self, pad);
  }
  IPT_FAIL(NotImplementedError, "Padding size ", pad.size(), " is not supported for ", nd,
           "D input tensor.\nSupported combinations for non-constant padding:\n"
           "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
           "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
           "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)");
}

// Circular padding: the input between its own wrapped-around ends, dim by dim from the last
// (PyTorch 2.15's _pad_circular: a new tensor, the middle copied in, then each side's band
// copied from the opposite end).
Tensor _pad_circular(const Tensor& self, IntArrayRef pad) {
  const int64_t spatial = static_cast<int64_t>(pad.size()) / 2, nd = self.dim();
  std::vector<int64_t> sizes = self.sizes();
  for (int64_t i = 0; i < spatial; ++i) {
    const size_t d = static_cast<size_t>(nd - 1 - i);
    const int64_t lo = pad[static_cast<size_t>(2 * i)], hi = pad[static_cast<size_t>(2 * i + 1)];
    IPT_CHECK(lo <= self.sizes()[d] && hi <= self.sizes()[d], RuntimeError,
              "Padding value causes wrapping around more than once.");
    sizes[d] += lo + hi;
    IPT_CHECK(sizes[d] >= 0, RuntimeError, "Negative padding value is resulting in an empty dimension");
  }
  Tensor out = ops::empty_memory_format(sizes, self.dtype(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  // the input, cut where a padding is negative
  Tensor in = self, mid = out;
  for (int64_t i = 0; i < spatial; ++i) {
    const int64_t d = nd - 1 - i;
    const int64_t lo = pad[static_cast<size_t>(2 * i)], hi = pad[static_cast<size_t>(2 * i + 1)];
    const int64_t n = self.sizes()[static_cast<size_t>(d)];
    in = ops::slice_Tensor(in, d, std::max<int64_t>(-lo, 0), n - std::max<int64_t>(-hi, 0), 1);
    mid = ops::slice_Tensor(mid, d, std::max<int64_t>(lo, 0), sizes[static_cast<size_t>(d)] - std::max<int64_t>(hi, 0),
                            1);
  }
  ops::copy_(mid, in, false);
  // each padded dim's bands, taken from the other end of the output (already filled in the dims
  // before it)
  for (int64_t i = 0; i < spatial; ++i) {
    const int64_t d = nd - 1 - i;
    const int64_t lo = pad[static_cast<size_t>(2 * i)], hi = pad[static_cast<size_t>(2 * i + 1)];
    const int64_t n = sizes[static_cast<size_t>(d)];
    const int64_t l = std::max<int64_t>(lo, 0), r = std::max<int64_t>(hi, 0);
    if (lo > 0) ops::copy_(ops::slice_Tensor(out, d, 0, lo, 1), ops::slice_Tensor(out, d, n - lo - r, n - r, 1), false);
    if (hi > 0) ops::copy_(ops::slice_Tensor(out, d, n - hi, n, 1), ops::slice_Tensor(out, d, l, l + hi, 1), false);
  }
  return out;
}

// self with src written into self[..., start:end:step, ...] (a copy; self is not changed).
Tensor slice_scatter(const Tensor& self, const Tensor& src, int64_t dim, std::optional<int64_t> start,
                     std::optional<int64_t> end, int64_t step) {
  Tensor out = ops::clone(self, MemoryFormat::Contiguous);
  Tensor slice = ops::slice_Tensor(out, dim, start, end, step);
  IPT_CHECK(slice.sizes() == src.sizes(), RuntimeError,
            "expected src to have a size equal to the slice of self. src size = ", int_list_str(src.sizes()),
            ", slice size = ", int_list_str(slice.sizes()));
  ops::copy_(slice, src, false);
  return out;
}

Tensor select_scatter(const Tensor& self, const Tensor& src, int64_t dim, int64_t index) {
  Tensor out = ops::clone(self, MemoryFormat::Contiguous);
  Tensor slice = ops::select_int(out, dim, index);
  IPT_CHECK(slice.sizes() == src.sizes(), RuntimeError,
            "expected src to have a size equal to the slice of self. src size = ", int_list_str(src.sizes()),
            ", slice size = ", int_list_str(slice.sizes()));
  ops::copy_(slice, src, false);
  return out;
}

// torch.fill: a new tensor like self, filled.
Tensor fill(const Tensor& self, const Scalar& value) {
  return ops::fill__Scalar(
      ops::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Preserve), value);
}

// squeeze of the given dims (those of size 1; others are kept).
Tensor squeeze(const Tensor& self, IntArrayRef dims) {
  std::vector<bool> drop(static_cast<size_t>(self.dim()), false);
  for (int64_t d : dims) {
    const int64_t w = self.dim() ? wrap_dim(d, self.dim()) : wrap_dim(d, 1);
    if (self.dim() && self.sizes()[static_cast<size_t>(w)] == 1) drop[static_cast<size_t>(w)] = true;
  }
  std::vector<int64_t> sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d)
    if (!drop[static_cast<size_t>(d)]) {
      sizes.push_back(self.sizes()[static_cast<size_t>(d)]);
      strides.push_back(self.strides()[static_cast<size_t>(d)]);
    }
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending) {
  return ops::sort_stable(self, false, dim, descending);
}
Tensor argsort(const Tensor& self, int64_t dim, bool descending) {
  return std::get<1>(ops::sort(self, dim, descending));
}
Tensor argsort(const Tensor& self, bool stable, int64_t dim, bool descending) {
  return std::get<1>(ops::sort_stable(self, stable, dim, descending));
}
Tensor msort(const Tensor& self) { return std::get<0>(ops::sort(self, 0, false)); }

}  // namespace ipt::native
