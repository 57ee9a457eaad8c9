// console.hpp: the approvals console (issue 15), served by the core tier at
// /console/ (docs/core-banking.md, The approvals console).
//
// The page is plain HTML, CSS and JavaScript compiled into the binary
// (page.cpp, script.cpp), no third-party asset, under a strict CSP. Its API,
// /console/api/..., is the approvals operations and nothing else: the tier
// attaches the console's API key (console_key_file) server-side and the
// staff token comes from the request, so no key reaches the browser and the
// database judges the staff member as on /v1/approvals.
#pragma once

#include <string>

#include "banking/context.hpp"
#include "http_types.hpp"
#include "router.hpp"

namespace corebank::httpd::console {

// The Content-Security-Policy of the page and its assets.
std::string content_security_policy();

// GET /console/ and its two assets (no credential, no data).
HttpResponse page_html(const HttpRequest&);
HttpResponse page_script(const HttpRequest&);
HttpResponse page_style(const HttpRequest&);

// Adds /console/, its assets and /console/api/* to the core router.
void add_routes(Router& router, const std::shared_ptr<const core_banking::Context>& context);

}  // namespace corebank::httpd::console
