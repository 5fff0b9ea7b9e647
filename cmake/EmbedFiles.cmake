# Embeds text files (kernels, shaders) into a generated C++ source as a
# name -> contents table, so the binaries need no data files at run time.
set(GVFLAB_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_script.cmake)

function(gvflab_embed_files out_cpp table_name)
  set(files ${ARGN})
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} -DTABLE=${table_name}
            "-DFILES=${files}" -P ${GVFLAB_EMBED_SCRIPT}
    DEPENDS ${files} ${GVFLAB_EMBED_SCRIPT}
    COMMENT "Embedding ${table_name}"
    VERBATIM)
endfunction()
