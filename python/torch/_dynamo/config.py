"""torch._dynamo.config: the settings of TorchDynamo this project follows (PyTorch 2.15's names)."""
import sys
import types

# How many compiled versions of one frame are kept before Dynamo stops recompiling it and
# runs it as plain Python, with a warning. (cache_size_limit is 2.15's older name for it.)
recompile_limit = 8
# After a recompile caused by a size change, the changed dimension becomes a symbol (s17), and
# an int that changed becomes a SymInt input.
automatic_dynamic_shapes = True
# Until then, every size is a constant of the graph.
assume_static_by_default = True

_ALIASES = {"cache_size_limit": "recompile_limit"}


class _ConfigModule(types.ModuleType):
    """Reads and writes of an old name go to its new one, as 2.15's Config(alias=...) does."""

    def __getattr__(self, name):
        if name in _ALIASES:
            return getattr(self, _ALIASES[name])
        raise AttributeError("module 'torch._dynamo.config' has no attribute '{}'".format(name))

    def __setattr__(self, name, value):
        super().__setattr__(_ALIASES.get(name, name), value)


sys.modules[__name__].__class__ = _ConfigModule
