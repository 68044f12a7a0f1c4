"""Variable-length sequences (PyTorch's torch.nn.utils.rnn): PackedSequence, packing and padding.

A PackedSequence holds the time steps of a batch of sequences sorted by decreasing length, one
step after another: step t holds the first batch_sizes[t] sequences (those still running), so
`data` has sum(lengths) rows. batch_sizes is a CPU int64 tensor; sorted_indices (the order the
sequences were sorted into) and unsorted_indices (its inverse) are int64 on data's device, or
None when the sequences came sorted. RNN, LSTM and GRU accept one as input (modules/rnn.py).

PyTorch packs and pads with two ATen operators written in C++ (aten/src/ATen/native/
PackedSequence.cpp), torch._pack_padded_sequence (with its own backward formula) and
torch._pad_packed_sequence. Here they are the Python functions _pack_padded_sequence and
_pad_packed_sequence below, with the same checks, messages and results, computed with the same
slices, copies and cat as the C++ loops; so the Dispatch view shows those constituent operators
where 2.15 shows the two, and pack's gradient comes from CatBackward0 / SliceBackward0 rather
than PackPaddedSequenceBackward0 (the same values: every padded element gets zero).
"""
from collections import namedtuple

import torch

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence",
           "pad_sequence", "unpad_sequence", "pack_sequence", "unpack_sequence"]


def _bind(optional, fn):
    return None if optional is None else fn(optional)


def _to_options(*args, **kwargs):
    """non_blocking and memory_format of a Tensor.to(...) call (torch._C._nn._parse_to's last two):
    positional ones follow the device / dtype / tensor arguments."""
    non_blocking = kwargs.get("non_blocking", False)
    memory_format = kwargs.get("memory_format", torch.preserve_format)
    flags = [a for a in args if isinstance(a, bool)]
    if flags:
        non_blocking = flags[0]
    return non_blocking, memory_format


class PackedSequence(namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    """The data and batch_sizes of a packed batch of sequences (made by pack_padded_sequence and
    pack_sequence, not by hand). batch_sizes holds the number of sequences at each time step, not
    their lengths: sequences ``abc`` and ``x`` pack into data ``axbc`` with batch_sizes [2, 1, 1]."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        return super().__new__(cls, *_packed_sequence_init_args(data, batch_sizes, sorted_indices,
                                                                unsorted_indices))

    # batch_sizes stays a CPU int64 tensor whatever data becomes (PyTorch's NOTE [ device and dtype
    # of a PackedSequence ]); the indices follow data's device.
    def pin_memory(self):
        return type(self)(self.data.pin_memory(), self.batch_sizes,
                          _bind(self.sorted_indices, lambda t: t.pin_memory()),
                          _bind(self.unsorted_indices, lambda t: t.pin_memory()))

    def to(self, *args, **kwargs):
        """Tensor.to on data (self when data is unchanged), the indices moved to data's device."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        non_blocking, memory_format = _to_options(*args, **kwargs)

        def call_to(t):
            return t.to(data.device, non_blocking=non_blocking, memory_format=memory_format)

        return type(self)(data, self.batch_sizes, _bind(self.sorted_indices, call_to),
                          _bind(self.unsorted_indices, call_to))

    def cuda(self, *args, **kwargs):
        ex = torch.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if ex.is_cuda:
            return self.to(*args, **kwargs)
        kwargs["device"] = "cuda"
        return self.to(*args, **kwargs)

    def cpu(self, *args, **kwargs):
        ex = torch.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if ex.device.type == "cpu":
            return self.to(*args, **kwargs)
        kwargs["device"] = "cpu"
        return self.to(*args, **kwargs)

    def double(self):
        return self.to(dtype=torch.double)

    def float(self):
        return self.to(dtype=torch.float)

    def half(self):
        return self.to(dtype=torch.half)

    def long(self):
        return self.to(dtype=torch.long)

    def int(self):
        return self.to(dtype=torch.int)

    def short(self):
        return self.to(dtype=torch.short)

    def char(self):
        return self.to(dtype=torch.int8)

    def byte(self):
        return self.to(dtype=torch.uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return self.data.is_pinned()


def _packed_sequence_init_args(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
    # unsorted_indices, when given, must be the inverse of sorted_indices (not checked).
    if unsorted_indices is None:
        unsorted_indices = invert_permutation(sorted_indices)
    if batch_sizes is not None:  # PackedSequence(data, batch_sizes, sorted_indices)
        if batch_sizes.device.type != "cpu":
            raise ValueError("batch_sizes should always be on CPU. Instances of PackedSequence should never be "
                             "created manually. They should be instantiated by functions like pack_sequence and "
                             "pack_padded_sequences in nn.utils.rnn. "
                             "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
        return data, batch_sizes, sorted_indices, unsorted_indices
    # PackedSequence((data, batch_sizes), sorted_indices=...)
    if not (isinstance(data, (list, tuple)) and len(data) == 2):
        raise AssertionError("Expected data to be a list or tuple of length 2")
    return data[0], data[1], sorted_indices, unsorted_indices


def invert_permutation(permutation):
    """The inverse of a 1-D permutation tensor (None for None)."""
    if permutation is None:
        return None
    output = torch.empty_like(permutation, memory_format=torch.contiguous_format)
    output.scatter_(0, permutation, torch.arange(0, permutation.numel(), device=permutation.device))
    return output


# ---- ATen's two packing operators (C++ in PyTorch), with their checks and messages ----

_SCALAR_TYPE_NAMES = {
    torch.float32: "Float", torch.float64: "Double", torch.float16: "Half", torch.bfloat16: "BFloat16",
    torch.int64: "Long", torch.int32: "Int", torch.int16: "Short", torch.int8: "Char", torch.uint8: "Byte",
    torch.bool: "Bool",
}


def _check_long_tensor(t):
    if not (t.dim() == 1 and t.device.type == "cpu" and t.dtype == torch.int64):
        raise RuntimeError("'lengths' argument should be a 1D CPU int64 tensor, but got "
                           f"{t.dim()}D {t.device} {_SCALAR_TYPE_NAMES.get(t.dtype, str(t.dtype))} tensor")


def _pack_padded_sequence(input, lengths, batch_first):
    """torch._pack_padded_sequence: (data, batch_sizes) of a padded (T, B, *) input (B, T, * with
    batch_first) whose lengths are sorted in decreasing order."""
    if batch_first:
        input = input.transpose(0, 1)
    lengths_t = lengths.contiguous()
    _check_long_tensor(lengths_t)
    batch_size = input.size(1)
    if input.numel() <= 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if lengths_t.size(0) != batch_size:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {lengths_t.size(0)} "
                           f"(batch_size={batch_size})")
    lens = lengths_t.tolist()
    if lens[batch_size - 1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                           "that is <= 0")
    for i in range(batch_size - 1):
        if lens[batch_size - 1 - i] > lens[batch_size - 2 - i]:
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                               "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence "
                               "to sidestep this requirement if you do not need ONNX exportability.")
    # Scanning from the shortest sequence: each time the length grows, the block of the steps
    # prev_l..l of the sequences still running is cut out whole (their rows, step after step).
    step_shape = (-1,) + tuple(input.shape[2:])
    steps, batch_sizes = [], []
    prev_l = 0
    for i in range(batch_size):
        length = lens[batch_size - 1 - i]
        if length > prev_l:
            current_batch_size = batch_size - i
            steps.append(input[prev_l:length, :current_batch_size].contiguous().view(step_shape))
            batch_sizes.extend([current_batch_size] * (length - prev_l))
            prev_l = length
    return torch.cat(steps), torch.tensor(batch_sizes, dtype=torch.int64)


def _pad_packed_sequence(data, batch_sizes, batch_first, padding_value, total_length):
    """torch._pad_packed_sequence: the (T, B, *) padded tensor (B, T, * with batch_first, a
    transposed view) of packed data, T = total_length when positive, and the lengths (CPU int64)."""
    batch_sizes_t = batch_sizes.contiguous()
    _check_long_tensor(batch_sizes_t)
    sizes = batch_sizes_t.tolist()
    max_batch_size = sizes[0]
    max_real_seq_length = len(sizes)
    max_seq_length = max_real_seq_length
    if total_length > 0:
        if total_length < max_seq_length:
            raise RuntimeError("Expected total_length to be at least the length of the longest sequence in input, "
                               f"but got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
    trailing = tuple(data.shape[1:])
    output = torch.full((max_seq_length, max_batch_size) + trailing, padding_value, dtype=data.dtype,
                        device=data.device)
    # Each run of steps with the same batch size is one block of data, copied at once.
    lengths = [0] * max_batch_size
    pos = max_batch_size - 1
    data_offset = 0
    prev_batch_size = max_batch_size
    prev_i = 0
    for i in range(max_real_seq_length + 1):
        batch_size = sizes[i] if i != max_real_seq_length else 0
        if batch_size != prev_batch_size:
            n = prev_batch_size * (i - prev_i)
            block = data[data_offset:data_offset + n].view((i - prev_i, prev_batch_size) + trailing)
            output[prev_i:i, :prev_batch_size].copy_(block)
            data_offset += n
            prev_i = i
        for _ in range(prev_batch_size - batch_size):  # the sequences that ended after step i - 1
            lengths[pos] = i
            pos -= 1
        prev_batch_size = batch_size
    if batch_first:
        output = output.transpose(0, 1)
    return output, torch.tensor(lengths, dtype=torch.int64)


# ---- the public functions ----

def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Packs a padded (T, B, *) batch ((B, T, *) with batch_first) of sequences of the given
    lengths (a list or a CPU tensor). With enforce_sorted, lengths must decrease; otherwise the
    batch is sorted first and the PackedSequence records the permutation."""
    if not isinstance(lengths, torch.Tensor):
        lengths = torch.as_tensor(lengths, dtype=torch.int64, device="cpu")
    else:
        lengths = lengths.to(dtype=torch.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        batch_dim = 0 if batch_first else 1
        input = input.index_select(batch_dim, sorted_indices)
    data, batch_sizes = _pack_padded_sequence(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The inverse of pack_padded_sequence: the padded tensor, in the batch's original order, and
    the lengths; total_length pads to that many steps (at least the longest sequence)."""
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, "
                             f"but got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
    padded_output, lengths = _pad_packed_sequence(sequence.data, sequence.batch_sizes, batch_first, padding_value,
                                                  max_seq_length)
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        batch_dim = 0 if batch_first else 1
        return padded_output.index_select(batch_dim, unsorted_indices), lengths[unsorted_indices.cpu()]
    return padded_output, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stacks sequences of shape (L_i, *) into (max L, B, *) (or (B, max L, *) with batch_first),
    padding each with padding_value on padding_side."""
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    sequences = list(sequences)
    if len(sequences) == 0:
        raise RuntimeError("received an empty list of sequences")
    max_len = max(s.size(0) for s in sequences)
    trailing = tuple(sequences[0].shape[1:])
    shape = (len(sequences), max_len) if batch_first else (max_len, len(sequences))
    out = sequences[0].new_full(shape + trailing, padding_value)
    for i, s in enumerate(sequences):
        n = s.size(0)
        rows = slice(0, n) if padding_side == "right" else slice(max_len - n, max_len)
        if batch_first:
            out[i, rows] = s
        else:
            out[rows, i] = s
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of the sequences in a padded batch, each cut to its length. PyTorch transposes
    padded_sequences in place when batch_first is False (transpose_); there is no transpose_ here,
    so the caller's tensor is left as it is."""
    unpadded_sequences = []
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    max_length = padded_sequences.shape[1]
    idx = torch.arange(max_length, device=lengths.device)
    for seq, length in zip(padded_sequences, lengths, strict=True):
        mask = idx < length
        unpadded_sequences.append(seq[mask])
    return unpadded_sequences


def pack_sequence(sequences, enforce_sorted=True):
    """Packs a list of (L_i, *) sequences: pad_sequence, then pack_padded_sequence."""
    lengths = torch.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of the sequences in a PackedSequence, in their original order."""
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
