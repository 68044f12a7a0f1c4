"""torch.utils.data: datasets, samplers and the DataLoader (PyTorch's API, in plain Python over
the operators)."""
from torch.utils.data._utils.collate import default_collate, default_convert
from torch.utils.data._utils.worker import get_worker_info
from torch.utils.data.dataloader import DataLoader
from torch.utils.data.dataset import (ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset,
                                      TensorDataset, random_split)
from torch.utils.data.sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                                      WeightedRandomSampler)

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset",
           "RandomSampler", "Sampler", "SequentialSampler", "StackDataset", "Subset", "SubsetRandomSampler",
           "TensorDataset", "WeightedRandomSampler", "default_collate", "default_convert", "get_worker_info",
           "random_split"]
