"""torch.nn.parallel: DataParallel and data_parallel. This build has at most one device (the
simulated GPU of torch.cuda), so only their single-device and no-device paths exist: without an
available accelerator DataParallel just runs its module, and with one device it moves the module
and the inputs to it and runs the module there, as PyTorch 2.15 does for one device.
DistributedDataParallel, replicate, scatter, gather and parallel_apply are not provided."""
from .data_parallel import DataParallel, data_parallel

__all__ = ["data_parallel", "DataParallel"]
