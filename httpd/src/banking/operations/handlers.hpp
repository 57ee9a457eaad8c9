// operations/handlers.hpp: the end-of-day runner's endpoints
// (docs/operations.md): its jobs, and a run on demand. Routes:
// banking/router.cpp.
#pragma once

#include "banking/context.hpp"

namespace corebank::httpd::core_banking {

// jobs_handlers.cpp
HttpResponse jobs_list(const Context&, const HttpRequest&, Db&);
HttpResponse job_get(const Context&, const HttpRequest&, Db&);
HttpResponse jobs_run(const Context&, const HttpRequest&, Db&);

}  // namespace corebank::httpd::core_banking
