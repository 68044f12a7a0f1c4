#pragma once
// One Python object per native object, as PyTorch keeps one PyObject per TensorImpl or Node:
// `a.grad is a.grad` and `n.variable is x` then hold. Entries are weak; expired ones are
// pruned when the map has doubled since the last prune.

#include <algorithm>
#include <map>
#include <memory>

namespace ipt::pytorch {

template <typename Key, typename Obj>
class IdentityCache {
 public:
  explicit IdentityCache(size_t min_size) : min_size_(min_size), limit_(min_size) {}

  // The live object for `key`, or a new one from make() (which must keep `key` alive, so an
  // address cannot be reused while its entry is live).
  template <typename Make>
  std::shared_ptr<Obj> get(const Key* key, Make&& make) {
    auto& slot = map_[key];
    if (auto obj = slot.lock()) return obj;
    std::shared_ptr<Obj> obj = make();
    slot = obj;
    if (map_.size() > limit_) {
      std::erase_if(map_, [](const auto& kv) { return kv.second.expired(); });
      limit_ = std::max(min_size_, 2 * map_.size());
    }
    return obj;
  }

 private:
  std::map<const Key*, std::weak_ptr<Obj>> map_;
  size_t min_size_, limit_;
};

}  // namespace ipt::pytorch
