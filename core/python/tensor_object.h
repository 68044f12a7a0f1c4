#pragma once
// The Python object of a tensor: torch._C._TensorBase, a CPython type holding one Tensor
// handle; torch.Tensor (python/torch/_tensor.py) and nn.Parameter subclass it in Python,
// as in PyTorch.
//
// Note [One Python object per tensor]
// While a tensor's Python object is alive, every path that hands that tensor to Python
// (a method's return value, .grad, node.variable, an in-place op returning self) gives
// back the very same object, so `x.add_(1) is x` and `acc.variable is w` hold, and Python
// attributes set on a tensor stay with it. The TensorImpl keeps a borrowed pointer to its
// object (TensorImpl::pyobj); the object clears it when it is deallocated. All of this
// runs under the GIL.

#include <Python.h>

#include "core/tensor/tensor.h"

namespace ipt::python {

struct PyTensor {
  PyObject_HEAD Tensor t;
  PyObject* dict;  // instance __dict__ (Python attributes, nn.Parameter's state)
  PyObject* weakrefs;
};

// The _TensorBase type (created by init_tensor_type) and the Python class new tensors get
// (torch.Tensor once torch/_tensor.py has registered it with _C._set_tensor_class).
PyTypeObject* tensor_base_type();
void init_tensor_type(PyObject* module);

inline bool is_tensor_object(PyObject* o) { return PyObject_TypeCheck(o, tensor_base_type()); }
inline const Tensor& unpack(PyObject* o) { return reinterpret_cast<PyTensor*>(o)->t; }

// A new reference to t's Python object (created as an instance of `cls`, default
// torch.Tensor, when none is alive). An undefined tensor becomes None.
PyObject* wrap(Tensor t);
PyObject* wrap_as(Tensor t, PyTypeObject* cls);

}  // namespace ipt::python
