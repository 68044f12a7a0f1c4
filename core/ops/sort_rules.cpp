#include "core/ops/sort_rules.h"

#include "core/tensor/index_math.h"
#include "core/util/error.h"

namespace ipt::native {

int64_t wrap_sort_dim(const Tensor& self, int64_t dim) {
  if (self.dim() == 0) {
    (void)wrap_dim(dim, 1);
    return 0;
  }
  return wrap_dim(dim, self.dim());
}

std::vector<int64_t> topk_output_sizes(const Tensor& self, int64_t k, int64_t dim) {
  const int64_t d = wrap_sort_dim(self, dim);
  const int64_t n = self.dim() ? self.sizes()[static_cast<size_t>(d)] : 1;
  IPT_CHECK(k >= 0 && k <= n, RuntimeError, "selected index k out of range");
  std::vector<int64_t> sizes = self.sizes();
  if (self.dim()) sizes[static_cast<size_t>(d)] = k;
  return sizes;
}

std::vector<int64_t> kthvalue_output_sizes(const Tensor& self, int64_t k, int64_t dim, bool keepdim) {
  const int64_t d = wrap_sort_dim(self, dim);
  const int64_t n = self.dim() ? self.sizes()[static_cast<size_t>(d)] : 1;
  IPT_CHECK(k >= 1 && k <= n, RuntimeError, "kthvalue(): selected number k out of range for dimension ", d);
  std::vector<int64_t> sizes = self.sizes();
  if (self.dim()) {
    if (keepdim) sizes[static_cast<size_t>(d)] = 1;
    else sizes.erase(sizes.begin() + d);
  }
  return sizes;
}

}  // namespace ipt::native
