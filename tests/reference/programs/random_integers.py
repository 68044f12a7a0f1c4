# randint, random_ and randperm after manual_seed.
import torch
torch.manual_seed(0)
print(torch.randint(10, (8,)))
print(torch.randint(-5, 5, (2, 4)))
print(torch.randint(0, 2**40, (3,)).tolist())
print(torch.randint(3, 10, (4,), dtype=torch.int32))
print(torch.randint(0, 100, (3,), dtype=torch.float32))
for dt in (torch.bool, torch.uint8, torch.int16, torch.int32, torch.int64, torch.float32, torch.float64):
    print(dt, torch.empty(4, dtype=dt).random_().tolist())
print(torch.empty(5, dtype=torch.int64).random_(10).tolist())
print(torch.empty(5, dtype=torch.int64).random_(3, 7).tolist())
print(torch.empty(3, dtype=torch.int64).random_(-2**63, None).tolist())
print(torch.empty(3, dtype=torch.int64).random_(5, None).tolist())
print(torch.empty(3).random_(-10, 10).tolist())
print(torch.randperm(10))
print(torch.randperm(30).tolist())
print(torch.randperm(6, dtype=torch.float64))
print(torch.randperm(0), torch.randperm(1))
