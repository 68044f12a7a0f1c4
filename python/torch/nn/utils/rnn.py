"""pad_sequence (PyTorch's torch.nn.utils.rnn): variable-length sequences padded into one tensor."""
import torch

__all__ = ["pad_sequence"]


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
