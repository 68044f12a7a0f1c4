# In-place and out= writes into a tensor whose elements share memory (an expanded tensor) are
# refused before anything is written; fill_, zero_ and the in-place view ops are allowed.
import torch
def attempt(name, f):
    try:
        f()
        print(name, "ok")
    except RuntimeError as e:
        print(name, "RuntimeError:", e)
e = lambda: torch.zeros(3, 1).expand(3, 4)
attempt("add_", lambda: e().add_(1))
attempt("mul_", lambda: e().mul_(torch.ones(3, 4)))
attempt("fill_", lambda: e().fill_(1))
attempt("zero_", lambda: e().zero_())
attempt("copy_", lambda: e().copy_(torch.ones(3, 4)))
attempt("exp_", lambda: e().exp_())
attempt("normal_", lambda: e().normal_())
attempt("uniform_", lambda: e().uniform_())
attempt("random_", lambda: e().random_())
attempt("bernoulli_", lambda: e().bernoulli_(0.5))
attempt("clamp_", lambda: e().clamp_(0, 1))
attempt("setitem", lambda: e().__setitem__(0, 1.))
attempt("index_add_", lambda: e().index_add_(0, torch.tensor([0]), torch.ones(1, 4)))
attempt("addcmul_", lambda: e().addcmul_(torch.ones(3, 4), torch.ones(3, 4)))
attempt("unsqueeze_", lambda: e().unsqueeze_(0))
attempt("squeeze_", lambda: e().squeeze_(0))
attempt("out=", lambda: torch.add(torch.ones(3, 4), 1, out=e()))
attempt("sliced ok", lambda: torch.zeros(4, 4)[:, ::2].add_(1))
attempt("t ok", lambda: torch.zeros(4, 4).t().add_(1))
attempt("as_strided overlap", lambda: torch.zeros(5).as_strided((3, 3), (1, 1)).add_(1))
attempt("neg_", lambda: e().neg_())
attempt("div_", lambda: e().div_(2))
attempt("floor_", lambda: e().floor_())
attempt("remainder_", lambda: e().remainder_(2))
attempt("index_copy_", lambda: e().index_copy_(0, torch.tensor([0]), torch.ones(1, 4)))
# Inference tensors skip ADInplaceOrView, and the check still holds: it is the kernel's.
with torch.inference_mode():
    x = torch.zeros(1, 3).expand(2, 3)
    for e in ("x.add_(1)", "x.mul_(2)", "x.copy_(torch.ones(2, 3))", "x.exp_()", "x.fill_(1)", "x.zero_()"):
        try:
            eval(e)
            print(e, "ok", x.tolist())
        except RuntimeError as ex:
            print(e, "->", str(ex)[:90])
