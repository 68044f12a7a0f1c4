"""GraphModule: a Module whose forward() is the Python code of its graph, compiled with exec."""
import operator

import torch
from torch.fx.graph import Graph


class GraphModule(torch.nn.Module):
    _next_key = 0

    def __init__(self, root, graph, class_name=None):
        """`root`: a Module or a dict from the names call_module / get_attr nodes use to objects."""
        super().__init__()
        self.graph = graph
        # Each module's code is compiled under its own name, <eval_with_key>.N, as FX does.
        self._class_name = class_name or str(GraphModule._next_key)
        GraphModule._next_key += 1
        for n in graph.nodes:
            if n.op in ("call_module", "get_attr"):
                if isinstance(root, dict):
                    obj = root[n.target]
                else:
                    obj = root
                    for part in n.target.split("."):
                        obj = getattr(obj, part)
                if isinstance(obj, torch.nn.Module):
                    self.add_module(n.target, obj)
                else:
                    object.__setattr__(self, n.target, obj)
        self.recompile()

    @property
    def code(self):
        return self._code

    def recompile(self):
        self._code = self.graph.python_code()
        namespace = {"torch": torch, "operator": operator}
        exec(compile(self._code, "<eval_with_key>." + self._class_name, "exec"), namespace)
        self._forward = namespace["forward"]

    def forward(self, *args):
        return self._forward(self, *args)

    def forward_filename(self):
        """The file name of the code forward runs (FX compiles it as <eval_with_key>.N)."""
        return "<eval_with_key>." + self._class_name

    def print_readable(self, print_output=True):
        text = "class {}(torch.nn.Module):\n".format(self._class_name) + \
               "\n".join("    " + line for line in self._code.rstrip().splitlines())
        if print_output:
            print(text)
        return text
