"""assert_close and the deprecated assert_allclose, as PyTorch 2.15's torch/testing/_comparison.py has them:
inputs are split into pairs (None, bool, number, tensor-like; sequences and mappings element by element),
each pair is compared and the first mismatch is raised with PyTorch's message."""
import cmath
import collections.abc
import contextlib
import dataclasses
import functools
import types
import warnings

import torch

try:
    import numpy as np
    HAS_NUMPY = True
except ModuleNotFoundError:
    HAS_NUMPY = False
    np = None

# dataclasses.is_dataclass is not asked about these
_IS_DATACLASS_SKIP_TYPES = (type, torch.Tensor, types.UnionType, types.GenericAlias)
if HAS_NUMPY:
    _IS_DATACLASS_SKIP_TYPES = (*_IS_DATACLASS_SKIP_TYPES, np.ndarray, np.generic)


class ErrorMeta(Exception):
    """Internal exception carrying the type and message of the error to raise, and the item id."""

    def __init__(self, type, msg, *, id=()):
        super().__init__(
            "If you are a user and see this message during normal operation "
            "please file an issue at https://github.com/pytorch/pytorch/issues. "
            "If you are a developer and working on the comparison functions, please `raise ErrorMeta.to_error()` "
            "for user facing errors."
        )
        self.type = type
        self.msg = msg
        self.id = id

    def to_error(self, msg=None):
        if not isinstance(msg, str):
            generated = self.msg
            if self.id:
                generated += f"\n\nThe failure occurred for item {''.join(str([item]) for item in self.id)}"
            msg = msg(generated) if callable(msg) else generated
        return self.type(msg)


# {dtype: (rtol, atol)}; every other dtype (integers, bool) compares exactly
_DTYPE_PRECISIONS = {
    torch.float16: (0.001, 1e-5),
    torch.bfloat16: (0.016, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
}
for _name, _tols in (("complex32", (0.001, 1e-5)), ("complex64", (1.3e-6, 1e-5)), ("complex128", (1e-7, 1e-7))):
    if hasattr(torch, _name):
        _DTYPE_PRECISIONS[getattr(torch, _name)] = _tols
for _name in ("quint8", "quint2x4", "quint4x2", "qint8", "qint32"):
    if hasattr(torch, _name):
        _DTYPE_PRECISIONS[getattr(torch, _name)] = _DTYPE_PRECISIONS[torch.float32]

# Python number types as the dtypes whose tolerances they get
_TYPE_TO_DTYPE = {int: torch.int64, float: torch.float64}
if hasattr(torch, "complex128"):
    _TYPE_TO_DTYPE[complex] = torch.complex128
else:
    _TYPE_TO_DTYPE[complex] = torch.float64  # no complex dtypes here: float64's tolerances


def default_tolerances(*inputs, dtype_precisions=None):
    """The loosest (rtol, atol) over the inputs' dtypes."""
    dtypes = []
    for input in inputs:
        if isinstance(input, torch.Tensor):
            dtypes.append(input.dtype)
        elif isinstance(input, torch.dtype):
            dtypes.append(input)
        else:
            raise TypeError(f"Expected a torch.Tensor or a torch.dtype, but got {type(input)} instead.")
    dtype_precisions = dtype_precisions or _DTYPE_PRECISIONS
    rtols, atols = zip(*[dtype_precisions.get(dtype, (0.0, 0.0)) for dtype in dtypes])
    return max(rtols), max(atols)


def get_tolerances(*inputs, rtol, atol, id=()):
    """rtol and atol as given (both or neither), or the defaults of the inputs' dtypes."""
    if (rtol is None) ^ (atol is None):
        raise ErrorMeta(
            ValueError,
            f"Both 'rtol' and 'atol' must be either specified or omitted, "
            f"but got no {'rtol' if rtol is None else 'atol'}.",
            id=id,
        )
    if rtol is not None and atol is not None:
        return rtol, atol
    return default_tolerances(*inputs)


def _resolve_identifier(default_identifier, identifier):
    if identifier is None:
        return default_identifier
    if callable(identifier):
        return identifier(default_identifier)
    return identifier


def _make_bitwise_mismatch_msg(*, default_identifier, identifier=None, extra=None, first_mismatch_idx=None):
    msg = f"{_resolve_identifier(default_identifier, identifier)} are not 'equal'!\n\n"
    if extra:
        msg += f"{extra.strip()}\n"
    if first_mismatch_idx is not None:
        msg += f"The first mismatched element is at index {first_mismatch_idx}.\n"
    return msg.strip()


def _make_mismatch_msg(*, default_identifier, identifier=None, extra=None, abs_diff, abs_diff_idx=None, atol,
                       rel_diff, rel_diff_idx=None, rtol):
    equality = rtol == 0 and atol == 0

    def diff_line(kind, diff, idx, tol):
        if idx is None:
            line = f"{kind.title()} difference: {diff}"
        else:
            line = f"Greatest {kind} difference: {diff} at index {idx}"
        if not equality:
            line += f" (up to {tol} allowed)"
        return line + "\n"

    msg = f"{_resolve_identifier(default_identifier, identifier)} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        msg += f"{extra.strip()}\n"
    msg += diff_line("absolute", abs_diff, abs_diff_idx, atol)
    msg += diff_line("relative", rel_diff, rel_diff_idx, rtol)
    return msg.strip()


def make_scalar_mismatch_msg(actual, expected, *, rtol, atol, identifier=None):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _make_mismatch_msg(default_identifier="Scalars", identifier=identifier,
                              extra=f"Expected {expected} but got {actual}.",
                              abs_diff=abs_diff, atol=atol, rel_diff=rel_diff, rtol=rtol)


def make_tensor_mismatch_msg(actual, expected, matches, *, rtol, atol, identifier=None):
    def unravel_flat_index(flat_index):
        if not matches.shape:
            return ()
        index = []
        for size in matches.shape[::-1]:
            flat_index, mod = divmod(flat_index, size)
            index.append(mod)
        return tuple(index[::-1])

    number_of_elements = matches.numel()
    total_mismatches = number_of_elements - int(torch.sum(matches))
    extra = (f"Mismatched elements: {total_mismatches} / {number_of_elements} "
             f"({total_mismatches / number_of_elements:.1%})")
    if actual.dtype.is_floating_point and actual.dtype.itemsize == 1:
        # float8: no differences, only the first mismatch
        first = tuple(torch.nonzero(~matches)[0].tolist())
        return _make_bitwise_mismatch_msg(default_identifier="Tensor-likes", identifier=identifier, extra=extra,
                                          first_mismatch_idx=first)

    actual_flat = actual.flatten()
    expected_flat = expected.flatten()
    matches_flat = matches.flatten()
    if not actual.dtype.is_floating_point and not actual.dtype.is_complex:
        actual_flat = actual_flat.to(torch.int64)
        expected_flat = expected_flat.to(torch.int64)

    abs_diff = torch.abs(actual_flat - expected_flat)
    abs_diff[matches_flat] = 0  # only mismatches count
    max_abs_diff, max_abs_diff_flat_idx = torch.max(abs_diff, 0)

    rel_diff = abs_diff / torch.abs(expected_flat)
    rel_diff[matches_flat] = 0
    max_rel_diff, max_rel_diff_flat_idx = torch.max(rel_diff, 0)
    return _make_mismatch_msg(
        default_identifier="Tensor-likes", identifier=identifier, extra=extra,
        abs_diff=max_abs_diff.item(), abs_diff_idx=unravel_flat_index(int(max_abs_diff_flat_idx)), atol=atol,
        rel_diff=max_rel_diff.item(), rel_diff_idx=unravel_flat_index(int(max_rel_diff_flat_idx)), rtol=rtol,
    )


class UnsupportedInputs(Exception):
    """Raised while constructing a Pair that cannot handle its inputs: the next pair type is tried."""


class Pair:
    """A pair of inputs; subclasses implement compare(), which raises ErrorMeta on a mismatch."""

    def __init__(self, actual, expected, *, id=(), **unknown_parameters):
        self.actual = actual
        self.expected = expected
        self.id = id
        self._unknown_parameters = unknown_parameters

    @staticmethod
    def _inputs_not_supported():
        raise UnsupportedInputs

    @staticmethod
    def _check_inputs_isinstance(*inputs, cls):
        if not all(isinstance(input, cls) for input in inputs):
            Pair._inputs_not_supported()

    def _fail(self, type, msg, *, id=()):
        raise ErrorMeta(type, msg, id=self.id if not id and hasattr(self, "id") else id)

    def compare(self):
        raise NotImplementedError

    def extra_repr(self):
        return []

    def __repr__(self):
        body = [
            f"    {name}={value!s},"
            for name, value in [
                ("id", self.id), ("actual", self.actual), ("expected", self.expected),
                *[(extra, getattr(self, extra)) if isinstance(extra, str) else extra for extra in self.extra_repr()],
            ]
        ]
        return "\n".join((f"{type(self).__name__}(", *body, ")"))


class ObjectPair(Pair):
    """Any inputs, compared with ==."""

    def compare(self):
        try:
            equal = self.actual == self.expected
        except Exception as error:
            raise ErrorMeta(ValueError, f"{self.actual} == {self.expected} failed with:\n{error}.",
                            id=self.id) from error
        if not equal:
            self._fail(AssertionError, f"{self.actual} != {self.expected}")


class NonePair(Pair):
    def __init__(self, actual, expected, **other_parameters):
        if not (actual is None or expected is None):
            self._inputs_not_supported()
        super().__init__(actual, expected, **other_parameters)

    def compare(self):
        if not (self.actual is None and self.expected is None):
            self._fail(AssertionError, f"None mismatch: {self.actual} is not {self.expected}")


class BooleanPair(Pair):
    """bool (and numpy.bool_) inputs."""

    def __init__(self, actual, expected, *, id, **other_parameters):
        supported = (bool, np.bool_) if HAS_NUMPY else (bool,)
        self._check_inputs_isinstance(actual, expected, cls=supported)
        actual, expected = (self._to_bool(b, id=id) for b in (actual, expected))
        super().__init__(actual, expected, **other_parameters)

    @staticmethod
    def _to_bool(bool_like, *, id):
        if isinstance(bool_like, bool):
            return bool_like
        if HAS_NUMPY and isinstance(bool_like, np.bool_):
            return bool_like.item()
        raise ErrorMeta(TypeError, f"Unknown boolean type {type(bool_like)}.", id=id)

    def compare(self):
        if self.actual is not self.expected:
            self._fail(AssertionError, f"Booleans mismatch: {self.actual} is not {self.expected}")


class NumberPair(Pair):
    """int / float / complex (and numpy.number) inputs; tolerances of int64 / float64 / complex128."""

    _TYPE_TO_DTYPE = _TYPE_TO_DTYPE
    _NUMBER_TYPES = tuple(_TYPE_TO_DTYPE.keys())

    def __init__(self, actual, expected, *, id=(), rtol=None, atol=None, equal_nan=False, check_dtype=False,
                 **other_parameters):
        supported = (*self._NUMBER_TYPES, np.number) if HAS_NUMPY else self._NUMBER_TYPES
        self._check_inputs_isinstance(actual, expected, cls=supported)
        actual, expected = (self._to_number(n, id=id) for n in (actual, expected))
        super().__init__(actual, expected, id=id, **other_parameters)
        self.rtol, self.atol = get_tolerances(*[self._TYPE_TO_DTYPE[type(x)] for x in (actual, expected)],
                                              rtol=rtol, atol=atol, id=id)
        self.equal_nan = equal_nan
        self.check_dtype = check_dtype

    def _to_number(self, number_like, *, id):
        if HAS_NUMPY and isinstance(number_like, np.number):
            return number_like.item()
        if isinstance(number_like, self._NUMBER_TYPES):
            return number_like
        raise ErrorMeta(TypeError, f"Unknown number type {type(number_like)}.", id=id)

    def compare(self):
        if self.check_dtype and type(self.actual) is not type(self.expected):
            self._fail(AssertionError,
                       f"The (d)types do not match: {type(self.actual)} != {type(self.expected)}.")
        if self.actual == self.expected:
            return
        if self.equal_nan and cmath.isnan(self.actual) and cmath.isnan(self.expected):
            return
        abs_diff = abs(self.actual - self.expected)
        tolerance = self.atol + self.rtol * abs(self.expected)
        if cmath.isfinite(abs_diff) and abs_diff <= tolerance:
            return
        self._fail(AssertionError,
                   make_scalar_mismatch_msg(self.actual, self.expected, rtol=self.rtol, atol=self.atol))

    def extra_repr(self):
        return ("rtol", "atol", "equal_nan", "check_dtype")


def _layouts(*names):
    return {getattr(torch, n) for n in names if hasattr(torch, n)}


_SUPPORTED_LAYOUTS = _layouts("strided", "jagged", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc")
_COMPRESSED_LAYOUTS = _layouts("sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc")
_UNSIGNED_WIDE = [getattr(torch, n) for n in ("uint64", "uint32", "uint16") if hasattr(torch, n)]


class TensorLikePair(Pair):
    """Tensors and whatever torch.as_tensor takes (NumPy arrays, ...), when one input's type is the other's."""

    def __init__(self, actual, expected, *, id=(), allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, **other_parameters):
        actual, expected = self._process_inputs(actual, expected, id=id, allow_subclasses=allow_subclasses)
        super().__init__(actual, expected, id=id, **other_parameters)
        self.rtol, self.atol = get_tolerances(actual, expected, rtol=rtol, atol=atol, id=self.id)
        self.equal_nan = equal_nan
        self.check_device = check_device
        self.check_dtype = check_dtype
        self.check_layout = check_layout
        self.check_stride = check_stride

    def _process_inputs(self, actual, expected, *, id, allow_subclasses):
        directly_related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
        if not directly_related:
            self._inputs_not_supported()
        if not allow_subclasses and type(actual) is not type(expected):
            self._inputs_not_supported()
        actual, expected = (self._to_tensor(x) for x in (actual, expected))
        for tensor in (actual, expected):
            if tensor.layout not in _SUPPORTED_LAYOUTS:
                raise ErrorMeta(ValueError, f"Unsupported tensor layout {tensor.layout}", id=id)
        return actual, expected

    def _to_tensor(self, tensor_like):
        if isinstance(tensor_like, torch.Tensor):
            return tensor_like
        try:
            return torch.as_tensor(tensor_like)
        except Exception:
            self._inputs_not_supported()

    def compare(self):
        actual, expected = self.actual, self.expected
        self._compare_attributes(actual, expected)
        if any(t.device.type == "meta" for t in (actual, expected)):
            return
        actual, expected = self._equalize_attributes(actual, expected)
        self._compare_values(actual, expected)

    def _compare_attributes(self, actual, expected):
        def mismatch(name, a, e):
            self._fail(AssertionError, f"The values for attribute '{name}' do not match: {a} != {e}.")

        if actual.shape != expected.shape:
            mismatch("shape", actual.shape, expected.shape)
        a_q, e_q = (getattr(t, "is_quantized", False) for t in (actual, expected))
        if a_q != e_q:
            mismatch("is_quantized", a_q, e_q)
        elif a_q and actual.qscheme() != expected.qscheme():
            mismatch("qscheme()", actual.qscheme(), expected.qscheme())
        if actual.layout != expected.layout:
            if self.check_layout:
                mismatch("layout", actual.layout, expected.layout)
        elif actual.layout == torch.strided and self.check_stride and actual.stride() != expected.stride():
            mismatch("stride()", actual.stride(), expected.stride())
        if self.check_device and actual.device != expected.device:
            mismatch("device", actual.device, expected.device)
        if self.check_dtype and actual.dtype != expected.dtype:
            mismatch("dtype", actual.dtype, expected.dtype)

    def _equalize_attributes(self, actual, expected):
        if getattr(actual, "is_mps", False) or getattr(expected, "is_mps", False):
            actual, expected = actual.cpu(), expected.cpu()
        if actual.device != expected.device:
            actual, expected = actual.cpu(), expected.cpu()
        if actual.dtype != expected.dtype:
            a_dtype = torch.int64 if actual.dtype in _UNSIGNED_WIDE else actual.dtype
            e_dtype = torch.int64 if expected.dtype in _UNSIGNED_WIDE else expected.dtype
            dtype = torch.promote_types(a_dtype, e_dtype)
            actual, expected = actual.to(dtype), expected.to(dtype)
        if actual.layout != expected.layout:
            actual = actual.to_dense() if actual.layout != torch.strided else actual
            expected = expected.to_dense() if expected.layout != torch.strided else expected
        return actual, expected

    def _compare_values(self, actual, expected):
        if getattr(actual, "is_quantized", False):
            compare_fn = self._compare_quantized_values
        elif getattr(actual, "is_sparse", False):
            compare_fn = self._compare_sparse_coo_values
        elif actual.layout in _COMPRESSED_LAYOUTS:
            compare_fn = self._compare_sparse_compressed_values
        elif hasattr(torch, "jagged") and actual.layout == torch.jagged:
            actual, expected = actual.values(), expected.values()
            compare_fn = self._compare_regular_values_close
        elif actual.dtype.is_floating_point and actual.dtype.itemsize == 1:
            compare_fn = self._compare_bitwise
        else:
            compare_fn = self._compare_regular_values_close
        compare_fn(actual, expected, rtol=self.rtol, atol=self.atol, equal_nan=self.equal_nan)

    def _compare_bitwise(self, actual, expected, *, rtol, atol, equal_nan, identifier=None):
        if rtol != 0.0 or atol != 0.0:
            raise ErrorMeta(
                AssertionError,
                f"Rtol={rtol} and atol={atol} are not supported for bitwise comparison of low"
                " dimensional floats. Please use rtol=0.0 and atol=0.0.",
            )
        return self._compare_regular_values_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan,
                                                  identifier=identifier)

    def _compare_quantized_values(self, actual, expected, *, rtol, atol, equal_nan):
        return self._compare_regular_values_close(
            actual.dequantize(), expected.dequantize(), rtol=rtol, atol=atol, equal_nan=equal_nan,
            identifier=lambda default_identifier: f"Quantized {default_identifier.lower()}")

    def _compare_sparse_coo_values(self, actual, expected, *, rtol, atol, equal_nan):
        if actual.sparse_dim() != expected.sparse_dim():
            self._fail(AssertionError,
                       f"The number of sparse dimensions in sparse COO tensors does not match: "
                       f"{actual.sparse_dim()} != {expected.sparse_dim()}")
        if actual._nnz() != expected._nnz():
            self._fail(AssertionError,
                       f"The number of specified values in sparse COO tensors does not match: "
                       f"{actual._nnz()} != {expected._nnz()}")
        self._compare_regular_values_equal(actual._indices(), expected._indices(), identifier="Sparse COO indices")
        self._compare_regular_values_close(actual._values(), expected._values(), rtol=rtol, atol=atol,
                                           equal_nan=equal_nan, identifier="Sparse COO values")

    def _compare_sparse_compressed_values(self, actual, expected, *, rtol, atol, equal_nan):
        csr_like = actual.layout in _layouts("sparse_csr", "sparse_bsr")
        format_name = {getattr(torch, n, None): n[len("sparse_"):].upper()
                       for n in ("sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc")}[actual.layout]
        compressed = torch.Tensor.crow_indices if csr_like else torch.Tensor.ccol_indices
        plain = torch.Tensor.col_indices if csr_like else torch.Tensor.row_indices
        if actual._nnz() != expected._nnz():
            self._fail(AssertionError,
                       f"The number of specified values in sparse {format_name} tensors does not match: "
                       f"{actual._nnz()} != {expected._nnz()}")
        a_c, e_c = compressed(actual), compressed(expected)
        indices_dtype = torch.promote_types(a_c.dtype, e_c.dtype)
        self._compare_regular_values_equal(a_c.to(indices_dtype), e_c.to(indices_dtype),
                                           identifier=f"Sparse {format_name} {compressed.__name__}")
        self._compare_regular_values_equal(plain(actual).to(indices_dtype), plain(expected).to(indices_dtype),
                                           identifier=f"Sparse {format_name} {plain.__name__}")
        self._compare_regular_values_close(actual.values(), expected.values(), rtol=rtol, atol=atol,
                                           equal_nan=equal_nan, identifier=f"Sparse {format_name} values")

    def _compare_regular_values_equal(self, actual, expected, *, equal_nan=False, identifier=None):
        self._compare_regular_values_close(actual, expected, rtol=0, atol=0, equal_nan=equal_nan,
                                           identifier=identifier)

    def _compare_regular_values_close(self, actual, expected, *, rtol, atol, equal_nan, identifier=None):
        matches = torch.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
        if torch.all(matches):
            return
        if actual.shape == torch.Size([]):
            msg = make_scalar_mismatch_msg(actual.item(), expected.item(), rtol=rtol, atol=atol,
                                           identifier=identifier)
        else:
            msg = make_tensor_mismatch_msg(actual, expected, matches, rtol=rtol, atol=atol, identifier=identifier)
        self._fail(AssertionError, msg)

    def extra_repr(self):
        return ("rtol", "atol", "equal_nan", "check_device", "check_dtype", "check_layout", "check_stride")


def originate_pairs(actual, expected, *, pair_types, sequence_types=(collections.abc.Sequence,),
                    mapping_types=(collections.abc.Mapping,), id=(), **options):
    """The pairs of `actual` and `expected`, recursing through sequences, mappings and dataclasses."""
    recurse = functools.partial(originate_pairs, pair_types=pair_types, sequence_types=sequence_types,
                                mapping_types=mapping_types, **options)
    # str is excluded: "a"[0] is "a" again
    if (isinstance(actual, sequence_types) and not isinstance(actual, str)
            and isinstance(expected, sequence_types) and not isinstance(expected, str)):
        actual_len, expected_len = len(actual), len(expected)
        if actual_len != expected_len:
            raise ErrorMeta(AssertionError, f"The length of the sequences mismatch: {actual_len} != {expected_len}",
                            id=id)
        pairs = []
        for idx in range(actual_len):
            pairs.extend(recurse(actual[idx], expected[idx], id=(*id, idx)))
        return pairs
    elif isinstance(actual, mapping_types) and isinstance(expected, mapping_types):
        actual_keys, expected_keys = set(actual.keys()), set(expected.keys())
        if actual_keys != expected_keys:
            raise ErrorMeta(
                AssertionError,
                f"The keys of the mappings do not match:\n"
                f"Missing keys in the actual mapping: {sorted(expected_keys - actual_keys)}\n"
                f"Additional keys in the actual mapping: {sorted(actual_keys - expected_keys)}",
                id=id,
            )
        keys = actual_keys
        with contextlib.suppress(Exception):  # sorted when possible, for a deterministic first failure
            keys = sorted(keys)
        pairs = []
        for key in keys:
            pairs.extend(recurse(actual[key], expected[key], id=(*id, key)))
        return pairs
    elif (not isinstance(actual, _IS_DATACLASS_SKIP_TYPES) and not isinstance(expected, _IS_DATACLASS_SKIP_TYPES)
          and dataclasses.is_dataclass(actual) and dataclasses.is_dataclass(expected)
          and type(actual) is type(expected)):
        # == when the dataclass's __eq__ gives a bool; field by field when tensor fields make it fail
        try:
            equal = actual == expected
        except RuntimeError as error:
            if "Boolean value of Tensor" not in str(error):
                raise
        else:
            if type(equal) is bool:
                return [ObjectPair(actual, expected, id=id, **options)]
        pairs = []
        for field in dataclasses.fields(actual):
            if field.compare:
                pairs.extend(recurse(getattr(actual, field.name), getattr(expected, field.name),
                                     id=(*id, field.name)))
        return pairs
    for pair_type in pair_types:
        try:
            return [pair_type(actual, expected, id=id, **options)]
        except UnsupportedInputs:
            continue
        except ErrorMeta:
            raise
        except Exception as error:
            raise RuntimeError(
                f"Originating a {pair_type.__name__}() at item {''.join(str([item]) for item in id)} with\n\n"
                f"{type(actual).__name__}(): {actual}\n\n"
                f"and\n\n"
                f"{type(expected).__name__}(): {expected}\n\n"
                f"resulted in the unexpected exception above. "
                f"If you are a user and see this message during normal operation "
                "please file an issue at https://github.com/pytorch/pytorch/issues. "
                "If you are a developer and working on the comparison functions, "
                "please except the previous error and raise an expressive `ErrorMeta` instead."
            ) from error
    raise ErrorMeta(TypeError,
                    f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}.",
                    id=id)


def not_close_error_metas(actual, expected, *, pair_types=(ObjectPair,), sequence_types=(collections.abc.Sequence,),
                          mapping_types=(collections.abc.Mapping,), **options):
    """The ErrorMeta of every mismatching pair (an error in originating the pairs is raised at once)."""
    __tracebackhide__ = True
    try:
        pairs = originate_pairs(actual, expected, pair_types=pair_types, sequence_types=sequence_types,
                                mapping_types=mapping_types, **options)
    except ErrorMeta as error_meta:
        raise error_meta.to_error() from None
    error_metas = []
    for pair in pairs:
        try:
            pair.compare()
        except ErrorMeta as error_meta:
            error_metas.append(error_meta)
        except Exception as error:
            raise RuntimeError(
                f"Comparing\n\n"
                f"{pair}\n\n"
                f"resulted in the unexpected exception above. "
                f"If you are a user and see this message during normal operation "
                "please file an issue at https://github.com/pytorch/pytorch/issues. "
                "If you are a developer and working on the comparison functions, "
                "please except the previous error and raise an expressive `ErrorMeta` instead."
            ) from error
    return error_metas


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    r"""Asserts that `actual` and `expected` are close: |actual - expected| <= atol + rtol * |expected|
    element by element (NaN equal only with equal_nan), with the same shape and, unless turned off,
    device, dtype and layout (and strides with check_stride=True).

    Default tolerances by dtype (the loosest of the two inputs'): float16 1e-3 / 1e-5,
    bfloat16 1.6e-2 / 1e-5, float32 1.3e-6 / 1e-5, float64 1e-7 / 1e-7, others 0 / 0.
    Sequences and mappings are compared element by element; Python numbers as int64 / float64.
    `msg` replaces the message (a str) or maps the generated one (a callable).
    """
    __tracebackhide__ = True
    error_metas = not_close_error_metas(
        actual, expected,
        pair_types=(NonePair, BooleanPair, NumberPair, TensorLikePair),
        allow_subclasses=allow_subclasses, rtol=rtol, atol=atol, equal_nan=equal_nan,
        check_device=check_device, check_dtype=check_dtype, check_layout=check_layout, check_stride=check_stride,
        msg=msg,
    )
    if error_metas:
        raise error_metas[0].to_error(msg)


_ASSERT_ALLCLOSE_DEPRECATION = (
    "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future release. "
    "Please use `torch.testing.assert_close()` instead. "
    "You can find detailed upgrade instructions in https://github.com/pytorch/pytorch/issues/61844."
)


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """Deprecated since 1.12: use torch.testing.assert_close."""
    # typing_extensions.deprecated's wrapper warns with the caller as the location
    warnings.warn(_ASSERT_ALLCLOSE_DEPRECATION, category=FutureWarning, stacklevel=2)
    if not isinstance(actual, torch.Tensor):
        actual = torch.tensor(actual)
    if not isinstance(expected, torch.Tensor):
        expected = torch.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = default_tolerances(
            actual, expected,
            dtype_precisions={torch.float16: (1e-3, 1e-3), torch.float32: (1e-4, 1e-5),
                              torch.float64: (1e-5, 1e-8)},
        )
    torch.testing.assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
                               check_dtype=False, check_stride=False, msg=msg or None)


assert_allclose.__deprecated__ = _ASSERT_ALLCLOSE_DEPRECATION
