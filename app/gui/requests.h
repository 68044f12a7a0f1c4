#pragma once
// Note [Views ask each other by typed requests]
// A view that wants another view to show something posts a typed request; the view it is for
// takes it the next time it draws (and the frame loop takes FocusView). Each request is taken
// once, so the same link can be followed twice in a row, and a later request of one type
// replaces an earlier one that nobody took yet. Views share no other channel than these and
// the Selection (what is selected, which every view may read).

#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace ipt::gui {

// For the Schema view: show operator `op` (a name such as "aten::add.Tensor", or a schema as
// typed), and open the registration at `site` ("FILE:LINE"; "" for none).
struct ShowOperator {
  std::string op;
  std::string site;
};

// For the frame loop: open the view with this id and bring it to the front.
struct FocusView {
  std::string id;
};

class Requests {
 public:
  template <typename R>
  void post(R request) {
    std::get<std::optional<R>>(slots_) = std::move(request);
  }
  // The pending request of type R, if any; it is taken (a second take() gives nothing).
  template <typename R>
  std::optional<R> take() {
    std::optional<R>& slot = std::get<std::optional<R>>(slots_);
    std::optional<R> out = std::move(slot);
    slot.reset();
    return out;
  }

 private:
  std::tuple<std::optional<ShowOperator>, std::optional<FocusView>> slots_;
};

}  // namespace ipt::gui
