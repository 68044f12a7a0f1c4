#pragma once
// The calls ops_expected_test.cpp checks against PyTorch 2.15: one function per case name in
// ops_expected.json (written by gen_ops_expected.py), making that call through ipt::ops.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt::ops_expected {

// What a case returns: tensors (one, a tuple's or a list's) or a bool.
struct Out {
  std::vector<Tensor> tensors;
  std::optional<bool> flag;
  Out(Tensor t) : tensors{std::move(t)} {}
  Out(std::tuple<Tensor, Tensor> t) : tensors{std::get<0>(t), std::get<1>(t)} {}
  Out(std::vector<Tensor> v) : tensors(std::move(v)) {}
  Out(bool b) : flag(b) {}
};
using In = std::vector<Tensor>;
using Fn = std::function<Out(const In&)>;

// Case name ("addmm/basic") -> the call.
const std::map<std::string, Fn>& cases();

}  // namespace ipt::ops_expected
