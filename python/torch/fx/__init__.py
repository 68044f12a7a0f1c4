"""torch.fx, as much of it as torch.compile's graphs need: a Graph of Nodes (placeholder,
call_function, call_method, call_module, get_attr, output), the Python code it stands for,
and GraphModule, which runs that code."""
from torch.fx.graph import Graph, Node
from torch.fx.graph_module import GraphModule

__all__ = ["Graph", "Node", "GraphModule"]
