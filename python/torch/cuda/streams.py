"""torch.cuda.Stream and torch.cuda.Event, with PyTorch's names and semantics."""
from torch import _C


class Stream:
    """A CUDA stream. A new one comes from PyTorch's pool (32 per priority, handed out in
    turn, non-blocking: it does not wait for the default stream)."""

    def __init__(self, device=None, priority=0, _stream_id=None):
        if _stream_id is None:
            if not _C._cuda_is_available():
                raise AssertionError("Torch not compiled with CUDA enabled")
            _stream_id = _C._cuda_newStream(priority)
        self.stream_id = _stream_id
        self.priority = priority

    @property
    def device(self):
        import torch
        return torch.device("cuda", 0)

    @property
    def cuda_stream(self):
        return self.stream_id

    def wait_event(self, event):
        """Work queued on this stream after the call waits for `event`."""
        event.wait(self)

    def wait_stream(self, stream):
        """Work queued on this stream after the call waits for the work queued on `stream`."""
        self.wait_event(stream.record_event())

    def record_event(self, event=None):
        if event is None:
            event = Event()
        event.record(self)
        return event

    def query(self):
        return _C._cuda_streamQuery(self.stream_id)

    def synchronize(self):
        _C._cuda_streamSynchronize(self.stream_id)

    def __eq__(self, other):
        return isinstance(other, Stream) and other.stream_id == self.stream_id

    def __hash__(self):
        return hash(("cuda", self.stream_id))

    def __repr__(self):
        return "<torch.cuda.Stream device=cuda:0 cuda_stream={:#x}>".format(self.stream_id)


class Event:
    """A CUDA event: a marker in a stream's queue that completes when the work before it has."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        if not _C._cuda_is_available():
            raise AssertionError("Torch not compiled with CUDA enabled")
        self.enable_timing = enable_timing
        self._id = _C._cuda_eventCreate(bool(enable_timing))

    def record(self, stream=None):
        if stream is None:
            stream_id = _C._cuda_getCurrentStream()
        else:
            stream_id = stream.stream_id
        _C._cuda_eventRecord(self._id, stream_id)

    def wait(self, stream=None):
        if stream is None:
            stream_id = _C._cuda_getCurrentStream()
        else:
            stream_id = stream.stream_id
        _C._cuda_streamWaitEvent(stream_id, self._id)

    def query(self):
        return _C._cuda_eventQuery(self._id)

    def synchronize(self):
        _C._cuda_eventSynchronize(self._id)

    def elapsed_time(self, end_event):
        """Milliseconds between this event and `end_event` (both recorded and completed)."""
        return _C._cuda_eventElapsedTime(self._id, end_event._id)

    def __repr__(self):
        return "<torch.cuda.Event {:#x}>".format(self._id)
