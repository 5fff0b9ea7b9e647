# The layers of app/, enforced by the compiler. Sources include each other by paths from app/
# ("viewer/model/session.hpp", "io/png_writer.hpp"), but no target sees app/ itself: each layer
# gets a folder in the build tree, layers/<target>/, holding symlinks to its own source folder
# (or to single headers it offers below its folder's layer), and puts it on its PUBLIC include
# path. A target therefore sees its own layer and the layers it links, so a header of a layer
# above it is "No such file or directory". docs/ARCHITECTURE.md's table lists the layers.

# gvflab_layer_includes(<target> [FOLDERS <folder of app/>...] [FILES <header of app/>...])
function(gvflab_layer_includes target)
  cmake_parse_arguments(L "" "" "FOLDERS;FILES" ${ARGN})
  set(root ${PROJECT_BINARY_DIR}/layers/${target})
  foreach(path IN LISTS L_FOLDERS L_FILES)
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/app/${path})
      message(FATAL_ERROR "gvflab_layer_includes(${target}): app/${path} does not exist")
    endif()
    get_filename_component(parent ${root}/${path} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/app/${path} ${root}/${path} SYMBOLIC)
  endforeach()
  target_include_directories(${target} PUBLIC ${root})
endfunction()

# gvflab_layer_check(<name> <layer target> <header>): a CTest that compiles one file including
# <header> with only <layer target>'s view and passes only when the compiler cannot find it.
function(gvflab_layer_check name layer header)
  set(source ${PROJECT_BINARY_DIR}/layers/checks/${name}.cpp)
  file(WRITE ${source} "// Must not compile: ${layer} does not see ${header}.\n#include \"${header}\"\n")
  add_library(layer_check_${name} OBJECT EXCLUDE_FROM_ALL ${source})
  target_link_libraries(layer_check_${name} PRIVATE ${layer})
  add_test(NAME layers_${name}
           COMMAND ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR} --target layer_check_${name})
  string(REPLACE "." "\\." header_re "${header}")
  # One build at a time in the build tree.
  set_tests_properties(layers_${name} PROPERTIES LABELS unit TIMEOUT 600 RESOURCE_LOCK build_tree
    PASS_REGULAR_EXPRESSION "${header_re}: No such file or directory")
endfunction()
