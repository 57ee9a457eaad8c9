// router.cpp: every route of the verification service in one place
// (docs/verification.md, httpd/openapi/verify.json).
#include "verify/handlers.hpp"

namespace corebank::httpd::verify {

namespace {

Route worker(const char* method, const char* pattern, Handler handler, std::shared_ptr<const Context> context) {
    return worker_route(method, pattern, handler, std::move(context));
}

Route page(const char* pattern, HttpResponse (*content)(const HttpRequest&)) {
    return Route{"GET", pattern, RunOn::reactor, [content](const HttpRequest& request, Db*) { return content(request); }};
}

}  // namespace

Router make_router(std::shared_ptr<const Context> c) {
    Router r;
    // public
    r.add(worker("GET", "/health", health, c));
    r.add(openapi_route(c));
    // the caller's API: Authorization: Bearer <API key>
    r.add(worker("POST", "/v1/sessions", session_create, c));
    r.add(worker("POST", "/v1/sessions/search", sessions_search, c));
    r.add(worker("GET", "/v1/sessions/:session_id", session_get, c));
    r.add(worker("POST", "/v1/sessions/:session_id/cancel", session_cancel, c));
    r.add(worker("POST", "/v1/sessions/:session_id/consent", session_consent, c));
    r.add(worker("GET", "/v1/sessions/:session_id/report", session_report, c));
    // single checks on the caller's own images
    r.add(worker("POST", "/v1/checks/liveness", check_liveness, c));
    r.add(worker("POST", "/v1/checks/document", check_document, c));
    r.add(worker("POST", "/v1/checks/facematch", check_facematch, c));
    r.add(worker("GET", "/v1/checks/:check_id", check_get, c));
    // webhook subscription management: an API key with webhooks:manage
    r.add(worker("GET", "/v1/webhook-endpoints", webhook_endpoints_list, c));
    r.add(worker("POST", "/v1/webhook-endpoints", webhook_endpoint_create, c));
    r.add(worker("GET", "/v1/webhook-endpoints/:endpoint_id", webhook_endpoint_get, c));
    r.add(worker("POST", "/v1/webhook-endpoints/:endpoint_id/rotate-secret", webhook_endpoint_rotate, c));
    r.add(worker("POST", "/v1/webhook-endpoints/:endpoint_id/disable", webhook_endpoint_disable, c));
    r.add(worker("POST", "/v1/webhook-endpoints/:endpoint_id/ping", webhook_endpoint_ping, c));
    r.add(worker("GET", "/v1/webhook-endpoints/:endpoint_id/deliveries", webhook_deliveries_list, c));
    r.add(worker("POST", "/v1/webhook-endpoints/:endpoint_id/deliveries/:delivery_id/retry", webhook_delivery_retry, c));
    // the hosted page (no credential, no data) and its API (client token)
    r.add(page("/hosted/sessions/:session_id", hosted_page_html));
    r.add(page("/hosted/assets/app.js", hosted_page_script));
    r.add(page("/hosted/assets/app.css", hosted_page_style));
    r.add(worker("GET", "/v1/hosted/sessions/:session_id", hosted_state, c));
    r.add(worker("POST", "/v1/hosted/sessions/:session_id/consent", hosted_consent, c));
    r.add(worker("POST", "/v1/hosted/sessions/:session_id/captures/:kind", hosted_capture, c));
    r.add(worker("POST", "/v1/hosted/sessions/:session_id/submit", hosted_submit, c));
    return r;
}

}  // namespace corebank::httpd::verify
