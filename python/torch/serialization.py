"""torch.save and torch.load in PyTorch's zip format, so that files saved by PyTorch load here and
files saved here load in PyTorch.

Note [The saved file]
A zip archive (entries stored, not compressed, each entry's data aligned to 64 bytes) whose
entries sit in one folder named after the file (`archive` for a buffer):
  data.pkl                 the object, pickled (protocol 2); each tensor as
                           torch._utils._rebuild_tensor_v2(storage, offset, size, stride,
                           requires_grad, OrderedDict()), a Parameter as _rebuild_parameter(tensor,
                           requires_grad, OrderedDict()), and each storage as a persistent id
                           ("storage", torch.FloatStorage, key, "cpu", numel);
  data/<key>               each storage's bytes, once however many tensors view it;
  .format_version, .storage_alignment, byteorder, version, .data/serialization_id.
torch.load(weights_only=True), 2.15's default, rebuilds only tensors, parameters, containers,
numbers and strings; anything else needs weights_only=False (for a file from a trusted source).
"""
import collections
import io
import os
import pickle
import random
import struct
import zipfile

import torch

__all__ = ["save", "load", "DEFAULT_PROTOCOL"]

DEFAULT_PROTOCOL = 2
_ALIGNMENT = 64


class _StorageRef:
    """A tensor's storage, as the pickle refers to it (a persistent id)."""

    def __init__(self, tensor):
        self.tensor = tensor


def _storage_bytes(t):
    """All the bytes of t's storage (on the CPU)."""
    storage = t.untyped_storage()
    whole = t.detach().as_strided((storage.nbytes() // t.element_size(),), (1,), 0)
    if whole.device.type != "cpu":
        whole = whole.cpu()
    return whole.contiguous().view(torch.uint8).numpy().tobytes()


def _location(t):
    return "cpu" if t.device.type == "cpu" else str(t.device) if t.device.index is not None else t.device.type + ":0"


class _Pickler(pickle.Pickler):
    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.storages = {}  # key -> bytes
        self.keys = {}  # storage data_ptr -> (key, dtype)

    def reducer_override(self, obj):
        if isinstance(obj, torch.nn.Parameter):
            return torch._utils._rebuild_parameter, (obj.detach(), obj.requires_grad, collections.OrderedDict())
        if isinstance(obj, torch.Tensor):
            if obj.device.type == "meta":
                raise RuntimeError("torch.save of a meta tensor is not supported here")
            return torch._utils._rebuild_tensor_v2, (_StorageRef(obj), obj.storage_offset(), tuple(obj.shape),
                                                     tuple(obj.stride()), obj.requires_grad,
                                                     collections.OrderedDict())
        return NotImplemented

    def persistent_id(self, obj):
        if not isinstance(obj, _StorageRef):
            return None
        t = obj.tensor
        storage = t.untyped_storage()
        ptr = storage.data_ptr()
        if ptr in self.keys:
            key, dtype = self.keys[ptr]
            if dtype != t.dtype:
                raise RuntimeError("Cannot save multiple tensors or storages that view the same data as different "
                                   "types")
        else:
            key = str(len(self.keys))
            self.keys[ptr] = (key, t.dtype)
            self.storages[key] = _storage_bytes(t)
        storage_type = getattr(torch, torch.storage._STORAGE_TYPES[str(t.dtype)])
        return ("storage", storage_type, key, _location(t), storage.nbytes() // t.element_size())


def _archive_name(f):
    if isinstance(f, (str, os.PathLike)):
        return os.path.splitext(os.path.basename(os.fspath(f)))[0] or "archive"
    return "archive"


def _write_record(zf, name, data):
    if isinstance(data, str):
        data = data.encode()
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    header = 30 + len(name.encode())
    pad = (_ALIGNMENT - (zf.fp.tell() + header + 4) % _ALIGNMENT) % _ALIGNMENT
    info.extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad  # PyTorch's padding field
    zf.writestr(info, data)


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Saves obj to f (a path or a binary file) in PyTorch's zip format (Note [The saved file])."""
    if not _use_new_zipfile_serialization:
        raise RuntimeError("_use_new_zipfile_serialization=False (the legacy format) is not supported here")
    buffer = io.BytesIO()
    pickler = _Pickler(buffer, pickle_protocol)
    pickler.dump(obj)
    root = _archive_name(f) + "/"
    opened = open(f, "wb") if isinstance(f, (str, os.PathLike)) else None
    try:
        with zipfile.ZipFile(opened or f, "w", zipfile.ZIP_STORED) as zf:
            _write_record(zf, root + "data.pkl", buffer.getvalue())
            _write_record(zf, root + ".format_version", "1")
            _write_record(zf, root + ".storage_alignment", str(_ALIGNMENT))
            if not _disable_byteorder_record:
                _write_record(zf, root + "byteorder", "little")
            for key, data in pickler.storages.items():
                _write_record(zf, root + "data/" + key, data)
            _write_record(zf, root + "version", "3\n")
            _write_record(zf, root + ".data/serialization_id", "".join(random.choice("0123456789") for _ in range(40)))
    finally:
        if opened is not None:
            opened.close()


_WEIGHTS_ONLY_GLOBALS = {
    ("collections", "OrderedDict"), ("torch._utils", "_rebuild_tensor_v2"), ("torch._utils", "_rebuild_parameter"),
    ("torch._utils", "_rebuild_parameter_with_state"), ("torch", "Size"), ("torch", "device"),
    ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "slice"), ("builtins", "complex"),
    ("builtins", "bytearray"), ("_codecs", "encode"), ("torch.nn.parameter", "Parameter"),
}


def _weights_only_error(module, name):
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only "
        "if you trust the source of the checkpoint. \n\t(1) In PyTorch 2.6, we changed the default value of the "
        "`weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` "
        "set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got "
        f"the file from a trusted source.\n\tUnsupported global: GLOBAL {module}.{name} was not an allowed global by "
        "default.")


def _target_device(map_location, location):
    if map_location is None:
        device = torch.device(location)
    elif isinstance(map_location, dict):
        device = torch.device(map_location.get(location, location))
    elif isinstance(map_location, (str, torch.device)):
        device = torch.device(map_location)
    elif callable(map_location):
        # map_location=lambda storage, loc: storage keeps it on the CPU; a result with a device moves it there
        result = map_location(_CPUStorage(), location)
        device = torch.device(getattr(result, "device", "cpu"))
    else:
        raise ValueError(f"map_location should be a string, torch.device, dict or callable, not {map_location!r}")
    if device.type == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
                           "If you are running on a CPU-only machine, please use torch.load with "
                           "map_location=torch.device('cpu') to map your storages to the CPU.")
    return device


class _CPUStorage:
    """What a map_location function receives: a storage on the CPU (cpu() / cuda() tell where to go)."""

    device = torch.device("cpu")

    def cpu(self):
        return self

    def cuda(self, device=None):
        moved = _CPUStorage()
        moved.device = torch.device("cuda" if device is None else device if not isinstance(device, int)
                                    else f"cuda:{device}")
        return moved


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Loads an object saved with torch.save (by this runtime or by PyTorch)."""
    if weights_only is None:
        weights_only = os.environ.get("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0") not in ("1", "y", "yes", "true")
    opened = open(f, "rb") if isinstance(f, (str, os.PathLike)) else None
    try:
        stream = opened or f
        try:
            zf = zipfile.ZipFile(stream)
        except zipfile.BadZipFile:
            # Not a zip archive: PyTorch would read the legacy format, which starts with a pickled magic
            # number; a file that is not one fails there as it does in PyTorch (pickle's error).
            stream.seek(0)
            pickle.load(stream)
            raise RuntimeError("This file is in PyTorch's legacy format (before 1.6), which this runtime does not "
                               "read; save it again with torch.save in PyTorch 1.6 or later")
        with zf:
            names = zf.namelist()
            pkl = [n for n in names if n.endswith("/data.pkl") or n == "data.pkl"]
            if not pkl:
                raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")
            root = pkl[0][:-len("data.pkl")]
            loaded = {}

            def persistent_load(saved_id):
                kind, storage_type, key, location, numel = saved_id
                if kind != "storage":
                    raise RuntimeError(f"Unknown saved id type: {kind}")
                if key not in loaded:
                    dtype = getattr(storage_type, "dtype", None) or torch.uint8
                    data = zf.read(root + "data/" + key)
                    if data:
                        import numpy
                        raw = torch.from_numpy(numpy.frombuffer(data, dtype=numpy.uint8).copy())
                        base = raw.view(dtype) if dtype != torch.uint8 else raw
                    else:
                        base = torch.empty(0, dtype=dtype)
                    device = _target_device(map_location, location)
                    loaded[key] = base.to(device) if device.type != "cpu" else base
                return loaded[key]

            class Unpickler(pickle.Unpickler):
                def find_class(self, module, name):
                    if weights_only:
                        allowed = (module, name) in _WEIGHTS_ONLY_GLOBALS or (
                            module == "torch" and (name.endswith("Storage") or isinstance(getattr(torch, name, None),
                                                                                          torch.dtype)))
                        if not allowed:
                            raise _weights_only_error(module, name)
                    return super().find_class(module, name)

                def persistent_load(self, saved_id):
                    return persistent_load(saved_id)

            return Unpickler(io.BytesIO(zf.read(pkl[0])), **pickle_load_args).load()
    finally:
        if opened is not None:
            opened.close()
