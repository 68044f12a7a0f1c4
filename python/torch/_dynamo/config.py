"""torch._dynamo.config: the settings of TorchDynamo this project follows (PyTorch 2's names)."""
# How many compiled versions of one frame are kept before Dynamo stops recompiling it and
# runs it as plain Python, with a warning.
cache_size_limit = 8
# After a recompile caused by a size change, the changed dimension becomes a symbol (s0).
automatic_dynamic_shapes = True
# Until then, every size is a constant of the graph.
assume_static_by_default = True
