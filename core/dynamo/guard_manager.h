#pragma once
// The guards of one compiled graph, as TorchDynamo's C++ guard manager keeps them: a tree whose
// nodes reach a value from the frame (L['x'], G['torch'], L['self'].lin.weight) and whose
// leaves check it (TENSOR_MATCH, EQUALS_MATCH, TYPE_MATCH, ID_MATCH, ...), plus checks on
// global state and relations between sizes at the root. Built by torch/_dynamo/guards.py,
// checked here on every call of a compiled frame (torch._C._dynamo.RootGuardManager).
//
// Note [Checking guards]
// check() walks the tree depth first and stops at the first failing leaf; a value that cannot
// be reached (a missing local or attribute) fails the guard too. Tensor nodes keep the tensor
// they reached for the root's size relations, which run last. check_verbose() gives the first
// failure as TORCH_LOGS=recompiles words it ("tensor 'L['x']' size mismatch at index 0.
// expected 3, actual 4", "L['n'] == 3"). All of it runs under the GIL.

#include <memory>
#include <string>
#include <vector>

#include "core/dynamo/tensor_guard.h"
#include "core/python/pybind.h"

namespace ipt::python::dynamo {

struct LeafGuard {
  // Lambda: a Python predicate of the value (of nothing at the root); GlobalState: the grad mode
  // checked here, the rest of the global state by a Python predicate; Shown: printed where
  // TorchDynamo prints it, checked by the root (NO_TENSOR_ALIASING).
  enum class Kind { TensorMatch, Equals, TypeMatch, IdMatch, IsNone, NotNone, Length, Lambda, GlobalState, Shown };
  Kind kind;
  std::string label;    // TENSOR_MATCH, EQUALS_MATCH, ...
  std::string text;     // what TORCH_LOGS=guards prints after the label, and the failure reason
  std::string comment;  // the user's line that needed it: "  # return x + 1  # prog.py:6 in fn"
  compile::TensorGuard tensor;
  pybind11::object value;  // Equals: the value; TypeMatch: the type; IdMatch: the object; Lambda: the predicate
  Py_ssize_t length = 0;
};

// The first guard that failed, in parts: the check's words (TORCH_LOGS=recompiles), the guard's
// label and source, what it expected and what it found, and the guard's line in the printed
// tree (tree(), 0-based; -1 for a failure printed nowhere, such as a value that could not be
// read). The trace records it as a trace::GuardFailure.
struct FailedGuard {
  std::string reason;
  std::string guard;   // "TENSOR_MATCH", "EQUALS_MATCH", "GLOBAL_STATE", ...
  std::string source;  // "L['x']"; "" at the root
  std::string expected, actual;
  const void* item = nullptr;  // the failing leaf guard or size relation (for its tree line)
  int tree_line = -1;
};

// One cache entry's first failure on a call (torch._C._dynamo.GuardFailure, given to the
// compile callback): str() of one is "0/0: <reason>".
struct EntryFailure {
  std::string compile_id;  // the entry's: "0/0"
  FailedGuard failure;
};

class GuardManager {
 public:
  enum class Access { Root, Globals, DictGetItem, Attr, Item };
  GuardManager(Access access, pybind11::object key, std::string source)
      : access_(access), key_(std::move(key)), source_(std::move(source)) {}
  virtual ~GuardManager() = default;
  GuardManager(const GuardManager&) = delete;
  GuardManager& operator=(const GuardManager&) = delete;

  GuardManager& child(Access access, pybind11::object key, const std::string& source);
  void add(LeafGuard g) { leaves_.push_back(std::move(g)); }

  const std::string& source() const { return source_; }
  // How TORCH_LOGS=guards describes the node: its accessor ("FrameLocalsGuardAccessor(key='x',
  // framelocals_idx=0)") and the type of the value it reached when built ("<class 'int'>").
  void describe(std::string accessor, std::string type) {
    accessor_ = std::move(accessor);
    type_ = std::move(type);
  }
  // The first failure under this node for `value`, or "" when everything holds; in verbose
  // mode, with its parts in `parts` when given.
  std::string check(PyObject* value, PyObject* globals, bool verbose, FailedGuard* parts = nullptr);
  // TORCH_LOGS=guards' lines for this node and below, at `depth` (the root is depth 0); the line
  // (0-based, of `out`) each leaf guard is printed on goes into `lines` when given.
  void print(std::string& out, int depth, std::vector<std::pair<const void*, int>>* lines = nullptr) const;
  // The tensor this node reached in the last check (for the root's size relations).
  PyObject* last_value() const { return held_.ptr(); }

 protected:
  PyObject* reach(PyObject* parent, PyObject* globals) const;  // a new reference, or null
  // Reaches this node's value from its parent's (or the frame's) and checks it.
  std::string check_child(PyObject* parent, PyObject* globals, bool verbose, FailedGuard* parts);
  void release();  // drops the values the last check reached
  Access access_;
  pybind11::object key_;
  std::string source_;
  std::string accessor_, type_;
  std::vector<LeafGuard> leaves_;
  std::vector<std::unique_ptr<GuardManager>> children_;
  pybind11::object held_;  // the value the last check reached (kept for the root's relations)
  friend class RootGuardManager;
};

// A relation between sizes of tensors reached by other nodes: every (node, dim) pair has the
// same size, at least `min` (automatic dynamic shapes' "2 <= L['x'].size()[0]").
struct SizeRelation {
  std::vector<std::pair<GuardManager*, int64_t>> dims;
  int64_t min = 0;
  std::string text;
};

class RootGuardManager : public GuardManager {
 public:
  RootGuardManager() : GuardManager(Access::Root, pybind11::none(), "") {}
  void set_grad_mode(bool enabled) { grad_mode_ = enabled; }
  bool grad_mode() const { return grad_mode_; }
  void add_size_relation(SizeRelation r) { relations_.push_back(std::move(r)); }
  // NO_TENSOR_ALIASING: the tensors these nodes reach are distinct objects.
  void add_no_aliasing(std::vector<GuardManager*> nodes, std::string text) {
    aliasing_.push_back({std::move(nodes), std::move(text)});
  }
  // "" when every guard holds for a frame with these locals and globals, else the first failure.
  std::string check_frame(PyObject* locals, PyObject* globals, bool verbose);
  // The first failure in parts (reason empty when every guard holds), its tree line found.
  FailedGuard check_frame_parts(PyObject* locals, PyObject* globals);
  // "TREE_GUARD_MANAGER:\n+- RootGuardManager\n..."; each leaf's and relation's line into `lines`.
  std::string tree(std::vector<std::pair<const void*, int>>* lines = nullptr) const;

 private:
  std::string check_all(PyObject* locals, PyObject* globals, bool verbose, FailedGuard* parts);
  bool grad_mode_ = true;
  std::vector<SizeRelation> relations_;
  std::vector<std::pair<std::vector<GuardManager*>, std::string>> aliasing_;
};

void init_guard_manager(pybind11::module_& m);

}  // namespace ipt::python::dynamo
