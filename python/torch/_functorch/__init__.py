"""torch._functorch: AOTAutograd (aot_autograd.py), which torch.compile uses for graphs whose
inputs require grad."""
