"""The base of every variable tracker, and how TorchDynamo's messages name a tracker's class."""

from torch._dynamo.exc import unimplemented


def _python_type_name(v):
    """The name of the Python type a tracker stands for ('str', 'Size', 'Tensor')."""
    try:
        return v.python_type().__name__
    except Exception:
        return type(v).__name__


def vt_class_repr(v):
    """How TorchDynamo's messages name a tracker's class: "<class
    'torch._dynamo.variables.tensor.TensorVariable'>" (the trackers live in the modules
    PyTorch 2.15 keeps them in)."""
    return repr(type(v))


class VariableTracker:
    source = None

    def python_type(self):
        unimplemented("python_type of {}".format(type(self).__name__))

    def is_python_constant(self):
        try:
            self.as_python_constant()
            return True
        except Exception:
            return False

    def as_python_constant(self):
        unimplemented("{} is not a constant".format(type(self).__name__))

    def var_getattr(self, tx, name):
        unimplemented("getattr {}.{}".format(type(self).__name__, name))

    def call_function(self, tx, args, kwargs):
        unimplemented("call {}".format(self))

    def unpack(self, tx):
        unimplemented("iterate over {}".format(self))

    def reconstruct(self, tx):
        """A function env -> the real value (env: the compiled code's locals, globals, outputs)."""
        if self.source is not None:
            src = self.source
            return lambda env: src.get(env.f_locals, env.f_globals)
        unimplemented("cannot rebuild {} after a graph break".format(self))

    def __repr__(self):
        return type(self).__name__ + "()"


class ValueVariable(VariableTracker):
    """A tracker that stands for one known Python value."""

    def __init__(self, value, source=None):
        self.value = value
        self.source = source

    def as_python_constant(self):
        return self.value

    def python_type(self):
        return type(self.value)
