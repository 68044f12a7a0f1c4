#pragma once
// The error a malformed schema raises. Its message names the 0-based column and what
// the parser expected there, then shows the text with a caret under that column:
//
//   schema error at column 16: expected ')' or ',' but found '-'
//     add(Tensor self -> Tensor
//                     ^

#include <cstddef>
#include <string>
#include <string_view>

#include "core/util/error.h"

namespace ipt::schema {

class SchemaParseError : public ipt::Error {
 public:
  // detail is the part after "column N: ", e.g. "expected ')' but found end of input".
  SchemaParseError(size_t column, std::string detail, std::string_view text);

  size_t column() const { return column_; }
  const std::string& detail() const { return detail_; }

 private:
  size_t column_;
  std::string detail_;
};

}  // namespace ipt::schema
