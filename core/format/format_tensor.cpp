// PyTorch 2.15's tensor repr (torch/_tensor_str.py) under its print options, re-implemented
// over a flat value list. See Note [How PyTorch picks a float format].
//
// Note [How PyTorch picks a float format]
// One formatter serves the whole tensor (only the summarized edge items when
// numel > 1000). Looking only at nonzero finite values: if all are integers ("int
// mode") they print as "{:.0f}." and switch to "{:.4e}" when max/min > 1000 or
// max > 1e8; otherwise "{:.4f}", switching to "{:.4e}" when max/min > 1000,
// max > 1e8 or min < 1e-4. A sci_mode set by set_printoptions replaces that choice
// before the widths are measured. Every element is right-aligned to the widest formatted
// nonzero finite value; nan/inf/zeros never widen the column.
//
// Note [edgeitems=0]
// With edgeitems=0 PyTorch 2.15 names the shape (", size=(10,)") of every non-empty tensor,
// and a summarized one prints as "[...]" whatever its rank.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/format/format.h"

namespace ipt::format {
namespace {

// printf-style float formatting, with Python's spelling of nan and inf.
std::string fmt_float(double v, char conv, int precision) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char fmt[8] = {'%', '.', '*', conv, 0};
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, precision, v);
  return buf;
}

std::string pad_left(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

struct Formatter {
  Dtype dtype;
  int precision;
  bool int_mode = true;
  bool sci_mode = false;
  size_t max_width = 1;

  Formatter(Dtype d, const std::vector<int64_t>& vals, const PrintOptions& o) : dtype(d), precision(o.precision) {
    for (int64_t v : vals) max_width = std::max(max_width, plain(v).size());
  }
  Formatter(Dtype d, const std::vector<double>& vals, const PrintOptions& o) : dtype(d), precision(o.precision) {
    choose(vals, o.sci_mode);
  }

  void choose(const std::vector<double>& vals, std::optional<bool> forced_sci) {
    std::vector<double> nz;
    for (double v : vals)
      if (std::isfinite(v) && v != 0) nz.push_back(v);
    if (nz.empty()) return;
    double mn = INFINITY, mx = 0;
    for (double v : nz) {
      mn = std::min(mn, std::fabs(v));
      mx = std::max(mx, std::fabs(v));
      if (v != std::ceil(v)) int_mode = false;
    }
    sci_mode = forced_sci ? *forced_sci : (mx / mn > 1000.0 || mx > 1.0e8 || mn < 1.0e-4);
    for (double v : nz) {
      size_t w = sci_mode   ? fmt_float(v, 'e', precision).size()
                 : int_mode ? fmt_float(v, 'f', 0).size() + 1
                            : fmt_float(v, 'f', precision).size();
      max_width = std::max(max_width, w);
    }
  }

  // Integer and bool dtypes.
  std::string plain(int64_t v) const {
    if (dtype == Dtype::Bool) return v != 0 ? "True" : "False";
    return std::to_string(v);
  }
  std::string format(int64_t v) const { return pad_left(plain(v), max_width); }

  std::string format(double v) const {
    std::string s;
    if (sci_mode) s = fmt_float(v, 'e', precision);
    else if (int_mode) s = fmt_float(v, 'f', 0) + (std::isfinite(v) ? "." : "");
    else s = fmt_float(v, 'f', precision);
    return pad_left(s, max_width);
  }
};

// V: double for floating dtypes, int64_t for integer and bool ones.
template <typename V>
struct Printer {
  const std::vector<int64_t>& sizes;
  const std::vector<V>& values;
  std::vector<int64_t> strides;
  bool summarize;
  int64_t edge;
  int64_t linewidth;

  Printer(const std::vector<int64_t>& sz, const std::vector<V>& vals, bool summ, const PrintOptions& o)
      : sizes(sz), values(vals), strides(sz.size(), 1), summarize(summ), edge(o.edgeitems), linewidth(o.linewidth) {
    for (int d = static_cast<int>(sz.size()) - 2; d >= 0; --d) strides[d] = strides[d + 1] * sz[d + 1];
  }

  bool elided(size_t dim) const { return summarize && sizes[dim] > 2 * edge; }

  // Indices along `dim` that are shown; -1 marks the "..." gap.
  std::vector<int64_t> shown(size_t dim) const {
    std::vector<int64_t> idx;
    if (!elided(dim)) {
      for (int64_t i = 0; i < sizes[dim]; ++i) idx.push_back(i);
      return idx;
    }
    for (int64_t i = 0; i < edge; ++i) idx.push_back(i);
    idx.push_back(-1);
    for (int64_t i = sizes[dim] - edge; i < sizes[dim]; ++i) idx.push_back(i);
    return idx;
  }

  // The values the formatter sees (get_summarized_data in PyTorch; edgeitems=0 never gets
  // here summarized, see Note [edgeitems=0]).
  void collect(size_t dim, int64_t offset, std::vector<V>& out) const {
    if (dim == sizes.size()) {
      out.push_back(values[offset]);
      return;
    }
    for (int64_t i : shown(dim))
      if (i >= 0) collect(dim + 1, offset + i * strides[dim], out);
  }

  std::string str(size_t dim, int64_t offset, int indent, const Formatter& f) const {
    if (sizes.empty()) return f.format(values[0]);
    if (dim + 1 == sizes.size()) {
      std::vector<std::string> items;
      for (int64_t i : shown(dim)) items.push_back(i < 0 ? " ..." : f.format(values[offset + i]));
      const int64_t per_line =
          std::max<int64_t>(1, static_cast<int64_t>(std::floor(double(linewidth - indent) / double(f.max_width + 2))));
      std::string out = "[";
      for (size_t k = 0; k < items.size(); ++k) {
        if (k > 0) out += static_cast<int64_t>(k) % per_line == 0 ? ",\n" + std::string(indent + 1, ' ') : ", ";
        out += items[k];
      }
      return out + "]";
    }
    std::string sep = "," + std::string(sizes.size() - dim - 1, '\n') + std::string(indent + 1, ' ');
    std::string out = "[";
    bool first = true;
    for (int64_t i : shown(dim)) {
      if (!first) out += sep;
      first = false;
      out += i < 0 ? "..." : str(dim + 1, offset + i * strides[dim], indent + 1, f);
    }
    return out + "]";
  }
};

std::string size_tuple(const std::vector<int64_t>& sizes) {
  std::string s = "(";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + (sizes.size() == 1 ? ",)" : ")");
}

// _add_suffixes: a suffix goes on a new line when it would pass the line width.
std::string add_suffixes(const std::string& body, const std::vector<std::string>& suffixes, int indent,
                         int64_t linewidth) {
  std::string out = body;
  auto nl = body.rfind('\n');
  long last_line_len = long(body.size()) - (nl == std::string::npos ? -1L : long(nl)) + 1;
  for (const auto& s : suffixes) {
    if (last_line_len + long(s.size()) + 2 > linewidth) {
      out += ",\n" + std::string(indent, ' ') + s;
      last_line_len = indent + long(s.size());
    } else {
      out += ", " + s;
      last_line_len += long(s.size()) + 2;
    }
  }
  return out + ")";
}

}  // namespace

PrintOptions& print_options() {
  static PrintOptions options;
  return options;
}

std::string format_tensor(const TensorPrintInfo& info, const PrintOptions& opts) {
  const std::string prefix = "tensor(";
  const int indent = static_cast<int>(prefix.size());
  int64_t numel = 1;
  for (int64_t s : info.sizes) numel *= s;
  std::string device = info.is_meta ? "meta" : info.device;

  std::vector<std::string> suffixes;
  if (!device.empty() && device != "cpu") suffixes.push_back("device='" + device + "'");
  std::string body;
  if (info.is_meta || numel == 0) {
    if (info.is_meta || info.sizes.size() != 1) suffixes.push_back("size=" + size_tuple(info.sizes));
    if (info.dtype != Dtype::Float32) suffixes.push_back(std::string("dtype=") + dtype_name(info.dtype));
    body = info.is_meta ? "..." : "[]";
  } else if (opts.edgeitems == 0 && double(numel) > opts.threshold && !info.sizes.empty()) {
    // See Note [edgeitems=0].
    suffixes.push_back("size=" + size_tuple(info.sizes));
    if (info.dtype != Dtype::Float32 && info.dtype != Dtype::Int64 && info.dtype != Dtype::Bool)
      suffixes.push_back(std::string("dtype=") + dtype_name(info.dtype));
    body = "[...]";
  } else {
    if (opts.edgeitems == 0) suffixes.push_back("size=" + size_tuple(info.sizes));
    // PyTorch names the dtype unless it is the default float type, int64 or bool.
    if (info.dtype != Dtype::Float32 && info.dtype != Dtype::Int64 && info.dtype != Dtype::Bool)
      suffixes.push_back(std::string("dtype=") + dtype_name(info.dtype));
    if (is_integer_like(info.dtype)) {
      std::vector<int64_t> ints = info.ints;
      if (ints.empty())
        for (double v : info.values) ints.push_back(static_cast<int64_t>(v));
      Printer<int64_t> p(info.sizes, ints, double(numel) > opts.threshold, opts);
      std::vector<int64_t> seen;
      p.collect(0, 0, seen);
      body = p.str(0, 0, indent, Formatter(info.dtype, seen, opts));
    } else {
      std::vector<double> vals = info.values;
      if (info.dtype == Dtype::Float32)
        for (double& v : vals) v = static_cast<double>(static_cast<float>(v));
      Printer<double> p(info.sizes, vals, double(numel) > opts.threshold, opts);
      std::vector<double> seen;
      p.collect(0, 0, seen);
      body = p.str(0, 0, indent, Formatter(info.dtype, seen, opts));
    }
  }
  if (!info.grad_fn.empty()) suffixes.push_back("grad_fn=<" + info.grad_fn + ">");
  else if (info.requires_grad) suffixes.push_back("requires_grad=True");
  return add_suffixes(prefix + body, suffixes, indent, opts.linewidth);
}

}  // namespace ipt::format
