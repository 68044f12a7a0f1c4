// torch._C as an extension module for a system python3 (the program itself embeds
// CPython and installs the same module directly; see Interpreter::initialize).
#include "core/python/bindings.h"

extern "C" __attribute__((visibility("default"))) PyObject* PyInit__C() { return ipt::python::init_torch_c(); }
