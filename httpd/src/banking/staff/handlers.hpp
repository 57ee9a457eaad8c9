// handlers.hpp: /v1/staff, staff roles and their permissions (issue 15).
#pragma once

#include "banking/handlers.hpp"

namespace corebank::httpd::core_banking {

// roles_handlers.cpp
HttpResponse staff_permissions_list(const Context&, const HttpRequest&, Db&);
HttpResponse staff_roles_list(const Context&, const HttpRequest&, Db&);
HttpResponse staff_role_create(const Context&, const HttpRequest&, Db&);
HttpResponse staff_role_update(const Context&, const HttpRequest&, Db&);

}  // namespace corebank::httpd::core_banking
