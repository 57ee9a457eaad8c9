// handlers.hpp: the event service's handlers (handlers.cpp) and the one
// place their errors become responses (router.cpp).
#pragma once

#include "db.hpp"
#include "events/context.hpp"
#include "events/responses.hpp"
#include "http_types.hpp"

namespace corebank::httpd::events {

using Handler = HttpResponse (*)(const Context&, const HttpRequest&, Db&);

HttpResponse ingest(const Context&, const HttpRequest&, Db&);
HttpResponse feed(const Context&, const HttpRequest&, Db&);
HttpResponse platforms(const Context&, const HttpRequest&, Db&);
HttpResponse customer_lookup(const Context&, const HttpRequest&, Db&);
HttpResponse customer_get(const Context&, const HttpRequest&, Db&);
HttpResponse customer_events(const Context&, const HttpRequest&, Db&);
HttpResponse customer_consents(const Context&, const HttpRequest&, Db&);
HttpResponse customer_traits(const Context&, const HttpRequest&, Db&);
HttpResponse customer_insights(const Context&, const HttpRequest&, Db&);
HttpResponse parity(const Context&, const HttpRequest&, Db&);
HttpResponse loyalty_get(const Context&, const HttpRequest&, Db&);
HttpResponse loyalty_map(const Context&, const HttpRequest&, Db&);
HttpResponse health(const Context&, const HttpRequest&, Db&);

// The business error for a database error the handlers did not expect
// (CBV00 -> 422 invalid_request, CB404 -> 404 not_found, retryable ->
// 503 service_unavailable); nullopt: an internal error.
std::optional<BusinessError> business_error_from_db(const DbError& error);

}  // namespace corebank::httpd::events
