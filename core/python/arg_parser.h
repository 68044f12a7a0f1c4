#pragma once
// PythonArgParser: matches a Python call (self, args, kwargs) against an operator's Python
// signatures, as PyTorch's python_arg_parser does for every generated binding.
//
// Note [Python signatures come from the schema]
// The generated bindings (build/generated/python_functions.cpp, made by tools/codegen from
// core/ops/native_functions.yaml) pass one signature string per overload, written with the
// schema's own types: "add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor? out=None)".
// Overloads are tried in order; the first whose arguments all fit wins. When none fits, the
// TypeError reads as PyTorch's: a single plausible signature explains what is wrong with
// the call ("mm() missing 1 required positional arguments: \"mat2\""), otherwise the
// message lists every signature ("add() received an invalid combination of arguments -
// got (str), but expected (Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)").
//
// Values are kept as borrowed PyObject pointers and converted when the binding asks for them
// (tensor(i), scalar(i), intlist(i), ...), so a call converts each argument once.

#include <Python.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ops/generator.h"
#include "core/tensor/device.h"
#include "core/tensor/scalar.h"
#include "core/tensor/scalar_type.h"
#include "core/tensor/tensor.h"
#include "core/tensor/tensor_options.h"

namespace ipt::python {

enum class ParamType {
  Tensor,
  Scalar,
  Int,
  SymInt,
  IntList,
  SymIntList,
  Float,
  FloatList,
  BoolList,  // bool[3] (convolution_backward's output_mask)
  Bool,
  ScalarType,
  Layout,
  Device,
  MemoryFormat,
  String,
  TensorList,
  OptTensorList,
  Generator
};

struct Param {
  ParamType type = ParamType::Tensor;
  bool optional = false;  // `?` in the schema, or a default of None
  std::string name;
  PyObject* py_name = nullptr;  // interned
  bool kwarg_only = false;
  int list_size = 0;  // int[2]: 2 (a single int is then accepted and repeated)
  bool has_default = false;
  std::string default_text;  // "1", "None", "[]", "False", "contiguous_format"

  bool check(PyObject* obj, int& failed_index) const;
  std::string type_name() const;        // as PyTorch names it in messages: "Number", "tuple of ints"
  std::string default_display() const;  // the default as messages show it (Note [Defaults in signature texts])
};

class Signature {
 public:
  Signature(const std::string& text, bool allow_numbers_as_tensors);
  // Fills dst[0..params) (borrowed; nullptr = not given). With raise_error, throws a Python
  // TypeError (via pybind11::error_already_set) saying why the call does not fit.
  bool parse(PyObject* self, PyObject* args, PyObject* kwargs, PyObject** dst, bool raise_error) const;
  std::string str() const;  // "(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)"
  // The TypeError text for a list argument whose element `index` has the wrong type.
  std::string element_error(const Param& p, size_t param_index, PyObject* element, Py_ssize_t index) const;

  std::string name;
  std::vector<Param> params;
  size_t min_args = 0, max_args = 0, max_pos_args = 0;
  bool hidden = false;  // a deprecated overload: accepted, never listed in messages
  bool allow_numbers_as_tensors = false;
};

class PythonArgs;

class PythonArgParser {
 public:
  // `signatures` in order of preference; a trailing "|hidden" marks a deprecated overload.
  explicit PythonArgParser(const std::vector<std::string>& signatures);
  PythonArgs parse(PyObject* self, PyObject* args, PyObject* kwargs, PyObject** dst) const;
  size_t max_params() const { return max_params_; }

 private:
  [[noreturn]] void raise_error(PyObject* self, PyObject* args, PyObject* kwargs, PyObject** dst) const;
  std::vector<Signature> signatures_;
  std::string name_;
  size_t max_params_ = 0;
};

// The parsed arguments of one call: which overload matched (idx) and accessors by position.
class PythonArgs {
 public:
  PythonArgs(int idx, const Signature& sig, PyObject** args) : idx(idx), sig_(sig), args_(args) {}
  const int idx;

  bool has(int i) const { return args_[i] != nullptr && args_[i] != Py_None; }
  bool is_none(int i) const { return !has(i); }
  Tensor tensor(int i) const;
  std::optional<Tensor> optional_tensor(int i) const;
  Scalar scalar(int i) const;
  std::optional<Scalar> optional_scalar(int i) const;
  int64_t to_int64(int i) const;
  std::optional<int64_t> optional_int64(int i) const;
  std::vector<int64_t> intlist(int i) const;
  std::optional<std::vector<int64_t>> optional_intlist(int i) const;
  double to_double(int i) const;
  std::optional<double> optional_double(int i) const;
  std::vector<double> doublelist(int i) const;
  std::vector<bool> boollist(int i) const;
  bool to_bool(int i) const;
  std::optional<bool> optional_bool(int i) const;
  std::optional<ScalarType> scalartype(int i) const;
  std::optional<Layout> layout(int i) const;
  std::optional<Device> device(int i) const;
  std::optional<MemoryFormat> memory_format(int i) const;
  std::string string(int i) const;
  std::optional<std::string> optional_string(int i) const;
  std::vector<Tensor> tensorlist(int i) const;
  std::vector<std::optional<Tensor>> opt_tensorlist(int i) const;
  std::optional<Generator> generator(int i) const;
  PyObject* raw(int i) const { return args_[i]; }

 private:
  const Param& p(int i) const { return sig_.params[static_cast<size_t>(i)]; }
  const Signature& sig_;
  PyObject** args_;
};

// Conversions shared with hand-written bindings.
bool is_tensor(PyObject* obj);
Scalar to_scalar(PyObject* obj);          // Python bool/int/float or a 0-dim tensor
bool is_int_like(PyObject* obj);          // int (not bool), __index__, or a 0-dim integer tensor
std::string py_type_name(PyObject* obj);  // "Tensor", "int", "str", ...

}  // namespace ipt::python
