// router.cpp: every route of the event service in one place, and the one
// place handler errors become the documented bodies.
#include "events/handlers.hpp"
#include "log.hpp"

namespace corebank::httpd::events {

namespace {

HttpResponse run(Handler handler, const Context& context, const HttpRequest& request, Db& db) {
    try {
        return handler(context, request, db);
    } catch (const DetailError& error) {
        return render(error);
    } catch (const ValidationFailure& failure) {
        return render(failure);
    } catch (const BusinessError& error) {
        return render(error);
    } catch (const DbError& error) {
        if (const auto business = business_error_from_db(error)) return render(*business);
        throw;  // run_handler logs it and answers 500 internal_error
    }
}

Route worker(const char* method, const char* pattern, Handler handler, std::shared_ptr<const Context> context) {
    return Route{method, pattern, RunOn::worker, [handler, context](const HttpRequest& request, Db* db) {
                     return run(handler, *context, request, *db);
                 }};
}

}  // namespace

std::optional<BusinessError> business_error_from_db(const DbError& error) {
    const std::string& state = error.sqlstate;
    if (state == "CBV00") return BusinessError(422, "invalid_request", error.what());
    if (state == "CB404") return BusinessError(404, "not_found", error.what());
    if (state == "40001" || state == "40P01" || state == "55P03" || state == "57014") {
        log_info("database asked for a retry", {{"sqlstate", state}, {"error", error.what()}});
        BusinessError busy(503, "service_unavailable", "The request could not be completed now; retry it");
        busy.headers.emplace_back("Retry-After", "1");
        return busy;
    }
    if (state.rfind("22", 0) == 0) {
        log_info("database refused a value", {{"sqlstate", state}, {"error", error.what()}});
        return BusinessError(422, "invalid_request", "Invalid value in request");
    }
    return std::nullopt;
}

Router make_router(std::shared_ptr<const Context> c) {
    Router r;
    // public
    r.add(worker("GET", "/health", health, c));
    r.add(openapi_route(c));
    // ingest (scope ingest)
    r.add(worker("POST", "/v1/events", ingest, c));
    // reads (scope events:read)
    r.add(worker("GET", "/v1/feed", feed, c));
    r.add(worker("GET", "/v1/platforms", platforms, c));
    r.add(worker("GET", "/v1/customers/lookup", customer_lookup, c));
    r.add(worker("GET", "/v1/customers/:customerId", customer_get, c));
    r.add(worker("GET", "/v1/customers/:customerId/events", customer_events, c));
    r.add(worker("GET", "/v1/customers/:customerId/consents", customer_consents, c));
    r.add(worker("GET", "/v1/customers/:customerId/traits", customer_traits, c));
    r.add(worker("GET", "/v1/customers/:customerId/insights", customer_insights, c));
    r.add(worker("GET", "/v1/parity", parity, c));
    r.add(worker("GET", "/v1/loyalty/members/:memberId", loyalty_get, c));
    // loyalty mapping (scope ingest)
    r.add(worker("PUT", "/v1/loyalty/members/:memberId", loyalty_map, c));
    return r;
}

}  // namespace corebank::httpd::events
