"""The default CPU generator from Python, as torch/random.py has it in PyTorch.

Every random operator draws from torch.default_generator unless it is given a
torch.Generator as `generator=`. Both are PyTorch's CPU generator: an MT19937 engine seeded by
manual_seed, whose draws are turned into values by PyTorch's own transforms, so a seed gives
PyTorch's numbers.
"""
from torch._C import default_generator


def manual_seed(seed):
    """Seeds the default generator, and the simulated GPU's, and returns the default one."""
    seed = int(seed)
    import torch._C
    torch._C._cuda_default_generator.manual_seed(seed)
    return default_generator.manual_seed(seed)


def seed():
    """Seeds the default generator from the operating system's entropy; returns the seed."""
    return default_generator.seed()


def initial_seed():
    """The seed the default generator was last seeded with."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state as a torch.ByteTensor (5056 bytes, PyTorch's layout)."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """Restores a state from get_rng_state()."""
    default_generator.set_state(new_state)
