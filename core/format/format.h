#pragma once
// Printing exactly as PyTorch 2.15 prints, under torch.set_printoptions (PrintOptions; the
// defaults are PyTorch's: precision=4, threshold=1000, edgeitems=3, linewidth=80, sci_mode
// chosen automatically). Pure formatting: the caller flattens the tensor into TensorPrintInfo.
// See Note [How PyTorch picks a float format] in format_tensor.cpp.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ipt::format {

enum class Dtype { Float32, Float64, Int64, Bool, UInt8, Int8, Int16, Int32, Float16, BFloat16 };

// Integer and bool tensors print their values without a decimal point.
constexpr bool is_integer_like(Dtype d) {
  return d == Dtype::Int64 || d == Dtype::Bool || d == Dtype::UInt8 || d == Dtype::Int8 || d == Dtype::Int16 ||
         d == Dtype::Int32;
}

struct TensorPrintInfo {
  std::vector<int64_t> sizes;  // logical shape; empty = 0-d
  std::vector<double> values;  // row-major logical order; ignored for meta
  Dtype dtype = Dtype::Float32;
  std::string device = "cpu";  // "cpu", "cuda:0", "meta"; anything but "cpu" is printed
  bool requires_grad = false;
  std::string grad_fn;        // e.g. "AddBackward0"; wins over requires_grad
  bool is_meta = false;       // prints tensor(..., device='meta', size=(2, 3))
  std::vector<int64_t> ints;  // `values` for integer and bool dtypes, exact past 2^53;
                              // when empty, taken from `values`
};

// torch._tensor_str.PRINT_OPTS.
struct PrintOptions {
  int precision = 4;             // digits after the point
  double threshold = 1000;       // more elements than this are summarised (inf: never)
  int64_t edgeitems = 3;         // items kept at each end of a summarised dimension
  int64_t linewidth = 80;        // characters per line before wrapping
  std::optional<bool> sci_mode;  // none: chosen from the values
};
// The process's options (set by torch.set_printoptions).
PrintOptions& print_options();

// What print(t) / repr(t) shows.
// The printer recurses once per dimension: callers refuse deeper tensors (as PyTorch's
// printer hits Python's recursion limit).
inline constexpr int64_t kMaxPrintDims = 900;
std::string format_tensor(const TensorPrintInfo& info, const PrintOptions& opts = print_options());

// Python's repr(float): shortest round-trip digits, exponent form when the
// decimal exponent is < -4 or >= 16 ("1e-05", "1e+16", "0.0001", "2.0").
std::string format_python_float(double v);

// "torch.float32", "torch.float64", "torch.int64", "torch.bool", "torch.uint8", ...
const char* dtype_name(Dtype d);

}  // namespace ipt::format
