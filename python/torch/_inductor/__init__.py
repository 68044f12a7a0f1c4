"""torch._inductor: the "inductor" backend of torch.compile, for the CPU: the captured graph is
lowered to fused loop kernels (scheduler.py, Note [What is fused]), written as C++
(cpp_codegen.py), compiled with Inductor 2.15's flags and cached on disk (cpp_builder.py,
Note [Compiling a kernel]), and run by a generated Python wrapper `call`. Inputs that require
grad go through AOTAutograd first (torch._functorch): its forward and backward graphs are each
lowered and compiled.

Graphs this backend does not lower yet run as the eager backend would, with the reason logged
under TORCH_LOGS=output_code: tensors on a real GPU, and symbolic sizes."""
import torch
from torch._dynamo.backends import register_backend
from torch._inductor import cpp_builder, cpp_codegen, scheduler
from torch._inductor.exc import CppCompileError, InductorError, InvalidCxxCompiler
from torch._dynamo import trace_events
from torch._logging import log_artifact


def _not_lowered(gm):
    for n in gm.graph.nodes:
        if n.op != "placeholder":
            continue
        if isinstance(n.meta.get("val"), str):
            return "symbolic sizes (dynamic shapes) are run eagerly"
        dev = n.meta.get("device")
        if dev is not None and dev.type == "cuda" and not torch.cuda.is_simulated():
            return "tensors on a real GPU are run eagerly (its kernels would be Triton's, which this build cannot generate)"
        if dev is not None and dev.type not in ("cpu", "cuda"):
            return "tensors on {} are run eagerly".format(dev)
    return None


@register_backend("inductor")
def compile_fx(gm, example_inputs):
    from torch._dynamo import convert_frame
    compile_id = convert_frame.current_compile_id
    why = _not_lowered(gm)
    if why is not None:
        log_artifact("output_code", compile_id, "Output code: not generated: " + why)
        return gm.forward
    from torch._functorch.aot_autograd import needs_grad
    try:
        if needs_grad(gm):
            return _compile_training(gm, compile_id)
        return _compile_inference(gm, compile_id)
    except (InvalidCxxCompiler, CppCompileError) as e:
        # Note [Compiling a kernel]: PyTorch 2.15 raises these out of torch.compile, wrapped.
        raise InductorError(e) from None


def _compile_training(gm, compile_id):
    """AOTAutograd's forward and backward graphs, each lowered and compiled."""
    from torch._functorch import aot_autograd
    try:
        with trace_events.phase("aot", compile_id):
            fw, bw, n_out = aot_autograd.aot_graphs(gm, compile_id)
    except aot_autograd.AotUnsupported as e:
        why = "AOTAutograd could not trace this graph ({}); it runs eagerly".format(e)
        log_artifact("output_code", compile_id, "Output code: not generated: " + why)
        return gm.forward
    aot_id = aot_autograd._counter["aot"] - 1
    fw_call = _compile_inference(fw, compile_id, "{}_forward".format(aot_id))
    bw_call = _compile_inference(bw, compile_id, "{}_backward".format(aot_id))
    return aot_autograd.make_function(fw_call, bw_call, n_out)


def _device_of(gm):
    for n in gm.graph.nodes:
        if n.op == "placeholder" and n.meta.get("device") is not None:
            return n.meta["device"].type
    return "cpu"


def _compile_inference(gm, compile_id, graph_id=None):
    if graph_id is None:  # "0_inference": AOTAutograd numbers every graph it is given
        from torch._functorch import aot_autograd
        graph_id = "{}_inference".format(aot_autograd._counter["aot"])
        aot_autograd._counter["aot"] += 1
    with trace_events.phase("lowering", compile_id):
        sched = scheduler.schedule(gm)
        if any(isinstance(item, scheduler.Kernel) for item in sched.items):
            cpp_builder.get_cpp_compiler()  # as 2.15 picks its vector ISA: before any code is written
        source = cpp_codegen.wrapper_module(gm, sched, _device_of(gm), graph_id)
    log_artifact("output_code", compile_id, "Output code: \n" + source)
    path = cpp_builder.write_module(source)
    log_artifact("output_code", compile_id, "Output code written to: " + path)
    trace_events.fusion(compile_id, 1 if graph_id.endswith("_backward") else 0, sched.decisions)
    trace_events.artifact("output_code", compile_id, source)
    namespace = {"modules": gm}
    with trace_events.phase("c++ compile", compile_id):
        exec(compile(source, path, "exec"), namespace)  # tracebacks name the module in the cache, as in 2.15
    call = namespace["call"]
    log_artifact("output_code", compile_id, "Output code written to: " + path, level="I")

    def run(*args):
        return call(list(args))
    return run
