"""Putting samples together into a batch (PyTorch's default_collate) and converting unbatched
samples (default_convert): tensors are stacked, NumPy arrays and numbers become tensors, and
mappings, named tuples and sequences are collated field by field."""
import collections.abc
import copy
import re

import torch

np_str_obj_array_pattern = re.compile(r"[SaUO]")

default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}")


def _is_numpy(x, name):
    t = type(x)
    return t.__module__ == "numpy" and (name is None or t.__name__ == name)


def default_convert(data):
    """A sample as tensors where it holds NumPy arrays or scalars, its structure kept."""
    if isinstance(data, torch.Tensor):
        return data
    if _is_numpy(data, "ndarray"):
        if np_str_obj_array_pattern.search(data.dtype.str) is not None:
            return data
        return torch.as_tensor(data)
    if _is_numpy(data, None) and hasattr(data, "dtype") and not isinstance(data, (str, bytes)):
        return torch.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        converted = {k: default_convert(v) for k, v in data.items()}
        try:
            if isinstance(data, collections.abc.MutableMapping):
                clone = copy.copy(data)
                clone.update(converted)
                return clone
            return type(data)(converted)
        except TypeError:
            return converted
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        converted = [default_convert(d) for d in data]
        try:
            if isinstance(data, collections.abc.MutableSequence):
                clone = copy.copy(data)
                for i, d in enumerate(converted):
                    clone[i] = d
                return clone
            return type(data)(converted)
        except TypeError:
            return converted
    return data


def collate_tensor_fn(batch, *, collate_fn_map=None):
    return torch.stack(batch, 0)


def collate_numpy_array_fn(batch, *, collate_fn_map=None):
    if np_str_obj_array_pattern.search(batch[0].dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(batch[0].dtype))
    return collate([torch.as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map=None):
    return torch.as_tensor(batch)


def collate_float_fn(batch, *, collate_fn_map=None):
    return torch.tensor(batch, dtype=torch.float64)


def collate_int_fn(batch, *, collate_fn_map=None):
    return torch.tensor(batch)


def collate_str_fn(batch, *, collate_fn_map=None):
    return batch


def _numpy_entries():
    try:
        import numpy as np
    except ImportError:
        return {}
    return {np.ndarray: collate_numpy_array_fn, (np.bool_, np.number, np.object_): collate_numpy_scalar_fn}


default_collate_fn_map = {torch.Tensor: collate_tensor_fn, **_numpy_entries(), float: collate_float_fn,
                          int: collate_int_fn, str: collate_str_fn, bytes: collate_str_fn}


def collate(batch, *, collate_fn_map=None):
    """Collates a list of samples: by the function collate_fn_map gives the first sample's type
    (its exact type first, then the first entry it is an instance of), else field by field."""
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        if elem_type in collate_fn_map:
            return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)
        for kind, fn in collate_fn_map.items():
            if isinstance(elem, kind):
                return fn(batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        fields = {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map) for key in elem}
        try:
            if isinstance(elem, collections.abc.MutableMapping):
                clone = copy.copy(elem)
                clone.update(fields)
                return clone
            return elem_type(fields)
        except TypeError:
            return fields
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return elem_type(*(collate(list(samples), collate_fn_map=collate_fn_map) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if any(len(e) != size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        columns = [collate(list(samples), collate_fn_map=collate_fn_map) for samples in zip(*batch)]
        if isinstance(elem, tuple):
            return columns
        try:
            if isinstance(elem, collections.abc.MutableSequence):
                clone = copy.copy(elem)
                for i, c in enumerate(columns):
                    clone[i] = c
                return clone
            return elem_type(columns)
        except TypeError:
            return columns
    raise TypeError(default_collate_err_msg_format.format(elem_type))


def default_collate(batch):
    """A list of samples as one batch: tensors stacked along a new first dim, Python floats as a
    float64 tensor, ints as an int64 tensor, strings as a list, containers collated per field."""
    return collate(batch, collate_fn_map=default_collate_fn_map)
