# torch.bfloat16: rounding to nearest even from float32, promotion (bfloat16 with float16 gives
# float32), printing, conversions, the CPU kernels that run it (most, unlike float16) and the
# ones that refuse it, and its random numbers.
import torch

b = torch.tensor([0.1, 0.2, 1000.5, -3.3], dtype=torch.bfloat16)
print(b, b.dtype, b.element_size(), b.dtype.is_floating_point, b.dtype.is_signed, b.type())
print(b.tolist(), torch.tensor([1 / 3], dtype=torch.bfloat16).item(), torch.bfloat16, torch.BFloat16Tensor([1, 2]))
h = torch.tensor([0.1], dtype=torch.half)
print((b[:1] + h).dtype, (b + 1).dtype, (b + 1.5).dtype, (b + torch.ones(4)).dtype,
      (b + torch.ones(4, dtype=torch.float64)).dtype, (b + torch.ones(4, dtype=torch.int64)).dtype)
print(torch.tensor([1.00390625, 1.01171875, 1.0078125, 3e38, -0.0, float("nan"), float("inf")]).bfloat16())
print(torch.tensor([3e38], dtype=torch.bfloat16) * 2, torch.tensor([2.0 ** -133]).bfloat16().float().item())
print(b.float(), b.double(), b.half(), h.bfloat16(), b.int(), b.bool(), torch.arange(5).bfloat16())
for expr in ("b.exp()", "b.log()", "b.sin()", "b.cos()", "b.tanh()", "b.sigmoid()", "b.sqrt()", "b.rsqrt()", "b.abs()",
             "-b", "b.floor()", "b.ceil()", "b.sign()", "b.reciprocal()", "b.clamp(0, 1)",
             "b.relu()", "b * b", "b / b", "b.pow(2)", "b.addcmul(b, b)", "b.sum()", "b.mean()", "b.cumsum(0)",
             "b.max()", "b.argmax()", "b.norm()", "b @ b", "b.view(2, 2) @ b.view(2, 2)", "torch.softmax(b, 0)",
             "torch.log_softmax(b, 0)", "b.var()", "b.std()", "torch.where(b > 0, b, b)",
             "torch.nn.functional.linear(b.view(2, 2), b.view(2, 2))",
             "torch.nn.functional.cross_entropy(b.view(2, 2), torch.tensor([0, 1]))",
             "torch.linspace(0, 1, 5, dtype=torch.bfloat16)",
             "torch.zeros(2, 3, dtype=torch.bfloat16)", "torch.full((2,), 1.7, dtype=torch.bfloat16)"):
    print(expr, "=>", eval(expr))
for bad in ("b.prod()", "torch.nn.functional.mse_loss(b, b)", "b.numpy()"):
    try:
        print(eval(bad))
    except (RuntimeError, TypeError) as e:
        print(bad, "->", type(e).__name__ + ":", e)
torch.manual_seed(0)
print(torch.rand(3, dtype=torch.bfloat16), torch.randn(3, dtype=torch.bfloat16), torch.randn(20, dtype=torch.bfloat16))
print(torch.zeros(2, dtype=torch.bfloat16).normal_(), torch.randint(0, 5, (3,), dtype=torch.bfloat16),
      torch.empty(3, dtype=torch.bfloat16).uniform_(), torch.empty(4, dtype=torch.bfloat16).random_(),
      torch.empty(4, dtype=torch.bfloat16).exponential_(), torch.multinomial(b.abs(), 2))
x = torch.tensor([0.5, 2.0], dtype=torch.bfloat16, requires_grad=True)
y = (x * x).sum()
y.backward()
print(y, x.grad, x.grad.dtype)
