#pragma once
// The texts the Graph view shows for the autograd model (core/views/autograd_model.h): a
// node's input buffer, a leaf's .grad, next_functions as PyTorch prints them, a node's output
// line, a leaf's title and a node's short label. Pure functions (no GUI, no translation): the
// view measures its boxes with them and draws them, so a box is as wide as its widest text.

#include <cstdint>
#include <string>

#include "core/views/autograd_model.h"

namespace ipt::views {

// The input buffer line of a node in one engine frame: "Σ in0 [1, 1]  in1 [2, 2]  2/2", or
// "Σ —" while it is empty. `total` is the node's dependency count; the root's buffer is filled
// by backward() itself (the initial gradient, which records no "grad arrived"), so an empty
// root buffer reads "Σ ← backward()".
std::string buffer_text(const EngineNodeView& v, int total, bool root);

// ".grad [1, 2]"; ".grad None" for "" (no gradient).
std::string grad_text(const std::string& value);

// A node's next_functions as PyTorch prints them: "((MulBackward0, 0), (None, 0))", a
// one-element tuple with its trailing comma "((AccumulateGrad, 0),)", "?" for a node the
// graph does not hold.
std::string next_functions_text(const AutogradGraph& g, const AutogradNode& n);

// "out #7 = [2, 3]" (the node's forward output; "out #7" when its value is unknown). Only for
// a node with an output.
std::string output_line(const AutogradNode& n);

// "leaf #3 (2, 3)"; "leaf #3" when its sizes are unknown.
std::string leaf_title(const AutogradLeaf& l);

// How the engine's story names a node: "MulBackward0", "AccumulateGrad(#3)" for the
// AccumulateGrad of leaf 3, "#42" for a node the graph does not hold.
std::string node_label(const AutogradGraph& g, uint64_t id);

}  // namespace ipt::views
