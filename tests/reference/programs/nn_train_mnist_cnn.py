# pytorch/examples' MNIST network and training loop, on synthetic 28x28 images (no torchvision
# here): Conv2d, Dropout, max pooling, Linear, log_softmax and nll_loss, a shuffled DataLoader,
# Adadelta with StepLR, then evaluation and a torch.save / torch.load round trip of the weights.
# Within float32 rounding of 2.15's oneDNN convolutions and MKL matrix products, which a few
# optimizer steps carry into the losses.
# reference tolerance: rtol=1e-4 atol=1e-5
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        return F.log_softmax(self.fc2(x), dim=1)


torch.manual_seed(1)
images = torch.rand(48, 1, 28, 28)
labels = torch.randint(0, 10, (48,))
train_loader = DataLoader(TensorDataset(images[:32], labels[:32]), batch_size=8, shuffle=True)
test_loader = DataLoader(TensorDataset(images[32:], labels[32:]), batch_size=8)
model = Net()
print(model)
optimizer = optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
for epoch in range(1, 3):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
        print(f"Train Epoch: {epoch} [{batch_idx * len(data)}/{len(train_loader.dataset)}]\tLoss: {loss.item():.6f}")
    model.eval()
    test_loss, correct = 0.0, 0
    with torch.no_grad():
        for data, target in test_loader:
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction="sum").item()
            correct += output.argmax(dim=1, keepdim=True).eq(target.view_as(output.argmax(dim=1, keepdim=True))).sum().item()
    print(f"Test set: Average loss: {test_loss / len(test_loader.dataset):.4f}, Accuracy: {correct}/{len(test_loader.dataset)}")
    scheduler.step()
    print("lr", scheduler.get_last_lr())

buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
buffer.seek(0)
restored = Net()
restored.load_state_dict(torch.load(buffer))
restored.eval()
with torch.no_grad():
    print("restored", torch.equal(restored(images[32:]), model(images[32:])))
