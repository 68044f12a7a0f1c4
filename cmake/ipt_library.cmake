# ipt_add_library(<name> [OBJECT] [GENERATED] SOURCES <files...>
#                 [DEPENDS <targets...>] [PRIVATE_DEPENDS <targets...>])
#
# One library of the project (a static library, or an object library with OBJECT). There is no
# global include path: each target carries its own. Includes are written from the project root
# ("core/trace/events.h"), so every target exports the root; a GENERATED target also includes the
# operator code written into the build folder ("generated/ops.h") and is built after it.
# DEPENDS are the targets its headers use (linked PUBLIC, so their consumers get them too),
# PRIVATE_DEPENDS those only its sources use. The graph these dependencies may form, layer by
# layer, is written once in scripts/layers, which checks every include and these lists against it.
function(ipt_add_library name)
  cmake_parse_arguments(PARSE_ARGV 1 _ipt "OBJECT;GENERATED" "" "SOURCES;DEPENDS;PRIVATE_DEPENDS")
  if(_ipt_UNPARSED_ARGUMENTS OR NOT _ipt_SOURCES)
    message(FATAL_ERROR "ipt_add_library(${name}): needs SOURCES; unknown arguments: ${_ipt_UNPARSED_ARGUMENTS}")
  endif()
  if(_ipt_OBJECT)
    add_library(${name} OBJECT ${_ipt_SOURCES})
  else()
    add_library(${name} STATIC ${_ipt_SOURCES})
  endif()
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  if(_ipt_GENERATED)
    target_include_directories(${name} PUBLIC ${PROJECT_BINARY_DIR})
    add_dependencies(${name} ipt_generated)
  endif()
  if(_ipt_DEPENDS)
    target_link_libraries(${name} PUBLIC ${_ipt_DEPENDS})
  endif()
  if(_ipt_PRIVATE_DEPENDS)
    target_link_libraries(${name} PRIVATE ${_ipt_PRIVATE_DEPENDS})
  endif()
endfunction()
