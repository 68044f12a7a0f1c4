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


@register_backend("aot_eager")
def aot_eager(gm, example_inputs):
    """AOTAutograd's forward and backward graphs (for inputs that require grad), run op by op."""
    import torch
    from torch._functorch import aot_autograd
    from torch._dynamo import convert_frame
    if not aot_autograd.needs_grad(gm):
        return gm.forward
    from torch._dynamo import trace_events
    try:
        with trace_events.phase("aot", convert_frame.current_compile_id):
            fw, bw, n_out = aot_autograd.aot_graphs(gm, convert_frame.current_compile_id)
    except aot_autograd.AotUnsupported:
        return gm.forward
    return aot_autograd.make_function(fw.forward, bw.forward, n_out)
