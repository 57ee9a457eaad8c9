// handlers.cpp: the response every core-banking handler ends with.
#include "banking/handlers.hpp"

namespace corebank::httpd::core_banking {

HttpResponse pass_through(const std::optional<std::string>& json_text, int status) {
    HttpResponse response;
    response.status = status;
    response.body = json_text.value_or("null");
    return response;
}

}  // namespace corebank::httpd::core_banking
