# Writes a C++ source that holds the text of files as data (run by the build as a script):
#   cmake -DOUT=embedded.cpp "-DFILES=shown/name=path;..." -P embed_sources.cmake
# Each file becomes one entry {shown name, text} of ipt::embedded::kSources
# (core/ops/generated_sources.h), its text a raw string literal.
set(_body "// Generated at build time by cmake/embed_sources.cmake. Do not edit.\n")
string(APPEND _body "#include \"core/ops/generated_sources.h\"\n\nnamespace ipt::embedded {\n")
string(APPEND _body "const EmbeddedSource kSources[] = {\n")
set(_count 0)
foreach(_entry IN LISTS FILES)
  string(FIND "${_entry}" "=" _eq)
  string(SUBSTRING "${_entry}" 0 ${_eq} _name)
  math(EXPR _from "${_eq} + 1")
  string(SUBSTRING "${_entry}" ${_from} -1 _path)
  file(READ "${_path}" _text)
  string(FIND "${_text}" ")ipt_src\"" _clash)
  if(NOT _clash EQUAL -1)
    message(FATAL_ERROR "${_path} holds the raw string delimiter )ipt_src\"")
  endif()
  string(APPEND _body "  {\"${_name}\", R\"ipt_src(${_text})ipt_src\"},\n")
  math(EXPR _count "${_count} + 1")
endforeach()
string(APPEND _body "};\nconst size_t kSourceCount = ${_count};\n}  // namespace ipt::embedded\n")
file(WRITE "${OUT}.tmp" "${_body}")
file(RENAME "${OUT}.tmp" "${OUT}")
