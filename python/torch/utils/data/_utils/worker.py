"""The worker side of a DataLoader with num_workers > 0: what get_worker_info() returns inside a
worker, and the seeds each worker starts from (PyTorch's torch.utils.data._utils.worker)."""

_worker_info = None


class WorkerInfo:
    """id, num_workers, seed and dataset of the worker this code runs in (read-only)."""

    __initialized = False

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self.__keys = tuple(kwargs.keys())
        self.__initialized = True

    def __setattr__(self, key, val):
        if self.__initialized:
            raise RuntimeError(f"Cannot assign attributes to {self.__class__.__name__} objects")
        return super().__setattr__(key, val)

    def __repr__(self):
        items = [f"{k}={getattr(self, k)}" for k in self.__keys]
        return f"{self.__class__.__name__}({', '.join(items)})"


def get_worker_info():
    """The WorkerInfo of the current DataLoader worker, or None in the main process."""
    return _worker_info


def _generate_state(base_seed, worker_id):
    """The four 32-bit words a worker seeds NumPy with: PyTorch's hash of (worker_id, base_seed),
    after NumPy's SeedSequence (the same constants)."""
    mask = 0xFFFFFFFF
    shift = 16
    entropy = [worker_id, base_seed & mask, base_seed >> 32, 0]
    mult_a = [0x43B0D7E5]

    def hash_a(value):
        value = (value ^ mult_a[0]) & mask
        mult_a[0] = (mult_a[0] * 0x931E8875) & mask
        value = (value * mult_a[0]) & mask
        return (value ^ (value >> shift)) & mask

    def mix(x, y):
        r = ((0xCA01F9DD * x) & mask) - ((0x4973F715 * y) & mask)
        r &= mask
        return (r ^ (r >> shift)) & mask

    pool = [hash_a(e) for e in entropy]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], hash_a(pool[src]))
    mult_b = 0x8B51F9DD
    state = []
    for value in pool:
        value = (value ^ mult_b) & mask
        mult_b = (mult_b * 0x58F38DED) & mask
        value = (value * mult_b) & mask
        state.append((value ^ (value >> shift)) & mask)
    return state
