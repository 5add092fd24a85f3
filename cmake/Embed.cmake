# lodestone_embed_text(<out-var> INPUT <file> FUNCTION <name> HEADER <header> [NAMESPACE <ns>])
# Adds a build step that turns a text file into a C++ function returning its contents; appends
# the generated source to <out-var>.
function(lodestone_embed_text out_var)
  cmake_parse_arguments(ARG "" "INPUT;FUNCTION;HEADER;NAMESPACE" "" ${ARGN})
  if(NOT ARG_NAMESPACE)
    set(ARG_NAMESPACE lodestone)
  endif()
  set(output ${CMAKE_CURRENT_BINARY_DIR}/embedded_${ARG_FUNCTION}.cpp)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${ARG_INPUT} -DOUTPUT=${output} -DFUNCTION=${ARG_FUNCTION}
            -DHEADER=${ARG_HEADER} -DNAMESPACE=${ARG_NAMESPACE} -P ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake
    DEPENDS ${ARG_INPUT} ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake
    COMMENT "Embedding ${ARG_INPUT}")
  set(${out_var} ${${out_var}} ${output} PARENT_SCOPE)
endfunction()
