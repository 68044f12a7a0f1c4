# TORCH_LOGS=graph is an artifact PyTorch 2.15 registers but never logs to: turning it on prints
# nothing (graph_code is the one that prints the captured graph).
import torch

torch._logging.set_logs(graph=True)


def f(x, y):
    return (torch.sin(x) * y).relu()


print(torch.compile(f, backend="eager")(torch.ones(2), torch.ones(2)))
