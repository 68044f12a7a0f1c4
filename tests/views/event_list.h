#pragma once
// Builds an event list the way the recorder would, for the view model tests.

#include <utility>
#include <vector>

#include "core/trace/events.h"

namespace ipt::views::testing {

struct EventList {
  std::vector<trace::Event> ev;

  // Appends one event (its seq is its index) and returns its index.
  size_t add(trace::Category c, trace::Phase p, const char* name, trace::Payload payload = {}, uint32_t tid = 0) {
    trace::Event e;
    e.seq = ev.size();
    e.tid = tid;
    e.category = c;
    e.phase = p;
    e.name = name;
    e.payload = std::move(payload);
    ev.push_back(std::move(e));
    return ev.size() - 1;
  }
};

}  // namespace ipt::views::testing
