"""Compiler backends: what turns a captured graph into the function compiled code calls.

A backend is called with the graph module and example (fake) inputs and returns a callable
taking the real inputs. "eager" runs the graph's own Python code, op by op, through the
dispatcher (every dispatch still shows in the trace)."""
_BACKENDS = {}


def register_backend(name):
    def register(fn):
        _BACKENDS[name] = fn
        return fn
    return register


def lookup_backend(backend):
    if backend == "inductor" and backend not in _BACKENDS:
        import torch._inductor  # noqa: F401  registers itself
    if callable(backend):
        return backend
    if backend not in _BACKENDS:
        raise RuntimeError("invalid backend {!r}: the registered backends are {}".format(
            backend, ", ".join(sorted(repr(b) for b in _BACKENDS))))
    return _BACKENDS[backend]


def list_backends():
    return sorted(_BACKENDS)


@register_backend("eager")
def eager(gm, example_inputs):
    return gm.forward
