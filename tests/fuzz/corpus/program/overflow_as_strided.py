import torch
x = torch.ones(3)
y = x.as_strided((2, 2, 2), (2**62 + 100, 2**62 + 2**61, 2**62 + 2**61 - 100))
y[1, 0, 0].fill_(7.)
