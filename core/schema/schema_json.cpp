// FunctionSchema -> JSON (field list in schema_json.h).

#include "core/schema/schema_json.h"

namespace ipt::schema {

namespace {

using nlohmann::json;

// Adds alias_set, alias_after_set and is_write; empty lists and false without an alias.
void add_alias(json& j, const std::optional<AliasInfo>& alias) {
  j["alias_set"] = alias ? alias->before_set : std::vector<std::string>{};
  j["alias_after_set"] = alias ? alias->after_set : std::vector<std::string>{};
  j["is_write"] = alias && alias->is_write;
}

json argument_json(const Argument& a) {
  json j;
  j["name"] = a.name;
  j["type"] = a.type.str();
  j["default"] = a.default_value ? json(*a.default_value) : json(nullptr);
  j["kwarg_only"] = a.kwarg_only;
  j["is_out"] = a.is_out;
  add_alias(j, a.alias);
  return j;
}

json return_json(const Return& r) {
  json j;
  j["name"] = r.name.empty() ? json(nullptr) : json(r.name);
  j["type"] = r.type.str();
  add_alias(j, r.alias);
  return j;
}

}  // namespace

nlohmann::json schema_to_json(const FunctionSchema& schema) {
  json j;
  j["name"] = schema.name;
  j["overload_name"] = schema.overload_name;
  j["schema"] = schema.str();
  j["arguments"] = json::array();
  for (const auto& a : schema.arguments) j["arguments"].push_back(argument_json(a));
  j["returns"] = json::array();
  for (const auto& r : schema.returns) j["returns"].push_back(return_json(r));
  j["is_inplace"] = schema.is_inplace();
  j["is_out"] = schema.is_out();
  j["is_mutable"] = schema.is_mutable();
  j["kind"] = kind_name(schema.kind());
  j["is_vararg"] = schema.is_vararg;
  j["is_varret"] = schema.is_varret;
  return j;
}

}  // namespace ipt::schema
