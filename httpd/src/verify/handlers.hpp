// handlers.hpp: the verification service's route handlers (router.cpp lists
// the routes). Each runs on a worker with its own database connection.
#pragma once

#include "verify/context.hpp"

namespace corebank::httpd::verify {

using Handler = HttpResponse (*)(const Context&, const HttpRequest&, Db&);

// The caller's API (Bearer API key): session_handlers.cpp.
HttpResponse health(const Context&, const HttpRequest&, Db&);
HttpResponse session_create(const Context&, const HttpRequest&, Db&);
HttpResponse session_get(const Context&, const HttpRequest&, Db&);
HttpResponse session_cancel(const Context&, const HttpRequest&, Db&);
HttpResponse session_consent(const Context&, const HttpRequest&, Db&);
HttpResponse session_report(const Context&, const HttpRequest&, Db&);
HttpResponse sessions_search(const Context&, const HttpRequest&, Db&);

// Single checks on the caller's own images (Bearer API key): check_handlers.cpp.
HttpResponse check_liveness(const Context&, const HttpRequest&, Db&);
HttpResponse check_document(const Context&, const HttpRequest&, Db&);
HttpResponse check_facematch(const Context&, const HttpRequest&, Db&);
HttpResponse check_get(const Context&, const HttpRequest&, Db&);

// Webhook subscription management (Bearer API key, webhooks:manage):
// webhook_endpoint_handlers.cpp.
HttpResponse webhook_endpoints_list(const Context&, const HttpRequest&, Db&);
HttpResponse webhook_endpoint_create(const Context&, const HttpRequest&, Db&);
HttpResponse webhook_endpoint_get(const Context&, const HttpRequest&, Db&);
HttpResponse webhook_endpoint_rotate(const Context&, const HttpRequest&, Db&);
HttpResponse webhook_endpoint_disable(const Context&, const HttpRequest&, Db&);
HttpResponse webhook_endpoint_ping(const Context&, const HttpRequest&, Db&);
HttpResponse webhook_deliveries_list(const Context&, const HttpRequest&, Db&);
HttpResponse webhook_delivery_retry(const Context&, const HttpRequest&, Db&);

// The hosted page's API (Bearer client token): hosted_handlers.cpp.
HttpResponse hosted_state(const Context&, const HttpRequest&, Db&);
HttpResponse hosted_consent(const Context&, const HttpRequest&, Db&);
HttpResponse hosted_capture(const Context&, const HttpRequest&, Db&);
HttpResponse hosted_submit(const Context&, const HttpRequest&, Db&);

// The page itself (no credential, no data): hosted_page.cpp.
HttpResponse hosted_page_html(const HttpRequest&);
HttpResponse hosted_page_script(const HttpRequest&);
HttpResponse hosted_page_style(const HttpRequest&);

// The consent text the hosted page shows, and its version; the consent
// record keeps the version and the text's SHA-256.
const std::string& hosted_consent_text();
const char* hosted_consent_version();

}  // namespace corebank::httpd::verify
