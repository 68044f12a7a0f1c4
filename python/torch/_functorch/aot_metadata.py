"""The "aot_config id: N, fw_metadata=ViewAndMutationMeta(...)" line that PyTorch 2.15 logs under
TORCH_LOGS=aot_graphs before the forward graph: what AOTAutograd learned about the inputs and
outputs of the graph it traced, with 2.15's field names, order and values.

Note [What AOTAutograd's metadata says here]
This project's AOTAutograd traces graphs whose inputs are plain tensors that it never mutates
and whose outputs are new tensors (not inputs, not views of them): every input is a leaf with no
mutation, every output is OutputType.non_alias, nothing is a tensor subclass, and there are no
symbolic sizes, RNG states or effect tokens. What varies is which inputs and outputs require
grad, the tangents (one per output that requires grad: its size and dtype), the saved values
(which of them are graph inputs; the others are buffers the backward may reuse, bw_donated_idxs)
and the user line each tangent's output came from (tangent_source_stack_traces, formatted as a
traceback with CPython 3.11's carets under the expression that made it)."""
import ast
import linecache

import torch


def _input_info(requires_grad):
    return ("InputAliasInfo(is_leaf=True, mutates_data=False, mutates_metadata=False, mutations_hidden_from_autograd=True, "
            "mutations_under_no_grad_or_inference_mode=False, mutation_inductor_storage_resize=False, "
            "mutates_storage_metadata=False, mutation_is_shallow_copy_data=False, requires_grad={}, "
            "keep_input_mutations=True)".format(requires_grad))


def _output_info(requires_grad):
    return ("OutputAliasInfo(output_type=<OutputType.non_alias: 1>, raw_type=<class "
            "'torch._subclasses.functional_tensor.FunctionalTensor'>, base_idx=None, dynamic_dims=set(), "
            "requires_grad={0}, requires_grad_for_backward={0}, view_meta_sequence=None)".format(requires_grad))


def _plain_meta(i, memory_format="None"):
    return ("PlainTensorMeta(unwrapped_idx={}, memory_format={}, size_symbol_placeholders=(), "
            "stride_symbol_placeholders=())".format(i, memory_format))


def _fake_repr(val, device):
    """FakeTensor's repr: FakeTensor(..., size=(3, 4)), with dtype and device when not the defaults
    (`device`: the device the value stands for; the fake value itself lives on meta)."""
    extra = ""
    if device is not None and device.type != "cpu":
        extra += ", device='{}:{}'".format(device.type, device.index or 0)
    extra += ", size={}".format(tuple(val.size()))
    if val.dtype != torch.get_default_dtype():
        extra += ", dtype={}".format(val.dtype)
    return "FakeTensor(...{})".format(extra)


def _expression_span(line, index, count):
    """(start, end) columns in `line` (as the file has it) of the expression that made output
    `index` of `count` on this line: the value of `return EXPR` or `NAME = EXPR` (the element of
    a tuple when the line returns several); None when the line is not such a statement."""
    text = line.strip()
    indent = len(line) - len(line.lstrip())
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    if len(tree.body) != 1:
        return None
    stmt = tree.body[0]
    expr = stmt.value if isinstance(stmt, (ast.Return, ast.Assign, ast.AugAssign, ast.AnnAssign)) else None
    if expr is None:
        return None
    if isinstance(expr, ast.Tuple) and len(expr.elts) == count:
        expr = expr.elts[index]
    if expr.end_lineno != 1:
        return None
    return indent + expr.col_offset, indent + expr.end_col_offset


def _source_trace(stack, index, count):
    if not stack:
        return ""
    filename, lineno, name, _code = stack
    line = linecache.getline(filename, lineno).rstrip("\n")
    span = _expression_span(line, index, count) if line else None
    text = '  File "{}", line {}, in {}\n'.format(filename, lineno, name)
    if not line:
        return text
    stripped = line.strip()
    text += "    {}\n".format(stripped)
    indent = len(line) - len(line.lstrip())
    # Carets under the expression, unless it is the whole line (as CPython 3.11 prints them).
    if span is not None and (span[0] - indent, span[1] - indent) != (0, len(stripped)):
        text += "    {}{}\n".format(" " * (span[0] - indent), "^" * (span[1] - span[0]))
    return text


def aot_config_text(aot_id, primal_requires_grad, outputs, output_requires_grad, saved_is_input, output_stacks,
                    device=None):
    """The line's text. `outputs`: the user outputs' fake values (on `device`); `saved_is_input`: for each
    saved value, whether it is a graph input; `output_stacks`: each user output's
    (file, line, function, code)."""
    tangents = [i for i, r in enumerate(output_requires_grad) if r]
    traces = [_source_trace(output_stacks[i], i, len(outputs)) for i in tangents]
    meta = "ViewAndMutationMeta(" + ", ".join([
        "input_info=[{}]".format(", ".join(_input_info(r) for r in primal_requires_grad)),
        "output_info=[{}]".format(", ".join(_output_info(r) for r in output_requires_grad)),
        "num_intermediate_bases=0",
        "keep_input_mutations=True",
        "traced_tangents=[{}]".format(", ".join(_fake_repr(outputs[i], device) for i in tangents)),
        "traced_tangents_descs=[{}]".format(", ".join(
            "TangentAOTInput(output=PlainAOTOutput(idx={}))".format(i) for i in tangents)),
        "subclass_inp_meta=[{}]".format(", ".join(_plain_meta(i) for i in range(len(primal_requires_grad)))),
        "subclass_fw_graph_out_meta=[{}]".format(", ".join(_plain_meta(i) for i in range(len(outputs)))),
        "subclass_tangent_meta=[{}]".format(", ".join(_plain_meta(k, "MemoryFormatMeta(size=torch.Size({}), stride={}, "
                                                                  "memory_format=None)".format(
                                                                      list(outputs[i].size()), tuple(outputs[i].stride())))
                                                      for k, i in enumerate(tangents))),
        "traced_tangent_metas=None",
        "num_symints_saved_for_bw=0",
        "num_tensors_saved_with_no_vc_check=0",
        "num_opaque_objects_saved_for_bw=0",
        "saved_tensor_is_graph_input={}".format(list(saved_is_input)),
        "grad_enabled_mutation=None",
        "deterministic=False",
        "static_input_indices=[]",
        "act_input_paths=[]",
        "tokens={}",
        "indices_of_inputs_that_requires_grad_with_mutations_in_bw=[]",
        "bw_donated_idxs={}".format([i for i, is_input in enumerate(saved_is_input) if not is_input]),
        "num_backward_tokens=0",
        "num_graphsafe_rng_states=0",
        "graphsafe_rng_state_index=None",
        "graphsafe_rng_device=None",
        "mutated_inp_stream_indices=[]",
        "compile_id_str=None",
        "tangent_source_stack_traces={}".format(traces),
    ]) + ")"
    return "aot_config id: {}, fw_metadata={}, inner_meta={}".format(aot_id, meta, meta)
