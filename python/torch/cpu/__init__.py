from torch.cpu import amp  # noqa: F401
