#include "core/tensor/scalar_type.h"

#include "core/tensor/device.h"
#include "core/util/error.h"

namespace ipt {

const char* dtype_short_name(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "bool";
    case ScalarType::Byte: return "uint8";
    case ScalarType::Char: return "int8";
    case ScalarType::Short: return "int16";
    case ScalarType::Int: return "int32";
    case ScalarType::Long: return "int64";
    case ScalarType::Half: return "float16";
    case ScalarType::BFloat16: return "bfloat16";
    case ScalarType::Float: return "float32";
    case ScalarType::Double: return "float64";
  }
  return "?";
}

std::string dtype_repr(ScalarType t) { return std::string("torch.") + dtype_short_name(t); }

const char* dtype_cpp_name(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "Bool";
    case ScalarType::Byte: return "Byte";
    case ScalarType::Char: return "Char";
    case ScalarType::Short: return "Short";
    case ScalarType::Int: return "Int";
    case ScalarType::Long: return "Long";
    case ScalarType::Half: return "Half";
    case ScalarType::BFloat16: return "BFloat16";
    case ScalarType::Float: return "Float";
    case ScalarType::Double: return "Double";
  }
  return "?";
}

const char* dtype_element_name(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "bool";
    case ScalarType::Byte: return "unsigned char";
    case ScalarType::Char: return "signed char";
    case ScalarType::Short: return "short int";
    case ScalarType::Int: return "int";
    case ScalarType::Long: return "long int";
    case ScalarType::Half: return "c10::Half";
    case ScalarType::BFloat16: return "c10::BFloat16";
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
  }
  return "?";
}

std::string Device::str() const {
  switch (type) {
    case DeviceType::CPU: return "cpu";
    case DeviceType::Meta: return "meta";
    case DeviceType::CUDA: return index < 0 ? "cuda" : "cuda:" + std::to_string(index);
  }
  return "?";
}

Device Device::parse(std::string_view s) {
  if (s == "cpu") return Device(DeviceType::CPU);
  if (s == "meta") return Device(DeviceType::Meta);
  if (s == "cuda") return Device(DeviceType::CUDA, 0);
  if (s.substr(0, 5) == "cuda:" && s.size() > 5) {
    int idx = 0;
    for (char c : s.substr(5)) {
      if (c < '0' || c > '9') IPT_FAIL(RuntimeError, "Invalid device string: '", s, "'");
      idx = idx * 10 + (c - '0');
    }
    return Device(DeviceType::CUDA, idx);
  }
  IPT_FAIL(RuntimeError, "Expected one of cpu, cuda, meta device type at start of device string: ", s);
}

BackendComponent backend_of(DeviceType t) {
  switch (t) {
    case DeviceType::CPU: return BackendComponent::CPU;
    case DeviceType::CUDA: return BackendComponent::CUDA;
    case DeviceType::Meta: return BackendComponent::Meta;
  }
  return BackendComponent::CPU;
}

}  // namespace ipt
