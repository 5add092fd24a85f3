# Writes a C++ source defining `const std::string& <FUNCTION>()` (in NAMESPACE, default lodestone)
# that returns the text of INPUT.
# Usage: cmake -DINPUT=file -DOUTPUT=file.cpp -DFUNCTION=name -DHEADER=engine/scene/preset_io.hpp
#              [-DNAMESPACE=lodestone::render] -P embed_text.cmake
if(NOT NAMESPACE)
  set(NAMESPACE lodestone)
endif()
file(READ "${INPUT}" content)
string(FIND "${content}" ")ls_embed" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter used for embedding")
endif()
file(WRITE "${OUTPUT}.tmp"
  "// Generated at build time from ${INPUT}; edit that file instead.\n"
  "#include \"${HEADER}\"\n\n"
  "namespace ${NAMESPACE} {\n"
  "const std::string& ${FUNCTION}() {\n"
  "  static const std::string text = R\"ls_embed(${content})ls_embed\";\n"
  "  return text;\n"
  "}\n"
  "}  // namespace ${NAMESPACE}\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
