#pragma once
// KernelFunction: a type-erased kernel pointer plus where it came from.
//
// Every kernel stored in a dispatch table has the C signature
//     Ret (*)(DispatchKeySet, Args...)
// (the generated code adapts backend kernels that do not need the key set). The key set is
// what a wrapper kernel (Autograd, ADInplaceOrView, BackendSelect) passes on when it
// *redispatches* below itself.

namespace ipt {

struct KernelFunction {
  void* fn = nullptr;            // null for a fallthrough
  bool fallthrough = false;      // "skip this key and keep looking below it"
  const char* name = "";         // e.g. "add_cpu" or "fallthrough"
  const char* registered_at = "";// project-relative file:line of the registration

  bool valid() const { return fn != nullptr || fallthrough; }
  template <typename Fn>
  Fn as() const { return reinterpret_cast<Fn>(fn); }
};

}  // namespace ipt

#define IPT_STRINGIFY_(x) #x
#define IPT_STRINGIFY(x) IPT_STRINGIFY_(x)
// "file:line" of the registration (file paths are project-relative, see CMakeLists.txt).
#define IPT_HERE __FILE__ ":" IPT_STRINGIFY(__LINE__)
