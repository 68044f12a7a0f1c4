"""torch._inductor: the "inductor" backend of torch.compile, for the CPU: the captured graph is
lowered to fused loop kernels (lowering.py, Note [What is fused]), written as C++
(cpp_codegen.py), compiled with the system compiler and cached on disk (cpp_builder.py,
Note [Compiling a kernel]), and run by a generated Python wrapper `call`.

Graphs this backend does not lower yet run as the eager backend would, with the reason logged
under TORCH_LOGS=output_code: inputs that require grad (no AOTAutograd here yet), tensors on the
GPU, and symbolic sizes."""
import warnings

import torch
from torch._dynamo.backends import register_backend
from torch._inductor import cpp_builder, cpp_codegen, lowering
from torch._logging import log_artifact


def _not_lowered(gm):
    for n in gm.graph.nodes:
        if n.op != "placeholder":
            continue
        if isinstance(n.meta.get("val"), str):
            return "symbolic sizes (dynamic shapes) are run eagerly"
        dev = n.meta.get("device")
        if dev is not None and dev.type != "cpu":
            return "tensors on {} are run eagerly (the generated kernels are C++ for the CPU)".format(dev)
        if n.meta.get("requires_grad") and torch.is_grad_enabled():
            return "inputs that require grad are run eagerly (AOTAutograd is not implemented here)"
    return None


@register_backend("inductor")
def compile_fx(gm, example_inputs):
    from torch._dynamo import convert_frame
    compile_id = convert_frame.current_compile_id
    why = _not_lowered(gm)
    if why is not None:
        log_artifact("output_code", compile_id, "Output code: not generated: " + why)
        gm.meta_inductor = {"eager_reason": why}
        return gm.forward
    sched = lowering.schedule(gm)
    source, kernels = cpp_codegen.wrapper_module(gm, sched)
    log_artifact("output_code", compile_id, "Output code: \n" + source)
    namespace = {"modules": gm}
    try:
        exec(compile(source, "<inductor output code {}>".format(compile_id), "exec"), namespace)
    except cpp_builder.CppCompileError as e:
        warnings.warn("{}\nRunning the graph eagerly instead.".format(e))
        gm.meta_inductor = {"eager_reason": str(e), "schedule": sched, "source": source}
        return gm.forward
    gm.meta_inductor = {"schedule": sched, "source": source, "kernels": kernels}
    call = namespace["call"]

    def run(*args):
        return call(list(args))
    return run
