# Tensor.nbytes (numel x itemsize, of the view, not of its storage), Tensor.itemsize, and the
# kinds this runtime does not have (is_nested, is_sparse, is_quantized, is_mkldnn: always False).
import torch

x = torch.ones(3, 4, dtype=torch.float64)
print(x.nbytes, x.itemsize, x[:, 1].nbytes, x.t().nbytes, torch.ones(0).nbytes, torch.empty(2, 0, 3).nbytes)
print([torch.ones(2, dtype=d).itemsize for d in (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32,
                                                   torch.int64, torch.float16, torch.bfloat16, torch.float32)])
print(torch.tensor(True).nbytes, torch.arange(10).nbytes, torch.arange(10)[::3].nbytes)
print(x.is_nested, x.is_sparse, x.is_quantized, x.is_mkldnn, torch.empty(2, device="meta").nbytes)
