#pragma once
// torch._C.Generator: a Python handle on a CPU generator (the default one, or one made with
// torch.Generator()), and the conversion the argument parser uses for `generator=`.

#include <Python.h>

#include <optional>

#include "core/ops/generator.h"

namespace pybind11 {
class module_;
}

namespace ipt::python {

void init_generator(pybind11::module_& m);
bool is_generator_object(PyObject* o);
// None -> nullopt; a torch.Generator -> its generator. Call only after is_generator_object or None.
std::optional<Generator> as_generator(PyObject* o);

}  // namespace ipt::python
