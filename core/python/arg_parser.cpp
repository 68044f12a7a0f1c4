#include "core/python/arg_parser.h"

#include "core/python/generator_bindings.h"

#include <pybind11/pybind11.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "core/ops/scalar_tensor.h"
#include "core/python/generator_bindings.h"
#include "core/python/py_types.h"
#include "core/python/tensor_object.h"

namespace py = pybind11;

namespace ipt::python {

namespace {

[[noreturn]] void type_error(const std::string& msg) {
  PyErr_SetString(PyExc_TypeError, msg.c_str());
  throw py::error_already_set();
}

bool is_number(PyObject* o) { return PyLong_Check(o) || PyFloat_Check(o); }  // bool is an int

bool is_sequence(PyObject* o) { return PyTuple_Check(o) || PyList_Check(o); }

// Splits "Tensor input, int[2] dims=[0,1], *" at commas outside brackets.
std::vector<std::string> split_params(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!cur.empty()) out.push_back(cur);
  for (auto& p : out) {
    size_t b = p.find_first_not_of(' '), e = p.find_last_not_of(' ');
    p = b == std::string::npos ? "" : p.substr(b, e - b + 1);
  }
  std::erase_if(out, [](const std::string& p) { return p.empty(); });
  return out;
}

Param parse_param(const std::string& text, bool kwarg_only) {
  Param p;
  p.kwarg_only = kwarg_only;
  size_t sp = text.find(' ');
  if (sp == std::string::npos) throw std::runtime_error("bad Python signature parameter: " + text);
  std::string type = text.substr(0, sp), rest = text.substr(sp + 1);
  if (size_t eq = rest.find('='); eq != std::string::npos) {
    p.has_default = true;
    p.default_text = rest.substr(eq + 1);
    rest = rest.substr(0, eq);
  }
  p.name = rest;
  if (!type.empty() && type.back() == '?') {
    p.optional = true;
    type.pop_back();
  }
  if (p.has_default && p.default_text == "None") p.optional = true;
  auto list_of = [&](const std::string& base, ParamType t) {
    if (type.rfind(base + "[", 0) != 0 || type.back() != ']') return false;
    std::string n = type.substr(base.size() + 1, type.size() - base.size() - 2);
    p.list_size = n.empty() ? 0 : std::atoi(n.c_str());
    p.type = t;
    return true;
  };
  if (type == "Tensor") p.type = ParamType::Tensor;
  else if (type == "Scalar") p.type = ParamType::Scalar;
  else if (type == "int") p.type = ParamType::Int;
  else if (type == "SymInt") p.type = ParamType::SymInt;
  else if (type == "float") p.type = ParamType::Float;
  else if (type == "bool") p.type = ParamType::Bool;
  else if (type == "ScalarType") p.type = ParamType::ScalarType;
  else if (type == "Layout") p.type = ParamType::Layout;
  else if (type == "Device") p.type = ParamType::Device;
  else if (type == "MemoryFormat") p.type = ParamType::MemoryFormat;
  else if (type == "str") p.type = ParamType::String;
  else if (type == "Generator") p.type = ParamType::Generator;
  else if (type == "Tensor[]") p.type = ParamType::TensorList;
  else if (type == "Tensor?[]") p.type = ParamType::OptTensorList;
  else if (list_of("int", ParamType::IntList) || list_of("SymInt", ParamType::SymIntList) ||
           list_of("float", ParamType::FloatList) || list_of("bool", ParamType::BoolList)) {
  } else {
    throw std::runtime_error("type '" + type + "' is not supported in Python signatures");
  }
  p.py_name = PyUnicode_InternFromString(p.name.c_str());
  return p;
}

bool is_int_list(ParamType t) { return t == ParamType::IntList || t == ParamType::SymIntList; }

// Python's own spelling of a default list "[0,1]" -> {0, 1}.
std::vector<int64_t> parse_int_list(const std::string& s) {
  std::vector<int64_t> v;
  std::string body = s;
  if (!body.empty() && body.front() == '[') body = body.substr(1, body.size() - 2);
  for (const auto& item : split_params(body)) v.push_back(std::atoll(item.c_str()));
  return v;
}

std::string arg_type_desc(PyObject* o) { return py_type_name(o); }

// A schema default for a Scalar: "1", "0.5", "True".
Scalar default_scalar(const std::string& d) {
  if (d == "True" || d == "False") return Scalar(d == "True");
  if (d.find_first_of(".e") != std::string::npos) return Scalar(std::atof(d.c_str()));
  return Scalar(static_cast<int64_t>(std::atoll(d.c_str())));
}

}  // namespace

// ---- conversions ----------------------------------------------------------------------------

bool is_tensor(PyObject* obj) { return is_tensor_object(obj); }

std::string py_type_name(PyObject* obj) {
  if (is_tensor_object(obj)) {
    const char* n = Py_TYPE(obj)->tp_name;
    const char* dot = std::strrchr(n, '.');
    return dot ? dot + 1 : n;
  }
  return Py_TYPE(obj)->tp_name;
}

bool is_int_like(PyObject* obj) {
  if (PyBool_Check(obj)) return false;
  if (PyLong_Check(obj)) return true;
  if (is_tensor_object(obj)) {
    const Tensor& t = unpack(obj);
    return t.dim() == 0 && is_integral(t.dtype(), false) && !t.requires_grad();
  }
  return !PyFloat_Check(obj) && PyIndex_Check(obj);
}

Scalar to_scalar(PyObject* obj) {
  if (PyBool_Check(obj)) return Scalar(obj == Py_True);
  if (PyLong_Check(obj)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow) {
      PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long long");
      throw py::error_already_set();
    }
    return Scalar(static_cast<int64_t>(v));
  }
  if (PyFloat_Check(obj)) return Scalar(PyFloat_AS_DOUBLE(obj));
  if (is_tensor_object(obj)) {
    const Tensor& t = unpack(obj);
    double v = element_as_double(t, 0);
    if (t.dtype() == ScalarType::Bool) return Scalar(v != 0);
    if (is_integral(t.dtype(), false)) return Scalar(static_cast<int64_t>(v));
    return Scalar(v);
  }
  if (PyIndex_Check(obj)) return Scalar(static_cast<int64_t>(PyNumber_AsSsize_t(obj, PyExc_OverflowError)));
  type_error("expected a number, not " + py_type_name(obj));
}

static int64_t to_int(PyObject* obj) {
  if (is_tensor_object(obj)) return static_cast<int64_t>(element_as_double(unpack(obj), 0));
  long long v = PyLong_AsLongLong(obj);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return v;
}

bool Param::check(PyObject* obj, int& failed_index) const {
  failed_index = -1;
  if (obj == Py_None) return optional;
  switch (type) {
    case ParamType::Tensor: return is_tensor_object(obj);
    case ParamType::Scalar:
      if (is_number(obj)) return true;
      if (is_tensor_object(obj)) {
        const Tensor& t = unpack(obj);
        return t.dim() == 0 && !t.requires_grad();
      }
      return false;
    case ParamType::Int:
    case ParamType::SymInt: return is_int_like(obj);
    case ParamType::IntList:
    case ParamType::SymIntList:
    case ParamType::FloatList: {
      const bool floats = type == ParamType::FloatList;
      auto ok = [&](PyObject* e) { return floats ? (is_number(e) || is_int_like(e)) : is_int_like(e); };
      if (is_sequence(obj)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(obj);
        PyObject** items = PySequence_Fast_ITEMS(obj);
        for (Py_ssize_t i = 0; i < n; ++i)
          if (!ok(items[i])) {
            failed_index = static_cast<int>(i);
            return false;
          }
        return true;
      }
      return list_size > 0 && ok(obj);
    }
    case ParamType::BoolList: {
      if (!is_sequence(obj)) return false;
      Py_ssize_t n = PySequence_Fast_GET_SIZE(obj);
      PyObject** items = PySequence_Fast_ITEMS(obj);
      if (list_size > 0 && n != list_size) return false;
      for (Py_ssize_t i = 0; i < n; ++i)
        if (!PyBool_Check(items[i])) {
          failed_index = static_cast<int>(i);
          return false;
        }
      return true;
    }
    case ParamType::Float:
      if (is_number(obj)) return true;
      if (is_tensor_object(obj)) {
        const Tensor& t = unpack(obj);
        return t.dim() == 0 && !t.requires_grad();
      }
      return false;
    case ParamType::Bool:
      if (PyBool_Check(obj)) return true;
      if (is_tensor_object(obj)) {
        const Tensor& t = unpack(obj);
        return t.dim() == 0 && t.dtype() == ScalarType::Bool;
      }
      return false;
    case ParamType::ScalarType:
      return as_dtype(obj).has_value() || obj == reinterpret_cast<PyObject*>(&PyFloat_Type) ||
             obj == reinterpret_cast<PyObject*>(&PyLong_Type) || obj == reinterpret_cast<PyObject*>(&PyBool_Type);
    case ParamType::Layout: return as_layout(obj).has_value();
    case ParamType::Device: return PyUnicode_Check(obj) || is_int_like(obj) || as_device(obj).has_value();
    case ParamType::MemoryFormat: return as_memory_format(obj).has_value();
    case ParamType::String: return PyUnicode_Check(obj);
    case ParamType::Generator: return is_generator_object(obj);
    case ParamType::TensorList:
    case ParamType::OptTensorList: {
      if (!is_sequence(obj)) return false;
      Py_ssize_t n = PySequence_Fast_GET_SIZE(obj);
      PyObject** items = PySequence_Fast_ITEMS(obj);
      for (Py_ssize_t i = 0; i < n; ++i)
        if (!is_tensor_object(items[i]) && !(type == ParamType::OptTensorList && items[i] == Py_None)) {
          failed_index = static_cast<int>(i);
          return false;
        }
      return true;
    }
  }
  return false;
}

std::string Param::type_name() const {
  switch (type) {
    case ParamType::Tensor: return "Tensor";
    case ParamType::Scalar: return "Number";
    case ParamType::Int: return "int";
    case ParamType::SymInt: return "int";  // PyTorch 2.15 names symbolic ints as plain ones
    case ParamType::IntList: return "tuple of ints";
    case ParamType::SymIntList: return "tuple of ints";
    case ParamType::Float: return "float";
    case ParamType::FloatList: return "tuple of floats";
    case ParamType::BoolList: return "tuple of bools";
    case ParamType::Bool: return "bool";
    case ParamType::ScalarType: return "torch.dtype";
    case ParamType::Layout: return "torch.layout";
    case ParamType::Device: return "torch.device";
    case ParamType::MemoryFormat: return "torch.memory_format";
    case ParamType::String: return "str";
    case ParamType::Generator: return "torch.Generator";
    case ParamType::TensorList: return "tuple of Tensors";
    case ParamType::OptTensorList: return "tuple of Tensors";
  }
  return "?";
}

// ---- signatures -----------------------------------------------------------------------------

Signature::Signature(const std::string& full, bool numbers_as_tensors) : allow_numbers_as_tensors(numbers_as_tensors) {
  std::string text = full;
  if (size_t bar = text.rfind("|hidden"); bar != std::string::npos && bar + 7 == text.size()) {
    hidden = true;
    text = text.substr(0, bar);
  }
  size_t open = text.find('('), close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos)
    throw std::runtime_error("bad Python signature: " + full);
  name = text.substr(0, open);
  bool kw = false;
  for (const auto& item : split_params(text.substr(open + 1, close - open - 1))) {
    if (item == "*") {
      kw = true;
      continue;
    }
    params.push_back(parse_param(item, kw));
  }
  for (const auto& p : params) {
    if (!p.kwarg_only) ++max_pos_args;
    if (!p.has_default) ++min_args;
  }
  max_args = params.size();
}

std::string Signature::str() const {
  std::string s = "(";
  bool kw = false;
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) s += ", ";
    if (params[i].kwarg_only && !kw) {
      s += "*, ";
      kw = true;
    }
    s += params[i].type_name() + " " + params[i].name;
    if (params[i].has_default) s += " = " + params[i].default_display();
  }
  return s + ")";
}

// Note [Defaults in signature texts]
// PyTorch's messages list a parameter with a default as "Number alpha = 1". The default shown
// is the one of the Python signature torchgen writes, not the schema's: an empty list is None,
// and the TensorOptions arguments are `dtype/layout/device = None` and `pin_memory = False`.
std::string Param::default_display() const {
  if (default_text == "[]") return "None";
  if (type == ParamType::ScalarType || type == ParamType::Layout || type == ParamType::Device) return "None";
  if (type == ParamType::Bool && name == "pin_memory") return "False";
  return default_text;
}

// A list argument with an element of the wrong type, in PyTorch 2.15's words: int lists fail
// while unpacking ("argument 'size' failed to unpack the object at pos 2 with error \"type must
// be tuple of ints,but got str\""), tensor lists name the element and the argument by their
// indices ("expected Tensor as element 1 in argument 0, but got int"), other lists the type.
std::string Signature::element_error(const Param& p, size_t param_index, PyObject* element, Py_ssize_t index) const {
  const std::string pos = std::to_string(index + 1);
  if (p.type == ParamType::TensorList)
    return "expected Tensor as element " + std::to_string(index) + " in argument " + std::to_string(param_index) +
           ", but got " + py_type_name(element);
  if (is_int_list(p.type))
    return name + "(): argument '" + p.name + "' failed to unpack the object at pos " + pos +
           " with error \"type must be tuple of ints,but got " + py_type_name(element) + "\"";
  return name + "(): argument '" + p.name + "' must be " + p.type_name() + ", but found element of type " +
         py_type_name(element) + " at pos " + pos;
}

bool Signature::parse(PyObject* self, PyObject* args, PyObject* kwargs, PyObject** dst, bool raise_error) const {
  const Py_ssize_t nargs = args ? PyTuple_GET_SIZE(args) : 0;
  Py_ssize_t remaining_kwargs = kwargs ? PyDict_Size(kwargs) : 0;
  const bool allow_varargs_intlist = max_pos_args == 1 && !params.empty() && is_int_list(params[0].type);
  auto plural = [](size_t n) { return n == 1 ? "" : "s"; };
  if (nargs > static_cast<Py_ssize_t>(max_pos_args) && !allow_varargs_intlist) {
    if (!raise_error) return false;
    type_error(name + "() takes " + std::to_string(max_pos_args) + " positional argument" + plural(max_pos_args) +
               " but " + std::to_string(nargs) + (nargs == 1 ? " was" : " were") + " given");
  }
  Py_ssize_t arg_pos = 0;
  // PyTorch matches an int list by its first element and converts the rest once the signature
  // has matched, so a later element of the wrong type fails the call, not the signature.
  std::string unpack_error;
  for (size_t i = 0; i < params.size(); ++i) {
    const Param& p = params[i];
    PyObject* obj = nullptr;
    bool is_kwd = false;
    if (arg_pos < nargs && !p.kwarg_only) {
      obj = PyTuple_GET_ITEM(args, arg_pos);
    } else if (kwargs) {
      obj = PyDict_GetItem(kwargs, p.py_name);
      is_kwd = true;
    }
    int failed = -1;
    if (!obj) {
      // `Tensor? x` accepts None but, without a default, must still be given (as in PyTorch).
      if (!p.has_default) {
        if (!raise_error) return false;
        type_error(name + "() missing 1 required positional arguments: \"" + p.name + "\"");
      }
      dst[i] = nullptr;
    } else if (p.check(obj, failed)) {
      dst[i] = obj;
    } else if (!is_kwd && i == 0 && allow_varargs_intlist && is_int_like(obj)) {
      // permute(1, 2, 3) is permute((1, 2, 3)): every positional argument is one element.
      for (Py_ssize_t k = 0; k < nargs && unpack_error.empty(); ++k)
        if (!is_int_like(PyTuple_GET_ITEM(args, k))) unpack_error = element_error(p, i, PyTuple_GET_ITEM(args, k), k);
      dst[i] = args;
      arg_pos = nargs;
      continue;
    } else if (p.type == ParamType::Tensor && allow_numbers_as_tensors && is_number(obj)) {
      dst[i] = obj;  // becomes a wrapped-number tensor in tensor(i)
    } else if (is_int_list(p.type) && failed > 0) {
      if (unpack_error.empty()) unpack_error = element_error(p, i, PySequence_Fast_ITEMS(obj)[failed], failed);
      dst[i] = obj;
    } else {
      if (!raise_error) return false;
      if (failed >= 0) type_error(element_error(p, i, PySequence_Fast_ITEMS(obj)[failed], failed));
      if (is_kwd)
        type_error(name + "(): argument '" + p.name + "' must be " + p.type_name() + ", not " + py_type_name(obj));
      type_error(name + "(): argument '" + p.name + "' (position " + std::to_string(arg_pos + 1) + ") must be " +
                 p.type_name() + ", not " + py_type_name(obj));
    }
    if (!is_kwd) ++arg_pos;
    else if (obj) --remaining_kwargs;
  }
  if (remaining_kwargs > 0) {
    if (!raise_error) return false;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kwargs, &pos, &key, &value)) {
      if (!PyUnicode_Check(key)) type_error("keywords must be strings");
      std::string k = PyUnicode_AsUTF8(key);
      size_t idx = 0;
      for (; idx < params.size(); ++idx)
        if (params[idx].name == k) break;
      if (idx == params.size()) type_error(name + "() got an unexpected keyword argument '" + k + "'");
      if (!params[idx].kwarg_only && static_cast<Py_ssize_t>(idx) < nargs)
        type_error(name + "() got multiple values for argument '" + k + "'");
    }
    type_error(name + "() got an unexpected keyword argument");
  }
  if (!unpack_error.empty()) type_error(unpack_error);
  (void)self;
  return true;
}

// ---- the parser -----------------------------------------------------------------------------

namespace {
// Operators whose Tensor arguments also take Python numbers. PyTorch 2.15 refuses a number for
// maximum, minimum, atan2 and the logical ops (a TypeError), and takes one for fmod and the bitwise
// ops through their Scalar overloads.
bool numbers_as_tensors(const std::string& name) {
  static const char* names[] = {
      "add",         "add_",         "__radd__", "sub",      "sub_",         "__rsub__",    "mul",          "mul_",
      "__rmul__",    "div",          "div_",     "__rdiv__", "__rtruediv__", "true_divide", "floor_divide", "remainder",
      "eq",          "eq_",          "ne",       "ne_",      "lt",           "lt_",         "le",           "le_",
      "gt",          "gt_",          "ge",       "ge_",      "__eq__",       "__ne__",      "__lt__",       "__le__",
      "__gt__",      "__ge__",       "__add__",  "__iadd__", "__sub__",      "__isub__",    "__mul__",      "__imul__",
      "__truediv__", "__itruediv__", "__div__",  "__idiv__", "where",        "copysign",    "rsub"};
  for (const char* n : names)
    if (name == n) return true;
  return false;
}
}  // namespace

PythonArgParser::PythonArgParser(const std::vector<std::string>& signatures) {
  for (const auto& s : signatures) {
    std::string n = s.substr(0, s.find('('));
    signatures_.emplace_back(s, numbers_as_tensors(n));
    max_params_ = std::max(max_params_, signatures_.back().params.size());
  }
  if (!signatures_.empty()) name_ = signatures_[0].name;
}

PythonArgs PythonArgParser::parse(PyObject* self, PyObject* args, PyObject* kwargs, PyObject** dst) const {
  if (signatures_.size() == 1) {
    signatures_[0].parse(self, args, kwargs, dst, true);
    return PythonArgs(0, signatures_[0], dst);
  }
  for (size_t i = 0; i < signatures_.size(); ++i)
    if (signatures_[i].parse(self, args, kwargs, dst, false))
      return PythonArgs(static_cast<int>(i), signatures_[i], dst);
  raise_error(self, args, kwargs, dst);
}

void PythonArgParser::raise_error(PyObject* self, PyObject* args, PyObject* kwargs, PyObject** dst) const {
  const Py_ssize_t nargs = args ? PyTuple_GET_SIZE(args) : 0;
  const Py_ssize_t nkw = kwargs ? PyDict_Size(kwargs) : 0;
  const size_t num_args = static_cast<size_t>(nargs + nkw);
  std::vector<const Signature*> plausible, shown;
  for (const auto& s : signatures_) {
    if (s.hidden) continue;
    shown.push_back(&s);
    if (num_args >= s.min_args && num_args <= s.max_args) plausible.push_back(&s);
  }
  if (plausible.size() == 1) plausible[0]->parse(self, args, kwargs, dst, true);

  std::string got;
  for (Py_ssize_t i = 0; i < nargs; ++i) got += (i ? ", " : "") + arg_type_desc(PyTuple_GET_ITEM(args, i));
  if (kwargs) {
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kwargs, &pos, &key, &value))
      got += std::string(got.empty() ? "" : ", ") + PyUnicode_AsUTF8(key) + "=" + arg_type_desc(value);
  }
  std::string msg = name_ + "() received an invalid combination of arguments - got (" + got + "), but expected ";
  if (shown.size() == 1) {
    msg += shown[0]->str();
  } else {
    msg += "one of:\n";
    for (const Signature* s : shown) {
      msg += " * " + s->str() + "\n";
      // The arity fits but some types do not: mark them as PyTorch does (!str!).
      if (nargs > static_cast<Py_ssize_t>(s->max_pos_args) || num_args < s->min_args || num_args > s->max_args)
        continue;
      std::string marks;
      bool any_bad = false;
      for (Py_ssize_t i = 0; i < nargs; ++i) {
        int failed;
        PyObject* o = PyTuple_GET_ITEM(args, i);
        bool ok = s->params[static_cast<size_t>(i)].check(o, failed);
        any_bad |= !ok;
        marks += std::string(i ? ", " : "") + (ok ? arg_type_desc(o) : "!" + arg_type_desc(o) + "!");
      }
      if (any_bad) msg += "      didn't match because some of the arguments have invalid types: (" + marks + ")\n";
    }
  }
  type_error(msg);
}

// ---- accessors ------------------------------------------------------------------------------

Tensor PythonArgs::tensor(int i) const {
  PyObject* o = args_[i];
  if (o && is_tensor_object(o)) return unpack(o);
  if (o && o != Py_None) {
    return native::wrapped_scalar_tensor(to_scalar(o));
  }
  return Tensor();
}

std::optional<Tensor> PythonArgs::optional_tensor(int i) const {
  if (!has(i)) return std::nullopt;
  return tensor(i);
}

Scalar PythonArgs::scalar(int i) const {
  if (!args_[i]) return p(i).default_text.empty() ? Scalar(int64_t(0)) : default_scalar(p(i).default_text);
  return to_scalar(args_[i]);
}

std::optional<Scalar> PythonArgs::optional_scalar(int i) const {
  if (!has(i)) return std::nullopt;
  return to_scalar(args_[i]);
}

int64_t PythonArgs::to_int64(int i) const {
  if (!args_[i]) return std::atoll(p(i).default_text.c_str());
  return to_int(args_[i]);
}

std::optional<int64_t> PythonArgs::optional_int64(int i) const {
  if (!args_[i]) {
    if (!p(i).has_default || p(i).default_text == "None") return std::nullopt;
    return std::atoll(p(i).default_text.c_str());
  }
  if (args_[i] == Py_None) return std::nullopt;
  return to_int(args_[i]);
}

std::vector<int64_t> PythonArgs::intlist(int i) const {
  PyObject* o = args_[i];
  if (!o) {
    if (!p(i).has_default || p(i).default_text == "None") return {};
    std::vector<int64_t> v = p(i).default_text.front() == '['
                                 ? parse_int_list(p(i).default_text)
                                 : std::vector<int64_t>{std::atoll(p(i).default_text.c_str())};
    if (p(i).list_size > 1 && v.size() == 1) v.assign(static_cast<size_t>(p(i).list_size), v[0]);
    return v;
  }
  if (!is_sequence(o)) {
    int64_t v = to_int(o);
    return std::vector<int64_t>(static_cast<size_t>(std::max(1, p(i).list_size)), v);
  }
  Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
  PyObject** items = PySequence_Fast_ITEMS(o);
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (Py_ssize_t k = 0; k < n; ++k) v[static_cast<size_t>(k)] = to_int(items[k]);
  return v;
}

std::vector<bool> PythonArgs::boollist(int i) const {
  PyObject* o = args_[i];
  std::vector<bool> v;
  if (!o) {  // a default such as [True, True, True]
    for (size_t at = p(i).default_text.find_first_of("TF"); at != std::string::npos;
         at = p(i).default_text.find_first_of("TF", at + 1))
      v.push_back(p(i).default_text[at] == 'T');
    return v;
  }
  Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
  PyObject** items = PySequence_Fast_ITEMS(o);
  for (Py_ssize_t k = 0; k < n; ++k) v.push_back(items[k] == Py_True);
  return v;
}

std::optional<std::vector<int64_t>> PythonArgs::optional_intlist(int i) const {
  if (args_[i] == Py_None || (!args_[i] && (!p(i).has_default || p(i).default_text == "None"))) return std::nullopt;
  return intlist(i);
}

double PythonArgs::to_double(int i) const {
  PyObject* o = args_[i];
  if (!o) return std::atof(p(i).default_text.c_str());
  if (is_tensor_object(o)) return element_as_double(unpack(o), 0);
  double v = PyFloat_AsDouble(o);
  if (v == -1.0 && PyErr_Occurred()) throw py::error_already_set();
  return v;
}

std::optional<double> PythonArgs::optional_double(int i) const {
  if (!has(i)) {
    if (args_[i] || !p(i).has_default || p(i).default_text == "None") return std::nullopt;
    return std::atof(p(i).default_text.c_str());
  }
  return to_double(i);
}

std::optional<Generator> PythonArgs::generator(int i) const { return has(i) ? as_generator(args_[i]) : std::nullopt; }

std::vector<double> PythonArgs::doublelist(int i) const {
  PyObject* o = args_[i];
  if (!o) return {};
  if (!is_sequence(o))
    return std::vector<double>(static_cast<size_t>(std::max(1, p(i).list_size)), PyFloat_AsDouble(o));
  std::vector<double> v;
  for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(o); ++k)
    v.push_back(PyFloat_AsDouble(PySequence_Fast_ITEMS(o)[k]));
  return v;
}

bool PythonArgs::to_bool(int i) const {
  PyObject* o = args_[i];
  if (!o) return p(i).default_text == "True";
  if (is_tensor_object(o)) return element_as_double(unpack(o), 0) != 0;
  return o == Py_True;
}

std::optional<bool> PythonArgs::optional_bool(int i) const {
  if (!args_[i]) {
    if (!p(i).has_default || p(i).default_text == "None") return std::nullopt;
    return p(i).default_text == "True";
  }
  if (args_[i] == Py_None) return std::nullopt;
  return to_bool(i);
}

std::optional<ScalarType> PythonArgs::scalartype(int i) const {
  PyObject* o = args_[i];
  if (!o || o == Py_None) return std::nullopt;
  if (o == reinterpret_cast<PyObject*>(&PyFloat_Type)) return ScalarType::Double;
  if (o == reinterpret_cast<PyObject*>(&PyLong_Type)) return ScalarType::Long;
  if (o == reinterpret_cast<PyObject*>(&PyBool_Type)) return ScalarType::Bool;
  return as_dtype(o);
}

std::optional<Layout> PythonArgs::layout(int i) const { return has(i) ? as_layout(args_[i]) : std::nullopt; }

std::optional<Device> PythonArgs::device(int i) const {
  PyObject* o = args_[i];
  if (!o || o == Py_None) return std::nullopt;
  if (auto d = as_device(o)) return d;
  if (PyUnicode_Check(o)) {
    try {
      return Device::parse(PyUnicode_AsUTF8(o));
    } catch (const std::exception& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
      throw py::error_already_set();
    }
  }
  return Device(DeviceType::CUDA, static_cast<int>(to_int(o)));
}

std::optional<MemoryFormat> PythonArgs::memory_format(int i) const {
  if (!has(i)) return std::nullopt;
  return as_memory_format(args_[i]);
}

std::string PythonArgs::string(int i) const {
  if (!args_[i]) {
    std::string d = p(i).default_text;
    if (d.size() >= 2 && (d.front() == '\'' || d.front() == '"')) d = d.substr(1, d.size() - 2);
    return d;
  }
  return PyUnicode_AsUTF8(args_[i]);
}

std::optional<std::string> PythonArgs::optional_string(int i) const {
  if (args_[i] == Py_None || (!args_[i] && (!p(i).has_default || p(i).default_text == "None"))) return std::nullopt;
  return string(i);
}

std::vector<Tensor> PythonArgs::tensorlist(int i) const {
  std::vector<Tensor> v;
  PyObject* o = args_[i];
  if (!o || o == Py_None) return v;
  for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(o); ++k) v.push_back(unpack(PySequence_Fast_ITEMS(o)[k]));
  return v;
}

std::vector<std::optional<Tensor>> PythonArgs::opt_tensorlist(int i) const {
  std::vector<std::optional<Tensor>> v;
  PyObject* o = args_[i];
  if (!o || o == Py_None) return v;
  for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(o); ++k) {
    PyObject* e = PySequence_Fast_ITEMS(o)[k];
    if (e == Py_None) v.emplace_back(std::nullopt);
    else v.emplace_back(unpack(e));
  }
  return v;
}

}  // namespace ipt::python
