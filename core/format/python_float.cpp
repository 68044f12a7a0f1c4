// Python's repr(float): the shortest digit string that round-trips (std::to_chars
// gives the same digits as CPython's dtoa mode 0), laid out with CPython's 'r' rules:
// exponent form when decpt <= -4 or decpt > 16, else fixed with at least one decimal.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/format/format.h"

namespace ipt::format {

std::string format_python_float(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  std::string sign = std::signbit(v) ? "-" : "";
  if (v == 0) return sign + "0.0";

  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  std::string sci(buf, res.ptr);  // e.g. "1.2345e+20" or "5e-324"
  auto epos = sci.find('e');
  std::string digits;
  for (size_t i = 0; i < epos; ++i)
    if (sci[i] != '.') digits += sci[i];
  int exp10 = std::atoi(sci.c_str() + epos + 1);
  int decpt = exp10 + 1;  // value = 0.DIGITS * 10^decpt
  int n = static_cast<int>(digits.size());

  if (decpt <= -4 || decpt > 16) {
    std::string out = sign + digits.substr(0, 1);
    if (n > 1) out += "." + digits.substr(1);
    std::string e = std::to_string(std::abs(exp10));
    if (e.size() < 2) e = "0" + e;
    return out + (exp10 < 0 ? "e-" : "e+") + e;
  }
  if (decpt <= 0) return sign + "0." + std::string(-decpt, '0') + digits;
  if (decpt >= n) return sign + digits + std::string(decpt - n, '0') + ".0";
  return sign + digits.substr(0, decpt) + "." + digits.substr(decpt);
}

const char* dtype_name(Dtype d) {
  switch (d) {
    case Dtype::Float32: return "torch.float32";
    case Dtype::Float64: return "torch.float64";
    case Dtype::Int64: return "torch.int64";
    case Dtype::Bool: return "torch.bool";
    case Dtype::UInt8: return "torch.uint8";
    case Dtype::Int8: return "torch.int8";
    case Dtype::Int16: return "torch.int16";
    case Dtype::Int32: return "torch.int32";
    case Dtype::Float16: return "torch.float16";
    case Dtype::BFloat16: return "torch.bfloat16";
  }
  return "torch.float32";
}

}  // namespace ipt::format
