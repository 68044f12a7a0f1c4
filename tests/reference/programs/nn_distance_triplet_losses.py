# PairwiseDistance and CosineSimilarity modules, TripletMarginWithDistanceLoss (default and custom
# distances, swap, reductions, errors) and the deprecated NLLLoss2d with its FutureWarning.
import torch, torch.nn as nn, torch.nn.functional as F, warnings
print(nn.PairwiseDistance(), nn.PairwiseDistance(1.0, 1e-3, True), nn.CosineSimilarity(), nn.CosineSimilarity(0, 1e-6))
torch.manual_seed(0)
a, p, n = torch.randn(4, 5, requires_grad=True), torch.randn(4, 5), torch.randn(4, 5)
print([round(v, 5) for v in nn.PairwiseDistance()(a, p).tolist()], [round(v, 5) for v in nn.CosineSimilarity()(a, p).tolist()])
m = nn.TripletMarginWithDistanceLoss()
print(m, m.distance_function)
loss = m(a, p, n)
loss.backward()
print(round(loss.item(), 5), type(loss.grad_fn).__name__, round(a.grad.sum().item(), 5))
m2 = nn.TripletMarginWithDistanceLoss(distance_function=lambda x, y: 1.0 - F.cosine_similarity(x, y), margin=0.5, swap=True, reduction="none")
print(m2, [round(v, 5) for v in m2(a, p, n).tolist()])
print(round(F.triplet_margin_with_distance_loss(a, p, n, reduction="sum").item(), 5))
for bad in (lambda: nn.TripletMarginWithDistanceLoss(margin=0), lambda: F.triplet_margin_with_distance_loss(a, p, n, reduction="avg"),
            lambda: F.triplet_margin_with_distance_loss(a, p, n[0]), lambda: nn.TripletMarginWithDistanceLoss(margin=-1.0)):
    try:
        bad(); print("no error")
    except Exception as e:
        print(type(e).__name__, e)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    l2 = nn.NLLLoss2d()
print(l2, [str(x.message) for x in w], [x.category.__name__ for x in w])
x = F.log_softmax(torch.randn(2, 3, 4, 4), 1); t = torch.randint(0, 3, (2, 4, 4))
print(round(l2(x, t).item(), 5))
