// openapi_documents.hpp: the OpenAPI 3.1 documents, compiled into the binary
// from httpd/openapi/*.json at build time (see httpd/CMakeLists.txt).
#pragma once

#include <string>

namespace corebank::httpd {

const std::string& openapi_identity_document();
const std::string& openapi_core_document();
const std::string& openapi_verify_document();
const std::string& openapi_events_document();

}  // namespace corebank::httpd
