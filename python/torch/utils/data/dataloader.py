"""DataLoader (PyTorch's torch.utils.data.dataloader): batches of a dataset in a sampler's order,
collated, with PyTorch's random draws, so the same seeds give the same batches.

Note [DataLoader workers here]
With num_workers > 0, PyTorch fetches batches in worker processes and returns them in order.
This runtime fetches them in the main process, one worker at a time, each worker in its own
random state: the seeds PyTorch gives it (base_seed + id for torch and `random`, the hashed
state for NumPy), get_worker_info(), worker_init_fn, batch i fetched by worker i % num_workers
and an IterableDataset replicated per worker. So a program's batches and its augmentations'
random numbers are PyTorch's; what it does not get is the parallelism. On the trace the fetches
are ordinary calls of the main thread.
"""
import random
import sys
import warnings

import torch
from torch.utils.data import _utils
from torch.utils.data._utils.collate import default_collate, default_convert
from torch.utils.data.dataset import IterableDataset
from torch.utils.data.sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info", "default_collate", "default_convert"]

get_worker_info = _utils.worker.get_worker_info


class _DatasetKind:
    Map = 0
    Iterable = 1


class _InfiniteConstantSampler(Sampler):
    """None forever: an IterableDataset is read, not indexed."""

    def __iter__(self):
        while True:
            yield None


class DataLoader:
    """Iterates over a dataset in batches: see PyTorch's documentation for the arguments."""

    __initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 "
                             "to enable multiprocessing, otherwise set prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = _DatasetKind.Iterable
            if isinstance(shuffle, bool) and shuffle:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 f"shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got "
                                 f"sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler option, but "
                                 f"got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = _DatasetKind.Map
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if sampler is None:
            if self._dataset_kind == _DatasetKind.Iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._IterableDataset_len_called = None
        self._iterator = None
        self.__initialized = True

    def __setattr__(self, attr, val):
        if self.__initialized and attr in ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
                                           "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after {self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        return _WorkerDataLoaderIter(self)

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    def __len__(self):
        if self._dataset_kind == _DatasetKind.Iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else -(-length // self.batch_size)
            return length
        return len(self._index_sampler)


class _MapFetcher:
    def __init__(self, dataset, auto_collation, collate_fn):
        self.dataset, self.auto_collation, self.collate_fn = dataset, auto_collation, collate_fn

    def fetch(self, index):
        if self.auto_collation:
            if callable(getattr(self.dataset, "__getitems__", None)):
                data = self.dataset.__getitems__(index)
            else:
                data = [self.dataset[i] for i in index]
        else:
            data = self.dataset[index]
        return self.collate_fn(data)


class _IterableFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset_iter = iter(dataset)
        self.auto_collation, self.collate_fn, self.drop_last = auto_collation, collate_fn, drop_last
        self.ended = False

    def fetch(self, index):
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if not data or (self.drop_last and len(data) < len(index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


def _pin(data):
    if isinstance(data, torch.Tensor):
        return data.pin_memory() if hasattr(data, "pin_memory") else data
    if isinstance(data, dict):
        return {k: _pin(v) for k, v in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(_pin(v) for v in data))
    if isinstance(data, (list, tuple)):
        return type(data)(_pin(v) for v in data)
    return data


class _BaseDataLoaderIter:
    def __init__(self, loader):
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._pin_memory = loader.pin_memory and torch.cuda.is_available()
        if loader.pin_memory and not torch.cuda.is_available():
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                          "memory won't be used.", stacklevel=3)
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        self._base_seed = torch.empty((), dtype=torch.int64).random_(generator=loader.generator).item()
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        if (self._dataset_kind == _DatasetKind.Iterable and self._IterableDataset_len_called is not None
                and self._num_yielded > self._IterableDataset_len_called):
            warnings.warn(f"Length of IterableDataset {self._dataset} was reported to be "
                          f"{self._IterableDataset_len_called}(when accessing len(dataloader)), but "
                          f"{self._num_yielded} samples have been fetched. ", stacklevel=2)
        return data

    def __len__(self):
        return len(self._index_sampler)

    def _fetcher(self):
        if self._dataset_kind == _DatasetKind.Map:
            return _MapFetcher(self._dataset, self._auto_collation, self._collate_fn)
        return _IterableFetcher(self._dataset, self._auto_collation, self._collate_fn, self._drop_last)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader):
        super().__init__(loader)
        self._dataset_fetcher = self._fetcher()

    def _next_data(self):
        index = self._next_index()
        data = self._dataset_fetcher.fetch(index)
        return _pin(data) if self._pin_memory else data


class _Worker:
    """One emulated worker: its fetcher and its random states (Note [DataLoader workers here])."""

    def __init__(self, it, worker_id, loader):
        self.id = worker_id
        self.active = True
        seed = it._base_seed + worker_id
        self.info = _utils.worker.WorkerInfo(id=worker_id, num_workers=it._num_workers, seed=seed,
                                             dataset=it._dataset)
        main = _RandomStates.capture()
        random.seed(seed)
        torch.manual_seed(seed)
        np = sys.modules.get("numpy")
        if np is not None:
            np.random.seed(_utils.worker._generate_state(it._base_seed, worker_id))
        self.states = _RandomStates.capture()
        self.fetcher = self.run(lambda: (loader.worker_init_fn(worker_id) if loader.worker_init_fn else None,
                                         it._fetcher())[1], main)

    def run(self, f, main=None):
        """f() inside this worker: its random states and get_worker_info(), then the main ones back."""
        main = main or _RandomStates.capture()
        self.states.restore()
        _utils.worker._worker_info = self.info
        try:
            return f()
        finally:
            _utils.worker._worker_info = None
            self.states = _RandomStates.capture()
            main.restore()


class _RandomStates:
    """The states of torch's default generator, Python's `random` and NumPy's global generator."""

    @staticmethod
    def capture():
        s = _RandomStates()
        s.torch = torch.get_rng_state()
        s.python = random.getstate()
        np = sys.modules.get("numpy")
        s.numpy = np.random.get_state() if np is not None else None
        return s

    def restore(self):
        torch.set_rng_state(self.torch)
        random.setstate(self.python)
        np = sys.modules.get("numpy")
        if np is not None and self.numpy is not None:
            np.random.set_state(self.numpy)


class _WorkerDataLoaderIter(_BaseDataLoaderIter):
    """num_workers > 0, emulated in this process (Note [DataLoader workers here])."""

    def __init__(self, loader):
        super().__init__(loader)
        self._prefetch_factor = loader.prefetch_factor
        self._workers = [_Worker(self, w, loader) for w in range(self._num_workers)]
        self._reset(loader, first_iter=True)

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        self._tasks = []  # (worker, index) in the order PyTorch sends them
        self._next_worker = 0
        if not first_iter:
            for w in self._workers:
                w.active = True
                if self._dataset_kind == _DatasetKind.Iterable:
                    w.fetcher = w.run(self._fetcher)
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_put_index(self):
        for _ in range(self._num_workers):  # the next worker still running, round robin
            w = self._workers[self._next_worker]
            self._next_worker = (self._next_worker + 1) % self._num_workers
            if w.active:
                break
        else:
            return
        try:
            index = self._next_index()
        except StopIteration:
            return
        self._tasks.append((w, index))

    def _next_data(self):
        while self._tasks:
            w, index = self._tasks.pop(0)
            if not w.active:
                continue
            try:
                data = w.run(lambda: w.fetcher.fetch(index))
            except StopIteration:  # an iterable dataset's copy in this worker has ended
                w.active = False
                self._try_put_index()
                continue
            self._try_put_index()
            return _pin(data) if self._pin_memory else data
        raise StopIteration
