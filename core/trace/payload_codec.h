#pragma once
// Internal to core/trace: the full-fidelity JSON encoding of one Event (the "events" of the
// versioned "insidePyTorch" payload, see docs/trace-format.md) and its checked decoding.

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/trace/events.h"

namespace ipt::trace::codec {

const char* phase_name(Phase p);        // "begin", "end", "instant"
std::string key_set_hex(uint64_t raw);  // "0x1c00001"

// A key whose name() parses back to itself (written by name; others by their three parts).
bool has_canonical_name(const DispatchKey& k);
// Inverses of DispatchKey::name() (canonical names only), functionality_name, backend_name and
// alias_key_name; nullptr for an unknown name.
const DispatchKey* key_named(const std::string& name);
const Functionality* functionality_named(const std::string& name);
const BackendComponent* backend_named(const std::string& name);
const AliasKey* alias_named(const std::string& name);

nlohmann::json encode_event(const Event& e);
// Throws ipt::Error(ValueError) naming the event index and the field on any mismatch.
Event decode_event(const nlohmann::json& j, size_t index);

}  // namespace ipt::trace::codec
