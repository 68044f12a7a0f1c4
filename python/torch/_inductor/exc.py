"""torch._inductor.exc: Inductor's errors, with PyTorch 2.15's names and texts."""
from torch._dynamo.exc import BackendCompilerFailed, ShortenTraceback


class InvalidCxxCompiler(RuntimeError):
    def __init__(self, compiler=None):
        from torch._inductor import config
        if compiler is None:
            msg = "No working C++ compiler found in {}.cpp.cxx: {}".format(config.__name__, config.cpp.cxx)
        else:
            msg = "Compiler: {} is not found.".format(compiler)
        super().__init__(msg)


class CppCompileError(RuntimeError):
    def __init__(self, cmd, output):
        if isinstance(output, bytes):
            output = output.decode("utf-8", "replace")
        self.cmd, self.output = cmd, output
        super().__init__("C++ compile error\n\nCommand:\n{}\n\nOutput:\n{}".format(" ".join(cmd), output))


class InductorError(BackendCompilerFailed):
    """What torch.compile raises when the inductor backend fails: the inner error's type and
    text.

    Note [The verbose hint]
    PyTorch 2.15's Dynamo adds "Set TORCHDYNAMO_VERBOSE=1 for the full Dynamo stack trace ..." to
    every error that shortens its traceback (an InductorError is one) on its way out of the
    compiled frame, unless torch._dynamo.config.verbose is set. This project's Dynamo does not
    augment errors, so the error carries the hint from where it is made."""
    backend_name = "inductor"

    def __init__(self, inner_exception):
        self.inner_exception = inner_exception
        msg = "{}: {}".format(type(inner_exception).__name__, inner_exception)
        import torch._dynamo.config as dynamo_config
        if not getattr(dynamo_config, "verbose", False):
            msg += ("\n\nSet TORCHDYNAMO_VERBOSE=1 for the full Dynamo stack trace (please do this especially if "
                    "you're reporting a bug to PyTorch). For even more developer context, set "
                    'TORCH_LOGS="+dynamo"\n')
        ShortenTraceback.__init__(self, msg)
