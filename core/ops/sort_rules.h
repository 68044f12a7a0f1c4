#pragma once
// sort, topk and kthvalue: their dim and result shapes, with PyTorch 2.15's checks, shared by the
// CPU kernels (backends/cpu/sort_kernels.cpp) and the Meta kernels.
#include <cstdint>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt::native {

// dim wrapped for self (a 0-dim tensor takes -1 and 0, as one dim of size 1).
int64_t wrap_sort_dim(const Tensor& self, int64_t dim);
// topk's [..., k, ...] ("selected index k out of range").
std::vector<int64_t> topk_output_sizes(const Tensor& self, int64_t k, int64_t dim);
// kthvalue's reduced shape ("kthvalue(): selected number k out of range for dimension d").
std::vector<int64_t> kthvalue_output_sizes(const Tensor& self, int64_t k, int64_t dim, bool keepdim);

}  // namespace ipt::native
