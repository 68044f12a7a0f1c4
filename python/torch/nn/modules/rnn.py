"""Recurrent layers: RNN, LSTM and GRU (multi-layer, bidirectional, batch_first, dropout between
layers, LSTM projections, padded or packed input) and their cells (PyTorch's
torch.nn.modules.rnn), computed as ATen's CPU implementation computes them
(aten/src/ATen/native/RNN.cpp): per layer and direction, the input projection of every time step
at once, then one cell per step with the hidden projection added to it.

A PackedSequence input (nn/utils/rnn.py) runs as ATen's PackedLayer / ReversedPackedLayer: step
t is the next batch_sizes[t] rows of the packed data, the sequences still running; forwards, the
state rows of the sequences that end are set aside as their final states; backwards, each
sequence's initial state joins the batch at its last step. The initial states are permuted by
sorted_indices, the final ones back by unsorted_indices, and the output is a PackedSequence with
the input's batch_sizes and indices.
"""
import math
import numbers
import warnings

import torch
from .. import functional as F
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


# ---- the cells, as ATen's (gates from the input's projection x_proj and the hidden state's) ----

def _simple_cell(x_proj, h, w_hh, b_hh, relu):
    pre = F.linear(h, w_hh, b_hh) + x_proj
    return (pre.relu() if relu else pre.tanh(),)


def _lstm_cell(x_proj, h, c, w_hh, b_hh, w_hr=None):
    gates = F.linear(h, w_hh, b_hh) + x_proj
    i, f, g, o = gates.chunk(4, 1)
    i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
    cy = f * c + i * g
    hy = o * cy.tanh()
    if w_hr is not None:
        hy = hy.matmul(w_hr.t())
    return hy, cy


def _gru_cell(x_proj, h, w_hh, b_hh):
    ir, ii, in_ = x_proj.chunk(3, 1)
    hr, hi, hn = F.linear(h, w_hh, b_hh).chunk(3, 1)
    reset = (hr + ir).sigmoid()
    update = (hi + ii).sigmoid()
    new = (in_ + hn * reset).tanh()
    return ((h - new) * update + new,)


class RNNBase(Module):
    """The parameters and the checks common to RNN, LSTM and GRU."""
    __constants__ = ["mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout",
                     "bidirectional", "proj_size"]

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                             "being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                          stacklevel=2)
        if not isinstance(bias, bool):
            raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first should be of type bool, got: {type(batch_first).__name__}")
        if not isinstance(input_size, int):
            raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        if proj_size > 0 and mode != "LSTM":
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        gate_size = _GATES[mode] * hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                real_hidden = proj_size if proj_size > 0 else hidden_size
                layer_input = input_size if layer == 0 else real_hidden * num_directions
                w_ih = Parameter(torch.empty((gate_size, layer_input), **factory_kwargs))
                w_hh = Parameter(torch.empty((gate_size, real_hidden), **factory_kwargs))
                b_ih = Parameter(torch.empty(gate_size, **factory_kwargs))
                b_hh = Parameter(torch.empty(gate_size, **factory_kwargs))
                params = (w_ih, w_hh, b_ih, b_hh) if bias else (w_ih, w_hh)
                if proj_size > 0:
                    params = params + (Parameter(torch.empty((proj_size, hidden_size), **factory_kwargs)),)
                suffix = "_reverse" if direction == 1 else ""
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"] + (["bias_ih_l{}{}", "bias_hh_l{}{}"] if bias else [])
                if proj_size > 0:
                    names.append("weight_hr_l{}{}")
                names = [n.format(layer, suffix) for n in names]
                for name, param in zip(names, params):
                    setattr(self, name, param)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, w) for w in weights] for weights in self._all_weights]

    def flatten_parameters(self):
        """A no-op here (there is no cuDNN weight buffer to compact)."""

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def check_input(self, input, batch_sizes=None):
        w = self._flat_weights[0]
        if input.dtype != w.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({w.dtype}). Convert "
                             f"input: input.to({w.dtype}), or convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{input.size(-1)}")

    def _expected_hidden(self, input, size, batch_sizes=None):
        if batch_sizes is not None:
            batch = int(batch_sizes[0])
        else:
            batch = input.size(0) if self.batch_first else input.size(1)
        return (self.num_layers * (2 if self.bidirectional else 1), batch, size)

    def _check_hidden(self, hx, expected, msg="Expected hidden size {}, got {}"):
        if hx.size() != expected:
            raise RuntimeError(msg.format(expected, list(hx.size())))

    def _run(self, input, states, batch_sizes=None):
        """The layers over input (time first): the output and each layer-direction's final states
        (states: a list of per-state tensors of shape (layers * directions, N, size)). With
        batch_sizes (a packed input's, as a list), input and output are packed data."""
        num_directions = 2 if self.bidirectional else 1
        weights = self.all_weights
        layer_input = input
        finals = [[] for _ in states]
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(num_directions):
                k = layer * num_directions + direction
                w = weights[k]
                w_ih, w_hh = w[0], w[1]
                b_ih, b_hh = (w[2], w[3]) if self.bias else (None, None)
                w_hr = w[-1] if self.proj_size > 0 else None
                x_proj = F.linear(layer_input, w_ih, b_ih)  # every time step at once
                if batch_sizes is None:
                    steps = x_proj.unbind(0)
                else:  # step t: the next batch_sizes[t] rows
                    offsets = [0]
                    for b in batch_sizes[:-1]:
                        offsets.append(offsets[-1] + b)
                    steps = [x_proj.narrow(0, o, b) for o, b in zip(offsets, batch_sizes)]
                order = range(len(steps) - 1, -1, -1) if direction == 1 else range(len(steps))
                initial = [s[k] for s in states]
                state = initial
                if batch_sizes is not None:
                    last_batch = batch_sizes[order[0]]
                    if direction == 1:  # backwards: the sequences running at the last step
                        state = [s.narrow(0, 0, last_batch) for s in initial]
                    ended = []  # forwards: the final states of the sequences ended so far
                seq = []
                for t in order:
                    if batch_sizes is not None:
                        b = batch_sizes[t]
                        if b < last_batch:  # forwards: sequences b..last_batch - 1 have ended
                            ended.append([s.narrow(0, b, last_batch - b) for s in state])
                            state = [s.narrow(0, 0, b) for s in state]
                        elif b > last_batch:  # backwards: sequences last_batch..b - 1 start here
                            state = [torch.cat([s, h.narrow(0, last_batch, b - last_batch)], 0)
                                     for s, h in zip(state, initial)]
                        last_batch = b
                    x = steps[t]
                    if self.mode == "LSTM":
                        state = list(_lstm_cell(x, state[0], state[1], w_hh, b_hh, w_hr))
                    elif self.mode == "GRU":
                        state = list(_gru_cell(x, state[0], w_hh, b_hh))
                    else:
                        state = list(_simple_cell(x, state[0], w_hh, b_hh, self.mode == "RNN_RELU"))
                    seq.append(state[0])
                if direction == 1:
                    seq = seq[::-1]
                if batch_sizes is None:
                    outputs.append(torch.stack(seq, 0) if seq else x_proj.new_empty((0,) + tuple(state[0].shape)))
                else:
                    outputs.append(torch.cat(seq, 0))
                    if direction == 0:  # rows in batch order: the sequences still running, then those
                        # that ended, the last to end first
                        state = [torch.cat([p[i] for p in [state] + ended[::-1]], 0) for i in range(len(state))]
                for f, s in zip(finals, state):
                    f.append(s)
            layer_input = outputs[0] if num_directions == 1 else torch.cat(outputs, -1)
            if self.dropout != 0 and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        return layer_input, [torch.stack(f, 0) for f in finals]

    def _forward(self, input, hx, sizes, name):
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx, sizes)
        if input.dim() not in (2, 3):
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D instead")
        batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not batched:
            input = input.unsqueeze(batch_dim)
        batch = input.size(0) if self.batch_first else input.size(1)
        layers = self.num_layers * (2 if self.bidirectional else 1)
        if hx is None:
            hx = [torch.zeros(layers, batch, s, dtype=input.dtype, device=input.device) for s in sizes]
        else:
            hx = list(hx) if isinstance(hx, tuple) else [hx]
            for h in hx:
                if batched and h.dim() != 3:
                    if len(hx) == 2:
                        raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but got "
                                           f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                    raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {h.dim()}-D tensor")
                if not batched and h.dim() != 2:
                    if len(hx) == 2:
                        raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but got "
                                           f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                    raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {h.dim()}-D tensor")
            if not batched:
                hx = [h.unsqueeze(1) for h in hx]
        self.check_input(input)
        if len(sizes) == 2:
            self._check_hidden(hx[0], self._expected_hidden(input, sizes[0]), "Expected hidden[0] size {}, got {}")
            self._check_hidden(hx[1], self._expected_hidden(input, sizes[1]), "Expected hidden[1] size {}, got {}")
        else:
            self._check_hidden(hx[0], self._expected_hidden(input, sizes[0]))
        time_first = input.transpose(0, 1) if self.batch_first else input
        output, finals = self._run(time_first, hx)
        if self.batch_first:
            output = output.transpose(0, 1)
        if not batched:
            output = output.squeeze(batch_dim)
            finals = [f.squeeze(1) for f in finals]
        return output, finals

    def _forward_packed(self, input, hx, sizes):
        data, batch_sizes, sorted_indices, unsorted_indices = input
        layers = self.num_layers * (2 if self.bidirectional else 1)
        if hx is None:
            hx = [torch.zeros(layers, int(batch_sizes[0]), s, dtype=data.dtype, device=data.device) for s in sizes]
        else:  # row i of hx is the state of the batch's sequence i, which packing moved
            hx = list(hx) if isinstance(hx, tuple) else [hx]
            if sorted_indices is not None:
                hx = [h.index_select(1, sorted_indices) for h in hx]
        if len(sizes) == 2:
            # 2.15's LSTM checks nothing of a packed input: ATen reads the states' size(2) (an
            # IndexError for 2-D states) and crashes on too few layers, which later PyTorch checks so
            hx[0].size(2), hx[1].size(2)
            for h, label in zip(hx, ("h_0", "c_0")):
                if h.size(0) != layers:
                    raise RuntimeError(f"Expected {label} size(0) to be {layers} (num_layers * num_directions), "
                                       f"but got {h.size(0)}")
        else:
            self.check_input(data, batch_sizes)
            self._check_hidden(hx[0], self._expected_hidden(data, sizes[0], batch_sizes))
        output, finals = self._run(data, hx, batch_sizes.tolist())
        if unsorted_indices is not None:
            finals = [f.index_select(1, unsorted_indices) for f in finals]
        return PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices), finals


class RNN(RNNBase):
    """An Elman RNN with tanh or ReLU."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        output, (h,) = self._forward(input, hx, [self.hidden_size], "RNN")
        return output, h


class LSTM(RNNBase):
    """Long short-term memory; forward returns output, (h_n, c_n)."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input, hx=None):
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        output, (h, c) = self._forward(input, hx, [real_hidden, self.hidden_size], "LSTM")
        return output, (h, c)


class GRU(RNNBase):
    """Gated recurrent unit."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        output, (h,) = self._forward(input, hx, [self.hidden_size], "GRU")
        return output, h


class RNNCellBase(Module):
    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(torch.empty((num_chunks * hidden_size, input_size), **factory_kwargs))
        self.weight_hh = Parameter(torch.empty((num_chunks * hidden_size, hidden_size), **factory_kwargs))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _prepare(self, input, hx, name, states):
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for h in (hx if isinstance(hx, tuple) else (hx,)):
                if h.dim() not in (1, 2):
                    raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {h.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
            hx = tuple(zeros for _ in range(states))
        else:
            hx = tuple(h.unsqueeze(0) if not batched else h for h in (hx if isinstance(hx, tuple) else (hx,)))
        return input, hx, batched


class RNNCell(RNNCellBase):
    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, (h,), batched = self._prepare(input, hx, "RNNCell", 1)
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        (out,) = _simple_cell(F.linear(input, self.weight_ih, self.bias_ih), h, self.weight_hh, self.bias_hh,
                              self.nonlinearity == "relu")
        return out if batched else out.squeeze(0)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, (h, c), batched = self._prepare(input, hx, "LSTMCell", 2)
        hy, cy = _lstm_cell(F.linear(input, self.weight_ih, self.bias_ih), h, c, self.weight_hh, self.bias_hh)
        return (hy, cy) if batched else (hy.squeeze(0), cy.squeeze(0))


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, (h,), batched = self._prepare(input, hx, "GRUCell", 1)
        (out,) = _gru_cell(F.linear(input, self.weight_ih, self.bias_ih), h, self.weight_hh, self.bias_hh)
        return out if batched else out.squeeze(0)
