# torch.all and torch.any over everything and along a dim: bool results (uint8 for uint8 input),
# NaN counts as true, empty reductions give all's True and any's False, keepdim, negative dims,
# strided and transposed inputs, and sizes past the grain (32768) at 1 and 2 threads.
import torch

x = torch.tensor([[1, 0, 3], [4, 5, 6]])
print(x.all(), x.any(), x.all(dim=1), x.any(0), x.all(1, keepdim=True), torch.all(x, -1), torch.any(x, dim=-2))
print(x.bool().any(1), x.t().all(1), x[:, ::2].all(1), x.double().all(0), x.half().any(1))
print(torch.tensor([1, 2], dtype=torch.uint8).all(), torch.tensor([[1, 0]], dtype=torch.uint8).any(1))
print(torch.tensor([0.0, float("nan")]).any(), torch.tensor([float("nan")]).all(), torch.tensor([-0.0]).any())
print(torch.zeros(0).all(), torch.zeros(0).any(), torch.zeros(2, 0).all(1), torch.zeros(2, 0).any(1))
print(torch.tensor(0.0).all(0), torch.tensor(2).any(-1, keepdim=True), torch.zeros(3, 0).all(0))
for bad in (lambda: x.all(dim=2), lambda: x.any(-3)):
    try:
        bad()
    except IndexError as e:
        print("IndexError", e)
for threads in (1, 2):
    torch.set_num_threads(threads)
    big = torch.ones(100003)
    big[77777] = 0
    print(threads, big.all().item(), big.any().item(), (big - 1).any().item(), (big - 1).all().item(),
          big.view(-1, 1).expand(100003, 3).all(0).tolist(), big[::2].all().item(),
          big.reshape(1, 100003).any(1).tolist(), torch.zeros(70000).any().item())
