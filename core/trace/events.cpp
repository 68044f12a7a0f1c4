// intern() and category_name(): the out-of-line parts of core/trace/events.h.
#include "core/trace/events.h"

#include <cstring>
#include <mutex>
#include <unordered_set>

namespace ipt::trace {

const char* intern(std::string_view s) {
  // Interned texts are leaked on purpose: they must outlive every Event (Note [Event strings
  // are interned]). The set's keys view those leaked copies, so a lookup never allocates.
  static std::mutex mu;
  static auto* texts = new std::unordered_set<std::string_view>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = texts->find(s);
  if (it != texts->end()) return it->data();
  char* copy = new char[s.size() + 1];
  if (!s.empty()) std::memcpy(copy, s.data(), s.size());
  copy[s.size()] = '\0';
  texts->insert(std::string_view(copy, s.size()));
  return copy;
}

const char* category_name(Category c) {
  switch (c) {
    case Category::Dispatch: return "dispatch";
    case Category::Kernel: return "kernel";
    case Category::Tensor: return "tensor";
    case Category::Storage: return "storage";
    case Category::Autograd: return "autograd";
    case Category::Script: return "script";
    case Category::Lesson: return "lesson";
    case Category::Note: return "note";
  }
  return "note";
}

}  // namespace ipt::trace
