// identities_handlers.hpp: /v1/staff/identities, staff identities and their
// branch (issue 15, Staff Administration).
#pragma once

#include "banking/handlers.hpp"

namespace corebank::httpd::core_banking {

HttpResponse staff_identities_list(const Context&, const HttpRequest&, Db&);
HttpResponse staff_identity_create(const Context&, const HttpRequest&, Db&);
HttpResponse staff_identity_update(const Context&, const HttpRequest&, Db&);
HttpResponse staff_branch_get(const Context&, const HttpRequest&, Db&);
HttpResponse staff_branch_update(const Context&, const HttpRequest&, Db&);

}  // namespace corebank::httpd::core_banking
