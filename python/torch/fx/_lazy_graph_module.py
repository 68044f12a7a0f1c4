"""_LazyGraphModule: a GraphModule whose Python code is generated when it is first needed.

Note [Lazy graph modules]
TorchDynamo builds one GraphModule per captured graph; many are handed to a backend that never
runs their code (it compiles the graph itself). As in PyTorch 2.15, such a module starts with
forward = _lazy_forward, defined in this file, which generates the code (recompile) on the first
call and then runs it. So a graph printed before its first call names this file as the file of
its forward, as TORCH_LOGS=graph_code shows ("torch/fx/_lazy_graph_module.py class
GraphModule(torch.nn.Module):")."""
import os

from torch.fx.graph_module import GraphModule


class _LazyGraphModule(GraphModule):
    def __init__(self, root, graph, class_name=None):
        object.__setattr__(self, "_needs_recompile", True)
        super().__init__(root, graph, class_name)

    def recompile(self):
        """Marks the code stale; it is generated at the next call (or read of .code)."""
        object.__setattr__(self, "_needs_recompile", True)

    def real_recompile(self):
        object.__setattr__(self, "_needs_recompile", False)
        GraphModule.recompile(self)

    def _lazy_forward(self, *args):
        self.real_recompile()
        return self._forward(self, *args)

    def forward(self, *args):
        if self._needs_recompile:
            return self._lazy_forward(*args)
        return self._forward(self, *args)

    def forward_filename(self):
        if self._needs_recompile:
            return os.path.abspath(__file__)
        return super().forward_filename()

    @property
    def code(self):
        if self._needs_recompile:
            self.real_recompile()
        return self._code

    def print_readable(self, print_output=True):
        if self._needs_recompile:
            self.real_recompile()
        return super().print_readable(print_output)
