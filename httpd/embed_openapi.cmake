# Writes OUTPUT: a C++ file returning the JSON text of INPUT as a string.
file(READ ${INPUT} CONTENT)
string(FIND "${CONTENT}" ")OPENAPI\"" CLASH)
if(NOT CLASH EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter")
endif()
file(WRITE ${OUTPUT} "// Generated from ${INPUT}; do not edit.\n#include \"openapi_documents.hpp\"\n\nnamespace corebank::httpd {\n\nconst std::string& openapi_identity_document() {\n    static const std::string document = R\"OPENAPI(${CONTENT})OPENAPI\";\n    return document;\n}\n\n}  // namespace corebank::httpd\n")
