#pragma once
// KernelFunction: a type-erased kernel pointer plus where it came from.
//
// Every kernel stored in a dispatch table has the C signature
//     Ret (*)(DispatchKeySet, Args...)
// (the generated code adapts backend kernels that do not need the key set). The key set is
// what a wrapper kernel (Autograd, ADInplaceOrView, BackendSelect) passes on when it
// *redispatches* below itself.

namespace ipt {

// Note [Boxed fallbacks that refuse]
// A backend fallback serves every operator, whatever its signature, so it cannot be one typed
// function. The only such fallback that is not a fallthrough is PyTorch 2.15's Meta fallback
// (MetaFallbackKernel.cpp), which refuses an operator that has no Meta kernel: `refuses` marks
// it, and the dispatcher raises its NotImplementedError instead of calling anything.
struct KernelFunction {
  void* fn = nullptr;              // null for a fallthrough or a refusing fallback
  bool fallthrough = false;        // "skip this key and keep looking below it"
  bool refuses = false;            // a fallback that raises (see the Note above)
  const char* name = "";           // e.g. "add_cpu" or "fallthrough"
  const char* registered_at = "";  // project-relative file:line of the registration

  bool valid() const { return fn != nullptr || fallthrough || refuses; }
  template <typename Fn>
  Fn as() const {
    return reinterpret_cast<Fn>(fn);
  }
};

}  // namespace ipt

#define IPT_STRINGIFY_(x) #x
#define IPT_STRINGIFY(x) IPT_STRINGIFY_(x)
// "file:line" of the registration (file paths are project-relative, see CMakeLists.txt).
#define IPT_HERE __FILE__ ":" IPT_STRINGIFY(__LINE__)
