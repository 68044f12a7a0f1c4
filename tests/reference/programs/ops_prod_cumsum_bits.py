# prod and cumsum in PyTorch 2.15's order of operations, at 1 and 2 threads. prod multiplies in
# the output dtype (float in float, float16 and bfloat16 rounded after each product) with four
# vector accumulators along a contiguous row and in order along any other layout; a product to
# one value of a grain (32768) or more is one partial per thread. cumsum adds in PyTorch's CPU
# accumulator type (double for float, float for float16 and bfloat16, int64 for integers) and
# rounds each running sum to the output dtype. Float results are printed as digests of their
# bits; integer ones as values.
import hashlib
import struct

import torch


def digest(x):
    x = x.contiguous().flatten().double()
    return hashlib.md5(struct.pack("%dd" % x.numel(), *x.tolist())).hexdigest()[:16]


def near_one(n, dtype=torch.float32):
    # values in [0.9, 1.1) so that long products neither vanish nor overflow too soon
    return ((torch.arange(n, dtype=torch.float64) * 0.618034) % 1.0 * 0.2 + 0.9).to(dtype)


for threads in (1, 2):
    torch.set_num_threads(threads)
    print("threads", torch.get_num_threads())
    for n in (1, 7, 31, 32, 33, 63, 64, 65, 127, 129, 1000, 32768, 32769, 100003):
        a = near_one(n)
        print("prod", n, repr(a.prod().item()), repr(near_one(n, torch.float64).prod().item()),
              repr(near_one(n, torch.float16).prod().item()), repr(near_one(n, torch.bfloat16).prod().item()))
    x = near_one(64 * 300).reshape(64, 300)
    print("prod dims", digest(x.prod(1)), digest(x.prod(0)), digest(x.t().prod(0)), digest(x.t().prod(1)),
          digest(x[:, ::3].prod(1)), digest(x.prod(1, keepdim=True)), digest(x.half().prod(1)),
          digest(x.prod(1, dtype=torch.float64)))
    y = near_one(4 * 50 * 70).reshape(4, 50, 70)
    print("prod 3-d", digest(y.prod(1)), digest(y.permute(2, 0, 1).prod(2)), digest(y.prod(0)))
    big = near_one(200000)
    print("prod big", repr(big.prod().item()), repr(big[::2].prod().item()))
    i = torch.arange(1, 40).reshape(3, 13)
    print("prod int", i.prod().item(), i.prod(1).tolist(), i.int().prod(0).tolist(), i.prod().dtype,
          torch.tensor([True, True, False]).prod().item(), torch.tensor([True, True]).prod().dtype)
    print("prod empty", torch.ones(0).prod().item(), torch.ones(2, 0).prod(1).tolist())

    c = (torch.arange(3000, dtype=torch.float32) % 7 - 3) / 3.0
    m = c.reshape(30, 100)
    print("cumsum", digest(c.cumsum(0)), digest(m.cumsum(1)), digest(m.cumsum(0)), digest(m.t().cumsum(1)),
          digest(m.half().cumsum(1)), digest(m.bfloat16().cumsum(0)), digest(m.cumsum(1, dtype=torch.float64)),
          digest(c.double().cumsum(0)))
    k = torch.arange(-20, 20).reshape(4, 10)
    print("cumsum int", k.cumsum(1).tolist()[1], k.int().cumsum(0).dtype, (k > 0).cumsum(1).tolist()[3],
          k.cumsum(0, dtype=torch.int32).dtype, torch.tensor(5.0).cumsum(0).item())
    long_col = near_one(70000).reshape(70000, 1).expand(70000, 3)
    print("cumsum big", digest(long_col.cumsum(0)), digest(near_one(70000).cumsum(0)))
